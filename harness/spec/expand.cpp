#include <algorithm>
#include "harness/spec/expand.hpp"

#include <map>
#include <regex>
#include <stdexcept>

#include "harness/spec/constraint.hpp"

namespace cuconform {

static bool is_integer(const std::string& s) {
  static const std::regex re("^-?[0-9]+$");
  return std::regex_match(s, re);
}

static std::string sanitize(const std::string& s) {
  std::string out;
  for (char ch : s) out += (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-') ? ch : '_';
  return out;
}

std::string case_name(const Rule& rule, const std::vector<std::pair<std::string, std::string>>& params) {
  std::string name = rule.id;
  for (auto& [k, v] : params) name += "." + (is_integer(v) ? sanitize(k) + v : sanitize(v));
  return name;
}

static std::vector<std::string> case_tags(const Rule& r) {
  std::vector<std::string> t = {r.area, to_string(r.kind), "cc" + r.min_cc.str()};
  if (!r.arch.empty()) t.push_back(r.arch);
  t.push_back(r.needs_gpu() ? "gpu" : "host-tool");
  if (r.planned) t.push_back("planned");
  t.push_back(to_string(r.tier));
  if (r.shadow) t.push_back("shadow");
  for (auto& x : r.tags) t.push_back(x);
  return t;
}

// "{name}" in an expectation value becomes the case's value of param `name`.
static Expectations substitute(const Expectations& e, const std::map<std::string, std::string>& values) {
  Expectations out = e;
  for (auto& [k, list] : out.values)
    for (auto& v : list)
      for (auto& [name, value] : values) {
        std::string key = "{" + name + "}";
        for (std::size_t pos; (pos = v.find(key)) != std::string::npos;) v.replace(pos, key.size(), value);
      }
  return out;
}

void expand_rule(const Rule& rule, std::vector<Case>& out, std::vector<SpecError>& errors) {
  if (rule.planned || rule.params.empty()) {
    Case c;
    c.rule = &rule;
    c.name = rule.id;
    c.tags = case_tags(rule);
    c.expect = rule.expect;
    if (!rule.planned) {  // as below: undefined behaviour records, in a process of its own
      c.records = rule.kind == Kind::undefined;
      c.isolated = c.records || rule.has_tag("faults");
      if (c.isolated) c.tags.push_back("isolated");
    }
    out.push_back(std::move(c));
    return;
  }
  std::vector<std::size_t> idx(rule.params.size(), 0);
  for (;;) {
    std::vector<std::pair<std::string, std::string>> combo;
    std::map<std::string, std::string> values;
    for (std::size_t i = 0; i < idx.size(); ++i) {
      combo.emplace_back(rule.params[i].name, rule.params[i].values[idx[i]]);
      values[rule.params[i].name] = rule.params[i].values[idx[i]];
    }
    bool keep = true;
    for (auto& ex : rule.exclude) {
      bool all = true;
      for (auto& [k, v] : ex) all = all && values.count(k) && values[k] == v;
      if (all) keep = false;
    }
    for (auto& w : rule.where) {
      if (!keep) break;
      try {
        keep = eval_constraint(w, values);
      } catch (const std::invalid_argument& e) {
        errors.push_back({rule.loc, "rule " + rule.id + ": " + e.what()});
        return;
      }
    }
    if (keep) {
      Case c;
      c.rule = &rule;
      c.params = combo;
      c.name = case_name(rule, combo);
      c.tags = case_tags(rule);
      c.expect = rule.expect;
      c.is_violation = values.count("variant") && values["variant"] == "violation";
      if (c.is_violation) {
        for (auto& [k, v] : rule.violation.values) c.expect.values[k] = v;
        c.isolated = rule.violation.has("fault");
      }
      // Undefined behaviour may fault, hang or corrupt the context: each case gets a process.
      c.records = rule.kind == Kind::undefined && (c.is_violation || !values.count("variant"));
      // A rule tagged `faults` (its cases fault on some GPU: a finding) runs like expected faults.
      c.isolated = c.isolated || c.records || rule.has_tag("faults");
      if (c.isolated) c.tags.push_back("isolated");
      c.expect = substitute(c.expect, values);
      out.push_back(std::move(c));
    }
    // next combination, last axis fastest
    std::size_t i = idx.size();
    while (i > 0) {
      --i;
      if (++idx[i] < rule.params[i].values.size()) break;
      idx[i] = 0;
      if (i == 0) return;
    }
    if (idx.empty()) return;
  }
}

}  // namespace cuconform
