#include "reporters/html_page.hpp"

#include <cctype>
#include <cstdio>
#include <sstream>

#include "reporters/junit_xml.hpp"  // xml_escape
#include "reporters/results_file.hpp"  // all_verdicts
#include "reporters/svg.hpp"           // verdict_color

namespace cuconform::html {

std::string esc(const std::string& s) { return xml_escape(s); }

std::string badge(const std::string& verdict) {
  return "<span class=\"badge v-" + esc(verdict) + "\">" + esc(verdict) + "</span>";
}

std::string name_html(const std::string& name) {
  std::string out;
  for (char c : esc(name)) out += c == '.' ? std::string(".<wbr>") : std::string(1, c);  // escaping adds no '.'
  return out;
}

std::string tint(const std::string& hex, double alpha) {
  int r = 0, g = 0, b = 0;
  std::sscanf(hex.c_str(), "#%02x%02x%02x", &r, &g, &b);
  char buf[64];
  std::snprintf(buf, sizeof buf, "rgba(%d,%d,%d,%.2f)", r, g, b, alpha);
  return buf;
}

std::vector<std::tuple<std::string, int, std::string>> verdict_parts(const std::map<std::string, int>& counts) {
  std::vector<std::tuple<std::string, int, std::string>> parts;
  for (Verdict v : all_verdicts()) {
    auto it = counts.find(to_string(v));
    parts.emplace_back(to_string(v), it == counts.end() ? 0 : it->second, verdict_color(to_string(v)));
  }
  return parts;
}

std::string query_value(const std::string& value) {
  std::string out;
  for (unsigned char c : value) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' || c == ',') {
      out += static_cast<char>(c);
    } else {
      char b[4];
      std::snprintf(b, sizeof b, "%%%02X", c);
      out += b;
    }
  }
  return out;
}

std::string cases_href(const std::string& query) { return "#cases" + (query.empty() ? "" : "?" + query); }

std::string page_start(const std::string& title, const std::string& subtitle, const std::vector<NavItem>& nav) {
  std::ostringstream o;
  o << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
    << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>" << esc(title) << "</title><style>"
    << page_css() << "</style></head><body><header><h1>" << esc(title) << "</h1><div class=\"sub\">" << esc(subtitle)
    << "</div></header>";
  if (!nav.empty()) {
    o << "<nav class=\"toc\" aria-label=\"contents\">";
    for (auto& n : nav)
      o << "<a href=\"#" << esc(n.id) << "\">" << esc(n.label) << (n.count.empty() ? "" : " <span class=\"cnt\">" + esc(n.count) + "</span>")
        << "</a>";
    o << "</nav>";
  }
  o << "<main>";
  return o.str();
}

std::string page_end(const std::string& footer) {
  return "<footer class=\"note\">" + footer + "</footer></main><script>" + page_script() + "</script></body></html>\n";
}

}  // namespace cuconform::html
