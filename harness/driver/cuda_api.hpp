#pragma once
// The CUDA Driver API, opened at run time: libcuda.so.1 is dlopen'ed on first use and
// every entry point is taken through cuGetProcAddress, so nothing links against the driver.
#include <cuda.h>
#include <string>

namespace cuconform {

#define CUCONFORM_DRIVER_ENTRY_POINTS(X) \
  X(cuInit) X(cuDriverGetVersion) X(cuGetErrorName) X(cuGetErrorString) \
  X(cuDeviceGetCount) X(cuDeviceGet) X(cuDeviceGetName) X(cuDeviceGetAttribute) \
  X(cuDeviceGetUuid) X(cuDeviceTotalMem) X(cuDeviceGetPCIBusId) \
  X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease) X(cuCtxSetCurrent) X(cuCtxGetCurrent) \
  X(cuCtxPushCurrent) X(cuCtxPopCurrent) \
  X(cuModuleLoadDataEx) X(cuModuleUnload) X(cuModuleGetFunction) X(cuModuleGetGlobal) \
  X(cuFuncGetAttribute) X(cuFuncSetAttribute) X(cuOccupancyMaxActiveClusters) \
  X(cuLaunchKernelEx) \
  X(cuStreamCreate) X(cuStreamDestroy) X(cuStreamQuery) X(cuStreamSynchronize) \
  X(cuEventCreate) X(cuEventDestroy) X(cuEventRecord) X(cuEventQuery) X(cuEventElapsedTime) \
  X(cuMemAlloc) X(cuMemFree) X(cuMemcpyHtoDAsync) X(cuMemcpyDtoHAsync) X(cuMemcpyDtoDAsync) X(cuMemsetD8Async) \
  X(cuMemHostAlloc) X(cuMemFreeHost) X(cuMemHostGetDevicePointer) \
  X(cuTensorMapEncodeTiled) X(cuTensorMapReplaceAddress) \
  X(cuLinkCreate) X(cuLinkAddData) X(cuLinkComplete) X(cuLinkDestroy)

// Entry points a driver may lack without the suite losing everything else: left nullptr when the
// driver does not hand them out (cuTensorMapEncodeIm2colWide is newer than the CUDA 12 drivers);
// a fixture that needs one reports not-supported with missing_entry_point()'s reason.
// The virtual memory management calls (cuMem{Create,Map,...}) make two virtual aliases of one
// physical allocation (proxy.alias). The peer calls serve the rules that need two GPUs (multi_gpu).
// cuMemAllocManaged: the managed memory of consumer rules (harness/driver/kernel_memory.hpp).
#define CUCONFORM_DRIVER_OPTIONAL_ENTRY_POINTS(X) X(cuTensorMapEncodeIm2col) X(cuTensorMapEncodeIm2colWide) \
  X(cuMemGetAllocationGranularity) X(cuMemCreate) X(cuMemRelease) X(cuMemAddressReserve) X(cuMemAddressFree) \
  X(cuMemMap) X(cuMemUnmap) X(cuMemSetAccess) \
  X(cuDeviceCanAccessPeer) X(cuDeviceGetP2PAttribute) X(cuCtxEnablePeerAccess) X(cuMemcpyPeerAsync) \
  X(cuMemAllocManaged)

struct CudaApi {
#define CUCONFORM_DECLARE(name) decltype(&::name) name = nullptr;
  CUCONFORM_DRIVER_ENTRY_POINTS(CUCONFORM_DECLARE)
  CUCONFORM_DRIVER_OPTIONAL_ENTRY_POINTS(CUCONFORM_DECLARE)
#undef CUCONFORM_DECLARE
};

// The loaded API, or nullptr with a plain-language reason ("libcuda.so.1 not found: ...").
const CudaApi* cuda_api(std::string* why_not = nullptr);

// Why an optional entry point is nullptr: "CUDA driver lacks entry point NAME (query result N)".
std::string missing_entry_point(const char* name);

// "CUDA_ERROR_MISALIGNED_ADDRESS" for a result code (works even when no driver is loaded).
std::string cu_error_name(CUresult r);

}  // namespace cuconform
