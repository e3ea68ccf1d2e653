#pragma once
// The suite as a contract in `compare` (docs/contract.md). After compare_runs has classified
// every difference, this judges them by the contract:
//  - across suite versions a case is judged only where its rule's definition is the same in both
//    runs: a redefined case is listed apart (`redefined`), an added one is listed, never a
//    regression (what would gate is listed as `shadow`); BASE's definitions come from its file,
//    else from its manifest under releases/;
//  - a known entry past its expiry waives nothing: a case it waived that still fails is a
//    regression (`waiver expired`), whatever BASE did;
//  - a regression of a rule in shadow is reported (`shadow`), not gated;
//  - with gate tiers given, a regression of a case of another tier is reported (`outside the gate`).
#include <string>
#include <vector>

#include "reporters/compare.hpp"

namespace cuconform {

struct ContractOptions {
  std::vector<std::string> gate_tiers;  // empty: every tier gates
  std::string releases_dir;             // where BASE's manifest is found when its file has no definitions
};

// Reclassifies r's items and sets r->contract (how the two versions were judged). Throws
// ResultsError when a manifest it found does not read.
void apply_contract(const Fleet& base, const Fleet& now, const KnownList* known, const ContractOptions& o, CompareResult* r);

}  // namespace cuconform
