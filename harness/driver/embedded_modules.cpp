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

std::string_view EmbeddedModule::ptx_for(const std::string& virtual_arch) const {
  for (const auto& [arch, text] : ptx)
    if (arch == virtual_arch) return text;
  return {};
}

EmbeddedModuleRegistrar::EmbeddedModuleRegistrar(
    const char* name, const char* source, const unsigned char* begin, const unsigned char* end,
    std::initializer_list<std::pair<const char*, std::string_view>> ptx) {
  EmbeddedModule m{name, source, begin, static_cast<std::size_t>(end - begin), {}};
  for (const auto& [arch, text] : ptx) m.ptx.emplace_back(arch, text);
  registry().push_back(std::move(m));
}

}  // namespace cuconform
