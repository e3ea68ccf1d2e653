// The driver's JIT as a compiler: links a PTX file into a cubin with cuLinkCreate /
// cuLinkAddData / cuLinkComplete (the same PTX compiler that cuModuleLoadDataEx uses for PTX)
// and writes that cubin, so cuobjdump can show the SASS the driver made. Needs a GPU.
// Usage: jit_cubin IN.ptx OUT.cubin
#include <cuda.h>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#define CHECK(x)                                                                \
  do {                                                                          \
    CUresult r_ = (x);                                                          \
    if (r_ != CUDA_SUCCESS) {                                                   \
      const char* n_ = nullptr;                                                 \
      cuGetErrorName(r_, &n_);                                                  \
      std::fprintf(stderr, "%s failed: %s\n", #x, n_ ? n_ : "?");               \
      return 1;                                                                 \
    }                                                                           \
  } while (0)

int main(int argc, char** argv) {
  if (argc != 3) return std::fprintf(stderr, "usage: %s IN.ptx OUT.cubin\n", argv[0]), 2;
  std::stringstream ss;
  ss << std::ifstream(argv[1]).rdbuf();
  std::string ptx = ss.str();
  CUdevice dev;
  CUcontext ctx;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&dev, 0));
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  char log[8192] = {};
  CUjit_option opt[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* val[] = {log, reinterpret_cast<void*>(sizeof log)};
  CUlinkState link;
  CHECK(cuLinkCreate(2, opt, val, &link));
  if (cuLinkAddData(link, CU_JIT_INPUT_PTX, ptx.data(), ptx.size() + 1, "in.ptx", 0, nullptr, nullptr) != CUDA_SUCCESS)
    return std::fprintf(stderr, "JIT error: %s\n", log), 1;
  void* cubin = nullptr;
  size_t size = 0;
  CHECK(cuLinkComplete(link, &cubin, &size));
  std::ofstream(argv[2], std::ios::binary).write(static_cast<const char*>(cubin), static_cast<std::streamsize>(size));
  int drv = 0;
  cuDriverGetVersion(&drv);
  std::printf("driver JIT (CUDA driver API %d.%d) wrote %zu bytes\n", drv / 1000, drv % 1000 / 10, size);
  cuLinkDestroy(link);
  return 0;
}
