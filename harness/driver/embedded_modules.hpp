#pragma once
// Fatbins compiled from fixtures/**/*.cu at build time and linked into the executable
// (cmake/EmbedKernels.cmake), with the PTX of every arch beside them. Looked up by the .cu
// file's stem.
#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cuconform {

struct EmbeddedModule {
  std::string name;    // file stem, e.g. "ldgsts_copy"
  std::string source;  // path of the .cu it came from, for messages
  const unsigned char* data;
  std::size_t size;
  std::vector<std::pair<std::string, std::string_view>> ptx;  // ("compute_90a", text)
  // The PTX for a virtual arch ("compute_90a"); empty when this build has none.
  std::string_view ptx_for(const std::string& virtual_arch) const;
};

const EmbeddedModule* embedded_module(const std::string& name);
const std::vector<EmbeddedModule>& embedded_modules();

struct EmbeddedModuleRegistrar {
  EmbeddedModuleRegistrar(const char* name, const char* source, const unsigned char* begin,
                          const unsigned char* end,
                          std::initializer_list<std::pair<const char*, std::string_view>> ptx = {});
};

}  // namespace cuconform
