#include "harness/runner/schedule.hpp"

#include <algorithm>
#include <cstdlib>
#include <thread>

#include "harness/driver/cuda_api.hpp"
#include "harness/fixture/fixture.hpp"
#include "harness/runner/execute.hpp"

namespace cuconform {

std::string gpu_alone_reason(const Case& c) {
  const Rule& r = *c.rule;
  if (r.planned || !r.needs_gpu()) return "";
  // Under `ctest -j` too: a fault beside other work is what once left an H100 needing a reset.
  if (c.isolated) return "it expects a fault or records undefined behaviour (a process of its own, nothing else on the GPU)";
  if (r.kind == Kind::performance) return "a performance rule: it compares rates or latencies";
  const FixtureInfo* fx = find_fixture(r.fixture);
  if (!fx) return "";
  return fx->gpu_alone ? fx->gpu_alone(c) : "";
}

bool runs_in_host_lanes(const Case& c) {
  if (case_needs_driver(c)) return false;
  const Rule& r = *c.rule;
  return !c.isolated || r.needs(Requirement::ptxas) || r.needs(Requirement::cuobjdump) || r.needs(Requirement::nvcc);
}

bool shares_isolated_worker(const Case& c) {
  return c.isolated && c.records && c.expect.str("fault").empty() && !c.rule->has_tag("faults") &&
         !c.rule->has_tag("fresh-process");
}

int default_gpu_lanes(std::string* why, int gpus) {
  const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / std::max(1, gpus));
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
  if (sms == 0) {
    if (why) *why = "1 (no GPU to size the lanes by)";
    return 1;
  }
  const int by_sms = std::max(1, sms / 16), by_cores = std::max(1, cores / 2);
  const int by_mem = std::max(1, static_cast<int>(mem >> 32));
  const int lanes = std::clamp(std::min({by_sms, by_cores, by_mem}), 1, 8);
  if (why)
    *why = std::to_string(lanes) + " (automatic: " + std::to_string(sms) + " SMs / 16, " + std::to_string(cores) +
           " CPU cores" + (gpus > 1 ? " (1/" + std::to_string(gpus) + " of the host's)" : std::string()) +
           " / 2, " + std::to_string(mem >> 30) + " GiB / 4, at most 8)";
  return lanes;
}

double case_cost(const Case& c) {
  if (c.rule->needs(Requirement::nvcc)) return 250;
  if (c.rule->needs(Requirement::cuobjdump)) return 16;
  return 1;
}

}  // namespace cuconform
