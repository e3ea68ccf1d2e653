#pragma once
// Fatbins compiled from fixtures/**/*.cu at build time and linked into the executable
// (cmake/EmbedKernels.cmake). Looked up by the .cu file's stem.
#include <cstddef>
#include <string>
#include <vector>

namespace cuconform {

struct EmbeddedModule {
  std::string name;    // file stem, e.g. "ldgsts_copy"
  std::string source;  // path of the .cu it came from, for messages
  const unsigned char* data;
  std::size_t size;
};

const EmbeddedModule* embedded_module(const std::string& name);
const std::vector<EmbeddedModule>& embedded_modules();

struct EmbeddedModuleRegistrar {
  EmbeddedModuleRegistrar(const char* name, const char* source, const unsigned char* begin,
                          const unsigned char* end);
};

}  // namespace cuconform
