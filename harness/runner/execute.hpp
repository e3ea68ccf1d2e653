#pragma once
// Runs one case in this process: planned and not-supported verdicts, the CC and arch gates,
// tool requirements, the fixture itself, and the generic `fault` expectation.
#include "harness/runner/case_result.hpp"
#include "harness/spec/spec.hpp"

namespace cuconform {

class Gpu;

// `gpu` may be null (with `why_no_gpu`): cases that need one are then not-supported.
CaseResult execute_case(const Case& c, Gpu* gpu, const std::string& why_no_gpu);

// Whether the case opens the GPU's driver: GPU rules, and on `--codegen jit` the compiler
// rules (the driver's JIT is the toolchain then).
bool case_needs_driver(const Case& c);

}  // namespace cuconform
