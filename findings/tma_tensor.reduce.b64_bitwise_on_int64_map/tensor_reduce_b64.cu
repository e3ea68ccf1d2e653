// One tile-mode tensor reduction (cp.reduce.async.bulk.tensor.1d.global.shared::cta.<op>.tile)
// of a 16-element box of 64-bit elements staged in shared memory. The instruction carries no
// element type: the tensor map's data type (INT64 or UINT64, encoded by the host) is the type.
#include <cuda.h>

constexpr int kBox = 16;  // elements of 8 bytes: 128 bytes

#define REDUCE_1D(op)                                                                                                  \
  extern "C" __global__ void reduce_##op##_1d(const __grid_constant__ CUtensorMap tmap, int x,                       \
                                              const unsigned long long* src) {                                         \
    __shared__ __align__(128) unsigned long long box[kBox];                                                            \
    if (threadIdx.x < kBox) box[threadIdx.x] = src[threadIdx.x];                                                       \
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); /* generic writes -> visible to the async proxy */  \
    __syncthreads();                                                                                                   \
    if (threadIdx.x == 0) {                                                                                            \
      asm volatile("cp.reduce.async.bulk.tensor.1d.global.shared::cta." #op ".tile.bulk_group [%0, {%1}], [%2];"     \
                   ::"l"(&tmap), "r"(x), "r"(static_cast<unsigned>(__cvta_generic_to_shared(box))) : "memory");        \
      asm volatile("cp.async.bulk.commit_group;" ::: "memory");                                                        \
      asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");                                                        \
    }                                                                                                                  \
  }
REDUCE_1D(and)
REDUCE_1D(or)
REDUCE_1D(xor)
REDUCE_1D(min)
REDUCE_1D(max)
