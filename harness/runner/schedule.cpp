#include "harness/runner/schedule.hpp"

#include <algorithm>
#include <cstdlib>
#include <thread>

#include "harness/driver/cuda_api.hpp"
#include "harness/runner/plan.hpp"

namespace cuconform {

int default_gpu_lanes(std::string* why, int gpus) {
  std::string no_gpu;
  const CudaApi* api = cuda_api(&no_gpu);
  int sms = 0;
  std::size_t mem = 0;
  CUdevice dev = 0;
  const char* env = std::getenv("CUCONFORM_DEVICE");
  // cuInit and device attributes only: no context, so this costs tens of milliseconds.
  if (api && api->cuInit(0) == CUDA_SUCCESS && api->cuDeviceGet(&dev, env ? std::atoi(env) : 0) == CUDA_SUCCESS) {
    api->cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
    api->cuDeviceTotalMem(&mem, dev);
  }
  return gpu_lanes_for(sms, mem, static_cast<int>(std::thread::hardware_concurrency()), gpus, why);
}

int default_host_lanes(int cores) { return std::clamp(cores - 2, 1, 8); }

int late_host_lanes(int cores) { return std::clamp(cores, 1, 16); }

int gpu_lanes_for_cases(std::size_t shared_cases) { return static_cast<int>(std::max<std::size_t>(1, (shared_cases + 111) / 112)); }

int parallel_lanes_for(int allowed, std::size_t shared_cases, std::string* why) {
  const int by_cases = gpu_lanes_for_cases(shared_cases);
  if (by_cases >= allowed) return allowed;
  if (why) *why = std::to_string(by_cases) + " (" + std::to_string(shared_cases) + " cases / 112; the GPU allows " + std::to_string(allowed) + ")";
  return by_cases;
}

int host_lanes_beside(int cores, int gpu_lanes) { return std::max(default_host_lanes(cores), std::clamp(cores - gpu_lanes, 1, 12)); }

std::size_t isolated_workers_ahead(std::size_t left, int depth, bool lists_after) {
  if (left <= 1) return 1;
  if (lists_after) return 2;
  return std::min(left, static_cast<std::size_t>(std::max(2, depth)));
}

}  // namespace cuconform
