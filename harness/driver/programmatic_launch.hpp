#pragma once
// Programmatic dependent launch: the kernel is launched with
// CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION, so it may start before the previous kernel
// on the stream has finished, once every CTA of that kernel has run griddepcontrol.launch_dependents
// or exited; its griddepcontrol.wait waits for the previous kernel's completion and memory. CUB
// launches its kernels so. The one way the suite makes such a launch (Gpu::launch's path, with the
// attribute added).
#include "harness/driver/gpu.hpp"

namespace cuconform {

void launch_programmatic_raw(Gpu& gpu, CUfunction f, const LaunchConfig& cfg, void** args);

template <class... A>
void launch_programmatic(Gpu& gpu, CUfunction f, const LaunchConfig& cfg, A... args) {
  void* params[] = {static_cast<void*>(&args)..., nullptr};
  launch_programmatic_raw(gpu, f, cfg, params);
}

}  // namespace cuconform
