#include "reporters/compare.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include "harness/util/json.hpp"

namespace cuconform {

const char* to_string(Change c) {
  switch (c) {
    case Change::new_failure: return "new failure";
    case Change::coverage_lost: return "coverage lost";
    case Change::measurement_moved: return "measurement moved";
    case Change::known_failure: return "known failure";
    case Change::known_flake: return "known flake";
    case Change::flaky: return "flaky";
    case Change::unexpected_pass: return "unexpected pass";
    case Change::still_failing: return "still failing";
    case Change::fixed: return "fixed";
    case Change::verdict_changed: return "verdict changed";
    case Change::added: return "added";
    case Change::removed: return "removed";
  }
  return "?";
}

bool is_regression(Change c) {
  return c == Change::new_failure || c == Change::coverage_lost || c == Change::measurement_moved;
}

int CompareResult::count(Change c) const {
  return static_cast<int>(std::count_if(items.begin(), items.end(), [&](const CompareItem& i) { return i.kind == c; }));
}

int CompareResult::regressions() const {
  return static_cast<int>(std::count_if(items.begin(), items.end(), [](const CompareItem& i) { return is_regression(i.kind); }));
}

namespace {

bool ran(Verdict v) { return v == Verdict::pass || v == Verdict::flake || is_failure(v); }

std::string known_note(const KnownEntry* e) {
  std::string s = e->reason;
  if (!e->issue.empty()) s += " (" + e->issue + ")";
  return s + " [" + e->where + "]";
}

CompareItem item(Change k, const std::string& name, const Outcome* b, const Outcome* n) {
  CompareItem i{k, name, b ? to_string(b->verdict) : "", n ? to_string(n->verdict) : ""};
  const Outcome* src = n ? n : b;
  i.reason = src->reason;
  i.expected = src->expected;
  i.observed = src->observed;
  return i;
}

void compare_measurements(const std::string& name, const Outcome& b, const Outcome& n, const Tolerances& tol,
                          std::vector<CompareItem>* out) {
  for (auto& [m, nv] : n.measurements) {
    auto it = std::find_if(b.measurements.begin(), b.measurements.end(), [&](auto& p) { return p.first == m; });
    if (it == b.measurements.end()) continue;
    double bv = it->second, t = tol.of(name, m);
    if (t < 0 || (std::isnan(bv) && std::isnan(nv))) continue;
    double diff = std::fabs(nv - bv);
    bool moved = std::isnan(bv) != std::isnan(nv) || (diff > 1e-12 && diff / std::max(std::fabs(bv), 1e-12) > t);
    if (!moved) continue;
    CompareItem i = item(Change::measurement_moved, name, &b, &n);
    i.measurement = m;
    i.base_value = bv;
    i.new_value = nv;
    i.tolerance = t;
    out->push_back(i);
  }
}

}  // namespace

CompareResult compare_runs(const Fleet& base, const Fleet& now, const KnownList* known, const Tolerances& tol_in) {
  CompareResult r;
  r.base_file = base.runs.at(0).file;
  r.new_file = now.runs.at(0).file;
  const RunInfo& brun = base.runs[0];
  const RunInfo& nrun = now.runs[0];
  r.base_device = brun.device_line();
  r.new_device = nrun.device_line();
  if (brun.dev("name") != nrun.dev("name") || brun.dev("cc") != nrun.dev("cc"))
    r.warnings.push_back("the runs used different devices: BASE " + r.base_device + "; NEW " + r.new_device);
  if (!nrun.available()) r.warnings.push_back("NEW had no GPU: every case that needs one is not-supported there");

  // Overrides: the command line first, then the known file, then the built-in rule that
  // litmus outcome counts (outcome_*) are a random histogram, never compared by value.
  Tolerances tol = tol_in;
  if (known)
    for (auto& t : known->tolerances) tol.overrides.push_back(t);
  tol.overrides.emplace_back("outcome_*", -1);

  std::set<const KnownEntry*> used;
  auto classify = [&](const CaseRow& row, const Outcome* b, const Outcome* n) {
    const KnownEntry* fl = known ? known->flake(row, &nrun) : nullptr;
    const KnownEntry* kf = known ? known->failure(row, &nrun) : nullptr;
    if (fl) used.insert(fl);
    if (kf) used.insert(kf);
    auto add = [&](Change k, const KnownEntry* why = nullptr) {
      CompareItem i = item(k, row.name, b, n);
      if (why) i.note = known_note(why);
      r.items.push_back(i);
    };
    if (!n) return add(Change::removed);
    Verdict nv = n->verdict;
    if (!b) {
      add(Change::added);
      if (nv == Verdict::flake) add(fl ? Change::known_flake : Change::flaky, fl);
      else if (is_failure(nv)) add(fl ? Change::known_flake : kf ? Change::known_failure : Change::new_failure, fl ? fl : kf);
      else if (kf && nv == Verdict::pass) add(Change::unexpected_pass, kf);
      return;
    }
    Verdict bv = b->verdict;
    if (nv == Verdict::flake) {  // passed only on a re-run: reported, never gating, never "fixed"
      add(fl ? Change::known_flake : Change::flaky, fl);
    } else if (is_failure(nv)) {
      if (fl) add(Change::known_flake, fl);
      else if (kf) add(Change::known_failure, kf);
      else if (is_failure(bv)) add(Change::still_failing);
      else add(Change::new_failure);
    } else if (nv == Verdict::pass) {
      if (kf) add(Change::unexpected_pass, kf);
      else if (is_failure(bv)) add(fl ? Change::known_flake : Change::fixed, fl);
      else if (bv != nv) add(Change::verdict_changed);
      if (bv == Verdict::pass && !fl) compare_measurements(row.name, *b, *n, tol, &r.items);
    } else if (nv == Verdict::not_supported && ran(bv)) {
      add(fl ? Change::known_flake : Change::coverage_lost, fl);
    } else if (bv != nv) {
      add(Change::verdict_changed);
    }
  };
  for (auto& row : now.cases) {
    const CaseRow* brow = base.find(row.name);
    const Outcome* b = brow && brow->by_run[0] ? &*brow->by_run[0] : nullptr;
    if (row.by_run[0]) classify(row, b, &*row.by_run[0]);
  }
  for (auto& row : base.cases) {
    const CaseRow* nrow = now.find(row.name);
    if ((!nrow || !nrow->by_run[0]) && row.by_run[0]) classify(row, &*row.by_run[0], nullptr);
  }
  if (known)
    for (auto* list : {&known->failures, &known->flakes})
      for (auto& e : *list)
        if (!used.count(&e))
          r.warnings.push_back("known entry " + e.what() + " (" + e.where + ") matches no case of NEW: stale?");
  return r;
}

namespace {

std::string pct(double b, double n) {
  if (std::isnan(b) || std::isnan(n) || b == 0) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", (n - b) / std::fabs(b) * 100);
  return buf;
}

std::string verdicts(const CompareItem& i) {
  if (i.base_verdict.empty()) return "(new) -> " + i.new_verdict;
  if (i.new_verdict.empty()) return i.base_verdict + " -> (gone)";
  return i.base_verdict + " -> " + i.new_verdict;
}

// The order and headings of both renderings: regressions first, then what is known, then news.
struct Group {
  const char* title;
  std::vector<Change> kinds;
};
const std::vector<Group>& groups() {
  static const std::vector<Group> g = {
      {"REGRESSIONS", {Change::new_failure, Change::coverage_lost, Change::measurement_moved}},
      {"UNEXPECTED PASSES of known failures (update the known list?)", {Change::unexpected_pass}},
      {"FIXED", {Change::fixed}},
      {"KNOWN (not gating)", {Change::known_failure, Change::known_flake}},
      {"FLAKY: passed only on a re-run (add to known_flakes if it recurs)", {Change::flaky}},
      {"STILL FAILING (failed in BASE too; not in the known list)", {Change::still_failing}},
      {"OTHER VERDICT CHANGES", {Change::verdict_changed}},
      {"CASES ADDED / REMOVED", {Change::added, Change::removed}},
  };
  return g;
}

std::string summary_line(const CompareResult& r) {
  std::ostringstream s;
  s << r.regressions() << " regression(s): " << r.count(Change::new_failure) << " new failure(s), "
    << r.count(Change::coverage_lost) << " coverage lost, " << r.count(Change::measurement_moved)
    << " measurement(s) moved; " << r.count(Change::fixed) << " fixed, " << r.count(Change::unexpected_pass)
    << " unexpected pass(es), " << r.count(Change::known_failure) << " known failure(s), "
    << r.count(Change::known_flake) << " known flake(s), " << r.count(Change::flaky) << " flaky, "
    << r.count(Change::still_failing) << " still failing, "
    << r.count(Change::added) << " added, " << r.count(Change::removed) << " removed";
  return s.str();
}

}  // namespace

std::string compare_text(const CompareResult& r) {
  std::ostringstream o;
  o << "BASE " << r.base_file << ": " << r.base_device << "\n";
  o << "NEW  " << r.new_file << ": " << r.new_device << "\n";
  for (auto& w : r.warnings) o << "warning: " << w << "\n";
  for (auto& g : groups()) {
    std::vector<const CompareItem*> its;
    for (auto& i : r.items)
      if (std::find(g.kinds.begin(), g.kinds.end(), i.kind) != g.kinds.end()) its.push_back(&i);
    if (its.empty()) continue;
    o << "\n" << g.title << " (" << its.size() << ")\n";
    for (auto* i : its) {
      o << "  " << to_string(i->kind) << ": " << i->name;
      if (i->kind == Change::measurement_moved) {
        o << "  " << i->measurement << " " << json_number(i->base_value) << " -> " << json_number(i->new_value) << " ("
          << pct(i->base_value, i->new_value) << ", tolerance " << json_number(i->tolerance * 100) << "%)\n";
        continue;
      }
      o << "  [" << verdicts(*i) << "]";
      if (!i->reason.empty() && i->kind != Change::added && i->kind != Change::removed) o << "  -- " << i->reason;
      o << "\n";
      if (i->kind == Change::new_failure || i->kind == Change::still_failing) {
        if (!i->expected.empty()) o << "      expected: " << i->expected << "\n";
        if (!i->observed.empty()) o << "      observed: " << i->observed << "\n";
      }
      if (!i->note.empty()) o << "      known: " << i->note << "\n";
    }
  }
  o << "\n" << summary_line(r) << "\n";
  o << (r.regressions() ? "RESULT: REGRESSION (exit 1)\n" : "RESULT: no regression (exit 0)\n");
  return o.str();
}

std::string compare_markdown(const CompareResult& r) {
  auto cell = [](std::string s) {
    for (auto& c : s)
      if (c == '\n' || c == '|') c = ' ';
    return s.size() > 200 ? s.substr(0, 200) + "..." : s;
  };
  std::ostringstream o;
  o << "## cuconform compare: " << (r.regressions() ? "REGRESSION" : "no regression") << "\n\n";
  o << "- BASE `" << r.base_file << "`: " << r.base_device << "\n";
  o << "- NEW `" << r.new_file << "`: " << r.new_device << "\n";
  for (auto& w : r.warnings) o << "- **warning:** " << cell(w) << "\n";
  o << "\n" << summary_line(r) << "\n";
  for (auto& g : groups()) {
    std::vector<const CompareItem*> its;
    for (auto& i : r.items)
      if (std::find(g.kinds.begin(), g.kinds.end(), i.kind) != g.kinds.end()) its.push_back(&i);
    if (its.empty()) continue;
    o << "\n### " << g.title << " (" << its.size() << ")\n\n| change | case | verdicts / values | reason |\n|---|---|---|---|\n";
    for (auto* i : its) {
      std::string what = i->kind == Change::measurement_moved
                             ? i->measurement + ": " + json_number(i->base_value) + " → " + json_number(i->new_value) + " (" + pct(i->base_value, i->new_value) + ")"
                             : verdicts(*i);
      std::string why = i->note.empty() ? i->reason : "known: " + i->note;
      o << "| " << to_string(i->kind) << " | `" << i->name << "` | " << cell(what) << " | " << cell(why) << " |\n";
    }
  }
  return o.str();
}

}  // namespace cuconform
