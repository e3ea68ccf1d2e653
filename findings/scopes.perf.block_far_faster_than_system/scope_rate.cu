// Relaxed fetch_add throughput at block scope against system scope, on global and shared memory
// (seed 002: block-scoped atomics are far faster than system-scoped ones), with seq_cst as the
// contrast where the scope does cost. Each thread adds 1 to its own word `iters` times through
// cuda::atomic_ref, so nothing contends. Medians of 9 interleaved launches; RESULT line at the end.
#include <cuda/atomic>
#include <algorithm>
#include <cstdio>
#include <vector>

template <bool Shared, cuda::thread_scope S, cuda::std::memory_order O>
__global__ void add(unsigned* words, int iters, unsigned* sink) {
  __shared__ unsigned local[256];
  unsigned* w = Shared ? &local[threadIdx.x] : &words[blockIdx.x * blockDim.x + threadIdx.x];
  if (Shared) *w = 0;
  __syncthreads();
  cuda::atomic_ref<unsigned, S> a(*w);
  unsigned acc = 0;
  for (int i = 0; i < iters; ++i) acc += a.fetch_add(1, O);
  if (acc == 0x7FFFFFFFu) *sink = acc;
}

struct Series {
  double median, half_spread;  // Gops/s, relative half-spread
};

template <bool Shared, cuda::std::memory_order O>
void compare(const char* what, int sms, unsigned* words, unsigned* sink, bool* all_equal) {
  const int blocks = sms * 4, threads = 256, iters = 256;
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  auto rate = [&](bool block_scope) {
    cudaEventRecord(a);
    if (block_scope) add<Shared, cuda::thread_scope_block, O><<<blocks, threads>>>(words, iters, sink);
    else add<Shared, cuda::thread_scope_system, O><<<blocks, threads>>>(words, iters, sink);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    return static_cast<double>(blocks) * threads * iters / (ms * 1e6);
  };
  rate(true), rate(false);
  std::vector<double> cta, sys;
  for (int i = 0; i < 9; ++i) cta.push_back(rate(true)), sys.push_back(rate(false));
  auto series = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return Series{v[4], (v.back() - v.front()) / (2 * v[4])};
  };
  const Series c = series(cta), s = series(sys);
  const double ratio = c.median / s.median, spread = std::max(0.02, c.half_spread + s.half_spread);
  const bool faster = ratio > 1.0 + spread;
  std::printf("%-16s block %.1f Gops/s, system %.1f Gops/s: block/system %.3f +- %.3f -> %s\n", what, c.median, s.median, ratio,
              spread, faster ? "block faster" : "no faster");
  if (O == cuda::std::memory_order_relaxed && faster) *all_equal = false;
}

int main() {
  int sms = 0;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess) {
    std::printf("RESULT error: no GPU\n");
    return 0;
  }
  unsigned *words = nullptr, *sink = nullptr;
  cudaMalloc(&words, static_cast<size_t>(sms) * 4 * 256 * 4);
  cudaMalloc(&sink, 4);
  cudaMemset(words, 0, static_cast<size_t>(sms) * 4 * 256 * 4);
  bool relaxed_equal = true;
  compare<false, cuda::std::memory_order_relaxed>("global relaxed", sms, words, sink, &relaxed_equal);
  compare<true, cuda::std::memory_order_relaxed>("shared relaxed", sms, words, sink, &relaxed_equal);
  compare<false, cuda::std::memory_order_seq_cst>("global seq_cst", sms, words, sink, &relaxed_equal);
  compare<true, cuda::std::memory_order_seq_cst>("shared seq_cst", sms, words, sink, &relaxed_equal);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("RESULT error: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
  }
  std::printf("RESULT %s\n", relaxed_equal ? "REPRODUCED (relaxed block-scoped atomics are no faster than system-scoped ones)"
                                           : "NOT REPRODUCED");
  return 0;
}
