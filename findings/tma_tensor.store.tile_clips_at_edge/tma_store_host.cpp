// Host side: Driver API only (cuTensorMapEncodeTiled + a module image: cubin, fatbin or PTX).
//   tma_store_host IMAGE VARIANT   -> "RESULT ok ..." | "RESULT written-outside ..." | "RESULT fault ..."
// The tensor: H = 8 rows of W floats, rows 16 floats (64 B) apart, so each row is followed by
// 16 - W padding floats. The buffer has one sentinel row before the tensor and one after, and
// every float starts as the sentinel; the store may change only the in-bounds box elements.
#include <cuda.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../common/cuda_check.h"

struct Variant {
  const char* name;
  int rank, width, x, y;
  const char* what;
};
// Box {8} (rank 1) or {8, 4} (rank 2): 32 bytes wide, a multiple of 16 as required.
static const Variant kVariants[] = {
    {"inside_2d", 2, 13, 0, 0, "control: box wholly inside (cols 0..7, rows 0..3)"},
    {"edge_x_2d", 2, 13, 8, 2, "box over the dim-0 edge only: cols 8..15 of W=13, rows 2..5 (all rows in bounds)"},
    {"edge_xy_2d", 2, 13, 8, 6, "box over the dim-0 and dim-1 edges (the suite's shape): cols 8..15, rows 6..9 of H=8"},
    {"edge_x_2d_w14", 2, 14, 8, 2, "W=14: the last in-bounds 16-byte granule (cols 12..15) holds 2 in-bounds elements"},
    {"edge_x_2d_w12", 2, 12, 8, 2, "control: W=12 (48 bytes, a multiple of 16): the out-of-bounds cols 12..15 are a whole granule"},
    {"edge_x_1d", 1, 13, 8, 0, "rank 1: cols 8..15 of W=13, sentinels after the tensor"},
};
constexpr int kRows = 8, kPitch = 16;  // floats
constexpr unsigned kSentinel = 0x7F7F7F7Fu;

int main(int argc, char** argv) {
  alarm(60);
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s IMAGE VARIANT|list\n", argv[0]);
    return 2;
  }
  if (std::string(argv[2]) == "list") {
    for (const Variant& v : kVariants) std::printf("%s\n", v.name);
    return 0;
  }
  const Variant* v = nullptr;
  for (const Variant& c : kVariants)
    if (argv[2] == std::string(c.name)) v = &c;
  if (!v) return std::fprintf(stderr, "unknown variant %s\n", argv[2]), 2;
  std::printf("WHAT %s\n", v->what);

  CUdevice dev;
  if (int e = use_device0(&dev)) return e;
  CUmodule mod;
  if (int e = load_image(argv[1], &mod)) return e;
  CUfunction f;
  CHECK(cuModuleGetFunction(&f, mod, v->rank == 1 ? "store_1d" : "store_2d"));

  // Buffer: sentinel row, kRows tensor rows, sentinel row; the tensor starts at row 1.
  const int rows_total = kRows + 2, n = rows_total * kPitch;
  std::vector<unsigned> before(n, kSentinel), after(n);
  const int box0 = 8, box1 = v->rank == 1 ? 1 : 4, box_n = box0 * box1;
  std::vector<unsigned> fresh(box_n);
  for (int i = 0; i < box_n; ++i) fresh[i] = 0x80000000u | static_cast<unsigned>(i);
  CUdeviceptr d_buf, d_src;
  CHECK(cuMemAlloc(&d_buf, n * 4));
  CHECK(cuMemAlloc(&d_src, box_n * 4));
  CHECK(cuMemcpyHtoD(d_buf, before.data(), n * 4));
  CHECK(cuMemcpyHtoD(d_src, fresh.data(), box_n * 4));
  const CUdeviceptr base = d_buf + kPitch * 4;  // 64-byte aligned (cuMemAlloc is 256-aligned)

  CUtensorMap map;
  cuuint64_t dims[2] = {static_cast<cuuint64_t>(v->width), kRows};
  cuuint64_t strides[1] = {kPitch * 4};
  cuuint32_t box[2] = {static_cast<cuuint32_t>(box0), static_cast<cuuint32_t>(box1)};
  cuuint32_t estr[2] = {1, 1};
  if (v->rank == 1) dims[0] = static_cast<cuuint64_t>(v->width);
  CHECK(cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, static_cast<cuuint32_t>(v->rank), reinterpret_cast<void*>(base),
                               dims, strides, box, estr, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                               CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  int x = v->x, y = v->y;
  void* args[] = {&map, &x, &y, &d_src, const_cast<int*>(&box_n)};
  CUresult r = cuLaunchKernel(f, 1, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr);
  if (r == CUDA_SUCCESS) r = cuCtxSynchronize();
  if (r != CUDA_SUCCESS) return std::printf("RESULT fault %s\n", err_name(r)), 0;
  CHECK(cuMemcpyDtoH(after.data(), d_buf, n * 4));

  // Model: the in-bounds box elements get the fresh values, nothing else changes.
  std::vector<unsigned> want = before;
  int inside = 0;
  for (int j = 0; j < box1; ++j)
    for (int i = 0; i < box0; ++i) {
      const int gx = x + i, gy = y + j;
      if (gx < 0 || gx >= v->width || gy < 0 || gy >= kRows) continue;
      want[(1 + gy) * kPitch + gx] = fresh[j * box0 + i];
      ++inside;
    }
  std::string outside, wrong_inside;
  int n_out = 0, n_in = 0;
  for (int k = 0; k < n; ++k) {
    if (after[k] == want[k]) continue;
    const int row = k / kPitch - 1, col = k % kPitch;
    char buf[96];
    std::snprintf(buf, sizeof buf, " (row %d, col %d) = 0x%08x", row, col, after[k]);
    if (want[k] == before[k]) {  // not an in-bounds box element: must have stayed a sentinel
      if (n_out++ < 12) outside += buf;
    } else if (n_in++ < 4) {
      wrong_inside += buf;
    }
  }
  std::printf("RESULT %s (%d in-bounds elements expected; %d floats outside the tensor written%s%s%s%s)\n",
              n_out ? "written-outside" : n_in ? "wrong-data" : "ok", inside, n_out, n_out ? ":" : "", outside.c_str(),
              n_in ? "; in-bounds elements wrong:" : "", wrong_inside.c_str());
  return 0;
}
