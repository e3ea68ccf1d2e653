#pragma once
// The memory a consumer's kernel reads and writes, by kind: `device` (cuMemAlloc), `pinned`
// (page-locked host memory mapped into the device), `managed` (cuMemAllocManaged, attached
// globally) or `pageable` (plain host memory from the C++ heap, which a kernel reaches only where
// the device reports pageable memory access: HMM or ATS). The `memory` parameter of consumer rules
// names one: the CUDA samples and CCCL's heterogeneous tests run on managed and pageable memory,
// where the suite's own rules use device and pinned memory. Managed allocations are kept small.
#include <cuda.h>

#include <cstddef>
#include <string>

#include "harness/driver/gpu.hpp"

namespace cuconform {

enum class MemoryKind { device, pinned, managed, pageable };

// "device", "pinned", "managed", "pageable"; false for any other word.
bool parse_memory_kind(const std::string& word, MemoryKind* out);
const char* to_string(MemoryKind k);

// "" when kernels on `gpu` can use memory of this kind, else why not (the attribute the driver
// reports as 0, or the missing entry point).
std::string memory_kind_unavailable(MemoryKind k, const Gpu& gpu);

class KernelMemory {
 public:
  // The largest managed allocation the suite makes: a few pages, never more.
  static constexpr std::size_t kManagedLimit = 1u << 20;
  // Throws std::invalid_argument for a managed request above kManagedLimit.
  KernelMemory(MemoryKind kind, std::size_t bytes);
  ~KernelMemory();
  KernelMemory(const KernelMemory&) = delete;
  KernelMemory& operator=(const KernelMemory&) = delete;

  MemoryKind kind() const { return kind_; }
  CUdeviceptr device() const { return dev_; }
  std::size_t size() const { return size_; }
  // Host copies: DeviceBuffer's (on the launch stream, bounded) for device memory, through the host pointer for the others.
  // Call them only while no kernel uses the memory (after a bounded Gpu::sync).
  void upload(const void* src, std::size_t bytes, std::size_t offset = 0);
  void download(void* dst, std::size_t bytes, std::size_t offset = 0) const;
  void fill(unsigned char byte);

 private:
  MemoryKind kind_;
  std::size_t size_ = 0;
  DeviceBuffer buffer_;   // device memory
  CUdeviceptr dev_ = 0;
  void* host_ = nullptr;  // null for device memory
};

}  // namespace cuconform
