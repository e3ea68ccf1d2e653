// The driver's JIT as a compiler: links a PTX file into a cubin with cuLinkCreate /
// cuLinkAddData / cuLinkComplete (the same PTX compiler that cuModuleLoadDataEx uses for PTX)
// and writes that cubin, so cuobjdump can show the SASS the driver made. Needs a GPU.
// Usage: jit_cubin IN.ptx OUT.cubin
#include <cuda.h>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

// A failing driver call: "<call> failed: <error>" on stderr, exit status 1.
#define FINDING_CHECK_FAILED(call, name) return (std::fprintf(stderr, "%s failed: %s\n", call, name), 1)
#include "../common/cuda_check.h"

int main(int argc, char** argv) {
  if (argc != 3) return std::fprintf(stderr, "usage: %s IN.ptx OUT.cubin\n", argv[0]), 2;
  std::string ptx = read_file(argv[1]);
  CUdevice dev;
  if (int e = use_device0(&dev)) return e;
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
