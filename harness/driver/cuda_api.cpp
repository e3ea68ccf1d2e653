#include "harness/driver/cuda_api.hpp"

#include <dlfcn.h>

#include <map>
#include <mutex>

namespace cuconform {
namespace {

// Query results of the optional entry points the driver did not hand out.
std::map<std::string, int>& optional_query() {
  static std::map<std::string, int> m;
  return m;
}

struct Loaded {
  CudaApi api;
  bool ok = false;
  std::string why_not;
};

Loaded load() {
  Loaded l;
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* e = dlerror();
    l.why_not = std::string("no CUDA driver: libcuda.so.1 could not be loaded (") + (e ? e : "?") + ")";
    return l;
  }
  using GetProc = CUresult (*)(const char*, void**, int, cuuint64_t, CUdriverProcAddressQueryResult*);
  auto get_proc = reinterpret_cast<GetProc>(dlsym(lib, "cuGetProcAddress_v2"));
  if (!get_proc) {
    l.why_not = "CUDA driver too old: libcuda.so.1 has no cuGetProcAddress_v2 (driver for CUDA 12.0+ needed)";
    return l;
  }
  // The version asked for is the toolkit's: the driver hands back the newest ABI of that name up
  // to it, which is cuda.h's for every entry point listed. Not for all names: CUDA 13.0's cuda.h
  // declares cuCtxSynchronize(void), and the name at 13000 gives cuCtxSynchronize_v2(CUcontext)
  // (called without the context it returned CUDA_ERROR_CONTEXT_IS_DESTROYED on an H100,
  // 2026-11-25); check a new entry point for a newer _vN in cuda.h without a #define.
#define CUCONFORM_RESOLVE(name)                                                              \
  {                                                                                          \
    void* fn = nullptr;                                                                      \
    CUdriverProcAddressQueryResult q{};                                                      \
    CUresult r = get_proc(#name, &fn, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &q);        \
    if (r != CUDA_SUCCESS || !fn) {                                                          \
      l.why_not = "CUDA driver lacks entry point " #name " (query result " +                 \
                  std::to_string(static_cast<int>(q)) + "); driver older than the toolkit " \
                  "the suite was built with?";                                               \
      return l;                                                                              \
    }                                                                                        \
    l.api.name = reinterpret_cast<decltype(l.api.name)>(fn);                                 \
  }
  CUCONFORM_DRIVER_ENTRY_POINTS(CUCONFORM_RESOLVE)
#undef CUCONFORM_RESOLVE
#define CUCONFORM_RESOLVE_OPTIONAL(name)                                                  \
  {                                                                                       \
    void* fn = nullptr;                                                                   \
    CUdriverProcAddressQueryResult q{};                                                   \
    CUresult r = get_proc(#name, &fn, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &q);     \
    if (r == CUDA_SUCCESS && fn) l.api.name = reinterpret_cast<decltype(l.api.name)>(fn); \
    else optional_query()[#name] = static_cast<int>(q);                                   \
  }
  CUCONFORM_DRIVER_OPTIONAL_ENTRY_POINTS(CUCONFORM_RESOLVE_OPTIONAL)
#undef CUCONFORM_RESOLVE_OPTIONAL
  l.ok = true;
  return l;
}

}  // namespace

const CudaApi* cuda_api(std::string* why_not) {
  static Loaded loaded = load();
  if (!loaded.ok) {
    if (why_not) *why_not = loaded.why_not;
    return nullptr;
  }
  return &loaded.api;
}

std::string missing_entry_point(const char* name) {
  std::string why;
  if (!cuda_api(&why)) return why;
  auto it = optional_query().find(name);
  return std::string("CUDA driver lacks entry point ") + name + " (query result " +
         (it == optional_query().end() ? std::string("?") : std::to_string(it->second)) + ")";
}

std::string cu_error_name(CUresult r) {
  if (const CudaApi* api = cuda_api()) {
    const char* name = nullptr;
    if (api->cuGetErrorName(r, &name) == CUDA_SUCCESS && name) return name;
  }
  // No driver (or it does not know the code): the names of the codes the suite checks.
  switch (r) {
#define CUCONFORM_NAME(code) \
  case code:                 \
    return #code;
    CUCONFORM_NAME(CUDA_SUCCESS)
    CUCONFORM_NAME(CUDA_ERROR_INVALID_VALUE)
    CUCONFORM_NAME(CUDA_ERROR_OUT_OF_MEMORY)
    CUCONFORM_NAME(CUDA_ERROR_NOT_INITIALIZED)
    CUCONFORM_NAME(CUDA_ERROR_NO_DEVICE)
    CUCONFORM_NAME(CUDA_ERROR_INVALID_PTX)
    CUCONFORM_NAME(CUDA_ERROR_NOT_FOUND)
    CUCONFORM_NAME(CUDA_ERROR_NOT_READY)
    CUCONFORM_NAME(CUDA_ERROR_ILLEGAL_ADDRESS)
    CUCONFORM_NAME(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES)
    CUCONFORM_NAME(CUDA_ERROR_LAUNCH_TIMEOUT)
    CUCONFORM_NAME(CUDA_ERROR_ASSERT)
    CUCONFORM_NAME(CUDA_ERROR_HARDWARE_STACK_ERROR)
    CUCONFORM_NAME(CUDA_ERROR_ILLEGAL_INSTRUCTION)
    CUCONFORM_NAME(CUDA_ERROR_MISALIGNED_ADDRESS)
    CUCONFORM_NAME(CUDA_ERROR_INVALID_ADDRESS_SPACE)
    CUCONFORM_NAME(CUDA_ERROR_INVALID_PC)
    CUCONFORM_NAME(CUDA_ERROR_LAUNCH_FAILED)
    CUCONFORM_NAME(CUDA_ERROR_INVALID_CLUSTER_SIZE)
#undef CUCONFORM_NAME
    default:
      return "CUresult(" + std::to_string(static_cast<int>(r)) + ")";
  }
}

}  // namespace cuconform
