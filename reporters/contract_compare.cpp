#include "reporters/contract_compare.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include "reporters/manifest.hpp"

namespace cuconform {

namespace {

bool has_definitions(const Fleet& f) {
  return std::any_of(f.cases.begin(), f.cases.end(), [](const CaseRow& c) { return !c.definition.empty(); });
}

const Outcome* outcome(const CaseRow* row) { return row && !row->by_run.empty() && row->by_run[0] ? &*row->by_run[0] : nullptr; }

void drop(std::vector<CompareItem>* items, const std::string& name, const std::set<Change>& kinds) {
  items->erase(std::remove_if(items->begin(), items->end(),
                              [&](const CompareItem& i) { return i.name == name && (kinds.empty() || kinds.count(i.kind)); }),
               items->end());
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (auto& x : v) s += (s.empty() ? "" : ",") + x;
  return s;
}

}  // namespace

void apply_contract(const Fleet& base, const Fleet& now, const KnownList* known, const ContractOptions& o, CompareResult* r) {
  const RunInfo& brun = base.runs.at(0);
  const RunInfo& nrun = now.runs.at(0);
  const std::string bver = brun.get(brun.suite, "version"), nver = now.runs[0].get(nrun.suite, "version");
  const std::string bcommit = brun.get(brun.suite, "commit");

  // Each run's definitions: its file's, else its manifest's (a run of before 1.0.0: a baseline).
  struct Definitions {
    const Fleet* f;
    std::optional<Manifest> manifest;
    std::string source = "in the file";
    bool known() const { return has_definitions(*f) || manifest; }
    std::string of(const CaseRow& row) const {
      if (!row.definition.empty()) return row.definition;
      const ManifestCase* mc = manifest ? manifest->find(row.name) : nullptr;
      return mc ? mc->definition : "";
    }
  };
  auto definitions = [&](const Fleet& f) {
    Definitions d{&f, std::nullopt};
    const RunInfo& run = f.runs.at(0);
    std::string path = has_definitions(f) || o.releases_dir.empty()
                           ? ""
                           : find_manifest(o.releases_dir, run.get(run.suite, "version"), run.get(run.suite, "commit"));
    if (!path.empty()) {
      d.manifest = load_manifest(path);
      d.source = "from " + path;
    }
    return d;
  };
  const Definitions bdefs = definitions(base), ndefs = definitions(now);
  const bool contract = bdefs.known() && ndefs.known();

  // 1. Expired waivers: a case still failing that an expired entry waived gates again.
  if (known)
    for (const CaseRow& row : now.cases) {
      const Outcome* n = outcome(&row);
      if (!n || !is_failure(n->verdict) || known->failure(row, &nrun) || known->flake(row, &nrun)) continue;
      const KnownEntry* e = known->expired(row, &nrun);
      if (!e) continue;
      drop(&r->items, row.name, {Change::new_failure, Change::still_failing, Change::toolchain_changed});
      CompareItem i = compare_item(Change::waiver_expired, row.name, outcome(base.find(row.name)), n);
      i.was = "waived by " + e->what() + " (" + e->where + ") until " + e->expires + (e->owner.empty() ? "" : ", owner " + e->owner) +
              ": expired (judged on " + known->today + ")";
      i.finding = e->cls;
      r->items.push_back(i);
    }

  // 2. Definitions: a redefined case is not judged; an added one is listed, never a regression.
  int judged = 0, redefined = 0, added = 0, removed = 0;
  for (const CaseRow& row : now.cases) {
    const CaseRow* brow = base.find(row.name);
    if (!outcome(&row)) continue;
    if (!outcome(brow)) {
      ++added;
      if (contract)  // not in BASE's contract: whatever would gate is reported, as for a rule in shadow
        for (CompareItem& i : r->items)
          if (i.name == row.name && is_regression(i.kind)) {
            i.was = std::string(to_string(i.kind)) + ", but the case is new since BASE's suite version (report-only until promoted)";
            i.kind = Change::shadow;
          }
      continue;
    }
    const std::string bd = bdefs.of(*brow), nd = ndefs.of(row);
    if (!contract || bd.empty() || nd.empty() || bd == nd) {
      ++judged;
      continue;
    }
    ++redefined;
    drop(&r->items, row.name, {});
    CompareItem i = compare_item(Change::redefined, row.name, outcome(brow), outcome(&row));
    i.was = "definition " + bd + " (suite " + bver + ") -> " + nd + " (suite " + nver + ")";
    r->items.push_back(i);
  }
  for (const CaseRow& row : base.cases)
    if (outcome(&row) && !outcome(now.find(row.name))) {
      ++removed;
      // Across two suite versions a case of BASE that NEW's whole run lacks left the suite (a rule
      // removed or its cases renamed): removed, not a case NEW failed to judge. A run cut off, on
      // a lost GPU or filtered otherwise is not judged as a whole or per case, as before.
      if (contract && bver != nver)
        for (CompareItem& i : r->items)
          if (i.name == row.name && i.kind == Change::not_judged) {
            i.kind = Change::removed;
            i.reason = "not in NEW's suite " + nver + " (BASE's suite " + bver + " had it)";
          }
    }

  // 3. Shadow rules and the gated tiers: what would gate is reported instead.
  for (CompareItem& i : r->items) {
    if (!is_regression(i.kind)) continue;
    const CaseRow* row = now.find(i.name);
    if (!row) row = base.find(i.name);  // a removed case: BASE's
    if (!row) continue;
    if (row->shadow) {
      i.was = std::string(to_string(i.kind)) + ", but rule " + row->rule + " is in shadow (report-only until promoted)";
      i.kind = Change::shadow;
    } else if (!o.gate_tiers.empty() && !row->tier.empty() &&
               std::find(o.gate_tiers.begin(), o.gate_tiers.end(), row->tier) == o.gate_tiers.end()) {
      i.was = std::string(to_string(i.kind)) + ", but tier " + row->tier + " is not gated (--gate-tier " + joined(o.gate_tiers) + ")";
      i.kind = Change::outside_gate;
    }
  }

  const std::string versions = "BASE suite " + (bver.empty() ? "?" : bver) + (bcommit.empty() ? "" : " (" + bcommit + ")") + ", NEW suite " +
                               (nver.empty() ? "?" : nver);
  if (contract)
    r->contract = versions + "; BASE's case definitions " + bdefs.source + (ndefs.manifest ? ", NEW's " + ndefs.source : "") + ": " + std::to_string(judged) + " case(s) judged (same definition), " +
                  std::to_string(added) + " added, " + std::to_string(removed) + " removed, " + std::to_string(redefined) +
                  " redefined (not judged)";
  else
    r->contract = versions + "; " + (ndefs.known() ? "BASE" : "NEW") +
                  " carries no case definitions (a file of before suite 1.0.0) and releases/ has no manifest of its version and commit: "
                  "cases are judged by name alone, a redefinition cannot be told";
  r->contract += o.gate_tiers.empty() ? "; every tier gates" : "; gated tiers: " + joined(o.gate_tiers);
}

}  // namespace cuconform
