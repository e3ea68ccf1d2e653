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
// list does not explain first (documentation violations, then compatibility breaks: rules of basis
// relied-upon, group class consumer-break, Known::no), then toolchain observations that changed (rules of basis
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
// The same over several runs (a node, a fleet): a case that fails on any of them, in the group
// of its worst explanation: not in the known list on some run where it fails, else a known
// failure (the class of the first run that has one), else a known flake.
std::vector<FailureGroup> failures_by_class(const Fleet& f, const std::vector<std::size_t>& runs, const KnownList* known);
std::vector<std::string> areas_of(const Fleet& f);  // sorted
int failures_in(const Fleet& f, std::size_t run);
std::string verdict_abbrev(const std::string& v);  // P F T C NS PL
// What tells each run of a fleet from the others, for a narrow column head under "D1": the
// words of its label that not every label has ("#1 5f0c2a9e" of "NVIDIA H200 #1 5f0c2a9e @
// node7" on a node); the whole label when nothing is left.
std::vector<std::string> run_column_labels(const Fleet& f);
// Why run `run` of `f` is not a judgement of its GPU, one line each, for a report's headline (in
// red, never under a green mark): its GPU was stopped as unhealthy, Xid events no case expected,
// cases not-run, the run cut off. Empty for a run that finished on a healthy GPU.
std::vector<std::string> run_trouble(const Fleet& f, std::size_t run);

// A path as a report shows it: relative paths as given, absolute ones by their last component
// (a results file by its name, a specs folder as "specs"), so no report names a folder of the
// machine that built or ran the suite.
std::string display_path(const std::string& path);

}  // namespace cuconform
