// Host side: Driver API only (a module image: cubin or PTX).
//   policy_range_host IMAGE  -> a "DESC ..." line per memory kind (device, managed) with the
//                               descriptor createpolicy.range made on the GPU and the one
//                               libcu++'s host encoder computes, then "RESULT ..."
//                               (same | differ: FIELDS | error ...)
// The host encoder is copied literally from NVIDIA/cccl@571f2fc
// libcudacxx/include/cuda/__annotated_ptr/access_property_encoding.h:70-101
// (__block_encoding_host): access_property(ptr, primary, total, evict_last, evict_first) built on
// the host carries this descriptor to the device, where libcu++ builds it with createpolicy.range
// instead (__createpolicy_range, the same header :105-116).
#include <cuda.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "../common/cuda_check.h"

static uint32_t ceil_ilog2(uint32_t v) {
  uint32_t l = 0;
  while ((1ull << l) < v) ++l;
  return l;
}

// __block_encoding_host, with _L2_Evict_First = 1 and _L2_Evict_Last = 2 (the enum of
// access_property_encoding.h) and _Desc_Block_Type = 3.
static uint64_t block_encoding_host(uint64_t raw_ptr, uint32_t primary_bytes, uint32_t total_bytes) {
  const uint32_t log2_total = ceil_ilog2(total_bytes);
  const uint32_t enum_ = log2_total > 19 ? log2_total - 19 : 0;
  const uint32_t log2_block = 12u + enum_;
  const uint32_t block = 1u << log2_block;
  const uint32_t start = static_cast<uint32_t>(raw_ptr >> log2_block);
  const uint32_t end = static_cast<uint32_t>((raw_ptr + primary_bytes + block - 1) >> log2_block);
  uint32_t count = end - start;
  count = count < 1 ? 1 : count > 127 ? 127 : count;
  return static_cast<uint64_t>(count) << 37 | static_cast<uint64_t>(start) << 44 | static_cast<uint64_t>(enum_) << 52 |
         1ull << 56 | 2ull << 57 | 3ull << 59;
}

// The fields of the block descriptor (the layout the header's comment gives, :52-66).
static std::string fields(uint64_t d) {
  char b[200];
  std::snprintf(b, sizeof b, "count %llu start %llu size_enum %llu cop_off %llu cop_on %llu mode %llu high %llu",
                (unsigned long long)(d >> 37 & 0x7f), (unsigned long long)(d >> 44 & 0x7f), (unsigned long long)(d >> 52 & 0xf),
                (unsigned long long)(d >> 56 & 1), (unsigned long long)(d >> 57 & 3), (unsigned long long)(d >> 59 & 3),
                (unsigned long long)(d >> 61));
  return b;
}

int main(int argc, char** argv) {
  alarm(60);
  if (argc != 2) return std::fprintf(stderr, "usage: %s IMAGE\n", argv[0]), 2;
  CUdevice dev;
  if (int e = use_device0(&dev)) return e;
  char name[128] = {};
  cuDeviceGetName(name, sizeof name, dev);
  std::printf("device: %s\n", name);
  CUmodule mod;
  if (int e = load_image(argv[1], &mod)) return e;
  CUfunction f;
  CHECK(cuModuleGetFunction(&f, mod, "policy_range"));
  const unsigned primary = 4096, total = 65536;  // the suite's case: a 4 KiB window of 64 KiB
  CUdeviceptr out;
  CHECK(cuMemAlloc(&out, 8));
  std::string differ;
  for (const char* kind : {"device", "managed"}) {
    CUdeviceptr mem;
    if (std::string(kind) == "device") CHECK(cuMemAlloc(&mem, total));
    else CHECK(cuMemAllocManaged(&mem, total, CU_MEM_ATTACH_GLOBAL));
    void* args[] = {&out, &mem, const_cast<unsigned*>(&primary), const_cast<unsigned*>(&total)};
    CHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr));
    CHECK(cuCtxSynchronize());
    unsigned long long gpu = 0;
    CHECK(cuMemcpyDtoH(&gpu, out, 8));
    const uint64_t host = block_encoding_host(mem, primary, total);
    std::printf("DESC %s ptr 0x%llx: createpolicy.range 0x%016llx (%s)\n", kind, (unsigned long long)mem, gpu, fields(gpu).c_str());
    std::printf("DESC %s ptr 0x%llx: host encoder     0x%016llx (%s)\n", kind, (unsigned long long)mem, (unsigned long long)host,
                fields(host).c_str());
    if (gpu != host) differ += std::string(differ.empty() ? "" : "; ") + kind + " 0x" + [&] {
      char b[40];
      std::snprintf(b, sizeof b, "%016llx vs 0x%016llx", gpu, (unsigned long long)host);
      return std::string(b);
    }();
    cuMemFree(mem);
  }
  std::printf("RESULT %s\n", differ.empty() ? "same" : ("differ: " + differ).c_str());
  return 0;
}
