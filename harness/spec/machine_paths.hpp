#pragma once
// Sources cite documents by a path relative to the project (`../shared/reference/...`): an
// absolute path names a folder of the machine that wrote it, which a reader elsewhere lacks,
// and it travels into every results file. The spec loader and `lint` refuse one.
#include <string>
#include <vector>

#include "harness/spec/catalog.hpp"

namespace cuconform {

// The first absolute path in `text` ("/work/shared/x.md"), or "" when there is none: a '/' at
// the start of a word followed by at least two path components. URLs, fractions ("1/2") and
// `$CUDA_HOME/bin` are not paths of this kind. `*pos` gets its offset.
std::string find_absolute_path(const std::string& text, std::size_t* pos = nullptr);

// The findings' READMEs (`DIR/*/README.md`, DIR beside the specs): each absolute path as
// "file:line:col: message". Nothing when DIR does not exist.
std::vector<SpecError> absolute_paths_in_findings(const std::string& findings_dir);

}  // namespace cuconform
