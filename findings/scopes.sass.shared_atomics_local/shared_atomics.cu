// One block-scoped counter in __shared__ memory, incremented once per thread, through five
// APIs. All five add to a __shared__ int, so each could use the shared-memory atomic ATOMS;
// with nvcc 13.0 the scoped APIs (the first three) compile to the generic ATOM.E... instead.
#include <cuda/atomic>

extern "C" __global__ void counter_cuda_atomic(int* tickets) {
  __shared__ cuda::atomic<int, cuda::thread_scope_block> counter;
  if (threadIdx.x == 0) counter.store(0, cuda::memory_order_relaxed);
  __syncthreads();
  tickets[threadIdx.x] = counter.fetch_add(1, cuda::memory_order_relaxed);
}

extern "C" __global__ void counter_atomic_ref(int* tickets) {
  __shared__ int counter;
  if (threadIdx.x == 0) counter = 0;
  __syncthreads();
  cuda::atomic_ref<int, cuda::thread_scope_block> ref(counter);
  tickets[threadIdx.x] = ref.fetch_add(1, cuda::memory_order_relaxed);
}

extern "C" __global__ void counter_nv_builtin(int* tickets) {
  __shared__ int counter;
  if (threadIdx.x == 0) counter = 0;
  __syncthreads();
  tickets[threadIdx.x] = __nv_atomic_fetch_add(&counter, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK);
}

// Controls: the plain CUDA atomics on the same __shared__ counter.
extern "C" __global__ void counter_atomicadd(int* tickets) {
  __shared__ int counter;
  if (threadIdx.x == 0) counter = 0;
  __syncthreads();
  tickets[threadIdx.x] = atomicAdd(&counter, 1);
}

extern "C" __global__ void counter_atomicadd_block(int* tickets) {
  __shared__ int counter;
  if (threadIdx.x == 0) counter = 0;
  __syncthreads();
  tickets[threadIdx.x] = atomicAdd_block(&counter, 1);
}
