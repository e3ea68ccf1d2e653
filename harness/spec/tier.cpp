#include "harness/spec/spec.hpp"

namespace cuconform {

const char* to_string(Tier t) {
  switch (t) {
    case Tier::core: return "core";
    case Tier::extended: return "extended";
    case Tier::informational: return "informational";
  }
  return "?";
}

const std::vector<Tier>& all_tiers() {
  static const std::vector<Tier> all = {Tier::core, Tier::extended, Tier::informational};
  return all;
}

bool parse_tier(const std::string& s, Tier* out) {
  for (Tier t : all_tiers())
    if (s == to_string(t)) {
      *out = t;
      return true;
    }
  return false;
}

// Records and compiler observations promise nothing; measurements and the suite's own checks are
// judged but are not what a driver or a GPU is held to; everything else the documents (or a named
// consumer's code) promise is the gate. A rule overrides this with `tier:`.
Tier default_tier(Kind kind, Basis basis) {
  if (kind == Kind::undefined || basis == Basis::undefined || basis == Basis::toolchain) return Tier::informational;
  // One reading of ambiguous text is judged, but the documents promise neither reading: not the gate.
  if (kind == Kind::performance || basis == Basis::self_check || basis == Basis::ambiguous) return Tier::extended;
  return Tier::core;
}

}  // namespace cuconform
