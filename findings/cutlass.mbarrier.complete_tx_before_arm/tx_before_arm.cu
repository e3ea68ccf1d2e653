// A cluster of 2 CTAs. Each CTA initialises its barrier with `count` arrivals; after the cluster
// barrier, CTA r's thread 0 completes `bytes` on CTA (r+1)'s barrier with
// mbarrier.complete_tx.shared::cluster.relaxed.cluster (the form CUTLASS's
// ClusterTransactionBarrier::complete_transaction uses) before, or (arm_first) after, the owner's
// mbarrier.arrive.expect_tx of the same bytes. Per CTA the kernel writes (8 words):
//   0 parity 0 complete on the fresh barrier (try_wait.parity 0; must be 0)
//   1 parity 0 complete after the peer's bytes, before the arm (the PTX ISA: 0 while an arrival is pending)
//   2 parity 0 complete after the arm (and, arm_first, the bytes)
//   3 parity 1 complete after the arm (1 on a fresh barrier: the phase before phase 0)
//   4,5 the barrier's 64-bit word after init (lo, hi), 6,7 after the peer's bytes (lo, hi): the
//       raw state, recorded (the PTX ISA gives no layout)
// With all_probe, every thread of the CTA probes (as the suite's kernel does, 128 threads) and
// words 0 and 1 count the threads that saw the phase complete.
#include <cuda.h>
#include <cstdint>

__device__ __forceinline__ uint32_t smem(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }
__device__ __forceinline__ bool try_wait(uint64_t* bar, uint32_t parity) {
  uint32_t d;
  asm volatile("{\n\t.reg .pred P;\n\tmbarrier.try_wait.parity.shared::cta.b64 P, [%1], %2;\n\tselp.b32 %0, 1, 0, P;\n\t}"
               : "=r"(d) : "r"(smem(bar)), "r"(parity) : "memory");
  return d != 0;
}
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
}
__device__ __forceinline__ void complete_tx_on(uint64_t* bar, uint32_t cta, uint32_t bytes) {
  uint32_t a;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(a) : "r"(smem(bar)), "r"(cta));
  asm volatile("mbarrier.complete_tx.shared::cluster.relaxed.cluster.b64 [%0], %1;" ::"r"(a), "r"(bytes) : "memory");
}
__device__ __forceinline__ void arm(uint64_t* bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem(bar)), "r"(bytes) : "memory");
}
__device__ __forceinline__ unsigned long long raw(uint64_t* bar) {
  unsigned long long v;
  asm volatile("ld.volatile.shared.u64 %0, [%1];" : "=l"(v) : "r"(smem(bar)) : "memory");
  return v;
}

extern "C" __global__ void __cluster_dims__(2, 1, 1) tx_before_arm(unsigned* out, unsigned count, unsigned bytes, unsigned arm_first, unsigned all_probe) {
  __shared__ __align__(8) uint64_t bar;
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  unsigned* o = out + 8 * r;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem(&bar)), "r"(count) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  cluster_sync();
  if (all_probe) {
    atomicAdd(&o[0], try_wait(&bar, 0) ? 1u : 0u);
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    const unsigned long long s = raw(&bar);
    if (!all_probe) o[0] = try_wait(&bar, 0);
    o[4] = static_cast<unsigned>(s), o[5] = static_cast<unsigned>(s >> 32);
    if (arm_first) arm(&bar, bytes);
  }
  cluster_sync();
  if (threadIdx.x == 0) complete_tx_on(&bar, (r + 1) % 2, bytes);
  cluster_sync();
  if (all_probe) {
    atomicAdd(&o[1], try_wait(&bar, 0) ? 1u : 0u);
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    const unsigned long long s = raw(&bar);
    if (!all_probe) o[1] = try_wait(&bar, 0);
    o[6] = static_cast<unsigned>(s), o[7] = static_cast<unsigned>(s >> 32);
    if (!arm_first) arm(&bar, bytes);
    for (unsigned i = 1; i < count; ++i) asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem(&bar)) : "memory");
    o[2] = try_wait(&bar, 0);
    o[3] = try_wait(&bar, 1);
  }
  cluster_sync();
}

// The suite's kernel (fixtures/cutlass/cutlass_pipeline.cu, cutlass_complete_tx_before_arm) as it
// is written there, with the forms of fixtures/cutlass/cutlass_forms.cuh inlined: every thread
// probes, the init published with fence.mbarrier_init + barrier.cluster.arrive.relaxed, launched
// with the cluster as a launch attribute (no __cluster_dims__). Per CTA r: out[3r] 1 done / 2 gave
// up, out[3r+1] ns waited, out[3r+2] parity 0 complete after the bytes (thread 0), out[3n+2r]
// parity 0 complete on the fresh barrier, out[3n+2r+1] parity 1 complete after the arm.
__device__ __forceinline__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
// `consume_early` (a template parameter, so the original keeps its code): thread 0 stores the
// early probe's result before the arm, as code does that acts on it.
template <bool consume_early>
__device__ __forceinline__ void suite_body(unsigned* out, unsigned n, unsigned bytes) {
  __shared__ __align__(8) uint64_t bar;
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r) :);
  if (threadIdx.x == 0) asm volatile("{\n\tmbarrier.init.shared::cta.b64 [%1], %0; \n}" : : "r"(1u), "r"(smem(&bar)) : "memory");
  asm volatile("{\n\tfence.mbarrier_init.release.cluster; \n}" ::: "memory");
  asm volatile("barrier.cluster.arrive.relaxed.aligned;\n" : :);
  asm volatile("barrier.cluster.wait.aligned;\n" : :);
  const bool before = try_wait(&bar, 0u);
  asm volatile("barrier.cluster.arrive.aligned;\n" : :);
  asm volatile("barrier.cluster.wait.aligned;\n" : :);
  if (threadIdx.x == 0) {
    uint32_t a;
    asm volatile("mapa.shared::cluster.u32  %0, %1, %2;\n" : "=r"(a) : "r"(smem(&bar)), "r"((r + 1) % n));
    asm volatile("{\n\t.reg .pred p;\n\tsetp.eq.u32 p, %2, 1;\n\t"
                 "@p mbarrier.complete_tx.shared::cluster.relaxed.cluster.b64   [%1], %0;}"
                 : : "r"(bytes), "r"(a), "r"(1u) : "memory");
  }
  asm volatile("barrier.cluster.arrive.aligned;\n" : :);
  asm volatile("barrier.cluster.wait.aligned;\n" : :);
  const bool early = try_wait(&bar, 0u);
  if (consume_early && threadIdx.x == 0) out[3 * r + 2] = early ? 1u : 0u;
  __syncthreads();
  if (threadIdx.x == 0) arm(&bar, bytes);
  const unsigned long long t0 = now_ns();
  bool done = false;
  while (!(done = try_wait(&bar, 0u)))
    if (now_ns() > t0 + 100000000ull) break;
  if (threadIdx.x == 0) {
    out[3 * r] = done ? 1u : 2u;
    out[3 * r + 1] = static_cast<unsigned>(now_ns() - t0);
    if (!consume_early) out[3 * r + 2] = early ? 1u : 0u;
    out[3 * n + 2 * r] = before ? 1u : 0u;
    out[3 * n + 2 * r + 1] = try_wait(&bar, 1u) ? 1u : 0u;
  }
  asm volatile("barrier.cluster.arrive.aligned;\n" : :);
  asm volatile("barrier.cluster.wait.aligned;\n" : :);
}
extern "C" __global__ void suite_kernel(unsigned* out, unsigned n, unsigned bytes) { suite_body<false>(out, n, bytes); }
extern "C" __global__ void suite_kernel_consumed(unsigned* out, unsigned n, unsigned bytes) { suite_body<true>(out, n, bytes); }
