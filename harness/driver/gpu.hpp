#pragma once
// The one small layer fixtures use to reach the GPU: device, context, embedded modules,
// launches (clusters included), device memory and bounded waits. Errors become
// DriverError (with the driver's error name) and hung work becomes DeviceTimeout.
#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace cuconform {

class DriverError : public std::runtime_error {
 public:
  DriverError(CUresult code, const std::string& call);
  CUresult code() const { return code_; }
  const std::string& name() const { return name_; }
  // After a fault the context is unusable for good: the worker process must end.
  bool poisons_context() const;

 private:
  CUresult code_;
  std::string name_;
};

// The run's toolchain cannot make this module's code (e.g. an older ptxas refuses PTX that
// needs a newer ISA): the case is not supported on that code path.
class CodegenUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class DeviceTimeout : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Set once a bounded wait gave up on device work that is still running. From then on the
// process frees nothing on the device: cuMemFree and friends wait for the hung kernel, so a
// destructor run while the DeviceTimeout unwinds would block until the supervisor kills the
// worker (an expected hang cost the case's limit plus 5 s that way, 2026-11-25). The process
// is about to exit and the driver reclaims everything then.
bool device_work_hung();

struct DeviceInfo {
  int ordinal = 0;
  std::string name, uuid;
  std::string pci_bus_id;  // "0000:19:00.0"
  bool ecc_enabled = false;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  int clock_khz = 0, mem_clock_khz = 0, mem_bus_bits = 0;
  int l2_bytes = 0;
  int smem_per_block_optin = 0;
  std::size_t total_mem = 0;
  int driver_version = 0;  // e.g. 13000
  std::string code_path;   // "sass sm_90a", "jit from compute_80 PTX (no matching SASS)", or the --codegen path
  std::string cc() const { return std::to_string(cc_major) + "." + std::to_string(cc_minor); }
};

struct LaunchConfig {
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  unsigned smem = 0;
  unsigned cluster[3] = {0, 0, 0};  // all zero: no cluster attribute
  static LaunchConfig linear(unsigned blocks, unsigned threads, unsigned smem_bytes = 0) {
    LaunchConfig c;
    c.grid[0] = blocks;
    c.block[0] = threads;
    c.smem = smem_bytes;
    return c;
  }
};

class Gpu;

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t bytes);
  // On another GPU of the process (Gpu::open_peer()): allocated, copied and filled in its context.
  DeviceBuffer(std::size_t bytes, Gpu& on);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& o) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  CUdeviceptr ptr() const { return ptr_; }
  std::size_t size() const { return size_; }
  void upload(const void* src, std::size_t bytes, std::size_t offset = 0);
  void download(void* dst, std::size_t bytes, std::size_t offset = 0) const;
  void fill(unsigned char byte);
  template <class T>
  void upload(const std::vector<T>& v) { upload(v.data(), v.size() * sizeof(T)); }
  template <class T>
  std::vector<T> download(std::size_t count) const {
    std::vector<T> v(count);
    download(v.data(), count * sizeof(T));
    return v;
  }

 private:
  Gpu& owner() const;
  CUdeviceptr ptr_ = 0;
  std::size_t size_ = 0;
  Gpu* on_ = nullptr;  // null: the process's GPU (Gpu::open)
};

// Page-locked host memory mapped into the device's address space (system-scope tests).
class HostMapped {
 public:
  explicit HostMapped(std::size_t bytes);
  ~HostMapped();
  HostMapped(const HostMapped&) = delete;
  HostMapped& operator=(const HostMapped&) = delete;
  void* host() const { return host_; }
  CUdeviceptr device() const { return dev_; }
  std::size_t size() const { return size_; }

 private:
  void* host_ = nullptr;
  CUdeviceptr dev_ = 0;
  std::size_t size_ = 0;
};

class Gpu {
 public:
  // Opens device CUCONFORM_DEVICE (default 0) once per process; nullptr with the reason
  // when there is no driver or no device.
  static Gpu* open(std::string* why_not);
  // The second GPU of a case that needs two (requires: [peer]): device CUCONFORM_PEER_DEVICE of
  // the process, opened once beside open()'s; nullptr with the reason when the run gave none.
  // Its calls make its own context current for their duration (OnGpu), so fixtures may mix the
  // two GPUs freely; open()'s context stays the thread's current one otherwise.
  static Gpu* open_peer(std::string* why_not);
  CUcontext context() const { return ctx_; }
  CUdevice device() const { return dev_; }
  // cuDeviceGetAttribute of this device; throws as CU_CHECK does when the call fails.
  int attribute(CUdevice_attribute a) const;

  const DeviceInfo& info() const { return info_; }
  CUstream stream() const { return stream_; }

  // Kernel `function` of the embedded module `module` (loaded on first use, on the run's
  // code path: harness/driver/codegen.hpp). Throws CodegenUnavailable when that toolchain
  // cannot make the module's code.
  CUfunction kernel(const std::string& module, const std::string& function);
  // Modules used since the last call, with how their code was made (for a case's results),
  // and the seconds spent loading modules since the last call.
  std::map<std::string, std::string> take_modules_used();
  double take_module_load_s();

  void launch_raw(CUfunction f, const LaunchConfig& cfg, void** args);
  template <class... A>
  void launch(CUfunction f, const LaunchConfig& cfg, A... args) {
    void* params[] = {static_cast<void*>(&args)..., nullptr};
    launch_raw(f, cfg, params);
  }

  // Waits for the stream, at most timeout_s: a hung kernel becomes DeviceTimeout.
  void sync(double timeout_s);

  // After a case: "" while the context still works, else why not (the driver's error name).
  // Cases that share a process ask it, so that a fault no call of one case saw is charged to
  // that case and not to the next one's first call.
  std::string context_error();

  // Milliseconds of GPU time of everything `enqueue` puts on the stream.
  template <class F>
  double time_ms(F&& enqueue, double timeout_s) {
    record_start();
    enqueue();
    return record_stop_and_wait(timeout_s);
  }

  // Loads PTX text through the driver's JIT: returns the CUresult and the JIT log, so
  // fixtures can check what the assembler accepts and rejects.
  CUresult try_load_ptx(const std::string& ptx, std::string* log);

 private:
  Gpu() = default;
  static std::unique_ptr<Gpu> make(int ordinal, std::string* why_not);
  void record_start();
  double record_stop_and_wait(double timeout_s);

  DeviceInfo info_;
  CUdevice dev_ = 0;
  CUcontext ctx_ = nullptr;
  CUstream stream_ = nullptr;
  CUevent ev_start_ = nullptr, ev_stop_ = nullptr;
  struct LoadedModule {
    CUmodule handle;
    std::string how;
  };
  std::map<std::string, LoadedModule> modules_;
  std::map<std::string, std::string> used_;
  double module_load_s_ = 0;
};

// Makes `g`'s context current for the scope (the peer GPU's calls, and fixtures' own driver calls
// on it), and the one before current again at its end.
class OnGpu {
 public:
  explicit OnGpu(const Gpu& g);
  ~OnGpu();
  OnGpu(const OnGpu&) = delete;
  OnGpu& operator=(const OnGpu&) = delete;

 private:
  bool pushed_ = false;
};

// Lets kernels on `from` reach `to`'s memory through a peer mapping (cuCtxEnablePeerAccess; once
// per pair and process). "" when they can, else why not (the driver says the pair cannot).
std::string enable_peer_access(const Gpu& from, const Gpu& to);

// Throws DriverError when r is not CUDA_SUCCESS.
void check(CUresult r, const char* call);
#define CU_CHECK(expr) ::cuconform::check((expr), #expr)

// The loaded driver API (throws when there is none: only called after Gpu::open succeeded).
#define CU_API (*::cuconform::require_cuda_api())
struct CudaApi;
const CudaApi* require_cuda_api();

// "GPU-5f0c2a9e-...": the form nvidia-smi, NVML and CUDA_VISIBLE_DEVICES use.
std::string uuid_text(const CUuuid& uuid);

// How the embedded code reaches a device of this CC: exact SASS or JIT of the PTX.
std::string code_path_for(int cc_major, int cc_minor);

}  // namespace cuconform
