#pragma once
// Where and beside what each case runs. Three kinds of GPU work:
//   shared    many cases in one worker process; several such workers run at once, on the
//             same GPU, in parallel lanes (their verdicts do not depend on what else runs);
//   isolated  one case, one process (it expects a fault, or records undefined behaviour that
//             may fault, hang or corrupt the context), also in the parallel lanes;
//   alone     cases whose observation depends on having the GPU to themselves: rates and
//             latencies (performance rules, fixtures that time something) and recorded outcomes
//             whose category is a frequency (a weak outcome seen or not). They run after the
//             parallel lanes, one worker at a time.
// Host-only cases (ptxas, cuobjdump, nvcc, planned) run in host lanes beside all of this.
#include <string>
#include <vector>

#include "harness/spec/spec.hpp"

namespace cuconform {

// Why the case must have the GPU to itself; empty when it may share it.
std::string gpu_alone_reason(const Case& c);

// How many GPU lanes a run uses when --jobs does not say: one per 16 SMs, at most one per two
// CPU cores, one per 4 GiB of device memory, at most 8 (an H100 or H200: 132 SMs, 16 cores ->
// 8). Measured on an H100 (2026-11-25): the 145 isolated cases took 108.8 s in one process,
// 40.3 s in 4 and 34.1 s in 8. `why` says how the number was chosen.
int default_gpu_lanes(std::string* why);

// A case that is costly on the host (nvcc compiles: seconds each) goes first, on its own, so
// that the host lanes do not end on one long chunk.
bool host_case_is_slow(const Case& c);

}  // namespace cuconform
