#pragma once
// How much of the documents the specs cover: each statement of the index is proved (an active
// rule names it), recorded (documented undefined behaviour: a planned rule says so), planned (a
// planned rule with its reason), not-testable (statements/dispositions.yaml) or has nothing.
#include <array>
#include <string>
#include <vector>

#include "harness/spec/statements.hpp"

namespace cuconform {

enum class CoverageStatus { proved, recorded, planned, not_testable, none };
constexpr std::size_t kCoverageStatuses = 5;
const char* to_string(CoverageStatus s);
const std::array<CoverageStatus, kCoverageStatuses>& all_coverage_statuses();

struct CoverageCounts {
  std::array<int, kCoverageStatuses> n{};
  int& operator[](CoverageStatus s) { return n[static_cast<std::size_t>(s)]; }
  int operator[](CoverageStatus s) const { return n[static_cast<std::size_t>(s)]; }
  int total() const;
};

struct StatementCoverage {
  const Statement* statement;
  CoverageStatus status;
  std::vector<const Rule*> rules;  // the rules naming it
};

struct CoverageGroup {
  std::string document, section;  // section empty: the whole document
  CoverageCounts counts;
};

struct CoverageReport {
  std::vector<StatementCoverage> statements;  // index order
  std::vector<CoverageGroup> documents, sections;  // in index order
  CoverageCounts total;
};

CoverageReport compute_coverage(const Catalog& cat, const StatementIndex& index);

}  // namespace cuconform
