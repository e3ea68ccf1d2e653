#pragma once
// The baseline's companion file (ci/baselines/known.yaml, format in reporters/README.md):
// known failures and known flakes, each with a reason, so a known driver bug does not redden
// every nightly; plus per-measurement tolerances for `compare`.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "reporters/results_file.hpp"
#include "reporters/safe_regex.hpp"

namespace cuconform {

// What kind of finding a known failure is, in the order an upgrade check shows them: what can
// break a kernel first. Every known failure names one (`class:`).
enum class FindingClass {
  runtime,                 // wrong data or a fault at run time
  consumer_break,          // a behaviour a named consumer's code relies on (basis relied-upon) does not
                           // hold: this upgrade breaks CUTLASS, CCCL, ... (whatever the documents say)
  tool_accepts_forbidden,  // the compiler/assembler/driver API accepts what the documents forbid
  tool_rejects_allowed,    // ... rejects what the documents allow
  performance,             // a documented performance property does not hold
  documents,               // the documents contradict themselves or leave the point open: no
                           // tool or GPU contradicts clear text (both passages quoted)
  none,                    // not given (known flakes may omit it)
};
const char* to_string(FindingClass c);
const char* finding_class_title(FindingClass c);  // "wrong data or a fault at run time"
bool parse_finding_class(const std::string& s, FindingClass* out);
// The classes in report order (runtime first, the documents' own last), without `none`.
const std::vector<FindingClass>& finding_classes();

// A passage of the documents a finding rests on, quoted with its section.
struct Passage {
  std::string section, quote;
};

struct KnownEntry {
  std::string id;       // a case name, or a rule id (then every case of the rule)
  std::string pattern;  // or a regex searched in the case name
  std::string reason, issue;
  FindingClass cls = FindingClass::none;
  std::vector<Passage> passages;  // the passages it rests on; class documents: both sides, at least two
  std::string device, driver;  // optional regexes: the entry applies only on matching runs
  std::string tool;            // ... on the tool that made the machine code (RunInfo::tool_line(): "ptxas 13.0.88",
                               // "driver JIT 580.159.04"): a finding of a tool belongs to its version, whatever the code path
  std::string toolchain;       // ... on the run's code path (RunInfo::toolchain_line(): "sass (nvcc 13.0 ...)", "ptxas 12.8.93");
                               // not for a tool's finding (tool-accepts-forbidden, tool-rejects-allowed): use `tool:`
  std::string where;           // FILE:LINE, for messages
  // A waiver's terms (waivers.hpp): who answers for it, until when (YYYY-MM-DD, inclusive), and
  // where the finding is written up. An expired entry waives nothing: its cases gate again.
  std::string owner, expires, link;
  bool expired = false;        // expires < the list's `today`
  SafeRegex re, device_re, driver_re, tool_re, toolchain_re;  // linear-time matching (reporters/safe_regex.hpp)
  bool matches(const CaseRow& c, const RunInfo* run) const;
  // The device, driver and code path fit (null: any run; a run without device fields: the code
  // path only).
  bool applies_to(const RunInfo* run) const;
  std::string what() const { return id.empty() ? "/" + pattern + "/" : id; }
};

// One tolerance override: a glob, its relative tolerance (negative: `off`, never compared), and
// the noise class it belongs to with the evidence for its width (known.yaml; empty on the
// command line).
struct ToleranceRule {
  std::string glob;
  double tolerance = 0;
  std::string cls, evidence;
};

// Relative tolerances by measurement: the first matching override wins, else the default.
// A glob with ':' is matched against "CASE:MEASUREMENT", one without against the measurement.
// A negative tolerance means "never compared" (written `off`).
struct Tolerances {
  double fallback = 0.25;
  std::vector<ToleranceRule> overrides;
  double of(const std::string& case_name, const std::string& measurement) const;
  // The override that decides (nullptr: the default applies).
  const ToleranceRule* rule_for(const std::string& case_name, const std::string& measurement) const;
  // "0.25" or "0.25,*_cycles=0.5,outcome_*=off" or "ratio=0.1"; false with `error` on bad text.
  bool parse(const std::string& text, std::string* error);
};

struct KnownList {
  std::string file;
  std::string today;  // YYYY-MM-DD the expiry dates are judged on (waiver_today(): $CUCONFORM_TODAY or the UTC date)
  std::vector<KnownEntry> failures, flakes;
  std::vector<ToleranceRule> tolerances;  // from the file's `tolerances:`
  const KnownEntry* failure(const CaseRow& c, const RunInfo* run) const;
  const KnownEntry* flake(const CaseRow& c, const RunInfo* run) const;
  // An expired entry (failure or flake) that would match: the case is no longer waived.
  const KnownEntry* expired(const CaseRow& c, const RunInfo* run) const;
};

// Throws ResultsError ("FILE:LINE: what") on bad input.
KnownList load_known(const std::string& path);

}  // namespace cuconform
