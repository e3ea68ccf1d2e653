#pragma once
// Filters shared by every verb: --area, --rule (glob on rule id or case name), --tag,
// --kind, --tier; values of one filter are alternatives, different filters must all hold.
#include <string>
#include <vector>

#include "harness/spec/catalog.hpp"

namespace cuconform {

// --profile smoke keeps, of each selected rule, its first case (and of a negative rule the
// first control and the first violation): every rule and area touched in seconds, for
// per-commit use; the full matrix stays for nightly runs. It leaves out the rules that need
// nvcc (compile-time facts of the C++ headers: several seconds of compiling each), which
// alone would take most of its 10-second budget, and the undefined-behaviour records (never
// judged, so they cannot fail a commit; each costs a process and a context); their judged
// controls stay. smoke_left_out() says what was left out.
struct Selection {
  std::vector<std::string> areas, rules, tags, kinds, tiers;
  std::string profile = "full";  // "full" or "smoke"
  bool any() const { return !areas.empty() || !rules.empty() || !tags.empty() || !kinds.empty() || !tiers.empty() || profile != "full"; }
  std::vector<std::string> describe() const;  // "--area ldgsts", ...
};

// The selected cases in catalog order; on bad input (unknown area or kind, or filters that
// select nothing) returns false with `error` set.
bool select_cases(const Catalog& cat, const Selection& sel, std::vector<const Case*>* out, std::string* error);

// --rule GLOB's match: the rule id or the case name (shell glob). Rule-table rows cite cases so too.
bool case_matches_glob(const Case& c, const std::string& glob);

// For --profile smoke: "smoke: 1,100 of 3,927 selected cases ...; left out: ...". Empty otherwise.
std::string smoke_left_out(const Catalog& cat, const Selection& sel);

}  // namespace cuconform
