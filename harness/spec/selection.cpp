#include "harness/spec/selection.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <set>

namespace cuconform {

std::vector<std::string> Selection::describe() const {
  std::vector<std::string> d;
  for (auto& a : areas) d.push_back("--area " + a);
  for (auto& r : rules) d.push_back("--rule " + r);
  for (auto& t : tags) d.push_back("--tag " + t);
  for (auto& k : kinds) d.push_back("--kind " + k);
  for (auto& t : tiers) d.push_back("--tier " + t);
  if (profile != "full") d.push_back("--profile " + profile);
  return d;
}

static bool any_of(const std::vector<std::string>& wanted, auto pred) {
  return wanted.empty() || std::any_of(wanted.begin(), wanted.end(), pred);
}

bool case_matches_glob(const Case& c, const std::string& glob) {
  return fnmatch(glob.c_str(), c.rule->id.c_str(), 0) == 0 || fnmatch(glob.c_str(), c.name.c_str(), 0) == 0;
}

// nvcc compile facts take seconds each.
static bool smoke_skips_rule(const Rule& r) { return r.needs(Requirement::nvcc); }

// Recorded undefined behaviour never gates, and each case costs a process of its own.
static bool smoke_skips_case(const Case& c) { return c.records; }

std::string smoke_left_out(const Catalog& cat, const Selection& sel) {
  if (sel.profile != "smoke") return "";
  Selection full = sel;
  full.profile = "full";
  std::vector<const Case*> all, smoke;
  std::string ignored;
  if (!select_cases(cat, full, &all, &ignored) || !select_cases(cat, sel, &smoke, &ignored)) return "";
  std::set<std::string> nvcc_rules;
  int records = 0;
  for (const Case* c : all) {
    if (smoke_skips_rule(*c->rule)) nvcc_rules.insert(c->rule->id);
    else if (smoke_skips_case(*c)) ++records;
  }
  return "smoke: " + std::to_string(smoke.size()) + " of " + std::to_string(all.size()) +
         " selected cases (the first case of each rule and variant); left out: the other parameter values, " +
         std::to_string(nvcc_rules.size()) + " rules that compile with nvcc (compile-time facts, seconds each) and " +
         std::to_string(records) + " undefined-behaviour records (never judged; a process each); their controls stay. Run without --profile smoke for them";
}

bool select_cases(const Catalog& cat, const Selection& sel, std::vector<const Case*>* out, std::string* error) {
  for (auto& a : sel.areas) {
    bool known = std::any_of(cat.areas.begin(), cat.areas.end(), [&](const Area& x) { return x.id == a; });
    if (!known) {
      std::string list;
      for (auto& x : cat.areas) list += (list.empty() ? "" : ", ") + x.id;
      *error = "unknown area '" + a + "' (areas: " + list + ")";
      return false;
    }
  }
  for (auto& k : sel.kinds) {
    Kind kind;
    if (!parse_kind(k, &kind)) {
      *error = "unknown kind '" + k + "' (positive, negative, performance, codegen, undefined)";
      return false;
    }
  }
  for (auto& t : sel.tiers) {
    Tier tier;
    if (!parse_tier(t, &tier)) {
      *error = "unknown tier '" + t + "' (core, extended, informational)";
      return false;
    }
  }
  if (sel.profile != "full" && sel.profile != "smoke") {
    *error = "unknown profile '" + sel.profile + "' (full, smoke)";
    return false;
  }
  out->clear();
  std::set<std::string> smoke_seen;  // rule id + variant already represented
  for (const Case& c : cat.cases) {
    const Rule& r = *c.rule;
    bool ok = any_of(sel.areas, [&](auto& a) { return r.area == a; }) &&
              any_of(sel.kinds, [&](auto& k) { return k == to_string(r.kind); }) &&
              any_of(sel.tiers, [&](auto& t) { return t == to_string(r.tier); }) &&
              any_of(sel.rules, [&](auto& g) {
                return case_matches_glob(c, g);
              }) &&
              any_of(sel.tags, [&](auto& t) { return std::find(c.tags.begin(), c.tags.end(), t) != c.tags.end(); });
    if (ok && sel.profile == "smoke") {
      const std::string variant = c.has_param("variant") ? c.param("variant") : "";
      ok = !smoke_skips_rule(r) && !smoke_skips_case(c) && smoke_seen.insert(r.id + "\n" + variant).second;
    }
    if (ok) out->push_back(&c);
  }
  if (out->empty()) {
    std::string d;
    for (auto& x : sel.describe()) d += (d.empty() ? "" : " ") + x;
    *error = "the filters select no case" + (d.empty() ? std::string(" (the catalog is empty)") : ": " + d);
    return false;
  }
  return true;
}

}  // namespace cuconform
