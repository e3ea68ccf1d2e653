#include <iostream>

#include "cli/verbs.hpp"
#include "harness/driver/gpu.hpp"
#include "harness/runner/protocol.hpp"

namespace cuconform {

namespace {

int cmd_device(const Options&) {
  std::cout << "suite:   cuconform " << CUCONFORM_VERSION << " (" << CUCONFORM_COMMIT << ")\n";
  std::cout << "toolkit: CUDA " << CUCONFORM_TOOLKIT << "; SASS and PTX for " << CUCONFORM_SASS_ARCHS << "\n";
  std::string why;
  Gpu* gpu = Gpu::open(&why);
  if (!gpu) {
    std::cout << "device:  none -- " << why << "\n";
    return kExitNoGpu;
  }
  const DeviceInfo& d = gpu->info();
  std::cout << "device:  " << d.ordinal << ": " << d.name << " (" << d.uuid << ")\n";
  std::cout << "cc:      " << d.cc() << ", " << d.sm_count << " SMs, " << d.clock_khz / 1000 << " MHz, L2 "
            << d.l2_bytes / 1024 << " KiB, " << d.smem_per_block_optin / 1024 << " KiB opt-in shared memory per block\n";
  std::cout << "driver:  " << decode_device(encode_device(gpu, "")).driver << " (CUDA " << d.driver_version / 1000
            << "." << d.driver_version % 1000 / 10 << ")\n";
  std::cout << "code:    " << d.code_path << "\n";
  return kExitOk;
}

}  // namespace

const VerbRegistration kDeviceVerb("device",
                                   "the GPU, its compute capability, SMs and driver; the toolkit and archs built in "
                                   "(exit 3 without a GPU)",
                                   cmd_device, [](Verb&) {});

}  // namespace cuconform
