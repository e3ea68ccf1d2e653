// One tile-mode tensor store (cp.async.bulk.tensor.{1,2}d.global.shared::cta) of a box of
// floats staged in shared memory. The host encodes the tensor map and checks what changed.
#include <cuda.h>

constexpr int kMaxBox = 8 * 4;  // box elements (the host uses box {8} or {8, 4})

__device__ __forceinline__ void stage(const float* src, float* box, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) box[i] = src[i];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");  // generic writes -> visible to the async proxy
  __syncthreads();
}
__device__ __forceinline__ void wait_store() {
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

extern "C" __global__ void store_1d(const __grid_constant__ CUtensorMap tmap, int x, int y, const float* src, int n) {
  __shared__ __align__(128) float box[kMaxBox];
  stage(src, box, n);
  if (threadIdx.x == 0) {
    asm volatile("cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group [%0, {%1}], [%2];"
                 ::"l"(&tmap), "r"(x), "r"(static_cast<unsigned>(__cvta_generic_to_shared(box))) : "memory");
    wait_store();
  }
}

extern "C" __global__ void store_2d(const __grid_constant__ CUtensorMap tmap, int x, int y, const float* src, int n) {
  __shared__ __align__(128) float box[kMaxBox];
  stage(src, box, n);
  if (threadIdx.x == 0) {
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];"
                 ::"l"(&tmap), "r"(x), "r"(y), "r"(static_cast<unsigned>(__cvta_generic_to_shared(box))) : "memory");
    wait_store();
  }
}
