#pragma once
// The frame the report pages share: the page head (inline CSS), the contents bar, the closing
// script (plain JavaScript in the page: nothing fetched, no other file), and the small helpers
// every part uses. Internal to reporters/ (namespace html).
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace cuconform::html {

std::string esc(const std::string& s);
std::string badge(const std::string& verdict);
// A case or rule name, escaped, with a line-break opportunity after each '.': a long name wraps
// between its parts instead of widening its column.
std::string name_html(const std::string& name);
// A verdict colour at `alpha` as rgba(), for matrix cells whose shade follows a count.
std::string tint(const std::string& hex, double alpha);
// (verdict, count, colour) of every verdict, for svg_stacked.
std::vector<std::tuple<std::string, int, std::string>> verdict_parts(const std::map<std::string, int>& counts);

// A link into the case list with its filters set: `query` is "area=ldgsts&verdict=fail" (the
// page's script reads it from the address: #cases?area=ldgsts&verdict=fail).
std::string cases_href(const std::string& query);
// "area=" + the value, percent-encoded as a URL query wants it.
std::string query_value(const std::string& value);

struct NavItem {
  std::string id, label, count;  // count: shown after the label ("104"), may be empty
};

// The page up to <main>: doctype, CSS, header, and the contents bar (omitted when `nav` is
// empty). Sections that `nav` does not list (the coverage, the history) get an entry from the
// page's script.
std::string page_start(const std::string& title, const std::string& subtitle, const std::vector<NavItem>& nav);
// The footer, the page's script, and the closing tags.
std::string page_end(const std::string& footer);

// The CSS and the script (html_assets.cpp).
const char* page_css();
const char* page_script();

}  // namespace cuconform::html
