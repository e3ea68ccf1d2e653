// cp.reduce.async.bulk .add.f32 into global memory next to red.global.add.f32, on the same
// values. The PTX ISA says the current implementation of cp.reduce.async.bulk.add.f32 (and
// red/atom .add.f32) flushes subnormal inputs and results to sign-preserving zero; the host
// compares each result with that model and with IEEE addition.
#include <cuda.h>

constexpr int kMax = 64;  // floats; the host reduces a multiple of 4 (16-byte chunks)

// One thread: src (global) -> shared with plain loads and stores, fence.proxy.async so the
// async proxy sees them, then one 16-byte cp.reduce.async.bulk .add.f32 per 4 floats into
// dst, one bulk group, waited for in full (wait_group 0: the writes are done).
extern "C" __global__ void bulk_add_f32(const float* src, float* dst, int n) {
  __shared__ __align__(128) float buf[kMax];
  if (threadIdx.x != 0 || n > kMax) return;
  for (int i = 0; i < n; ++i) buf[i] = src[i];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  for (int i = 0; i < n; i += 4) {
    asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%0], [%1], 16;"
                 ::"l"(__cvta_generic_to_global(dst + i)), "r"(static_cast<unsigned>(__cvta_generic_to_shared(buf + i)))
                 : "memory");
  }
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

// The contrast: thread i does red.global.add.f32 [dst + i], src[i].
extern "C" __global__ void red_add_f32(const float* src, float* dst, int n) {
  const int i = threadIdx.x;
  if (i >= n) return;
  asm volatile("red.global.add.f32 [%0], %1;" ::"l"(__cvta_generic_to_global(dst + i)), "f"(src[i]) : "memory");
}
