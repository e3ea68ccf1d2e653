// Host side: Driver API only (a module image: cubin or PTX).
//   bulk_reduce_f32_host IMAGE   -> one "PAIR ..." line per pair and instruction, then
//                                   "RESULT ..." (ok | keeps-subnormals | neither | fault | error)
// Each pair is dst (the old value in global memory) + src (the value reduced into it). For
// each, the flushed model (subnormal inputs -> sign-preserving zero, IEEE add rounded to
// nearest even, a subnormal result -> sign-preserving zero: what the PTX ISA says the current
// implementation does) and the unflushed model (IEEE add) are printed next to what the GPU
// wrote, for cp.reduce.async.bulk .add.f32 and for red.global.add.f32.
#include <cuda.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "../common/cuda_check.h"

struct Pair {
  unsigned dst, src;
  const char* what;
};
// 12 pairs: three 16-byte chunks.
static const Pair kPairs[] = {
    {0x007abdbdu, 0x00800000u, "subnormal + smallest normal (the suite's first mismatch)"},
    {0x00000001u, 0x00000001u, "smallest subnormal + smallest subnormal"},
    {0x00400000u, 0x00400000u, "subnormal + subnormal, normal sum (2^-126)"},
    {0x80001234u, 0x80000001u, "-subnormal + -subnormal"},
    {0x00012345u, 0x00000000u, "subnormal + +0"},
    {0x80012345u, 0x80000000u, "-subnormal + -0"},
    {0x00800001u, 0x80800000u, "two normals, subnormal sum (+2^-149)"},
    {0x80c00000u, 0x00800000u, "two normals, subnormal sum (-2^-127)"},
    {0x01400000u, 0x80200000u, "normal + -subnormal, normal sum"},
    {0x3fc00000u, 0x00000010u, "control: 1.5 + subnormal (1.5 either way)"},
    {0x3f800000u, 0x40000000u, "control: 1.0 + 2.0"},
    {0x00000000u, 0x80000000u, "control: +0 + -0"},
};
constexpr int kN = sizeof kPairs / sizeof kPairs[0];
static_assert(kN % 4 == 0, "16-byte chunks");

static float as_f(unsigned u) { float f; std::memcpy(&f, &u, 4); return f; }
static unsigned as_u(float f) { unsigned u; std::memcpy(&u, &f, 4); return u; }
static bool subnormal(unsigned u) { return (u & 0x7f800000u) == 0 && (u & 0x007fffffu) != 0; }
static unsigned flush(unsigned u) { return subnormal(u) ? (u & 0x80000000u) : u; }
// The host adds in IEEE binary32 (SSE, no FTZ/DAZ), round to nearest even.
static unsigned ieee_add(unsigned a, unsigned b) { volatile float x = as_f(a), y = as_f(b); return as_u(x + y); }
static unsigned flush_add(unsigned a, unsigned b) { return flush(ieee_add(flush(a), flush(b))); }

// Which model did `got` match: both (the models agree), flush, ieee, or neither.
static const char* matched(unsigned got, unsigned fl, unsigned ie) {
  if (fl == ie) return got == fl ? "both (the models agree)" : "neither";
  return got == fl ? "flush" : got == ie ? "IEEE (not flushed)" : "neither";
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
  CUfunction f_bulk, f_red;
  CHECK(cuModuleGetFunction(&f_bulk, mod, "bulk_add_f32"));
  CHECK(cuModuleGetFunction(&f_red, mod, "red_add_f32"));

  std::vector<unsigned> dst(kN), src(kN), got_bulk(kN), got_red(kN);
  for (int i = 0; i < kN; ++i) dst[i] = kPairs[i].dst, src[i] = kPairs[i].src;
  CUdeviceptr d_src, d_bulk, d_red;
  CHECK(cuMemAlloc(&d_src, kN * 4));
  CHECK(cuMemAlloc(&d_bulk, kN * 4));  // 256-byte aligned: 16 as cp.reduce.async.bulk needs
  CHECK(cuMemAlloc(&d_red, kN * 4));
  CHECK(cuMemcpyHtoD(d_src, src.data(), kN * 4));
  CHECK(cuMemcpyHtoD(d_bulk, dst.data(), kN * 4));
  CHECK(cuMemcpyHtoD(d_red, dst.data(), kN * 4));

  int n = kN;
  void* a_bulk[] = {&d_src, &d_bulk, &n};
  void* a_red[] = {&d_src, &d_red, &n};
  CUresult r = cuLaunchKernel(f_bulk, 1, 1, 1, 32, 1, 1, 0, nullptr, a_bulk, nullptr);
  if (r == CUDA_SUCCESS) r = cuCtxSynchronize();
  if (r != CUDA_SUCCESS) return std::printf("RESULT fault (cp.reduce.async.bulk kernel) %s\n", err_name(r)), 0;
  r = cuLaunchKernel(f_red, 1, 1, 1, 32, 1, 1, 0, nullptr, a_red, nullptr);
  if (r == CUDA_SUCCESS) r = cuCtxSynchronize();
  if (r != CUDA_SUCCESS) return std::printf("RESULT fault (red kernel) %s\n", err_name(r)), 0;
  CHECK(cuMemcpyDtoH(got_bulk.data(), d_bulk, kN * 4));
  CHECK(cuMemcpyDtoH(got_red.data(), d_red, kN * 4));

  int bulk_ieee = 0, bulk_flush = 0, bulk_neither = 0, red_ieee = 0, red_flush = 0, red_neither = 0, differ = 0;
  for (int i = 0; i < kN; ++i) {
    const unsigned fl = flush_add(dst[i], src[i]), ie = ieee_add(dst[i], src[i]);
    differ += fl != ie;
    const char* mb = matched(got_bulk[i], fl, ie);
    const char* mr = matched(got_red[i], fl, ie);
    std::printf("PAIR %2d: 0x%08x + 0x%08x (%s; %g + %g): flushed model 0x%08x, IEEE model 0x%08x\n", i, dst[i], src[i],
                kPairs[i].what, as_f(dst[i]), as_f(src[i]), fl, ie);
    std::printf("  cp.reduce.async.bulk .add.f32: 0x%08x -> %s\n", got_bulk[i], mb);
    std::printf("  red.global.add.f32:            0x%08x -> %s\n", got_red[i], mr);
    if (fl != ie) {
      bulk_ieee += got_bulk[i] == ie, bulk_flush += got_bulk[i] == fl, red_ieee += got_red[i] == ie, red_flush += got_red[i] == fl;
    }
    bulk_neither += std::strcmp(mb, "neither") == 0;
    red_neither += std::strcmp(mr, "neither") == 0;
  }
  std::printf("SUMMARY of the %d pairs where the models differ: cp.reduce.async.bulk matched IEEE %d, flush %d; "
              "red.global matched IEEE %d, flush %d; neither model: bulk %d, red %d (of %d pairs)\n",
              differ, bulk_ieee, bulk_flush, red_ieee, red_flush, bulk_neither, red_neither, kN);
  if (bulk_ieee > 0)
    std::printf("RESULT keeps-subnormals: cp.reduce.async.bulk .add.f32 gave the unflushed sum in %d of %d pairs "
                "(red.global.add.f32: %d flushed)\n", bulk_ieee, differ, red_flush);
  else if (bulk_neither > 0)
    std::printf("RESULT neither: cp.reduce.async.bulk .add.f32 matched neither model in %d pairs\n", bulk_neither);
  else
    std::printf("RESULT ok: cp.reduce.async.bulk .add.f32 flushed as documented in all %d pairs\n", differ);
  return 0;
}
