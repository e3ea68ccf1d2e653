#include "harness/driver/kernel_memory.hpp"

#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "harness/driver/cuda_api.hpp"
#include "harness/driver/gpu.hpp"

namespace cuconform {

bool parse_memory_kind(const std::string& w, MemoryKind* out) {
  if (w == "device") *out = MemoryKind::device;
  else if (w == "pinned") *out = MemoryKind::pinned;
  else if (w == "managed") *out = MemoryKind::managed;
  else if (w == "pageable") *out = MemoryKind::pageable;
  else return false;
  return true;
}

const char* to_string(MemoryKind k) {
  switch (k) {
    case MemoryKind::device: return "device";
    case MemoryKind::pinned: return "pinned";
    case MemoryKind::managed: return "managed";
    case MemoryKind::pageable: return "pageable";
  }
  return "?";
}

std::string memory_kind_unavailable(MemoryKind k, const Gpu& gpu) {
  switch (k) {
    case MemoryKind::device:
    case MemoryKind::pinned:
      return "";
    case MemoryKind::managed:
      if (!CU_API.cuMemAllocManaged) return missing_entry_point("cuMemAllocManaged");
      if (!gpu.attribute(CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY)) return "the device reports no managed memory (CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY 0)";
      return "";
    case MemoryKind::pageable:
      if (!gpu.attribute(CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS))
        return "the device cannot reach pageable host memory (CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS 0: no HMM or ATS)";
      return "";
  }
  return "unknown memory kind";
}

KernelMemory::KernelMemory(MemoryKind kind, std::size_t bytes) : kind_(kind), size_(bytes ? bytes : 1) {
  switch (kind) {
    case MemoryKind::device:
      buffer_ = DeviceBuffer(size_);
      dev_ = buffer_.ptr();
      break;
    case MemoryKind::pinned:
      CU_CHECK(CU_API.cuMemHostAlloc(&host_, size_, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
      CU_CHECK(CU_API.cuMemHostGetDevicePointer(&dev_, host_, 0));
      break;
    case MemoryKind::managed:
      if (size_ > kManagedLimit)
        throw std::invalid_argument("managed memory of " + std::to_string(size_) + " bytes asked for; the suite allocates at most " +
                                    std::to_string(kManagedLimit));
      if (!CU_API.cuMemAllocManaged) throw std::runtime_error(missing_entry_point("cuMemAllocManaged"));
      CU_CHECK(CU_API.cuMemAllocManaged(&dev_, size_, CU_MEM_ATTACH_GLOBAL));
      host_ = reinterpret_cast<void*>(dev_);
      break;
    case MemoryKind::pageable: {
      // Page-aligned, so the kernel's accesses never share a page with the heap's bookkeeping.
      const std::size_t page = 4096, rounded = (size_ + page - 1) / page * page;
      host_ = std::aligned_alloc(page, rounded);
      if (!host_) throw std::bad_alloc();
      dev_ = reinterpret_cast<CUdeviceptr>(host_);
      break;
    }
  }
}

KernelMemory::~KernelMemory() {
  if (device_work_hung()) return;  // a hung kernel may still touch it: the process is ending
  switch (kind_) {
    case MemoryKind::device:
      break;  // buffer_ frees itself
    case MemoryKind::managed:
      if (dev_) CU_API.cuMemFree(dev_);
      break;
    case MemoryKind::pinned:
      if (host_) CU_API.cuMemFreeHost(host_);
      break;
    case MemoryKind::pageable:
      std::free(host_);
      break;
  }
}

void KernelMemory::upload(const void* src, std::size_t bytes, std::size_t offset) {
  if (offset + bytes > size_) throw std::out_of_range("KernelMemory::upload past the end");
  if (host_) {
    std::memcpy(static_cast<char*>(host_) + offset, src, bytes);
    return;
  }
  buffer_.upload(src, bytes, offset);
}

void KernelMemory::download(void* dst, std::size_t bytes, std::size_t offset) const {
  if (offset + bytes > size_) throw std::out_of_range("KernelMemory::download past the end");
  if (host_) {
    std::memcpy(dst, static_cast<const char*>(host_) + offset, bytes);
    return;
  }
  buffer_.download(dst, bytes, offset);
}

void KernelMemory::fill(unsigned char byte) {
  if (host_) {
    std::memset(host_, byte, size_);
    return;
  }
  buffer_.fill(byte);
}

}  // namespace cuconform
