#pragma once
// The GPUs a run can use, and the `--devices` selection among them. Read through the Driver API
// (cuInit and device attributes only: no context), so the order and the set are CUDA's: what
// CUDA_VISIBLE_DEVICES leaves visible, in CUDA's order.
#include <cstddef>
#include <string>
#include <vector>

namespace cuconform {

struct NodeGpu {
  int ordinal = 0;  // CUDA's index in this process
  std::string uuid, name, pci_bus_id, cc;
  int sm_count = 0;
  std::size_t total_mem = 0;
  std::string short_uuid() const;  // the first 8 hex digits: "5f0c2a9e"
};

// Every GPU the driver shows; empty with `why_none` (no driver, no device).
std::vector<NodeGpu> list_gpus(std::string* why_none);

// `spec`: "all", or a comma-separated list of ordinals and UUIDs (a UUID may be shortened to a
// prefix that names one GPU, "GPU-5f0c2a9e"). False with `error` for an unknown, ambiguous or
// repeated entry or an empty list.
bool select_gpus(const std::string& spec, const std::vector<NodeGpu>& all, std::vector<NodeGpu>* out,
                 std::string* error);

}  // namespace cuconform
