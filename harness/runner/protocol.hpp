#pragma once
// Lines a worker process writes on fd 3 for its supervisor:
//   DEVICE {json}     once, when the GPU was opened (or could not be)
//   READY             a gated worker (--gate) is ready and waits for its go (worker.hpp)
//   START <case>      before a case runs: the supervisor arms that case's time limit
//   RESULT {json}     the case's result
//   TIMING key secs   where the worker's own time went (catalog_s, gpu_open_s)
#include <string>

#include "harness/runner/case_result.hpp"

namespace cuconform {

class Gpu;

std::string encode_result(const CaseResult& r);
CaseResult decode_result(const std::string& json);  // throws std::runtime_error
std::string encode_device(const Gpu* gpu, const std::string& why_not);
DeviceReport decode_device(const std::string& json);

}  // namespace cuconform
