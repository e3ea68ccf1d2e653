// Verbs that only read the specs: list, lint, fixtures, errata.
#include <algorithm>
#include <iomanip>
#include <map>
#include <iostream>

#include "cli/verbs.hpp"
#include "harness/fixture/fixture.hpp"
#include "harness/fixture/param_decl.hpp"
#include "harness/runner/schedule.hpp"
#include "harness/spec/catalog.hpp"
#include "harness/spec/citations.hpp"
#include "harness/spec/consumers.hpp"
#include "harness/spec/machine_paths.hpp"
#include "harness/spec/statements.hpp"
#include "harness/spec/tables.hpp"
#include "reporters/manifest.hpp"
#include "reporters/waivers.hpp"

namespace cuconform {

bool load_or_report(const Options& o, Catalog* cat, StatementIndex* index, ConsumerIndex* consumers) {
  const std::string dir = specs_dir_of(o);
  *cat = load_catalog(dir);
  StatementIndex own;
  StatementIndex& idx = index ? *index : own;
  idx = load_statements(statements_dir_for(dir));
  cat->errors.insert(cat->errors.end(), idx.errors.begin(), idx.errors.end());
  for (auto& e : unknown_statement_refs(*cat, idx)) cat->errors.push_back(e);
  ConsumerIndex own_consumers;
  ConsumerIndex& ci = consumers ? *consumers : own_consumers;
  ci = load_consumers(consumers_dir_for(dir));
  cat->errors.insert(cat->errors.end(), ci.errors.begin(), ci.errors.end());
  // An unknown id everywhere; a tested behaviour no rule names is lint's (and coverage's) to report.
  for (auto& e : consumer_ref_errors(*cat, ci))
    if (e.message.rfind("rule ", 0) == 0) cat->errors.push_back(e);
  for (auto& e : cat->errors) std::cerr << e.str() << "\n";
  if (!cat->ok()) std::cerr << "cuconform: " << cat->errors.size() << " spec error(s) in " << dir << "\n";
  return cat->ok();
}

namespace {

// The contract's part of lint (docs/contract.md): rules per tier and in shadow, and the known
// list's waivers: expired, expiring within 30 days, or without owner, expiry or link (warnings).
void print_contract_lint(const Options& o, const Catalog& cat) {
  std::map<Tier, int> by_tier;
  int shadow = 0;
  for (auto& r : cat.rules)
    if (!r->planned) ++by_tier[r->tier], shadow += r->shadow;
  std::cout << "tiers of the active rules:";
  for (Tier t : all_tiers()) std::cout << " " << to_string(t) << " " << by_tier[t] << ",";
  std::cout << " in shadow " << shadow << "\n";
  // A new or redefined rule reports before it gates: against the last release, it is in shadow.
  const std::string previous = previous_release_manifest(releases_dir_beside(cat.dir), CUCONFORM_VERSION);
  if (!previous.empty()) {
    try {
      for (auto& r : unshadowed_changes(cat, load_manifest(previous)))
        std::cerr << "warning: rule " << r << " is not in shadow: add `shadow: true` until it has passed (history candidates)\n";
    } catch (const std::exception& e) {
      std::cerr << "warning: " << e.what() << "\n";
    }
  }
  std::optional<KnownList> known;
  try {
    known = load_known_list(o, cat.dir, nullptr);
  } catch (const std::exception& e) {
    std::cerr << "warning: " << e.what() << "\n";
  }
  if (!known) return;
  const std::vector<std::string> warnings = waiver_warnings(*known);
  std::cout << "waivers: " << known->failures.size() + known->flakes.size() << " in " << known->file << ", judged on " << known->today
            << ": " << warnings.size() << " warning(s)\n";
  for (auto& w : warnings) std::cerr << "warning: " << w << "\n";
}

int cmd_lint(const Options& o) {
  Catalog cat;
  StatementIndex idx;
  ConsumerIndex consumers;
  if (!load_or_report(o, &cat, &idx, &consumers)) return kExitBadInput;
  int untested = 0;
  for (auto& e : consumer_ref_errors(cat, consumers))
    if (e.message.rfind("behaviour ", 0) == 0) std::cerr << e.str() << "\n", ++untested;
  if (untested) {
    std::cerr << "cuconform: " << untested << " behaviour(s) of " << consumers.dir << " claim a proof no active rule gives\n";
    return kExitBadInput;
  }
  TableAudit tables = load_tables(tables_dir_for(cat.dir), cat);
  for (auto& e : tables.errors) std::cerr << e.str() << "\n";
  if (!tables.errors.empty()) {
    std::cerr << "cuconform: " << tables.errors.size() << " table audit error(s) in " << tables.dir << "\n";
    return kExitBadInput;
  }
  // The findings' READMEs beside the specs cite documents as the specs do.
  const auto finding_paths = absolute_paths_in_findings(cat.dir + "/../findings");
  for (auto& e : finding_paths) std::cerr << e.str() << "\n";
  if (!finding_paths.empty()) {
    std::cerr << "cuconform: " << finding_paths.size() << " absolute path(s) in the findings' READMEs\n";
    return kExitBadInput;
  }
  // Cited PTX ISA and seed sections that the reference files hold (../shared beside the project).
  const ReferenceIndex refs = load_reference_index(cat.dir + "/../../shared");
  const auto citations = check_citations(cat, refs);
  for (auto& e : citations) std::cerr << e.str() << "\n";
  if (!citations.empty()) {
    std::cerr << "cuconform: " << citations.size() << " citation(s) of sections " << refs.dir << " does not hold\n";
    return kExitBadInput;
  }
  int planned = 0, naming = 0, relying = 0;
  std::map<Basis, int> by_basis;
  for (auto& r : cat.rules) {
    planned += r->planned, naming += !r->statements.empty(), relying += !r->relies.empty();
    if (!r->planned) ++by_basis[r->basis];
  }
  std::cout << "specs OK: " << cat.dir << ": " << cat.areas.size() << " areas, " << cat.rules.size() << " rules ("
            << planned << " planned), " << cat.cases.size() << " cases\n";
  std::cout << "basis of the " << cat.rules.size() - planned << " active rules:";
  for (Basis b : all_bases()) std::cout << " " << to_string(b) << " " << by_basis[b] << (b == all_bases().back() ? "\n" : ",");
  print_contract_lint(o, cat);
  if (idx.available)
    std::cout << "statements: " << idx.statements.size() << " in " << idx.dir << "; " << naming
              << " rules name the statements they prove\n";
  else
    std::cout << "statements: no index at " << idx.dir << " (coverage unavailable)\n";
  if (consumers.available)
    std::cout << "consumers: " << consumers.consumers.size() << " in " << consumers.dir << ", " << consumers.behaviours.size()
              << " relied-upon behaviours; " << relying << " rules name the behaviours they prove\n";
  std::cout << "citations: " << (refs.available ? "every cited PTX ISA and seed section is in " + refs.dir
                                                 : "no reference files at " + refs.dir + " (not checked)")
            << "\n";
  if (tables.available) {
    int rows = 0;
    for (auto& t : tables.tables) rows += static_cast<int>(t.rows.size());
    std::cout << "tables: " << tables.tables.size() << " in " << tables.dir << ", " << rows << " rows\n";
  }
  return kExitOk;
}

int cmd_list(const Options& o) {
  Catalog cat;
  if (!load_or_report(o, &cat)) return kExitBadInput;
  std::vector<const Case*> cases;
  std::string error;
  if (!select_cases(cat, o.sel, &cases, &error)) {
    std::cerr << "cuconform list: " << error << "\n";
    return kExitBadInput;
  }
  ComputeCapability cc;
  bool plan = o.values.count("--cc");
  if (plan && !ComputeCapability::parse(o.get("--cc"), &cc)) {
    std::cerr << "cuconform list: --cc '" << o.get("--cc") << "' is not a compute capability like 8.0\n";
    return kExitBadInput;
  }
  int shown = 0, hidden = 0;
  for (const Case* c : cases) {
    const Rule& r = *c->rule;
    std::string gate = plan ? cc_gate(r.min_cc, r.arch, cc) : "";
    if (plan && !gate.empty()) {  // host-tool cases too: the feature must exist on that GPU
      ++hidden;
      continue;
    }
    ++shown;
    std::string status = r.planned ? "planned" : "";
    std::cout << std::left << std::setw(58) << c->name << " " << std::setw(12) << to_string(r.kind) << " "
              << std::setw(11) << (r.planned ? "-" : to_string(r.basis)) << " cc>="
              << r.min_cc.str() << (r.arch.empty() ? "" : " " + r.arch) << (c->isolated ? " isolated" : "")
              << (c->placement.exclusive() ? " gpu-alone" : "")
              << (r.needs_gpu() ? "" : " host-tool") << (status.empty() ? "" : " " + status) << "\n";
  }
  std::cout << shown << " case(s)";
  if (plan) std::cout << " apply to cc " << cc.str() << " (" << hidden << " need a newer GPU or another arch)";
  std::cout << "\n";
  if (const std::string left = smoke_left_out(cat, o.sel); !left.empty()) std::cout << left << "\n";
  return kExitOk;
}

// The documents' mistakes on their own: every erratum of the selected rules, in spec order.
int cmd_errata(const Options& o) {
  Catalog cat;
  if (!load_or_report(o, &cat)) return kExitBadInput;
  std::vector<const Case*> cases;
  std::string error;
  if (!select_cases(cat, o.sel, &cases, &error)) {
    std::cerr << "cuconform errata: " << error << "\n";
    return kExitBadInput;
  }
  std::vector<const Rule*> rules;
  for (const Case* c : cases)
    if (!c->rule->errata.empty() && std::find(rules.begin(), rules.end(), c->rule) == rules.end()) rules.push_back(c->rule);
  std::size_t count = 0;
  for (const Rule* r : rules) {
    std::cout << r->id << "  [" << r->source << "]\n";
    for (const Erratum& e : r->errata) {
      std::cout << "  erratum " << ++count << " (" << e.loc.str() << ")\n"
                << "    says:     " << e.says << "\n"
                << "    wrong:    " << e.wrong << "\n"
                << "    fix:      " << e.fix << "\n"
                << "    evidence: " << e.evidence << "\n";
    }
  }
  std::cout << count << " errat" << (count == 1 ? "um" : "a") << " in " << rules.size() << " rule(s)\n";
  return kExitOk;
}

int cmd_fixtures(const Options&) {
  for (const FixtureInfo* f : all_fixtures()) {
    std::cout << f->name << "  -- " << f->summary << "\n    params:";
    for (auto& p : f->params) std::cout << " " << p;
    for (auto& p : f->optional_params) std::cout << " [" << p << "]";
    std::cout << "\n    expect:";
    for (auto& k : f->expect_keys) std::cout << " " << k;
    std::cout << "\n";
    // Typed declarations (issue 45): the values each takes, its default, what it means.
    for (const ParamDecl& d : declared_params(f->name))
      std::cout << "    " << d.name << ": " << d.allowed_text() << (d.fallback.empty() ? "" : " (default " + d.fallback + ")")
                << (d.meaning.empty() ? "" : " -- " + d.meaning) << "\n";
  }
  return kExitOk;
}

}  // namespace

const VerbRegistration kListVerb("list", "the selected cases, with their gates (isolated, gpu-alone, host-tool, planned)", cmd_list,
                                 [](Verb& v) {
                                   v.filters().value("--cc", "X.Y",
                                                     "plan for another GPU: only the cases a GPU of that compute "
                                                     "capability runs (no GPU needed)");
                                 });
const VerbRegistration kLintVerb("lint", "validate specs/ (and statements/, tables/) strictly: FILE:LINE:COL, exit 2", cmd_lint,
                                 [](Verb&) {});
const VerbRegistration kFixturesVerb("fixtures", "the fixtures specs can name, with their parameters and expectation keys",
                                     cmd_fixtures, [](Verb&) {});
const VerbRegistration kErrataVerb("errata",
                                   "the documents' mistakes: what each example says, what is wrong, the fix, the evidence",
                                   cmd_errata, [](Verb& v) { v.filters(); });

}  // namespace cuconform
