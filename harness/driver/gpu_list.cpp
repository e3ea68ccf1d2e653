#include "harness/driver/gpu_list.hpp"

#include <algorithm>
#include <sstream>

#include "harness/driver/cuda_api.hpp"
#include "harness/driver/gpu.hpp"

namespace cuconform {

std::string NodeGpu::short_uuid() const {
  std::string hex = uuid.rfind("GPU-", 0) == 0 ? uuid.substr(4) : uuid;
  return hex.substr(0, 8);
}

std::vector<NodeGpu> list_gpus(std::string* why_none) {
  std::vector<NodeGpu> out;
  const CudaApi* api = cuda_api(why_none);
  if (!api) return out;
  CUresult r = api->cuInit(0);
  if (r != CUDA_SUCCESS) {
    if (why_none) *why_none = "no usable GPU: cuInit failed with " + cu_error_name(r);
    return out;
  }
  int count = 0;
  api->cuDeviceGetCount(&count);
  for (int i = 0; i < count; ++i) {
    CUdevice dev = 0;
    if (api->cuDeviceGet(&dev, i) != CUDA_SUCCESS) continue;
    NodeGpu g;
    g.ordinal = i;
    char buf[256] = {};
    api->cuDeviceGetName(buf, sizeof buf, dev);
    g.name = buf;
    CUuuid uuid{};
    if (api->cuDeviceGetUuid(&uuid, dev) == CUDA_SUCCESS) g.uuid = uuid_text(uuid);
    char bus[32] = {};
    if (api->cuDeviceGetPCIBusId(bus, sizeof bus, dev) == CUDA_SUCCESS) g.pci_bus_id = bus;
    int major = 0, minor = 0;
    api->cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
    api->cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
    g.cc = std::to_string(major) + "." + std::to_string(minor);
    api->cuDeviceGetAttribute(&g.sm_count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
    api->cuDeviceTotalMem(&g.total_mem, dev);
    out.push_back(g);
  }
  if (out.empty() && why_none) *why_none = "no GPU: the driver reports no device";
  return out;
}

bool select_gpus(const std::string& spec, const std::vector<NodeGpu>& all, std::vector<NodeGpu>* out,
                 std::string* error) {
  out->clear();
  auto describe = [&] {
    std::string s;
    for (const NodeGpu& g : all) s += (s.empty() ? "" : ", ") + std::to_string(g.ordinal) + " (" + g.uuid + ")";
    return s.empty() ? std::string("none") : s;
  };
  if (spec == "all") {
    *out = all;
    if (out->empty()) *error = "--devices all: no GPU to select";
    return !out->empty();
  }
  std::stringstream ss(spec);
  std::string item;
  while (std::getline(ss, item, ',')) {
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (item.empty()) {
      *error = "--devices '" + spec + "': an empty entry";
      return false;
    }
    const NodeGpu* hit = nullptr;
    if (item.find_first_not_of("0123456789") == std::string::npos) {
      const long n = item.size() > 6 ? -1 : std::stol(item);
      for (const NodeGpu& g : all)
        if (g.ordinal == n) hit = &g;
      if (!hit) {
        *error = "--devices: no GPU " + item + " (GPUs here: " + describe() + ")";
        return false;
      }
    } else {
      std::string want = item;
      std::transform(want.begin(), want.end(), want.begin(), ::tolower);
      if (want.rfind("gpu-", 0) == 0) want = "GPU-" + want.substr(4);
      int matches = 0;
      for (const NodeGpu& g : all)
        if (g.uuid.rfind(want, 0) == 0) {
          hit = &g;
          ++matches;
        }
      if (matches != 1) {
        *error = "--devices: '" + item + "' " + (matches ? "names more than one GPU" : "names no GPU") +
                 " (GPUs here: " + describe() + ")";
        return false;
      }
    }
    for (const NodeGpu& g : *out)
      if (g.uuid == hit->uuid) {
        *error = "--devices: GPU " + std::to_string(hit->ordinal) + " (" + hit->uuid + ") is named twice";
        return false;
      }
    out->push_back(*hit);
  }
  if (out->empty()) *error = "--devices: no GPU named";
  return !out->empty();
}

}  // namespace cuconform
