// Host side: Driver API only (cuTensorMapEncodeTiled + a module image: cubin or PTX).
//   tensor_reduce_b64_host IMAGE MAPTYPE OP   (MAPTYPE int64|uint64, OP and|or|xor|min|max)
//     -> "RESULT ok ..." | "RESULT wrong-data ..." | "RESULT fault <error>" | "RESULT error ..."
//   tensor_reduce_b64_host list               -> the variants, "MAPTYPE OP" per line
// The tensor: 64 elements of 8 bytes (rank 1), the box 16 elements at x = 16 (wholly inside).
// Each in-bounds box element must become old <op> src (min/max: signed order for INT64,
// unsigned for UINT64) and nothing else may change. A fault poisons the context, so run.sh
// runs every variant in a process of its own.
#include <cuda.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "../common/cuda_check.h"

constexpr int kElems = 64, kBox = 16, kX = 16;
static const char* kVariants[][2] = {
    {"int64", "and"}, {"uint64", "and"}, {"int64", "or"}, {"uint64", "or"}, {"int64", "xor"},
    {"uint64", "xor"}, {"int64", "min"}, {"uint64", "min"}, {"int64", "max"},
};

static uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static uint64_t apply(const std::string& op, bool is_signed, uint64_t a, uint64_t b) {
  if (op == "and") return a & b;
  if (op == "or") return a | b;
  if (op == "xor") return a ^ b;
  const bool a_less = is_signed ? static_cast<int64_t>(a) < static_cast<int64_t>(b) : a < b;
  if (op == "min") return a_less ? a : b;
  return a_less ? b : a;  // max
}

int main(int argc, char** argv) {
  alarm(60);
  if (argc == 2 && std::string(argv[1]) == "list") {
    for (auto& v : kVariants) std::printf("%s %s\n", v[0], v[1]);
    return 0;
  }
  if (argc != 4) return std::fprintf(stderr, "usage: %s IMAGE int64|uint64 and|or|xor|min|max  |  %s list\n", argv[0], argv[0]), 2;
  const std::string type = argv[2], op = argv[3];
  if ((type != "int64" && type != "uint64") || (op != "and" && op != "or" && op != "xor" && op != "min" && op != "max"))
    return std::fprintf(stderr, "unknown map type or op\n"), 2;
  const bool is_signed = type == "int64";

  CUdevice dev;
  if (int e = use_device0(&dev)) return e;
  CUmodule mod;
  if (int e = load_image(argv[1], &mod)) return e;
  CUfunction f;
  CHECK(cuModuleGetFunction(&f, mod, ("reduce_" + op + "_1d").c_str()));

  // Old values: random 64-bit words; every 4th box element gets dst == src, 0, all ones or a
  // sign flip, so signed vs unsigned order and the bitwise ops all show.
  uint64_t seed = 0x5eed0000u;
  std::vector<uint64_t> before(kElems), src(kBox), after(kElems);
  for (auto& v : before) v = splitmix(seed);
  for (auto& v : src) v = splitmix(seed);
  for (int i = 0; i < kBox; i += 4) {
    src[i] = before[kX + i];
    before[kX + i + 1] = 0;
    src[i + 2] = ~0ull;
    src[i + 3] = before[kX + i + 3] ^ 0x8000000000000000ull;
  }
  CUdeviceptr d_buf, d_src;
  CHECK(cuMemAlloc(&d_buf, kElems * 8));  // 256-byte aligned
  CHECK(cuMemAlloc(&d_src, kBox * 8));
  CHECK(cuMemcpyHtoD(d_buf, before.data(), kElems * 8));
  CHECK(cuMemcpyHtoD(d_src, src.data(), kBox * 8));

  CUtensorMap map;
  cuuint64_t dims[1] = {kElems};
  cuuint64_t strides[1] = {0};  // rank 1: no strides are read
  cuuint32_t box[1] = {kBox};
  cuuint32_t estr[1] = {1};
  CHECK(cuTensorMapEncodeTiled(&map, is_signed ? CU_TENSOR_MAP_DATA_TYPE_INT64 : CU_TENSOR_MAP_DATA_TYPE_UINT64, 1,
                               reinterpret_cast<void*>(d_buf), dims, strides, box, estr, CU_TENSOR_MAP_INTERLEAVE_NONE,
                               CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  int x = kX;
  void* args[] = {&map, &x, &d_src};
  CUresult r = cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr);
  if (r == CUDA_SUCCESS) r = cuCtxSynchronize();
  if (r != CUDA_SUCCESS) return std::printf("RESULT fault %s\n", err_name(r)), 0;
  CHECK(cuMemcpyDtoH(after.data(), d_buf, kElems * 8));

  std::vector<uint64_t> want = before;
  for (int i = 0; i < kBox; ++i) want[kX + i] = apply(op, is_signed, before[kX + i], src[i]);
  int wrong = 0;
  std::string shown;
  for (int k = 0; k < kElems; ++k) {
    if (after[k] == want[k]) continue;
    if (wrong++ < 4) {
      char buf[128];
      std::snprintf(buf, sizeof buf, " [%d] = 0x%016llx, want 0x%016llx%s", k, static_cast<unsigned long long>(after[k]),
                    static_cast<unsigned long long>(want[k]), k >= kX && k < kX + kBox ? "" : " (outside the box)");
      shown += buf;
    }
  }
  if (wrong) return std::printf("RESULT wrong-data (%d of %d elements differ:%s)\n", wrong, kElems, shown.c_str()), 0;
  std::printf("RESULT ok (the %d box elements are old %s src, the other %d unchanged)\n", kBox, op.c_str(), kElems - kBox);
  return 0;
}
