// Which known list a verb reads: one rule for run, compare and report, so that a plain `compare`
// judges with the same findings, flakes and measurement tolerances a plain `run` counted with.
#include <cstdlib>
#include <filesystem>
#include <ostream>

#include "cli/verbs.hpp"
#include "harness/spec/catalog.hpp"

namespace cuconform {

std::string specs_dir_of(const Options& o) { return o.specs.empty() ? default_specs_dir() : o.specs; }

std::string known_list_path(const Options& o, const std::string& specs_dir, std::string* from) {
  std::string why, path;
  if (o.has("--known")) {
    why = "--known";
    path = o.get("--known");
  } else if (const char* env = std::getenv("CUCONFORM_KNOWN")) {
    why = "$CUCONFORM_KNOWN";
    path = env;
  } else {
    // A source tree's ci/baselines/known.yaml, beside its specs/.
    std::error_code ec;
    const std::filesystem::path beside = std::filesystem::path(specs_dir) / ".." / "ci" / "baselines" / "known.yaml";
    if (std::filesystem::is_regular_file(beside, ec)) {
      why = "beside the specs";
      path = std::filesystem::weakly_canonical(beside, ec).string();
    } else {
      why = "none beside the specs, no --known, no $CUCONFORM_KNOWN";
    }
  }
  if (path.empty() && why.rfind("none", 0) != 0) why += " is empty";
  if (from) *from = why;
  return path;
}

std::optional<KnownList> load_known_list(const Options& o, const std::string& specs_dir, std::ostream* say) {
  std::string from;
  const std::string path = known_list_path(o, specs_dir, &from);
  if (say) *say << "known list: " << (path.empty() ? "none" : path) << " (" << from << ")\n";
  if (path.empty()) return std::nullopt;
  return load_known(path);
}

}  // namespace cuconform
