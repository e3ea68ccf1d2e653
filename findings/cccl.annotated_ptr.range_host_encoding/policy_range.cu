// createpolicy.range on the device, for the window libcu++'s access_property(ptr, primary, total,
// evict_last, evict_first) describes: one thread writes the 64-bit descriptor the GPU makes.
#include <cuda.h>

extern "C" __global__ void policy_range(unsigned long long* out, const void* ptr, unsigned primary, unsigned total) {
  unsigned long long d;
  asm volatile("createpolicy.range.global.L2::evict_last.L2::evict_first.b64 %0, [%1], %2, %3;"
               : "=l"(d) : "l"(ptr), "r"(primary), "r"(total));
  *out = d;
}
