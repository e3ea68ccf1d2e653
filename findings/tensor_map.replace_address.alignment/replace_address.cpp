// cuTensorMapReplaceAddress on a CU_TENSOR_MAP_INTERLEAVE_32B map: the Driver API says the new
// globalAddress "must follow previous alignment requirements", and cuTensorMapEncodeTiled
// requires 32-byte alignment with INTERLEAVE_32B. Does ReplaceAddress reject an address that
// is 16- but not 32-byte aligned, as the encoder does?
#include "../common/cuda_check.h"

int main() {
  CUdevice dev;
  if (int rc = use_device0(&dev)) return rc;
  CUdeviceptr base;
  CHECK(cuMemAlloc(&base, 1 << 20));  // 256-byte aligned
  // A 3D NC/32HWC32-style map: 4-byte elements, dims {8, 16, 16}, strides multiples of 32.
  const cuuint64_t dims[3] = {8, 16, 16};
  const cuuint64_t strides[2] = {8 * 4, 8 * 4 * 16};
  const cuuint32_t box[3] = {8, 8, 8}, estr[3] = {1, 1, 1};
  auto encode = [&](CUdeviceptr addr, CUtensorMap* m) {
    return cuTensorMapEncodeTiled(m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, reinterpret_cast<void*>(addr), dims, strides,
                                  box, estr, CU_TENSOR_MAP_INTERLEAVE_32B, CU_TENSOR_MAP_SWIZZLE_32B,
                                  CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  };
  alignas(64) CUtensorMap map, probe;
  CHECK(encode(base, &map));
  const CUresult enc16 = encode(base + 16, &probe);
  const CUresult rep32 = cuTensorMapReplaceAddress(&map, reinterpret_cast<void*>(base + 32));
  const CUresult rep16 = cuTensorMapReplaceAddress(&map, reinterpret_cast<void*>(base + 16));
  std::printf("cuTensorMapEncodeTiled(INTERLEAVE_32B, address 16 mod 32): %s (expected CUDA_ERROR_INVALID_VALUE)\n", err_name(enc16));
  std::printf("cuTensorMapReplaceAddress(INTERLEAVE_32B map, address 0 mod 32): %s (expected CUDA_SUCCESS)\n", err_name(rep32));
  std::printf("cuTensorMapReplaceAddress(INTERLEAVE_32B map, address 16 mod 32): %s (expected CUDA_ERROR_INVALID_VALUE)\n", err_name(rep16));
  const bool reproduced = enc16 != CUDA_SUCCESS && rep32 == CUDA_SUCCESS && rep16 == CUDA_SUCCESS;
  std::printf("RESULT %s\n", reproduced ? "REPRODUCED: ReplaceAddress accepts an address the encoder rejects"
                                        : "NOT REPRODUCED");
  cuMemFree(base);
  return 0;
}
