// Host side of the cache-hint reproducer, CUDA Driver API only, so one program serves a
// cubin (nvcc or another ptxas), a fatbin and PTX (the driver JIT compiles it at load).
//   repro run IMAGE VARIANT     launch v_VARIANT once; print "RESULT ok|fault NAME|wrong-data ..."
//   repro policies IMAGE        print the three createpolicy values
//   repro jit-cubin IN.ptx OUT  the driver JIT's cubin of IN.ptx (cuLink*), for cuobjdump
// A fault poisons the context, so run.sh starts one process per variant.
#include <cuda.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../common/cuda_check.h"

static int init(bool quiet) {
  CUdevice dev;
  if (int e = use_device0(&dev)) return e;
  if (!quiet) {
    char name[256] = {};
    int drv = 0, major = 0, minor = 0;
    cuDeviceGetName(name, sizeof name, dev);
    cuDriverGetVersion(&drv);
    cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
    cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
    std::printf("device: %s (cc %d.%d), driver API %d.%d\n", name, major, minor, drv / 1000, drv % 1000 / 10);
  }
  return 0;
}

static int load(const char* path, CUmodule* mod) {
  std::string image = read_file(path);
  static char log[8192];
  CUjit_option opt[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* val[] = {log, reinterpret_cast<void*>(sizeof log)};
  CUresult r = cuModuleLoadDataEx(mod, image.c_str(), 2, opt, val);
  if (r != CUDA_SUCCESS) {
    std::printf("RESULT error loading %s: %s %s\n", path, err_name(r), log);
    return 3;
  }
  return 0;
}

static int policies(CUmodule mod, unsigned long long out[3]) {
  CUfunction f;
  CUdeviceptr d;
  CHECK(cuModuleGetFunction(&f, mod, "make_policies"));
  CHECK(cuMemAlloc(&d, 3 * sizeof(unsigned long long)));
  void* args[] = {&d};
  CHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr));
  CHECK(cuCtxSynchronize());
  CHECK(cuMemcpyDtoH(out, d, 3 * sizeof(unsigned long long)));
  cuMemFree(d);
  return 0;
}

static int global_int(CUmodule mod, const std::string& name, int* v) {
  CUdeviceptr p;
  size_t size;
  CHECK(cuModuleGetGlobal(&p, &size, mod, name.c_str()));
  CHECK(cuMemcpyDtoH(v, p, sizeof(int)));
  return 0;
}

static int run(CUmodule mod, const std::string& variant) {
  const std::string fn = "v_" + variant;
  int threads = 0, bytes = 0, pol_kind = 0;
  if (int e = global_int(mod, fn + "_threads", &threads)) return e;
  if (int e = global_int(mod, fn + "_bytes", &bytes)) return e;
  if (int e = global_int(mod, fn + "_pol", &pol_kind)) return e;
  unsigned long long pols[3];
  if (int e = policies(mod, pols)) return e;
  unsigned long long pol = pols[pol_kind];
  std::vector<unsigned char> src(static_cast<size_t>(bytes)), out(src.size());
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>(i * 37 + 11 + (i >> 8));  // never a run of 0x55 or 0xAA
  std::vector<unsigned long long> per_thread(1024, pol);
  CUdeviceptr d_src, d_out, d_pols;
  CHECK(cuMemAlloc(&d_src, src.size() + 64));
  CHECK(cuMemAlloc(&d_out, out.size()));
  CHECK(cuMemAlloc(&d_pols, per_thread.size() * sizeof(unsigned long long)));
  CHECK(cuMemcpyHtoD(d_src, src.data(), src.size()));
  CHECK(cuMemsetD8(d_out, 0x55, out.size()));
  CHECK(cuMemcpyHtoD(d_pols, per_thread.data(), per_thread.size() * sizeof(unsigned long long)));
  CUfunction f;
  CHECK(cuModuleGetFunction(&f, mod, fn.c_str()));
  void* args[] = {&d_src, &d_out, &pol, &d_pols};  // the suite's two-parameter kernels read the first two
  CUresult r = cuLaunchKernel(f, 1, 1, 1, static_cast<unsigned>(threads), 1, 1, 0, nullptr, args, nullptr);
  if (r == CUDA_SUCCESS) r = cuCtxSynchronize();
  if (r != CUDA_SUCCESS) {
    std::printf("RESULT fault %s (%d threads, %d bytes, policy 0x%016llx)\n", err_name(r), threads, bytes, pol);
    return 0;
  }
  CHECK(cuMemcpyDtoH(out.data(), d_out, out.size()));
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < out.size(); ++i)
    if (out[i] != src[i] && bad++ == 0) first = i;
  if (bad)
    std::printf("RESULT wrong-data %zu of %d bytes differ; first at byte %zu: expected 0x%02x, observed 0x%02x\n", bad, bytes, first,
                src[first], out[first]);
  else
    std::printf("RESULT ok (%d threads, %d bytes equal to the source, policy 0x%016llx)\n", threads, bytes, pol);
  return 0;
}

static int jit_cubin(const char* in, const char* out) {
  std::string ptx = read_file(in);
  char log[8192] = {};
  CUjit_option opt[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* val[] = {log, reinterpret_cast<void*>(sizeof log)};
  CUlinkState link;
  CHECK(cuLinkCreate(2, opt, val, &link));
  if (cuLinkAddData(link, CU_JIT_INPUT_PTX, const_cast<char*>(ptx.c_str()), ptx.size() + 1, "in.ptx", 0, nullptr, nullptr) !=
      CUDA_SUCCESS)
    return std::printf("RESULT error JIT: %s\n", log), 3;
  void* cubin = nullptr;
  size_t size = 0;
  CHECK(cuLinkComplete(link, &cubin, &size));
  std::ofstream(out, std::ios::binary).write(static_cast<const char*>(cubin), static_cast<std::streamsize>(size));
  cuLinkDestroy(link);
  return 0;
}

int main(int argc, char** argv) {
  alarm(60);  // a hung kernel ends the process (SIGALRM): run.sh reports a timeout
  const std::string mode = argc > 1 ? argv[1] : "";
  CUmodule mod;
  if (mode == "run" && argc == 4) {
    if (int e = init(true)) return e;
    if (int e = load(argv[2], &mod)) return e;
    return run(mod, argv[3]);
  }
  if (mode == "policies" && argc == 3) {
    unsigned long long p[3];
    if (int e = init(false)) return e;
    if (int e = load(argv[2], &mod)) return e;
    if (int e = policies(mod, p)) return e;
    std::printf("createpolicy values: evict_last 1.0 = 0x%016llx, evict_last+evict_unchanged 0.25 = 0x%016llx, evict_first 1.0 = 0x%016llx\n",
                p[0], p[1], p[2]);
    return 0;
  }
  if (mode == "jit-cubin" && argc == 4) {
    if (int e = init(true)) return e;
    return jit_cubin(argv[2], argv[3]);
  }
  std::fprintf(stderr, "usage: %s run IMAGE VARIANT | policies IMAGE | jit-cubin IN.ptx OUT.cubin\n", argv[0]);
  return 2;
}
