#pragma once
// Where and beside what each case runs. Three kinds of GPU work:
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

#include "harness/spec/spec.hpp"

namespace cuconform {

// Why the case must have the GPU to itself; empty when it may share it.
std::string gpu_alone_reason(const Case& c);

// Whether an isolated case may share its worker with other records of undefined behaviour (one at
// a time; the worker ends with the first that faults, hangs or kills it): records may, unless
// their rule is tagged `fresh-process` (what it records depends on what earlier kernels left,
// e.g. uninitialised shared memory). Cases expecting a fault, and findings that fault (tagged
// `faults`), have a process each.
bool shares_isolated_worker(const Case& c);

// The host lanes' cases: those that need no driver, and the isolated ones among them only where a
// host tool (ptxas, cuobjdump, nvcc) is what they run: a record of what a tool does cannot fault a
// GPU, and a worker a tool crashes is replaced there as in any lane (performance.elect.codegen,
// 0.6 s of cuobjdump, ran in the isolated GPU lane until 2026-11-26).
bool runs_in_host_lanes(const Case& c);

// How many GPU lanes a run uses when --jobs does not say: one per 16 SMs, at most one per two
// CPU cores (of the cores' share of each of `gpus` GPUs run at once), one per 4 GiB of device
// memory, at most 8 (an H100 or H200: 132 SMs, 16 cores -> 8). More lanes buy little: the driver
// makes contexts one at a time (ci/probes/context_cost.py). `why` says how the number was chosen.
int default_gpu_lanes(std::string* why, int gpus = 1);


// What a case costs, in ptxas runs (about 0.02 s each on the GPU machine; a GPU kernel case 1):
// the host lanes, and the GPU lanes (which hold the tool cases with --codegen jit), cut their
// chunks by it and start with the costliest. An nvcc compile costs about 5 s (250), a
// SASS fact (ptxas, then cuobjdump) about 0.3 s (16): measured on the H100 machine, 2026-11-25.
double case_cost(const Case& c);

}  // namespace cuconform
