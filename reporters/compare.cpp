#include "reporters/compare.hpp"

#include <algorithm>
#include <filesystem>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>

#include "harness/util/number_text.hpp"
#include "reporters/results_json.hpp"
#include "reporters/svg.hpp"  // short_number

namespace cuconform {

const char* to_string(Change c) {
  switch (c) {
    case Change::new_failure: return "new failure";
    case Change::consumer_break: return "compatibility break";
    case Change::coverage_lost: return "coverage lost";
    case Change::not_judged: return "not judged";
    case Change::measurement_moved: return "measurement moved";
    case Change::measurement_other_device: return "measurement differs (other GPU model)";
    case Change::known_failure: return "known failure";
    case Change::known_flake: return "known flake";
    case Change::flaky: return "flaky";
    case Change::unexpected_pass: return "unexpected pass";
    case Change::still_failing: return "still failing";
    case Change::fixed: return "fixed";
    case Change::behaviour_changed: return "behaviour changed";
    case Change::toolchain_changed: return "toolchain observation changed";
    case Change::verdict_changed: return "verdict changed";
    case Change::added: return "added";
    case Change::removed: return "removed";
    case Change::redefined: return "redefined";
    case Change::shadow: return "shadow";
    case Change::outside_gate: return "outside the gate";
    case Change::waiver_expired: return "waiver expired";
  }
  return "?";
}

bool is_regression(Change c) {
  return c == Change::new_failure || c == Change::consumer_break || c == Change::coverage_lost || c == Change::not_judged || c == Change::measurement_moved || c == Change::waiver_expired;
}

int CompareResult::count(Change c) const {
  return static_cast<int>(std::count_if(items.begin(), items.end(), [&](const CompareItem& i) { return i.kind == c; }));
}

int CompareResult::regressions() const {
  return static_cast<int>(std::count_if(items.begin(), items.end(), [](const CompareItem& i) { return is_regression(i.kind); })) +
         (gate_time && wall_slower ? 1 : 0) + static_cast<int>(run_not_judged.size());
}

CompareItem compare_item(Change k, const std::string& name, const Outcome* b, const Outcome* n) {
  CompareItem i{k, name, b ? to_string(b->verdict) : "", n ? to_string(n->verdict) : ""};
  if (const Outcome* src = n ? n : b) {
    i.reason = src->reason;
    i.expected = src->expected;
    i.observed = src->observed;
  }
  if (b && n) {
    i.base_reason = b->reason;
    i.base_observed = b->observed;
  }
  return i;
}

namespace {

bool ran(Verdict v) { return v == Verdict::pass || v == Verdict::flake || v == Verdict::recorded || is_failure(v); }

// A case whose verdict the baseline judged, so that NEW must judge it again: it passed, failed or
// was a flake (a recorded outcome and a toolchain observation never gate).
bool judged(const CaseRow& row, Verdict v) { return ran(v) && v != Verdict::recorded && row.basis != "toolchain"; }


std::string known_note(const KnownEntry* e) {
  std::string s = e->reason;
  if (!e->issue.empty()) s += " (" + e->issue + ")";
  s += " [" + e->where + "]";
  for (const Passage& p : e->passages) s += "\n        §" + p.section + ": \"" + p.quote + "\"";
  return s;
}

void compare_measurements(const std::string& name, const Outcome& b, const Outcome& n, const Tolerances& tol,
                          bool other_device, const MeasurementJudge* judge, std::vector<CompareItem>* out) {
  for (auto& [m, nv] : n.measurements) {
    auto it = std::find_if(b.measurements.begin(), b.measurements.end(), [&](auto& p) { return p.first == m; });
    if (it == b.measurements.end()) continue;
    const ToleranceRule* rule = tol.rule_for(name, m);
    double bv = it->second, t = rule ? rule->tolerance : tol.fallback;
    if (t < 0 || (std::isnan(bv) && std::isnan(nv))) continue;
    // History of NEW's own configuration, where there is enough of it, decides instead of BASE.
    std::optional<MeasurementJudgement> j = judge ? judge->judge(name, m, nv) : std::nullopt;
    double diff = std::fabs(nv - bv);
    bool moved = j ? j->moved : std::isnan(bv) != std::isnan(nv) || (diff > 1e-12 && diff / std::max(std::fabs(bv), 1e-12) > t);
    if (!moved) continue;
    // Another GPU model has other memory and clocks: its numbers are shown, not judged.
    CompareItem i = compare_item(other_device && !j ? Change::measurement_other_device : Change::measurement_moved, name, &b, &n);
    i.measurement = m;
    i.base_value = bv;
    i.new_value = nv;
    i.tolerance = j ? j->tolerance : t;
    if (rule && !j) i.tolerance_class = rule->cls;
    if (j) i.judged_by = j->how;
    out->push_back(i);
  }
}

}  // namespace

std::string outcome_category(const std::string& outcome) {
  if (outcome.rfind("timeout", 0) == 0) return "timeout";
  return outcome;
}

CompareResult compare_runs(const Fleet& base, const Fleet& now, const KnownList* known, const Tolerances& tol_in,
                           const MeasurementJudge* judge) {
  CompareResult r;
  r.base_file = base.runs.at(0).file;
  r.new_file = now.runs.at(0).file;
  const RunInfo& brun = base.runs[0];
  const RunInfo& nrun = now.runs[0];
  r.base_device = brun.device_line();
  r.new_device = nrun.device_line();
  r.base_toolchain = brun.toolchain_line();
  r.new_toolchain = nrun.toolchain_line();
  r.other_device = brun.dev("name") != nrun.dev("name") || brun.dev("cc") != nrun.dev("cc");
  r.other_toolchain = brun.get(brun.run, "toolchain.codegen") != nrun.get(nrun.run, "toolchain.codegen") ||
                      (r.base_toolchain != r.new_toolchain && nrun.get(nrun.run, "toolchain.codegen") != "jit");
  if (r.other_device)
    r.warnings.push_back("the runs used different GPU models: BASE " + r.base_device + "; NEW " + r.new_device +
                         ". Verdict changes still gate; measurements are shown but do not gate.");
  if (r.other_toolchain)
    r.warnings.push_back("the runs used different code paths: BASE " + r.base_toolchain + "; NEW " + r.new_toolchain +
                         ". Every verdict that differs is listed with both observations.");
  // The gate fails closed: a run that did not finish, or whose GPU could not be trusted, is not a
  // judgement of that GPU, whatever the cases it did finish say.
  const bool cut = !nrun.cut_off().empty();
  if (cut) r.run_not_judged.push_back("NEW was " + nrun.cut_off() + ": the cases it never ran are not judged");
  if (nrun.unhealthy()) r.run_not_judged.push_back("NEW's GPU was stopped as " + nrun.health_verdict + ": the cases after it are not-run");
  if (!nrun.xids.empty())
    r.warnings.push_back(std::to_string(nrun.xids.size()) + " Xid or health event(s) in NEW that no case expected, the first: " + nrun.xids[0]);
  if (!nrun.available() && brun.available())
    r.run_not_judged.push_back("NEW had no GPU (" + nrun.dev("error") + "): nothing that needs one was judged");
  else if (!nrun.available())
    r.warnings.push_back("NEW had no GPU: every case that needs one is not-supported there");
  // A case of BASE that NEW lacks is missing (it gates) unless NEW chose other cases on purpose.
  const bool same_selection = case_selection(brun) == case_selection(nrun);
  r.base_wall_s = std::atof(brun.get(brun.run, "wall_s").c_str());
  r.new_wall_s = std::atof(nrun.get(nrun.run, "wall_s").c_str());
  r.wall_compared = !r.other_device && !r.other_toolchain && r.base_wall_s > 0 && r.new_wall_s > 0 &&
                    brun.get(brun.run, "selection") == nrun.get(nrun.run, "selection") && nrun.available();
  r.wall_slower = r.wall_compared && r.new_wall_s > r.base_wall_s * (1 + CompareResult::kWallTolerance);

  // Overrides: the command line first, then the known file, then the built-in rule that
  // litmus outcome counts (outcome_*) are a random histogram, never compared by value.
  Tolerances tol = tol_in;
  if (known)
    for (auto& t : known->tolerances) tol.overrides.push_back(t);
  tol.overrides.push_back({"outcome_*", -1, "litmus histogram", "a random histogram: compared only when asked"});

  std::set<const KnownEntry*> used;
  auto classify = [&](const CaseRow& row, const Outcome* b, const Outcome* n) {
    const KnownEntry* fl = known ? known->flake(row, &nrun) : nullptr;
    const KnownEntry* kf = known ? known->failure(row, &nrun) : nullptr;
    if (fl) used.insert(fl);
    if (kf) used.insert(kf);
    auto add = [&](Change k, const KnownEntry* why = nullptr) {
      CompareItem i = compare_item(k, row.name, b, n);
      if (why) i.note = known_note(why);
      if (why) i.finding = why->cls;
      r.items.push_back(i);
    };
    if (!n) {
      if (!b || !judged(row, b->verdict) || (!same_selection && !cut)) return add(Change::removed);
      add(Change::not_judged, fl);
      r.items.back().reason = cut ? "not run: NEW was " + nrun.cut_off()
                                  : "missing from NEW (a case renamed or removed on purpose: refresh the baseline)";
      return;
    }
    Verdict nv = n->verdict;
    // What a compiler emits today, which no document promises: a change is news, never a
    // conformance failure (nor a fix).
    const bool observation = row.basis == "toolchain";
    // A rule of basis relied-upon that newly fails: a regression, named apart ("breaks CUTLASS").
    const Change fresh = row.relied_upon() ? Change::consumer_break : Change::new_failure;
    if (!b) {
      add(Change::added);
      if (nv == Verdict::flake) add(fl ? Change::known_flake : Change::flaky, fl);
      else if (is_failure(nv) && !fl && !kf && observation) add(Change::toolchain_changed);
      else if (is_failure(nv)) add(fl ? Change::known_flake : kf ? Change::known_failure : fresh, fl ? fl : kf);
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
      else add(observation ? Change::toolchain_changed : fresh);
    } else if (nv == Verdict::pass) {
      if (kf) add(Change::unexpected_pass, kf);
      else if (is_failure(bv)) add(fl ? Change::known_flake : observation ? Change::toolchain_changed : Change::fixed, fl);
      else if (bv != nv) add(Change::verdict_changed);
      if (bv == Verdict::pass && !fl) compare_measurements(row.name, *b, *n, tol, r.other_device, judge, &r.items);
    } else if (nv == Verdict::recorded && bv == Verdict::recorded) {
      // The documents promise nothing, so a change is news about the GPU or driver, not a regression.
      if (outcome_category(b->fact("outcome")) != outcome_category(n->fact("outcome"))) add(Change::behaviour_changed);
    } else if (nv == Verdict::not_supported && ran(bv)) {
      add(fl ? Change::known_flake : Change::coverage_lost, fl);
    } else if (nv == Verdict::not_run && judged(row, bv)) {
      add(Change::not_judged, fl);
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
  // A filtered run (--area, --rule, --tag, --kind, --profile smoke) leaves out the cases of most
  // entries: unmatched there, an entry is not stale, and a plain compare must not cry wolf.
  const std::string selection = " " + nrun.get(nrun.run, "selection");
  bool filtered = false;
  for (const char* f : {" --area ", " --rule ", " --tag ", " --kind ", " --tier ", " --profile "}) filtered = filtered || selection.find(f) != std::string::npos;
  int unmatched = 0;
  if (known)
    for (auto* list : {&known->failures, &known->flakes})
      for (auto& e : *list)
        if (!used.count(&e) && !e.expired && e.applies_to(&nrun)) {  // scoped elsewhere: not stale; expired: waiver_expired says it
          ++unmatched;
          if (!filtered) r.warnings.push_back("known entry " + e.what() + " (" + e.where + ") matches no case of NEW: stale?");
        }
  if (filtered && unmatched)
    r.warnings.push_back(std::to_string(unmatched) + " known entr" + (unmatched == 1 ? "y matches" : "ies match") +
                         " no case of NEW, a filtered run (" + selection.substr(1) + "): not judged stale");
  // Without declared tolerances every measurement is judged at the flat default, the counts and
  // timings that move from run to run included: say so, since such a compare reads as regressions.
  if (!judge && tol_in.overrides.empty() && (!known || known->tolerances.empty()))
    r.warnings.push_back(std::string("no measurement tolerances declared (") + (known ? known->file + " has no `tolerances:`" : "no known list") +
                         "): every measurement is judged at " + number_text(tol.fallback * 100) + "%" +
                         ", race and litmus counts and timings that move from run to run included (ci/baselines/known.yaml's "
                         "`tolerances:` say which measurements are performance properties)");
  r.tolerances = judge ? judge->describe() : "fixed: " + number_text(tol.fallback * 100) + "% unless overridden (--tolerance, known list)";
  r.base_shuffle = brun.get(brun.run, "shuffle_seed");
  r.new_shuffle = nrun.get(nrun.run, "shuffle_seed");
  if (r.base_shuffle != r.new_shuffle)
    for (auto& i : r.items)
      if (!i.base_verdict.empty() && !i.new_verdict.empty() &&
          (i.base_verdict != i.new_verdict || i.kind == Change::behaviour_changed))
        r.order_dependent.push_back(i.name);
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

// The order and headings of both renderings: regressions first, then what is known (known
// failures by finding class, what can break a kernel first), then news.
struct Group {
  std::string title;
  std::vector<Change> kinds;
  bool by_class = false;  // only items of `cls`
  FindingClass cls = FindingClass::none;
  bool holds(const CompareItem& i) const {
    return std::find(kinds.begin(), kinds.end(), i.kind) != kinds.end() && (!by_class || i.finding == cls);
  }
};
const std::vector<Group>& groups() {
  static const std::vector<Group> g = [] {
    std::vector<Group> v = {
        {"REGRESSIONS", {Change::new_failure, Change::coverage_lost, Change::measurement_moved, Change::waiver_expired}},
        {"COMPATIBILITY BREAKS (relied-upon: a behaviour a named consumer's code depends on no longer holds; gating)",
         {Change::consumer_break}},
        {"NOT JUDGED IN NEW (judged in BASE; not-run, missing or cut off in NEW: gating)", {Change::not_judged}},
        {"UNEXPECTED PASSES of known failures (update the known list?)", {Change::unexpected_pass}},
        {"FIXED", {Change::fixed}},
    };
    v.push_back({"TOOLCHAIN OBSERVATIONS CHANGED (what a compiler emits today, which no document promises: a change to "
                 "look at, not a conformance failure; not gating)",
                 {Change::toolchain_changed}});
    for (FindingClass c : finding_classes())
      v.push_back({std::string(c == FindingClass::documents ? "KNOWN FINDINGS IN THE DOCUMENTS, " : "KNOWN FAILURES, ") + to_string(c) +
                       ": " + finding_class_title(c) + " (not gating)",
                   {Change::known_failure}, true, c});
    v.push_back({"KNOWN FAILURES, unclassified (not gating)", {Change::known_failure}, true, FindingClass::none});
    v.push_back({"KNOWN FLAKES (not gating)", {Change::known_flake}});
    for (Group x : std::vector<Group>{
      {"FLAKY: passed only on a re-run (add to known_flakes if it recurs)", {Change::flaky}},
      {"STILL FAILING (failed in BASE too; not in the known list)", {Change::still_failing}},
      {"UNDEFINED BEHAVIOUR CHANGED (recorded outcome differs; not gating)", {Change::behaviour_changed}},
      {"OTHER VERDICT CHANGES", {Change::verdict_changed}},
      {"MEASUREMENTS ON ANOTHER GPU MODEL (shown, not gating)", {Change::measurement_other_device}},
      {"SHADOW: would gate, but the rule is in shadow or the case is new since BASE's version (report-only until promoted; not gating)",
       {Change::shadow}},
      {"OUTSIDE THE GATED TIERS (not gating)", {Change::outside_gate}},
      {"REDEFINED: the rule's definition changed between the suite versions (not judged)", {Change::redefined}},
      {"CASES ADDED / REMOVED", {Change::added, Change::removed}},
    })
      v.push_back(x);
    return v;
  }();
  return g;
}

// " (runtime 3, tool-accepts-forbidden 12)": the known failures per finding class, runtime first.
std::string by_class(const CompareResult& r) {
  std::string s;
  for (FindingClass c : finding_classes()) {
    int n = 0;
    for (auto& i : r.items) n += i.kind == Change::known_failure && i.finding == c;
    if (n) s += (s.empty() ? " (" : ", ") + std::string(to_string(c)) + " " + std::to_string(n);
  }
  return s.empty() ? s : s + ")";
}

std::string summary_line(const CompareResult& r) {
  std::ostringstream s;
  s << r.regressions() << " regression(s): " << r.count(Change::new_failure) << " new failure(s), "
    << r.count(Change::coverage_lost) << " coverage lost, " << r.count(Change::not_judged) << " not judged, " << r.count(Change::measurement_moved)
    << " measurement(s) moved, " << r.count(Change::consumer_break) << " compatibility break(s) (relied-upon); " << r.count(Change::measurement_other_device)
    << " measurement(s) differ on another GPU model (not gating); " << r.count(Change::fixed) << " fixed, " << r.count(Change::unexpected_pass)
    << " unexpected pass(es), " << r.count(Change::known_failure) << " known failure(s)" << by_class(r) << ", "
    << r.count(Change::known_flake) << " known flake(s), " << r.count(Change::flaky) << " flaky, "
    << r.count(Change::still_failing) << " still failing, " << r.count(Change::toolchain_changed)
    << " toolchain observation(s) changed, " << r.count(Change::behaviour_changed)
    << " undefined behaviour(s) changed, " << r.count(Change::added) << " added, " << r.count(Change::removed) << " removed, "
    << r.count(Change::redefined) << " redefined, " << r.count(Change::shadow) << " in shadow, " << r.count(Change::outside_gate)
    << " outside the gate, " << r.count(Change::waiver_expired) << " waiver(s) expired";
  return s.str();
}

}  // namespace

// "wall time: 28.1 s -> 31.0 s (+10.3%, within 25%)".
static std::string wall_line(const CompareResult& r) {
  if (!r.wall_compared) return "wall time: not compared (another GPU model, code path or selection, or a run without a GPU)";
  std::string s = "wall time: " + number_text(std::round(r.base_wall_s * 10) / 10) + " s -> " +
                  number_text(std::round(r.new_wall_s * 10) / 10) + " s (" + pct(r.base_wall_s, r.new_wall_s);
  if (!r.wall_slower) return s + ", within " + number_text(CompareResult::kWallTolerance * 100) + "%)";
  return s + ": SLOWER by more than " + number_text(CompareResult::kWallTolerance * 100) + "%" +
         (r.gate_time ? ", a regression (--gate-time))" : "; not gating without --gate-time)");
}

// The order dimension: shown when one run was shuffled (or both with other seeds).
static std::string order_text(const CompareResult& r) {
  if (r.base_shuffle == r.new_shuffle) return "";
  auto name = [](const std::string& seed) { return seed.empty() ? std::string("ordered") : "shuffled, seed " + seed; };
  std::ostringstream o;
  o << "order: BASE " << name(r.base_shuffle) << ", NEW " << name(r.new_shuffle) << ": " << r.order_dependent.size()
    << " case(s) whose verdict or recorded category depends on the order they ran in";
  if (r.order_dependent.empty()) return o.str() + " (none found)\n";
  o << "\n";
  for (auto& n : r.order_dependent) o << "  order-dependent: " << n << "\n";
  o << "  (cuconform bisect " << r.base_file << " " << r.new_file << " CASE: the earlier case that changes it)\n";
  return o.str();
}

std::string compare_text(const CompareResult& r) {
  std::ostringstream o;
  o << "BASE " << r.base_file << ": " << r.base_device << "\n";
  o << "NEW  " << r.new_file << ": " << r.new_device << "\n";
  o << "code paths: BASE " << r.base_toolchain << "; NEW " << r.new_toolchain << "\n";
  o << "measurement tolerances: " << r.tolerances << "\n";
  for (auto& w : r.run_not_judged) o << "NOT JUDGED: " << w << " (gating)\n";
  if (!r.contract.empty()) o << "contract: " << r.contract << "\n";
  for (auto& w : r.warnings) o << "warning: " << w << "\n";
  o << order_text(r);
  for (auto& g : groups()) {
    std::vector<const CompareItem*> its;
    for (auto& i : r.items)
      if (g.holds(i)) its.push_back(&i);
    if (its.empty()) continue;
    o << "\n" << g.title << " (" << its.size() << ")\n";
    for (auto* i : its) {
      o << "  " << to_string(i->kind) << ": " << i->name;
      if (i->kind == Change::measurement_moved || i->kind == Change::measurement_other_device) {
        o << "  " << i->measurement << " " << number_text(i->base_value) << " -> " << number_text(i->new_value) << " ("
          << pct(i->base_value, i->new_value) << ", tolerance " << (i->judged_by.empty() ? number_text(i->tolerance * 100) : short_number(i->tolerance * 100))
          << "%" << (i->tolerance_class.empty() ? "" : ", class " + i->tolerance_class) << ")\n";
        if (!i->judged_by.empty()) o << "      judged by history: " << i->judged_by << "\n";
        continue;
      }
      o << "  [" << verdicts(*i) << "]";
      if (!i->reason.empty() && i->kind != Change::added && i->kind != Change::removed) o << "  -- " << i->reason;
      o << "\n";
      const bool differs = !i->base_verdict.empty() && !i->new_verdict.empty() && i->base_verdict != i->new_verdict;
      if (i->kind == Change::behaviour_changed) {
        o << "      BASE: " << i->base_reason << "\n      BASE observed: " << i->base_observed << "\n";
        o << "      NEW observed: " << i->observed << "\n";
      }
      if (i->kind == Change::new_failure || i->kind == Change::consumer_break || i->kind == Change::still_failing || i->kind == Change::toolchain_changed ||
          (r.other_toolchain && differs)) {
        if (!i->expected.empty()) o << "      expected: " << i->expected << "\n";
        if (r.other_toolchain && differs) {
          o << "      BASE observed: " << (i->base_observed.empty() ? i->base_reason : i->base_observed) << "\n";
          o << "      NEW  observed: " << (i->observed.empty() ? i->reason : i->observed) << "\n";
        } else if (!i->observed.empty()) {
          o << "      observed: " << i->observed << "\n";
        }
      }
      if (!i->note.empty()) o << "      known: " << i->note << "\n";
      if (!i->was.empty()) o << "      contract: " << i->was << "\n";
    }
  }
  o << "\n" << wall_line(r) << "\n" << summary_line(r) << "\n";
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
  o << "- code paths: BASE " << cell(r.base_toolchain) << "; NEW " << cell(r.new_toolchain) << "\n";
  o << "- measurement tolerances: " << cell(r.tolerances) << "\n";
  for (auto& w : r.run_not_judged) o << "- **NOT JUDGED (gating):** " << cell(w) << "\n";
  if (!r.contract.empty()) o << "- contract: " << cell(r.contract) << "\n";
  for (auto& w : r.warnings) o << "- **warning:** " << cell(w) << "\n";
  o << "\n" << wall_line(r) << "\n\n" << summary_line(r) << "\n";
  for (auto& g : groups()) {
    std::vector<const CompareItem*> its;
    for (auto& i : r.items)
      if (g.holds(i)) its.push_back(&i);
    if (its.empty()) continue;
    o << "\n### " << g.title << " (" << its.size() << ")\n\n| change | case | verdicts / values | reason |\n|---|---|---|---|\n";
    for (auto* i : its) {
      std::string what = i->kind == Change::measurement_moved || i->kind == Change::measurement_other_device
                             ? i->measurement + ": " + number_text(i->base_value) + " → " + number_text(i->new_value) + " (" + pct(i->base_value, i->new_value) + ")" +
                                   (i->judged_by.empty() ? "" : "; history: " + i->judged_by)
                             : verdicts(*i);
      std::string why = i->note.empty() ? i->reason : "known: " + i->note;
      if (!i->was.empty()) why = i->was + (why.empty() ? "" : "; " + why);
      o << "| " << to_string(i->kind) << " | `" << i->name << "` | " << cell(what) << " | " << cell(why) << " |\n";
    }
  }
  return o.str();
}

}  // namespace cuconform

namespace cuconform {

std::string pick_baseline(const std::string& dir, const Fleet& now, std::string* why) {
  namespace fs = std::filesystem;
  const RunInfo& n = now.runs.at(0);
  const std::string codegen = n.get(n.run, "toolchain.codegen").empty() ? "sass" : n.get(n.run, "toolchain.codegen");
  std::string best;
  int best_score = 0;
  std::vector<fs::path> files;
  for (auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && is_results_file_name(e.path().string())) files.push_back(e.path());  // .json or .json.gz
  std::sort(files.begin(), files.end());
  for (auto& p : files) {
    // Every file named like a results file must read: one that does not (a git-lfs pointer, a
    // truncated .json.gz) is an error naming it, never skipped for another baseline.
    Fleet f = load_results_runs(p.string());  // the runs decide; the chosen one is read whole later
    if (f.schema != kResultsSchema || f.runs.empty()) continue;  // a fleet file: not a baseline
    const RunInfo& b = f.runs[0];
    const std::string bcg = b.get(b.run, "toolchain.codegen").empty() ? "sass" : b.get(b.run, "toolchain.codegen");
    if (b.dev("name") != n.dev("name") || !b.available()) continue;
    int score = 1 + (bcg == codegen ? 2 : 0) + (b.dev("driver_version") == n.dev("driver_version") ? 1 : 0) +
                (bcg == codegen && b.toolchain_line() == n.toolchain_line() ? 1 : 0);
    if (score > best_score) {
      best_score = score;
      best = p.string();
    }
  }
  if (best.empty()) *why = "no baseline in " + dir + " is of " + (n.available() ? n.dev("name") : "a run without a GPU");
  else if (best_score >= 4) *why = "the same GPU model, code path" + std::string(best_score == 5 ? ", toolchain" : "") + " and driver";
  else if (best_score >= 3) *why = "the same GPU model and code path (another driver or toolchain)";
  else *why = "the same GPU model (another code path" + std::string(best_score == 2 ? "; the same driver)" : " and driver)");
  return best;
}

}  // namespace cuconform
