// Shared by the findings' host programs (nothing here comes from the suite; CUDA Driver API
// only): the driver's error names, a check macro for driver calls, reading a file, and the
// primary context of device 0. Include it as "../common/cuda_check.h".
//
// CHECK(call): when the call fails, the calling function ends with
// FINDING_CHECK_FAILED(call text, error name). Unless the program defines it before the
// include, that prints "RESULT error CALL: NAME" (the result line run.sh reads) and returns 3.
#pragma once
#include <cuda.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#ifndef FINDING_CHECK_FAILED
#define FINDING_CHECK_FAILED(call, name) return (std::printf("RESULT error %s: %s\n", call, name), 3)
#endif

static const char* err_name(CUresult r) {
  const char* n = nullptr;
  cuGetErrorName(r, &n);
  return n ? n : "unknown error";
}
#define CHECK(x)                                        \
  do {                                                  \
    CUresult r_ = (x);                                  \
    if (r_ != CUDA_SUCCESS) {                           \
      FINDING_CHECK_FAILED(#x, err_name(r_));           \
    }                                                   \
  } while (0)

// The whole file (std::string keeps a NUL after the data: PTX text needs it).
static std::string read_file(const char* path) {
  std::stringstream ss;
  ss << std::ifstream(path, std::ios::binary).rdbuf();
  return ss.str();
}

// Makes device 0's primary context current; *dev gets the device. 0, or CHECK's failure value.
static int use_device0(CUdevice* dev) {
  CUcontext ctx;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(dev, 0));
  CHECK(cuDevicePrimaryCtxRetain(&ctx, *dev));
  CHECK(cuCtxSetCurrent(ctx));
  return 0;
}

// Loads the kernel image at `path` (a cubin, or PTX for the driver JIT) into *mod. 0, or 3 after
// printing "RESULT error loading the image: NAME LOG" (the JIT's error log says why).
static int load_image(const char* path, CUmodule* mod) {
  const std::string image = read_file(path);
  char log[8192] = {};
  CUjit_option opt[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* val[] = {log, reinterpret_cast<void*>(sizeof log)};
  CUresult r = cuModuleLoadDataEx(mod, image.c_str(), 2, opt, val);
  if (r != CUDA_SUCCESS) return std::printf("RESULT error loading the image: %s %s\n", err_name(r), log), 3;
  return 0;
}
