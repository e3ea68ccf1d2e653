#include "harness/driver/gpu.hpp"
#include "harness/driver/programmatic_launch.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <thread>

#include "harness/driver/codegen.hpp"
#include "harness/driver/cuda_api.hpp"
#include "harness/driver/embedded_modules.hpp"
#include "harness/driver/module_image.hpp"
#include "harness/util/run_cache.hpp"

namespace cuconform {

const CudaApi* require_cuda_api() {
  std::string why;
  const CudaApi* api = cuda_api(&why);
  if (!api) throw std::runtime_error(why);
  return api;
}

DriverError::DriverError(CUresult code, const std::string& call)
    : std::runtime_error(call + " failed: " + cu_error_name(code)), code_(code),
      name_(cu_error_name(code)) {}

bool DriverError::poisons_context() const {
  switch (code_) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_LAUNCH_TIMEOUT:
    case CUDA_ERROR_ECC_UNCORRECTABLE:
    case CUDA_ERROR_CONTEXT_IS_DESTROYED:
      return true;
    default:
      return false;
  }
}

void check(CUresult r, const char* call) {
  if (r != CUDA_SUCCESS) throw DriverError(r, call);
}

std::string uuid_text(const CUuuid& uuid) {
  char buf[8];
  std::string u = "GPU-";
  for (int i = 0; i < 16; ++i) {
    std::snprintf(buf, sizeof buf, "%02x", static_cast<unsigned char>(uuid.bytes[i]));
    u += buf;
    if (i == 3 || i == 5 || i == 7 || i == 9) u += "-";
  }
  return u;
}

std::string code_path_for(int major, int minor) {
  // CUCONFORM_SASS_ARCHS is "80,90a": SASS runs on the same major with a minor at least
  // its own; an 'a' (arch-specific) build runs only on its exact CC.
  std::stringstream ss(CUCONFORM_SASS_ARCHS);
  std::string a, best;
  int best_minor = -1;
  while (std::getline(ss, a, ',')) {
    bool specific = !a.empty() && (a.back() == 'a' || a.back() == 'f');
    std::string digits = specific ? a.substr(0, a.size() - 1) : a;
    int v = std::atoi(digits.c_str());
    int ma = v / 10, mi = v % 10;
    bool ok = ma == major && (specific ? mi == minor : mi <= minor);
    if (ok && (mi > best_minor || (mi == best_minor && specific))) {
      best = a;
      best_minor = mi;
    }
  }
  if (!best.empty()) return "sass sm_" + best;
  return std::string("jit from compute_") + CUCONFORM_PTX_ARCH +
         " PTX (no embedded SASS matches sm_" + std::to_string(major * 10 + minor) + ")";
}

DeviceBuffer::DeviceBuffer(std::size_t bytes) : size_(bytes) {
  CU_CHECK(CU_API.cuMemAlloc(&ptr_, bytes ? bytes : 1));
}
DeviceBuffer::DeviceBuffer(std::size_t bytes, Gpu& on) : size_(bytes), on_(&on) {
  OnGpu scope(on);
  CU_CHECK(CU_API.cuMemAlloc(&ptr_, bytes ? bytes : 1));
}
static std::atomic<bool> g_device_work_hung{false};
bool device_work_hung() { return g_device_work_hung.load(); }

DeviceBuffer::~DeviceBuffer() {
  if (!ptr_ || device_work_hung()) return;
  try {
    if (on_) {
      OnGpu scope(*on_);  // the owner's context, for a buffer on the peer GPU
      CU_API.cuMemFree(ptr_);
      return;
    }
  } catch (...) {
    return;  // no throw from a destructor
  }
  CU_API.cuMemFree(ptr_);
}
DeviceBuffer::DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(o.ptr_), size_(o.size_), on_(o.on_) {
  o.ptr_ = 0;
  o.size_ = 0;
}
DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& o) noexcept {
  std::swap(ptr_, o.ptr_);
  std::swap(size_, o.size_);
  std::swap(on_, o.on_);
  return *this;
}
// Copies and fills go on the launch stream and are waited for (bounded) before returning:
// on the legacy stream they would not be ordered with the kernels, and a late fill could
// overwrite what a kernel wrote (seen on the H200 before this was so).
Gpu& DeviceBuffer::owner() const {
  if (on_) return *on_;
  Gpu* g = Gpu::open(nullptr);
  if (!g) throw std::runtime_error("no GPU opened");
  return *g;
}
constexpr double kCopyTimeoutS = 60;

void DeviceBuffer::upload(const void* src, std::size_t bytes, std::size_t offset) {
  if (offset + bytes > size_) throw std::out_of_range("DeviceBuffer::upload past the end");
  Gpu& g = owner();
  OnGpu scope(g);
  CU_CHECK(CU_API.cuMemcpyHtoDAsync(ptr_ + offset, src, bytes, g.stream()));
  g.sync(kCopyTimeoutS);
}
void DeviceBuffer::download(void* dst, std::size_t bytes, std::size_t offset) const {
  if (offset + bytes > size_) throw std::out_of_range("DeviceBuffer::download past the end");
  Gpu& g = owner();
  OnGpu scope(g);
  CU_CHECK(CU_API.cuMemcpyDtoHAsync(dst, ptr_ + offset, bytes, g.stream()));
  g.sync(kCopyTimeoutS);
}
void DeviceBuffer::fill(unsigned char byte) {
  Gpu& g = owner();
  OnGpu scope(g);
  CU_CHECK(CU_API.cuMemsetD8Async(ptr_, byte, size_, g.stream()));
  g.sync(kCopyTimeoutS);
}

HostMapped::HostMapped(std::size_t bytes) : size_(bytes) {
  CU_CHECK(CU_API.cuMemHostAlloc(&host_, bytes, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
  CU_CHECK(CU_API.cuMemHostGetDevicePointer(&dev_, host_, 0));
}
HostMapped::~HostMapped() {
  if (host_ && !device_work_hung()) CU_API.cuMemFreeHost(host_);
}

std::unique_ptr<Gpu> Gpu::make(int ordinal, std::string* why_not) {
  auto fail = [&](const std::string& why) -> std::unique_ptr<Gpu> {
    if (why_not) *why_not = why;
    return nullptr;
  };
  const CudaApi* api = cuda_api(why_not);
  if (!api) return nullptr;
  CUresult r = api->cuInit(0);
  if (r != CUDA_SUCCESS) return fail("no usable GPU: cuInit failed with " + cu_error_name(r));
  int count = 0;
  api->cuDeviceGetCount(&count);
  if (ordinal < 0 || count <= ordinal)
    return fail("no GPU: the driver reports " + std::to_string(count) + " device(s), device " +
                std::to_string(ordinal) + " was asked for");
  std::unique_ptr<Gpu> g(new Gpu());
  try {
    DeviceInfo& d = g->info_;
    d.ordinal = ordinal;
    CU_CHECK(api->cuDeviceGet(&g->dev_, ordinal));
    char name[256] = {};
    CU_CHECK(api->cuDeviceGetName(name, sizeof name, g->dev_));
    d.name = name;
    CUuuid uuid{};
    CU_CHECK(api->cuDeviceGetUuid(&uuid, g->dev_));
    d.uuid = uuid_text(uuid);
    char bus[32] = {};
    if (api->cuDeviceGetPCIBusId(bus, sizeof bus, g->dev_) == CUDA_SUCCESS) d.pci_bus_id = bus;
    auto attr = [&](CUdevice_attribute a) {
      int v = 0;
      CU_CHECK(api->cuDeviceGetAttribute(&v, a, g->dev_));
      return v;
    };
    d.cc_major = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    d.cc_minor = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    d.sm_count = attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    d.clock_khz = attr(CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
    d.mem_clock_khz = attr(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
    d.mem_bus_bits = attr(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
    d.l2_bytes = attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
    d.smem_per_block_optin = attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    d.ecc_enabled = attr(CU_DEVICE_ATTRIBUTE_ECC_ENABLED) != 0;
    CU_CHECK(api->cuDeviceTotalMem(&d.total_mem, g->dev_));
    CU_CHECK(api->cuDriverGetVersion(&d.driver_version));
    d.code_path = code_path_for(d.cc_major, d.cc_minor);
    const Codegen& cg = run_codegen();
    if (cg.path == Codegen::Path::jit)
      d.code_path = "driver JIT of the embedded PTX for " + device_sm_arch(d.cc_major, d.cc_minor);
    else if (cg.path == Codegen::Path::ptxas)
      d.code_path = "ptxas " + ptxas_info(cg.ptxas).version + " (" + cg.ptxas + ") of the embedded PTX for " +
                    device_sm_arch(d.cc_major, d.cc_minor);
    CU_CHECK(api->cuDevicePrimaryCtxRetain(&g->ctx_, g->dev_));
    OnGpu on(*g);
    CU_CHECK(api->cuStreamCreate(&g->stream_, CU_STREAM_NON_BLOCKING));
    CU_CHECK(api->cuEventCreate(&g->ev_start_, CU_EVENT_DEFAULT));
    CU_CHECK(api->cuEventCreate(&g->ev_stop_, CU_EVENT_DEFAULT));
  } catch (const std::exception& e) {
    return fail(std::string("GPU setup failed: ") + e.what());
  }
  return g;
}

Gpu* Gpu::open(std::string* why_not) {
  static std::unique_ptr<Gpu> gpu;
  static std::string failure;
  static bool tried = false;
  if (!tried) {
    tried = true;
    const char* env = std::getenv("CUCONFORM_DEVICE");
    gpu = make(env ? std::atoi(env) : 0, &failure);
    if (gpu) CU_API.cuCtxSetCurrent(gpu->ctx_);
  }
  if (!gpu && why_not) *why_not = failure;
  return gpu.get();
}

Gpu* Gpu::open_peer(std::string* why_not) {
  static std::unique_ptr<Gpu> peer;
  static std::string failure;
  static bool tried = false;
  if (!tried) {
    tried = true;
    const char* env = std::getenv("CUCONFORM_PEER_DEVICE");
    if (!env || !*env)
      failure = "needs a second GPU: the run gave this case none (run --devices with two or more GPUs)";
    else if (!open(&failure))
      failure = "no first GPU: " + failure;
    else
      peer = make(std::atoi(env), &failure);
  }
  if (!peer && why_not) *why_not = failure;
  return peer.get();
}

std::string enable_peer_access(const Gpu& from, const Gpu& to) {
  const CudaApi& api = CU_API;
  if (!api.cuDeviceCanAccessPeer || !api.cuCtxEnablePeerAccess) return missing_entry_point("cuCtxEnablePeerAccess");
  int can = 0;
  CU_CHECK(api.cuDeviceCanAccessPeer(&can, from.device(), to.device()));
  if (!can) return "the driver says device " + from.info().uuid + " cannot access " + to.info().uuid + " (cuDeviceCanAccessPeer 0)";
  OnGpu on(from);
  const CUresult r = api.cuCtxEnablePeerAccess(to.context(), 0);
  if (r != CUDA_SUCCESS && r != CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED) throw DriverError(r, "cuCtxEnablePeerAccess");
  return "";
}

OnGpu::OnGpu(const Gpu& g) {
  CUcontext cur = nullptr;
  CU_API.cuCtxGetCurrent(&cur);
  if (cur == g.context()) return;
  CU_CHECK(CU_API.cuCtxPushCurrent(g.context()));
  pushed_ = true;
}
OnGpu::~OnGpu() {
  CUcontext popped = nullptr;
  if (pushed_) CU_API.cuCtxPopCurrent(&popped);
}

CUfunction Gpu::kernel(const std::string& module, const std::string& function) {
  OnGpu on(*this);
  auto it = modules_.find(module);
  if (it == modules_.end()) {
    const EmbeddedModule* m = embedded_module(module);
    if (!m) throw std::runtime_error("no embedded kernel module '" + module + "'");
    // sass: the fatbin as nvcc made it (the driver picks the SASS); jit / ptxas=PATH: the
    // cubin that toolchain made from the embedded PTX (harness/driver/module_image.hpp).
    std::string image, how = info_.code_path;
    const void* data = m->data;
    const std::string arch = device_sm_arch(info_.cc_major, info_.cc_minor);
    if (run_codegen().path == Codegen::Path::jit) {
      // The PTX goes to the driver as an application's would (cuModuleLoadDataEx), so the
      // code that runs is what the driver's JIT makes of it.
      const std::string ptx_arch = ptx_arch_for(*m, arch);
      if (ptx_arch.empty()) throw CodegenUnavailable("this build embeds no PTX of " + module + " for " + arch);
      image = std::string(m->ptx_for(ptx_arch));
      data = image.c_str();
      how = "driver JIT (cuModuleLoadDataEx) of " + ptx_arch + " PTX";
    } else if (run_codegen().path == Codegen::Path::ptxas) {
      ModuleImage img;
      try {
        img = module_image(*m, arch);
      } catch (const std::exception& e) {
        throw CodegenUnavailable(e.what());
      }
      image = read_whole_file(img.path);
      data = image.data();
      how = img.how;
    }
    CUmodule mod = nullptr;
    char log[8192] = {};
    CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void* vals[] = {log, reinterpret_cast<void*>(sizeof log)};
    const auto t0 = std::chrono::steady_clock::now();
    CUresult r = CU_API.cuModuleLoadDataEx(&mod, data, 2, opts, vals);
    module_load_s_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (r != CUDA_SUCCESS)
      throw std::runtime_error("loading module " + module + " (" + m->source + ") failed: " +
                               cu_error_name(r) + (log[0] ? std::string(": ") + log : ""));
    it = modules_.emplace(module, LoadedModule{mod, how}).first;
  }
  used_[module] = it->second.how;
  CUfunction f = nullptr;
  CUresult r = CU_API.cuModuleGetFunction(&f, it->second.handle, function.c_str());
  if (r != CUDA_SUCCESS)
    throw std::runtime_error("module " + module + " has no kernel '" + function + "' (" +
                             cu_error_name(r) + ")");
  return f;
}

std::map<std::string, std::string> Gpu::take_modules_used() {
  std::map<std::string, std::string> out;
  out.swap(used_);
  return out;
}

int Gpu::attribute(CUdevice_attribute a) const {
  int v = 0;
  CU_CHECK(CU_API.cuDeviceGetAttribute(&v, a, dev_));
  return v;
}

double Gpu::take_module_load_s() {
  double s = module_load_s_;
  module_load_s_ = 0;
  return s;
}

namespace {

// The one launch path: cluster dimensions and the programmatic-dependent-launch attribute as asked.
void launch_on(CUstream stream, CUfunction f, const LaunchConfig& cfg, void** args, bool programmatic) {
  if (cfg.smem > 48 * 1024)
    CU_CHECK(CU_API.cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                       static_cast<int>(cfg.smem)));
  CUlaunchConfig lc{};
  lc.gridDimX = cfg.grid[0];
  lc.gridDimY = cfg.grid[1];
  lc.gridDimZ = cfg.grid[2];
  lc.blockDimX = cfg.block[0];
  lc.blockDimY = cfg.block[1];
  lc.blockDimZ = cfg.block[2];
  lc.sharedMemBytes = cfg.smem;
  lc.hStream = stream;
  CUlaunchAttribute attrs[2] = {};
  unsigned n = 0;
  if (cfg.cluster[0]) {
    attrs[n].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attrs[n].value.clusterDim.x = cfg.cluster[0];
    attrs[n].value.clusterDim.y = cfg.cluster[1] ? cfg.cluster[1] : 1;
    attrs[n].value.clusterDim.z = cfg.cluster[2] ? cfg.cluster[2] : 1;
    ++n;
  }
  if (programmatic) {
    attrs[n].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    attrs[n].value.programmaticStreamSerializationAllowed = 1;
    ++n;
  }
  if (n) {
    lc.attrs = attrs;
    lc.numAttrs = n;
  }
  CU_CHECK(CU_API.cuLaunchKernelEx(&lc, f, args, nullptr));
}

}  // namespace

void Gpu::launch_raw(CUfunction f, const LaunchConfig& cfg, void** args) {
  OnGpu on(*this);
  launch_on(stream_, f, cfg, args, false);
}

void launch_programmatic_raw(Gpu& gpu, CUfunction f, const LaunchConfig& cfg, void** args) {
  OnGpu on(gpu);
  launch_on(gpu.stream(), f, cfg, args, true);
}

void Gpu::sync(double timeout_s) {
  OnGpu on(*this);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  for (;;) {
    CUresult r = CU_API.cuStreamQuery(stream_);
    if (r == CUDA_SUCCESS) return;
    if (r != CUDA_ERROR_NOT_READY) throw DriverError(r, "kernel execution");
    if (std::chrono::steady_clock::now() > deadline) {
      g_device_work_hung.store(true);
      throw DeviceTimeout("device work did not finish within " + std::to_string(timeout_s) +
                          " s (hung wait?)");
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

std::string Gpu::context_error() {
  OnGpu on(*this);
  if (device_work_hung()) return "device work hung";
  CUresult r = CU_API.cuStreamQuery(stream_);
  if (r == CUDA_ERROR_NOT_READY) return "device work still running after the case";
  // New work on the idle stream (the only one fixtures use) fails in a context with a sticky
  // error; it is an event, so it finishes at once.
  if (r == CUDA_SUCCESS) r = CU_API.cuEventRecord(ev_stop_, stream_);
  try {
    if (r == CUDA_SUCCESS) sync(1.0);
  } catch (const DriverError& e) {
    return e.name();
  } catch (const DeviceTimeout&) {
    return "device work still running after the case";
  }
  return r == CUDA_SUCCESS ? "" : cu_error_name(r);
}

void Gpu::record_start() {
  OnGpu on(*this);
  CU_CHECK(CU_API.cuEventRecord(ev_start_, stream_));
}

double Gpu::record_stop_and_wait(double timeout_s) {
  OnGpu on(*this);
  CU_CHECK(CU_API.cuEventRecord(ev_stop_, stream_));
  sync(timeout_s);
  float ms = 0;
  CU_CHECK(CU_API.cuEventElapsedTime(&ms, ev_start_, ev_stop_));
  return ms;
}

CUresult Gpu::try_load_ptx(const std::string& ptx, std::string* log) {
  OnGpu on(*this);
  CUmodule mod = nullptr;
  char buf[8192] = {};
  CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* vals[] = {buf, reinterpret_cast<void*>(sizeof buf)};
  CUresult r = CU_API.cuModuleLoadDataEx(&mod, ptx.c_str(), 2, opts, vals);
  if (log) *log = buf;
  if (r == CUDA_SUCCESS) CU_API.cuModuleUnload(mod);
  return r;
}

}  // namespace cuconform
