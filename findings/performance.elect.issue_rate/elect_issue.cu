// One thread of each CTA issues a loop of 256-byte bulk copies (cp.async.bulk global -> shared,
// 4 in flight, every thread waiting on each stage's mbarrier): chosen by threadIdx.x == 0 or by
// seed 001's is_elected() (warp 0, elect.sync). Seed 001 says the second lets the compiler
// generate more efficient code. Prints both rates (medians of 7, interleaved) and RESULT.
#include <cstdio>
#include <algorithm>
#include <vector>

__device__ __forceinline__ bool elect_one_sync() {
  unsigned p;
  asm volatile("{ .reg .pred q; elect.sync _|q, 0xffffffff; selp.u32 %0, 1, 0, q; }" : "=r"(p));
  return p != 0;
}
__device__ inline bool is_elected() {
  unsigned warp_id = threadIdx.x / 32;
  return __shfl_sync(0xFFFFFFFF, warp_id, 0) == 0 && elect_one_sync();
}
__device__ __forceinline__ unsigned smem(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

template <bool Elect>
__global__ void __launch_bounds__(128) issue(const unsigned char* src, int copies, unsigned bytes) {
  constexpr int kStages = 4;
  __shared__ __align__(128) unsigned char buf[kStages][1024];
  __shared__ __align__(8) unsigned long long bar[kStages];
  if (threadIdx.x == 0)
    for (int s = 0; s < kStages; ++s) asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(smem(&bar[s])));
  __syncthreads();
  for (int i = 0; i < copies; ++i) {
    const int s = i % kStages;
    if (i >= kStages) {
      const unsigned parity = ((i / kStages) - 1) & 1;
      asm volatile("{ .reg .pred p; W: mbarrier.try_wait.parity.shared.b64 p, [%0], %1; @!p bra W; }" ::"r"(smem(&bar[s])), "r"(parity));
    }
    const bool leader = Elect ? is_elected() : threadIdx.x == 0;
    if (leader) {
      asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" ::"r"(smem(&bar[s])), "r"(bytes));
      const unsigned char* g = src + (static_cast<unsigned long long>(blockIdx.x) * copies + i) % 4096 * bytes;
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(smem(buf[s])),
                   "l"(g), "r"(bytes), "r"(smem(&bar[s])) : "memory");
    }
    __syncwarp();
  }
  for (int i = copies > kStages ? copies - kStages : 0; i < copies; ++i) {
    const unsigned parity = (i / kStages) & 1;
    asm volatile("{ .reg .pred p; W: mbarrier.try_wait.parity.shared.b64 p, [%0], %1; @!p bra W; }" ::"r"(smem(&bar[i % kStages])), "r"(parity));
  }
}

int main() {
  int sms = 0;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess) {
    std::printf("RESULT error: no GPU\n");
    return 0;
  }
  const int copies = 512, blocks = 2 * sms;
  const unsigned bytes = 256;
  unsigned char* src = nullptr;
  cudaMalloc(&src, 4096ull * bytes);
  cudaMemset(src, 1, 4096ull * bytes);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  auto rate = [&](bool elect) {  // copies per microsecond
    cudaEventRecord(a);
    if (elect) issue<true><<<blocks, 128>>>(src, copies, bytes);
    else issue<false><<<blocks, 128>>>(src, copies, bytes);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    return static_cast<double>(blocks) * copies / (ms * 1e3);
  };
  rate(true), rate(false);  // warm-up
  std::vector<double> e, t;
  for (int i = 0; i < 7; ++i) e.push_back(rate(true)), t.push_back(rate(false));
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("RESULT error: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
  }
  std::sort(e.begin(), e.end());
  std::sort(t.begin(), t.end());
  const double re = e[3], rt = t[3];
  // The two series' half-spreads: a ratio within them is noise.
  const double spread = (e[6] - e[0]) / (2 * re) + (t[6] - t[0]) / (2 * rt);
  std::printf("is_elected() %.1f copies/us, threadIdx.x == 0 %.1f copies/us, ratio %.4f +- %.4f (%d CTAs x %d copies of %u B)\n", re,
              rt, re / rt, spread, blocks, copies, bytes);
  std::printf("RESULT %s\n", re / rt < 1.0 - spread ? "REPRODUCED (the elected loop issues slower)" : "NOT REPRODUCED");
  return 0;
}
