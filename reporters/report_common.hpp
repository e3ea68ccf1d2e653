#pragma once
// What the HTML and Markdown reports share: how measurements are grouped into pictures, and
// how a case's failure is explained by the known list.
#include <string>
#include <vector>

#include "reporters/known_list.hpp"
#include "reporters/results_file.hpp"

namespace cuconform {

// By name: *cycles*, *latency*, *_ns/_us/_ms -> cycles; *ratio*, *_over_*, *speedup* -> ratio;
// *gbps*, *bandwidth*, *_bps -> throughput; outcome_* -> a litmus histogram; else other.
enum class MeasureKind { cycles, ratio, throughput, outcome, other };
MeasureKind measure_kind(const std::string& name);
const char* measure_kind_title(MeasureKind k);

// "known failure (runtime): REASON" / "known flake: REASON" for a failing outcome, or "".
std::string known_label(const KnownList* known, const CaseRow& c, const RunInfo& run);

// The failing cases of run `run`, grouped as an upgrade check reads them: failures the known
// list does not explain first, then toolchain observations that changed (rules of basis
// `toolchain`: what a compiler emits today, a change and not a conformance failure), then known
// failures by finding class (runtime first: what can break a kernel; the documents' own
// contradictions last, apart), then known flakes. `title` heads each group.
struct FailureGroup {
  std::string title;
  std::vector<const CaseRow*> cases;
  enum class Known { no, toolchain, failure, flake } known = Known::no;
  FindingClass cls = FindingClass::none;  // of a group of known failures
};
std::vector<FailureGroup> failures_by_class(const Fleet& f, std::size_t run, const KnownList* known);
std::vector<std::string> areas_of(const Fleet& f);  // sorted
int failures_in(const Fleet& f, std::size_t run);
std::string verdict_abbrev(const std::string& v);  // P F T C NS PL

}  // namespace cuconform
