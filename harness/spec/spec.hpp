#pragma once
// The in-memory form of specs/*.yaml: rules (what the docs say) and the cases they expand to.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "harness/spec/compute_capability.hpp"
#include "harness/spec/placement.hpp"

namespace cuconform {

struct SourceLoc {
  std::string file;
  int line = 0, col = 0;  // 1-based; 0 when unknown
  std::string str() const;
};

// undefined: documented undefined behaviour (or an outcome the documents allow but do not
// promise); its cases run in a process of their own and what happened is recorded, not judged
// (a `variant: control` case, the valid neighbour, is judged as usual).
enum class Kind { positive, negative, performance, codegen, undefined };
const char* to_string(Kind k);
bool parse_kind(const std::string& s, Kind* out);

// What a rule's expectation rests on (`basis:`), so a reader knows what a failure means:
//   documented  the documents promise it: a failure is a conformance failure (a finding)
//   undefined   the documents leave it undefined or open: recorded, never judged (kind undefined)
//   toolchain   what a compiler emits today, which no document promises: tracked for upgrades,
//               a change is reported as a change, never as a conformance failure
//   self_check  a check of the suite's own kernels (a fence kept, a race really racing): a
//               failure is a defect of the suite
//   relied_upon a named consumer's code depends on it (consumers/*.yaml, the rule's `relies:`),
//               whether or not a document states it: a failure is a compatibility break ("this
//               upgrade breaks CUTLASS"), reported apart from documentation violations
// ambiguous: the documents read two ways on the point (they contradict themselves or leave it
// open); the rule tests one reading, its notes say which and why, and a failure is a finding of
// class documents-ambiguous (ci/baselines/known.yaml quotes both passages), not a conformance failure.
enum class Basis { documented, undefined, toolchain, self_check, relied_upon, ambiguous };
const char* to_string(Basis b);  // "documented", "undefined", "toolchain", "self-check", "relied-upon", "ambiguous"
bool parse_basis(const std::string& s, Basis* out);
const std::vector<Basis>& all_bases();
// Why `basis` cannot go with `kind` ("" when they agree): undefined goes with kind undefined and
// kind undefined with basis undefined or relied-upon (the consumer assumes what the documents
// call undefined: recorded beside a judged control); toolchain (what a compiler emits) goes with
// kind codegen only; a self-check is positive or codegen; relied-upon is positive, negative,
// performance or undefined. A codegen rule may be documented where a document
// promises the code (seed 001: the primitives always use LDGSTS).
std::string basis_conflict(Basis basis, Kind kind);

// What a rule's verdicts are for (`tier:`; tier.cpp gives the default from kind and basis):
//   core           judged, deterministic, documented (or relied upon by a named consumer): the gate
//   extended       judged, but on measurements or the suite's own kernels (performance, self-check)
//   informational  records and observations the documents do not promise (undefined behaviour,
//                  what a compiler emits today): shown, never a conformance verdict
enum class Tier { core, extended, informational };
const char* to_string(Tier t);
bool parse_tier(const std::string& s, Tier* out);
const std::vector<Tier>& all_tiers();
Tier default_tier(Kind kind, Basis basis);

// What a case needs besides the fixture itself. peer: a second GPU beside the first (the rules
// that need two GPUs; `run --devices` gives each GPU the next one of the selection as its peer).
enum class Requirement { gpu, ptxas, cuobjdump, nvcc, peer };
const char* to_string(Requirement r);
bool parse_requirement(const std::string& s, Requirement* out);

// Expectations: fixture-defined keys with a scalar or a list of scalars.
struct Expectations {
  std::map<std::string, std::vector<std::string>> values;
  bool has(const std::string& key) const { return values.count(key) != 0; }
  std::string str(const std::string& key, const std::string& fallback = "") const;
  double num(const std::string& key, double fallback) const;
  const std::vector<std::string>& list(const std::string& key) const;
};

struct ParamAxis {
  std::string name;
  std::vector<std::string> values;
};

// A mistake in a document's example: what the text says, what is wrong with it, the fix the
// case runs instead, and the evidence (the compiler's message, or why the result is wrong).
struct Erratum {
  std::string says, wrong, fix, evidence;
  SourceLoc loc;
};

struct Rule {
  std::string id, area, text, source;
  ComputeCapability min_cc;
  std::string arch;  // exact-arch gate such as "sm_90a"; empty when none
  Kind kind = Kind::positive;
  Basis basis = Basis::documented;  // `basis:`; required of active rules
  Tier tier = Tier::core;           // `tier:`, else default_tier(kind, basis)
  bool shadow = false;              // `shadow: true`: new or redefined, report-only until promoted (docs/contract.md)
  std::string definition;           // hash of the entry's defining keys (rule_definition.hpp)
  std::string fixture;
  std::vector<ParamAxis> params;
  std::vector<std::map<std::string, std::string>> exclude;
  std::vector<std::string> where;  // constraint expressions over params
  Expectations expect;             // every case
  Expectations violation;          // negative rules: what the violating case must produce
  bool planned = false;
  std::string planned_reason;
  double timeout_s = 10.0;
  std::vector<Requirement> requires_;
  std::vector<std::string> tags;
  std::string notes;
  std::vector<Erratum> errata;
  std::vector<std::string> statements;  // ids of the statement index (statements/) this rule proves
  std::vector<SourceLoc> statement_locs;  // where each is named, for lint
  std::vector<std::string> relies;        // ids of the relied-upon index (consumers/) this rule proves
  std::vector<SourceLoc> relies_locs;     // where each is named, for lint
  SourceLoc loc;
  bool needs(Requirement q) const;  // listed in `requires:`
  bool has_tag(const std::string& t) const;  // listed in `tags:`
  bool needs_gpu() const;
};

struct Case {
  const Rule* rule = nullptr;
  std::string name;  // stable dotted name: <rule id>.<param>...
  std::vector<std::pair<std::string, std::string>> params;
  std::vector<std::string> tags;
  Expectations expect;  // rule.expect, plus rule.violation for the violating variant
  bool isolated = false;  // expects a device fault, or records undefined behaviour: runs in a process of its own
  bool records = false;   // undefined behaviour: the verdict is `recorded`, whatever happened
  bool is_violation = false;
  // Where it runs: set when the catalog is loaded (place_case), again by `run` for its code path.
  Placement placement;
  std::string param(const std::string& key) const;  // throws when absent
  bool has_param(const std::string& key) const;
  long long param_int(const std::string& key) const;
};

}  // namespace cuconform
