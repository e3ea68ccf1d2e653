#pragma once
// The *.yaml files of a folder of the spec layer (specs/, statements/, tables/), sorted. A name
// that cannot be followed (a symbolic link loop, a link to nothing, no permission) is an error
// with its path, not an uncaught std::filesystem exception, nor a file silently left out.
#include <string>
#include <vector>

#include "harness/spec/catalog.hpp"

namespace cuconform {

// `skip`: a file name to leave out (statements/dispositions.yaml, read apart).
std::vector<std::string> yaml_files_in(const std::string& dir, std::vector<SpecError>* errors, const std::string& skip = "");

}  // namespace cuconform
