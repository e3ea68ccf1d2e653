#include "harness/driver/runtime_entry.hpp"

#include <dlfcn.h>

namespace cuconform {
namespace {

// cudaError_t and the query-result enum are ints; cudaEnableDefault is 0.
using ByVersion = int (*)(const char*, void**, unsigned, unsigned long long, int*);
using Plain = int (*)(const char*, void**, unsigned long long, int*);

struct Runtime {
  void* lib = nullptr;
  std::string name, why_not;
  ByVersion by_version = nullptr;
  Plain plain = nullptr;
};

const Runtime& runtime() {
  static const Runtime rt = [] {
    Runtime r;
    // The toolkit's soname first (the suite is built with CUDA 13), then an older one, then the
    // development link.
    std::string errors;
    for (const char* name : {"libcudart.so.13", "libcudart.so.12", "libcudart.so"}) {
      r.lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
      if (r.lib) {
        r.name = name;
        break;
      }
      const char* e = dlerror();
      errors += std::string(errors.empty() ? "" : "; ") + (e ? e : name);
    }
    if (!r.lib) {
      r.why_not = "no CUDA runtime: libcudart could not be loaded (" + errors + ")";
      return r;
    }
    r.by_version = reinterpret_cast<ByVersion>(dlsym(r.lib, "cudaGetDriverEntryPointByVersion"));
    r.plain = reinterpret_cast<Plain>(dlsym(r.lib, "cudaGetDriverEntryPoint"));
    return r;
  }();
  return rt;
}

RuntimeEntry ask(const std::string& symbol, const char* api, bool by_version, unsigned version) {
  RuntimeEntry e;
  const Runtime& r = runtime();
  if (!r.lib) {
    e.why_not = r.why_not;
    return e;
  }
  if (by_version ? !r.by_version : !r.plain) {
    e.why_not = r.name + " has no " + api;
    return e;
  }
  int result = -1;
  e.status = by_version ? r.by_version(symbol.c_str(), &e.fn, version, 0, &result) : r.plain(symbol.c_str(), &e.fn, 0, &result);
  e.query_result = result;
  return e;
}

}  // namespace

RuntimeEntry runtime_entry_by_version(const std::string& symbol, unsigned cuda_version) {
  return ask(symbol, "cudaGetDriverEntryPointByVersion", true, cuda_version);
}

RuntimeEntry runtime_entry(const std::string& symbol) { return ask(symbol, "cudaGetDriverEntryPoint", false, 0); }

std::string runtime_library() { return runtime().name; }

}  // namespace cuconform
