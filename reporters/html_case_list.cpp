#include "reporters/html_case_list.hpp"

#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "harness/util/json_write.hpp"
#include "reporters/html_page.hpp"
#include "reporters/report_common.hpp"
#include "reporters/svg.hpp"  // verdict_color

namespace cuconform::html {

namespace {

// Strings stored once, referred to by position.
struct Table {
  std::vector<std::string> items;
  std::map<std::string, int> at;
  explicit Table(bool empty_first = false) {
    if (empty_first) get("");
  }
  int get(const std::string& s) {
    auto it = at.find(s);
    if (it != at.end()) return it->second;
    items.push_back(s);
    return at[s] = static_cast<int>(items.size()) - 1;
  }
};

// Enough digits for a person (the results file has them all): 6 significant, 3 for seconds.
double rounded(double v, int digits) {
  if (!std::isfinite(v)) return v;
  char b[32];
  std::snprintf(b, sizeof b, "%.*g", digits, v);
  return std::strtod(b, nullptr);
}

// 0: not in the known list (or not a failure), 1: a known failure, 2: a known flake.
int known_code(const KnownList* known, const CaseRow& c, const RunInfo& run, Verdict v) {
  if (!known || !(is_failure(v) || v == Verdict::flake)) return 0;
  if (known->flake(c, &run)) return 2;
  return known->failure(c, &run) ? 1 : 0;
}

// The data as JSON text safe inside <script>: no '<' at all (only strings can hold one).
std::string case_data(const Fleet& f, const KnownList* known) {
  const bool fleet = f.runs.size() != 1 || f.schema == kFleetSchema;
  Table rules, areas, texts(true), mnames;
  std::map<Verdict, int> vindex;
  Json verdicts = Json::array(), colors = Json::array(), abbr = Json::array();
  for (Verdict v : all_verdicts()) {
    vindex[v] = static_cast<int>(verdicts.size());
    verdicts.push_back(to_string(v));
    colors.push_back(verdict_color(to_string(v)));
    abbr.push_back(verdict_abbrev(to_string(v)));
  }
  Json cases = Json::array();
  for (auto& c : f.cases) {
    Json row = Json::array();
    const bool prefixed = !c.rule.empty() && c.name.rfind(c.rule + ".", 0) == 0;
    if (prefixed) {
      row.push_back(rules.get(c.rule));
      row.push_back(c.name.substr(c.rule.size() + 1));
    } else if (!c.rule.empty() && c.name == c.rule) {
      row.push_back(rules.get(c.rule));
      row.push_back("");
    } else {
      row.push_back(-1);
      row.push_back(c.name);
    }
    row.push_back(areas.get(c.area));
    Json v = Json::array(), r = Json::array(), k = Json::array();
    for (std::size_t i = 0; i < c.by_run.size(); ++i) {
      const auto& o = c.by_run[i];
      v.push_back(o ? vindex[o->verdict] : -1);
      r.push_back(o ? texts.get(o->reason) : 0);
      k.push_back(o ? known_code(known, c, f.runs[i], o->verdict) : 0);
    }
    if (fleet) {
      row.push_back(v), row.push_back(r), row.push_back(k), row.push_back(0), row.push_back(0);
    } else {
      const Outcome& o = *c.by_run[0];
      row.push_back(v[0]), row.push_back(r[0]), row.push_back(k[0]);
      row.push_back(rounded(o.duration_s, 3));
      Json m = Json::array();
      for (auto& [name, value] : o.measurements) {
        m.push_back(mnames.get(name));
        m.push_back(std::isfinite(value) ? Json(rounded(value, 6)) : Json(nullptr));
      }
      row.push_back(m.empty() ? Json(0) : m);
    }
    cases.push_back(std::move(row));
  }
  Json d = {{"verdicts", verdicts}, {"colors", colors}, {"abbr", abbr}, {"areas", areas.items}, {"rules", rules.items},
            {"texts", texts.items},  {"mnames", mnames.items}};
  if (fleet) {
    Json runs = Json::array(), cols = Json::array();
    for (std::size_t i = 0; i < f.runs.size(); ++i) runs.push_back(f.runs[i].label), cols.push_back("D" + std::to_string(i + 1));
    d["runs"] = runs;
    d["cols"] = cols;
  }
  d["cases"] = std::move(cases);
  std::string text = json_text(d, false), out;
  out.reserve(text.size());
  for (char ch : text) out += ch == '<' ? std::string("\\u003c") : std::string(1, ch);
  return out;
}

}  // namespace

std::string case_list_section(const Fleet& f, const KnownList* known) {
  const bool fleet = f.runs.size() != 1 || f.schema == kFleetSchema;
  std::map<std::string, int> counts;
  for (std::size_t i = 0; i < f.runs.size(); ++i)
    for (auto& [v, n] : f.counts(i)) counts[v] += n;
  std::ostringstream o;
  o << "<section id=\"cases\"><h2>Cases</h2><p class=\"note\">Every case" << (fleet ? " on every device" : "")
    << ": search names and reasons, pick an area, verdicts" << (fleet ? ", a device" : "")
    << (known ? ", new or known failures" : "") << ". The address keeps the filters (a link to them can be shared)."
    << (fleet ? "" : " A case's measurements open from its row; the results file has every field.") << "</p>";
  o << "<noscript><p class=\"bad\">The case list needs JavaScript (it is in this page; nothing is fetched).</p></noscript>";
  o << "<div class=\"filters\"><input type=\"search\" id=\"cq\" placeholder=\"search cases and reasons\" aria-label=\"search cases\">";
  o << "<select id=\"ca\" aria-label=\"area\"><option value=\"\">all areas</option>";
  for (auto& a : areas_of(f)) o << "<option value=\"" << esc(a) << "\">" << esc(a) << "</option>";
  o << "</select>";
  if (fleet) {
    o << "<select id=\"cd\" aria-label=\"device\"><option value=\"0\">any device</option>";
    for (std::size_t i = 0; i < f.runs.size(); ++i)
      o << "<option value=\"" << i + 1 << "\">D" << i + 1 << " " << esc(f.runs[i].label) << "</option>";
    o << "</select><label class=\"chip\"><input type=\"checkbox\" id=\"cdf\"> differs between devices</label>";
  }
  if (known)
    o << "<select id=\"ck\" aria-label=\"known list\"><option value=\"\">known or not</option><option value=\"new\">new failures "
         "(not in the known list)</option><option value=\"known\">known failures and flakes</option></select>";
  o << "</div><div class=\"filters chips\" id=\"cv\">";
  for (Verdict v : all_verdicts()) {
    const std::string name = to_string(v);
    o << "<label class=\"chip\"><input type=\"checkbox\" value=\"" << name << "\" checked>" << badge(name) << " " << counts[name] << "</label>";
  }
  o << "<button type=\"button\" data-set=\"\">all</button><button type=\"button\" data-set=\"fail,timeout,crash\">failures</button>"
       "</div><div class=\"note\" id=\"cn\"></div><table class=\"cl\" id=\"ct\"><colgroup><col>";
  if (fleet) {
    for (std::size_t i = 0; i < f.runs.size(); ++i) o << "<col style=\"width:" << (f.runs.size() > 4 ? 40 : 56) << "px\">";
    o << "<col style=\"width:28%\"></colgroup><thead><tr><th>case</th>";
    for (std::size_t i = 0; i < f.runs.size(); ++i)
      o << "<th class=\"d\" title=\"" << esc(f.runs[i].label) << "\">D" << i + 1 << "</th>";
    o << "<th>reason</th></tr></thead>";
  } else {
    o << "<col style=\"width:118px\"><col style=\"width:64px\"><col style=\"width:30%\"></colgroup><thead><tr><th>case</th><th>verdict</th>"
         "<th>s</th><th>reason</th></tr></thead>";
  }
  o << "<tbody></tbody></table><button type=\"button\" class=\"more\" id=\"cm\" hidden></button>";
  o << "<script type=\"application/json\" id=\"case-data\">" << case_data(f, known) << "</script></section>";
  return o.str();
}

}  // namespace cuconform::html
