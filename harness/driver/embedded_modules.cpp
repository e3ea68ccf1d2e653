#include "harness/driver/embedded_modules.hpp"

namespace cuconform {

static std::vector<EmbeddedModule>& registry() {
  static std::vector<EmbeddedModule> r;
  return r;
}

const std::vector<EmbeddedModule>& embedded_modules() { return registry(); }

const EmbeddedModule* embedded_module(const std::string& name) {
  for (const auto& m : registry())
    if (m.name == name) return &m;
  return nullptr;
}

EmbeddedModuleRegistrar::EmbeddedModuleRegistrar(const char* name, const char* source,
                                                 const unsigned char* begin,
                                                 const unsigned char* end) {
  registry().push_back({name, source, begin, static_cast<std::size_t>(end - begin)});
}

}  // namespace cuconform
