// Host side: Driver API only (a module image: cubin or PTX).
//   tx_before_arm_host IMAGE  -> a "VARIANT ..." line per variant and CTA, then "RESULT ..."
//     early-complete: VARIANTS   (a phase completed by bytes while an arrival was pending)
//     pending                    (no phase completed before its arrivals: what the PTX ISA says)
//     control-failed: WHY        (the fresh-barrier or the arm-first control did not hold)
//     error ...
#include <cuda.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "../common/cuda_check.h"

struct Variant {
  const char* name;
  unsigned count, bytes, arm_first, threads;  // threads 128: every thread probes (the suite's kernel)
};
static const Variant kVariants[] = {
    {"tx_first count1 bytes8192, thread 0 probes", 1, 8192, 0, 32},
    {"tx_first count1 bytes16, thread 0 probes", 1, 16, 0, 32},
    {"tx_first count2 bytes8192, thread 0 probes", 2, 8192, 0, 32},
    {"tx_first count1 bytes8192, 128 threads probe (the suite's case)", 1, 8192, 0, 128},
    {"arm_first count1 bytes8192 (control: the documented order)", 1, 8192, 1, 32},
    {"arm_first count1 bytes8192, 128 threads probe (control)", 1, 8192, 1, 128},
};

int main(int argc, char** argv) {
  alarm(60);
  if (argc != 2) return std::fprintf(stderr, "usage: %s IMAGE\n", argv[0]), 2;
  CUdevice dev;
  if (int e = use_device0(&dev)) return e;
  char name[128] = {};
  cuDeviceGetName(name, sizeof name, dev);
  std::printf("device: %s\n", name);
  CUmodule mod;
  if (int e = load_image(argv[1], &mod)) return e;
  CUfunction f;
  CHECK(cuModuleGetFunction(&f, mod, "tx_before_arm"));
  CUdeviceptr d_out;
  CHECK(cuMemAlloc(&d_out, 16 * 4));
  std::string early, control;
  for (const Variant& v : kVariants) {
    CHECK(cuMemsetD32(d_out, 0, 16));
    unsigned count = v.count, bytes = v.bytes, arm_first = v.arm_first, all_probe = v.threads > 32;
    void* args[] = {&d_out, &count, &bytes, &arm_first, &all_probe};
    CHECK(cuLaunchKernel(f, 2, 1, 1, v.threads, 1, 1, 0, nullptr, args, nullptr));  // __cluster_dims__(2,1,1)
    CHECK(cuCtxSynchronize());
    unsigned w[16];
    CHECK(cuMemcpyDtoH(w, d_out, sizeof w));
    for (int r = 0; r < 2; ++r) {
      const unsigned* o = w + 8 * r;
      std::printf("VARIANT %s, CTA %d: fresh parity0 %u; after the peer's bytes parity0 %u (threads that saw it complete where 128 probe); after the arm parity0 %u parity1 %u; "
                  "word after init 0x%08x%08x, after the bytes 0x%08x%08x\n",
                  v.name, r, o[0], o[1], o[2], o[3], o[5], o[4], o[7], o[6]);
      if (o[0] != 0) control += std::string(control.empty() ? "" : "; ") + v.name + ": a fresh barrier's phase 0 complete";
      if (!v.arm_first && o[1] != 0 && (early.empty() || early.find(v.name) == std::string::npos))
        early += std::string(early.empty() ? "" : "; ") + v.name;
      if (v.arm_first && (o[1] != (v.threads > 32 ? v.threads : 1) || o[3] != 0)) control += std::string(control.empty() ? "" : "; ") + v.name + ": not complete after arm and bytes";
    }
  }
  // The suite's kernel, launched as the suite launches it (clusters of 2, 4, 8; 128 threads),
  // as written (the early probe's result read only after the arm) and with it stored first.
  std::string suite_early, consumed_early;
  CUdeviceptr d_suite;
  CHECK(cuMemAlloc(&d_suite, 5 * 8 * 4));
  for (const char* kname : {"suite_kernel", "suite_kernel_consumed"}) {
    CUfunction g;
    CHECK(cuModuleGetFunction(&g, mod, kname));
    CHECK(cuFuncSetAttribute(g, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1));
    for (unsigned n : {2u, 4u, 8u}) {
      CHECK(cuMemsetD32(d_suite, 0, 5 * 8));
      unsigned bytes = 8192;
      void* args[] = {&d_suite, &n, &bytes};
      CUlaunchAttribute attr{};
      attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
      attr.value.clusterDim.x = n, attr.value.clusterDim.y = 1, attr.value.clusterDim.z = 1;
      CUlaunchConfig lc{};
      lc.gridDimX = n, lc.gridDimY = 1, lc.gridDimZ = 1, lc.blockDimX = 128, lc.blockDimY = 1, lc.blockDimZ = 1;
      lc.attrs = &attr, lc.numAttrs = 1;
      CHECK(cuLaunchKernelEx(&lc, g, args, nullptr));
      CHECK(cuCtxSynchronize());
      unsigned w[5 * 8];
      CHECK(cuMemcpyDtoH(w, d_suite, sizeof w));
      unsigned early_ctas = 0, fresh = 0;
      for (unsigned r = 0; r < n; ++r) early_ctas += w[3 * r + 2] == 1, fresh += w[3 * n + 2 * r];
      std::printf("VARIANT %s, cluster %u: CTAs whose early probe said phase 0 complete %u of %u; fresh complete %u; CTA 0 done %u in %u ns, parity1 after arm %u\n",
                  kname, n, early_ctas, n, fresh, w[0], w[1], w[3 * n + 1]);
      if (fresh) control += std::string(control.empty() ? "" : "; ") + kname + ": a fresh barrier's phase 0 complete";
      std::string& e = std::string(kname) == "suite_kernel" ? suite_early : consumed_early;
      if (early_ctas) e += std::string(e.empty() ? "" : ", ") + "cluster " + std::to_string(n);
    }
  }
  if (!control.empty()) std::printf("RESULT control-failed: %s\n", control.c_str());
  else if (!early.empty() || !consumed_early.empty())
    std::printf("RESULT early-complete: %s\n", (early + (early.empty() ? "" : "; ") + consumed_early).c_str());
  else if (!suite_early.empty())
    std::printf("RESULT probe-decided-late: the suite's kernel (%s) saw phase 0 complete, the same kernel storing the probe first never did\n", suite_early.c_str());
  else std::printf("RESULT pending\n");
  return 0;
}
