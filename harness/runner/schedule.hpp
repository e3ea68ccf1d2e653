#pragma once
// Where and beside what each case runs (each case's Placement, harness/spec/placement.hpp, says
// which kind it is; harness/runner/plan.hpp orders them). Three kinds of GPU work:
//   shared    many cases in one worker process; several such workers run at once, on the
//             same GPU, in parallel lanes (their verdicts do not depend on what else runs);
//   alone     cases whose observation depends on having the GPU to themselves: rates and
//             latencies (performance rules, fixtures that time something), stress kernels with
//             in-kernel time budgets, and recorded outcomes whose category is a frequency (a weak
//             outcome seen or not). They run after the parallel lanes in one worker;
//   isolated  one case, one process (it expects a fault, or records undefined behaviour that
//             may fault, hang or corrupt the context), one at a time with nothing else on the
//             GPU, last (supervisor.cpp says why they no longer run side by side).
// Host-only cases (ptxas, cuobjdump, nvcc, planned) run in host lanes beside all of this.
#include <string>
#include <vector>


namespace cuconform {

// How many GPU lanes a run uses when --jobs does not say: one per 16 SMs, at most one per two
// CPU cores (of the cores' share of each of `gpus` GPUs run at once), one per 4 GiB of device
// memory, at most 8 (an H100 or H200: 132 SMs, 16 cores -> 8). More lanes buy little: the driver
// makes contexts one at a time (ci/probes/context_cost.py). `why` says how the number was chosen.
int default_gpu_lanes(std::string* why, int gpus = 1);


}  // namespace cuconform
