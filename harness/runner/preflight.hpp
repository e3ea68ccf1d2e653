#pragma once
// The pre-flight: before any case runs on a GPU, NVML's own view of the GPU's health (the
// driver's recovery action, row remaps, retired pages, volatile uncorrected ECC errors,
// persistence, MIG and confidential-computing modes, NVLink and fabric state) and the Xids the
// kernel logged since boot. A GPU the driver already marks bad is not run (its cases: "not run:
// unhealthy before the run", with the reason and an action), never given conformance verdicts;
// the others run as before. The judgement is a pure function of the answers (host-tested on
// made-up ones); reading them is harness/driver/nvml.cpp's and kernel_xids.cpp's. The rules:
// docs/fleet.md, "Pre-flight".
#include <ostream>
#include <string>
#include <vector>

#include "harness/driver/gpu_list.hpp"
#include "harness/driver/kernel_xids.hpp"
#include "harness/driver/nvml.hpp"
#include "harness/runner/action.hpp"
#include "harness/util/json_write.hpp"

namespace cuconform {

struct PreflightInput {
  GpuPreflightAnswers nvml;
  bool xids_read = false;
  std::string xids_why_not;     // why the kernel log could not be read
  std::vector<KernelXid> xids;  // this GPU's, oldest first
};

struct Preflight {
  bool run = true;                 // false: unhealthy before the run, nothing runs on it
  Action action = Action::none;
  std::string reason;              // why it does not run, or why the action; "" for none
  std::vector<std::string> notes;  // what was seen that does not stop it (persistence off, MIG on, ...)
  double seconds = 0;              // how long the reading took (not part of the judgement)
};

// The judgement: pure.
Preflight judge_preflight(const PreflightInput& in);
// NVML and the kernel log for `gpu`, now.
PreflightInput read_preflight(const NodeGpu& gpu);
// The device section's "preflight" object: every answer (or why it is missing) and the judgement.
Json preflight_json(const PreflightInput& in, const Preflight& p);
// The console line: "pre-flight gpu0 GPU-...: ok (0.012 s); recovery action none, ..." and the notes.
std::string preflight_text(const NodeGpu& gpu, const PreflightInput& in, const Preflight& p);
// The reason the cases of a GPU that does not run get: "unhealthy before the run: WHY (action: reset)".
std::string preflight_stop_reason(const Preflight& p);

// The pre-flight of every GPU of a run, before any case: each GPU's lines and time printed to
// `out`, its "preflight" section added to its identity (the device section of its results file),
// and per GPU "" or the reason its cases get (preflight_stop_reason). CUCONFORM_PREFLIGHT_INJECT=
// I:FIELD=V[,FIELD=V...] (a test hook, as CUCONFORM_HEALTH_INJECT: nobody may break a GPU on
// purpose) sets NVML answers of GPU index I: recovery_action, remap_failed, remap_pending,
// retired_pending, ecc_volatile_uncorrected, lost, nvlink_down.
std::vector<std::string> preflight_gpus(const std::vector<NodeGpu>& gpus, std::vector<Json>* identity, std::ostream& out);

}  // namespace cuconform
