#pragma once
// How much of the documents the specs cover: each statement of the index is proved (an active
// rule names it), recorded (an active rule of kind undefined runs it and records what happened),
// planned (a planned rule with its reason), not-testable (statements/dispositions.yaml, with the
// reason), non-normative (a sentence the keyword extractor indexed that states no rule:
// motivation, a pointer, a caption; also in dispositions.yaml, with the reason) or has nothing.
// The percentage in coverage_summary counts normative statements only.
#include <array>
#include <string>
#include <vector>

#include "harness/spec/statements.hpp"

namespace cuconform {

enum class CoverageStatus { proved, recorded, planned, not_testable, non_normative, none };
constexpr std::size_t kCoverageStatuses = 6;
const char* to_string(CoverageStatus s);
const std::array<CoverageStatus, kCoverageStatuses>& all_coverage_statuses();

struct CoverageCounts {
  std::array<int, kCoverageStatuses> n{};
  int& operator[](CoverageStatus s) { return n[static_cast<std::size_t>(s)]; }
  int operator[](CoverageStatus s) const { return n[static_cast<std::size_t>(s)]; }
  int total() const;
  int normative() const { return total() - (*this)[CoverageStatus::non_normative]; }
};

struct StatementCoverage {
  const Statement* statement;
  CoverageStatus status;
  std::vector<const Rule*> rules;  // the rules naming it
  bool above_cc90 = false;          // proved or recorded only by GPU rules gated above CC 9.0 (sm_100+)
};

struct CoverageGroup {
  std::string document, section;  // section empty: the whole document
  CoverageCounts counts;
};

struct CoverageReport {
  std::vector<StatementCoverage> statements;  // index order
  std::vector<CoverageGroup> documents, sections;  // in index order
  CoverageCounts total;
  int above_cc90 = 0;  // statements with above_cc90 set
};

// "proved or recorded: P of N normative statements (X%) ..." for the reports.
std::string coverage_summary(const CoverageReport& c);

CoverageReport compute_coverage(const Catalog& cat, const StatementIndex& index);

}  // namespace cuconform
