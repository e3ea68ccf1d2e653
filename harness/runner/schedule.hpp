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
#include <cstddef>
#include <string>
#include <vector>


namespace cuconform {

// How many GPU lanes a run uses when --jobs does not say: one per 16 SMs, at most one per two
// CPU cores (of the cores' share of each of `gpus` GPUs run at once), one per 4 GiB of device
// memory, at most 8 (an H100 or H200: 132 SMs, 16 cores -> 8). More lanes buy little: the driver
// makes contexts one at a time (ci/probes/context_cost.py). `why` says how the number was chosen.
int default_gpu_lanes(std::string* why, int gpus = 1);

// How many gated workers of one isolated list to keep started (the one about to run and its
// spares), with `left` cases of it still to run: one for a list of one case; two while lists
// after it wait for their own workers ahead; else up to `depth`. The records' list is last, and
// its records fault one after another: one spare was still making its context at most of its
// gos (2026-11-28, H200: the lane 25.2 s with one spare and spec reading in line, 16.3 s with up
// to three and the context made while the specs are read).
// Lanes for host-only cases (nvcc, ptxas, cuobjdump) on a host of `cores`: the cores less two, at
// most 8. More were measured on a 32-core two-H200 host (2026-11-28) and not kept: the smoke
// profile took 6.1 s with 14 and 10.4 s with 16 (9.1 s with 8), and the whole suite 36.2-36.8 s
// with 16 against 32.3-34.8 s with 8 (the host tools take the cores the GPU lanes' workers
// start on). $CUCONFORM_HOST_LANES sets another number.
int default_host_lanes(int cores);
// Host lanes once a GPU's alone step is over: its isolated step runs one process at a time, so
// the cores the parallel lanes' workers needed are free: the cores, at most 16. The smoke profile
// is bound by its host lanes (2026-11-29, H200, 16 cores: host lanes 7.5 s against the GPU's
// 3.5 s; with 4 GPU lanes and 12 host lanes, 6.2 / 5.4 s with 14 late lanes, 4.9 / 4.5 s with 16).
int late_host_lanes(int cores);
// GPU lanes the parallel step's size warrants: one per 112 cases that may share the GPU. A lane's
// worker takes a core: the smoke profile's 448 such cases ran their parallel and alone steps in
// 2.7 s with 4 lanes against 3.4-3.7 s with 8, its host lanes taking the cores freed (H200, 16
// cores, 2026-11-29); the whole suite's 2,233 keep 8.
int gpu_lanes_for_cases(std::size_t shared_cases);
// The parallel step's lanes: `allowed` (what the GPU and the cores allow), or fewer where the
// step's size warrants fewer (gpu_lanes_for_cases); `why` is rewritten when the size decided.
int parallel_lanes_for(int allowed, std::size_t shared_cases, std::string* why);
// Host lanes beside one GPU whose parallel step runs `gpu_lanes`: the cores it leaves, at most 12,
// never fewer than default_host_lanes (16 cores: 8 to 12).
int host_lanes_beside(int cores, int gpu_lanes);

std::size_t isolated_workers_ahead(std::size_t left, int depth, bool lists_after);


}  // namespace cuconform
