#pragma once
// Who a GPU is and where it ran, for every results file: the Driver API's view (UUID, PCI bus id,
// ordinal) and NVML's (board serial, VBIOS, ECC, MIG and persistence modes, clocks at the start),
// the node's name, and the scheduler's job ids (Slurm, Kubernetes) where a scheduler started the
// run. Two GPUs of one model differ here, so results, history and the fleet view can name them.
#include <string>

#include "harness/driver/gpu_list.hpp"
#include "harness/util/json_write.hpp"

namespace cuconform {

// The fields to add to a results file's "device" object for `gpu` (read now: the clocks are the
// ones at the start of the run). `node` is the host name.
Json gpu_identity(const NodeGpu& gpu, const std::string& node);

// `device_json` (the worker's DEVICE object) with the identity fields added, and "ordinal" the
// GPU's index among those the run saw (a worker sees its GPU alone, as device 0).
std::string with_identity(const std::string& device_json, const Json& identity);

// The run's "job" object: the scheduler that started it and its ids, from the environment
// (SLURM_JOB_ID, SLURM_ARRAY_JOB_ID, SLURM_ARRAY_TASK_ID, SLURMD_NODENAME; in a Kubernetes pod
// POD_NAME, POD_NAMESPACE, NODE_NAME, JOB_NAME, JOB_COMPLETION_INDEX, set through the downward
// API by ci/k8s); null when none did.
Json job_from_environment();

}  // namespace cuconform
