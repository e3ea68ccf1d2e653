#include "harness/spec/coverage.hpp"

#include <cstdio>
#include <map>

namespace cuconform {
namespace {

// What one rule naming a statement makes of it; the strongest rule wins (proved first).
// Recorded: an active rule of kind undefined runs the behaviour and records what happened. A
// toolchain observation (what a compiler emits today) or a self-check of the suite's kernels proves
// no sentence of the documents, whatever it names.
CoverageStatus status_from(const Rule& r) {
  if (r.planned) return CoverageStatus::planned;
  if (r.basis == Basis::toolchain || r.basis == Basis::self_check) return CoverageStatus::none;
  return r.kind == Kind::undefined ? CoverageStatus::recorded : CoverageStatus::proved;
}

CoverageGroup& group(std::vector<CoverageGroup>& groups, std::map<std::string, std::size_t>& at, const std::string& doc,
                     const std::string& section) {
  std::string key = doc + '\n' + section;
  auto it = at.find(key);
  if (it != at.end()) return groups[it->second];
  at[key] = groups.size();
  groups.push_back({doc, section, {}});
  return groups.back();
}

}  // namespace

const char* to_string(CoverageStatus s) {
  switch (s) {
    case CoverageStatus::proved: return "proved";
    case CoverageStatus::recorded: return "recorded";
    case CoverageStatus::planned: return "planned";
    case CoverageStatus::not_testable: return "not-testable";
    case CoverageStatus::non_normative: return "non-normative";
    case CoverageStatus::none: return "nothing";
  }
  return "?";
}

const std::array<CoverageStatus, kCoverageStatuses>& all_coverage_statuses() {
  static const std::array<CoverageStatus, kCoverageStatuses> all = {CoverageStatus::proved, CoverageStatus::recorded,
                                                                    CoverageStatus::planned, CoverageStatus::not_testable,
                                                                    CoverageStatus::non_normative, CoverageStatus::none};
  return all;
}

int CoverageCounts::total() const {
  int t = 0;
  for (int x : n) t += x;
  return t;
}

CoverageReport compute_coverage(const Catalog& cat, const StatementIndex& index) {
  std::map<std::string, std::vector<const Rule*>> naming;
  for (auto& r : cat.rules)
    for (auto& id : r->statements) naming[id].push_back(r.get());
  CoverageReport rep;
  std::map<std::string, std::size_t> doc_at, sec_at;
  for (const Statement& s : index.statements) {
    StatementCoverage sc{&s, CoverageStatus::none, {}};
    auto it = naming.find(s.id);
    if (it != naming.end()) sc.rules = it->second;
    for (const Rule* r : sc.rules)
      if (static_cast<int>(status_from(*r)) < static_cast<int>(sc.status)) sc.status = status_from(*r);
    if (sc.status == CoverageStatus::none && s.disposition == "not-testable") sc.status = CoverageStatus::not_testable;
    if (sc.status == CoverageStatus::none && s.disposition == "non-normative") sc.status = CoverageStatus::non_normative;
    if (sc.status == CoverageStatus::proved || sc.status == CoverageStatus::recorded) {
      sc.above_cc90 = true;
      for (const Rule* r : sc.rules)
        if (status_from(*r) == sc.status && (!r->needs_gpu() || r->min_cc.value() <= 90)) sc.above_cc90 = false;
      rep.above_cc90 += sc.above_cc90;
    }
    ++group(rep.documents, doc_at, s.document, "").counts[sc.status];
    ++group(rep.sections, sec_at, s.document, s.section).counts[sc.status];
    ++rep.total[sc.status];
    rep.statements.push_back(std::move(sc));
  }
  return rep;
}

std::string coverage_summary(const CoverageReport& c) {
  const int done = c.total[CoverageStatus::proved] + c.total[CoverageStatus::recorded], n = c.total.normative();
  char pct[16];
  std::snprintf(pct, sizeof pct, "%.1f%%", n ? 100.0 * done / n : 0.0);
  return "proved or recorded: " + std::to_string(done) + " of " + std::to_string(n) + " normative statements (" + pct +
         "); " + std::to_string(c.above_cc90) + " of them only by rules gated above CC 9.0 (they run on sm_100+ GPUs); " +
         std::to_string(c.total[CoverageStatus::non_normative]) + " indexed sentences judged non-normative (not counted)";
}

}  // namespace cuconform
