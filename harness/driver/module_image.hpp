#pragma once
// The machine code of an embedded module on the run's code path (harness/driver/codegen.hpp):
// the fatbin nvcc made (sass), a cubin from the driver's JIT (jit: through cuLink, for the
// SASS readers; kernels themselves are loaded from the PTX with cuModuleLoadDataEx) or from
// another ptxas (ptxas=PATH). Images are made once per run and kept in the run cache.
#include <cuda.h>

#include <string>

#include "harness/driver/embedded_modules.hpp"

namespace cuconform {

struct ModuleImage {
  std::string path;  // the image (fatbin or cubin), a file in the run cache
  std::string how;   // how it was made, for results: "ptxas 12.8.93 -arch=sm_90a from compute_90a PTX"
};

// The image of `m` for `sm_arch` ("sm_90a", "sm_80"). jit needs a current CUDA context.
// Throws std::runtime_error when the toolchain cannot make it (the message says why).
ModuleImage module_image(const EmbeddedModule& m, const std::string& sm_arch);

// A cubin of any PTX text (of virtual arch `ptx_arch`) for `sm_arch` on the run's code path: the
// driver's JIT (jit), that ptxas (ptxas=PATH), or the build toolkit's ptxas (sass: the assembler
// nvcc ran). Cached in the run cache as `name`.<arch>.<path>.cubin. Codegen rules compile twins
// of a kernel with this (its PTX less one construct). Throws std::runtime_error as module_image.
ModuleImage ptx_image(const std::string& name, const std::string& ptx, const std::string& ptx_arch, const std::string& sm_arch);

// The arch whose code a device of this CC runs: sm_90a on 9.0 (arch-specific features), else sm_XY.
std::string device_sm_arch(int cc_major, int cc_minor);

// The embedded PTX that serves sm_arch: its own arch-specific PTX (compute_90a for sm_90a),
// else the newest portable PTX not newer than it. "" when none does.
std::string ptx_arch_for(const EmbeddedModule& m, const std::string& sm_arch);

// The driver's JIT compiler (cuLink), for a target that may differ from the device's.
struct JitResult {
  CUresult status = CUDA_SUCCESS;
  std::string cubin;
  std::string log;
};
JitResult driver_jit(const std::string& ptx, const std::string& sm_arch);

}  // namespace cuconform
