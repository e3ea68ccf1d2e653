#pragma once
// A release's manifest (releases/VERSION/manifest.json, docs/contract.md): every case of the
// release with its rule, the hash of the rule's definition, its tier and basis. `cuconform manifest`
// writes it from the specs; `compare` reads it for a baseline whose results file carries no
// definitions (written before suite 1.0.0).
#include <map>
#include <string>
#include <vector>

#include "harness/spec/catalog.hpp"

namespace cuconform {

inline constexpr const char* kManifestSchema = "cuconform-manifest/1";

struct ManifestCase {
  std::string name, rule, definition, tier, basis;
  bool shadow = false;
};

struct Manifest {
  std::string file, version, commit;  // commit: only in a manifest made for a baseline of before 1.0.0
  std::vector<ManifestCase> cases;
  std::map<std::string, std::size_t> index;
  const ManifestCase* find(const std::string& name) const;
};

// The manifest text: one case a line, so a change of the release's contract reads as a diff in
// review. `commit` is empty for a release (its version names it).
std::string manifest_json(const Catalog& cat, const std::string& version, const std::string& commit);
// Throws ResultsError ("FILE:LINE: ...") on bad input.
Manifest load_manifest(const std::string& path);
Manifest parse_manifest(const std::string& text, const std::string& name);
// releases/ beside the specs folder (the source tree's, or an installed share/cuconform/).
std::string releases_dir_beside(const std::string& specs_dir);
// The manifest under `dir` (searched recursively) of suite `version`: one made for `commit`
// first, else the release's own (no commit); "" when none.
std::string find_manifest(const std::string& dir, const std::string& version, const std::string& commit);
// The manifest of the newest release before `version` under `dir` ("" when none): what a new or
// redefined rule is new against.
std::string previous_release_manifest(const std::string& dir, const std::string& version);
// Rules of `cat` that are new or redefined against `previous` and not in shadow: "RULE (new since
// VERSION)" / "RULE (redefined since VERSION)".
std::vector<std::string> unshadowed_changes(const Catalog& cat, const Manifest& previous);

}  // namespace cuconform
