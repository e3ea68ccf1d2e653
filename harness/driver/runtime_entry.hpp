#pragma once
// The CUDA runtime's driver entry-point queries (cudaGetDriverEntryPointByVersion and the older
// cudaGetDriverEntryPoint), opened at run time like the driver (cuda_api.hpp): libcudart is
// dlopen'ed on first use, so nothing links against it and a machine without it loses only the
// rules that ask the runtime.
#include <string>

namespace cuconform {

// A driver function's address as the runtime hands it out, or why not.
struct RuntimeEntry {
  void* fn = nullptr;
  int status = -1;        // the cudaError_t the query returned (0: cudaSuccess)
  int query_result = -1;  // its cudaDriverEntryPointQueryResult (0: found)
  std::string why_not;    // non-empty: the runtime or the query function is absent
};

// cudaGetDriverEntryPointByVersion(symbol, &fn, version, cudaEnableDefault, &result).
RuntimeEntry runtime_entry_by_version(const std::string& symbol, unsigned cuda_version);
// cudaGetDriverEntryPoint(symbol, &fn, cudaEnableDefault, &result) (deprecated since CUDA 12.5).
RuntimeEntry runtime_entry(const std::string& symbol);

// Which libcudart was opened ("libcudart.so.13"), or "" when none could be.
std::string runtime_library();

}  // namespace cuconform
