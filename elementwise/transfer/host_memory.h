// elementwise/transfer/host_memory.h — a host buffer of one of the kinds CUDA offers: pageable,
// pinned, write-combined, mapped (zero-copy) and managed.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "common/device.h"

namespace ladder::elementwise::transfer {

enum class HostMemory {
  kPageable,       // malloc: the driver copies through a pinned staging buffer of its own
  kPinned,         // cudaMallocHost: page-locked, the copy engine reads it directly
  kWriteCombined,  // cudaHostAlloc(WriteCombined): pinned, not cached by the CPU (fast for the
                   // GPU to read across the link, slow for the CPU to read back)
  kMapped,         // cudaHostAlloc(Mapped): pinned and addressable by kernels (zero-copy)
  kManaged,        // cudaMallocManaged: one pointer, pages migrate to whoever touches them
};

// Owns `bytes` of host memory of one kind. Throws CudaError when the allocation fails.
class HostBuffer {
 public:
  HostBuffer() = default;
  HostBuffer(HostMemory kind, size_t bytes) : kind_(kind), bytes_(bytes) {
    const size_t b = bytes ? bytes : 1;
    switch (kind) {
      case HostMemory::kPageable:
        ptr_ = std::malloc(b);
        if (!ptr_) LADDER_CUDA_TRY(cudaErrorMemoryAllocation);
        break;
      case HostMemory::kPinned:
        LADDER_CUDA_TRY(cudaMallocHost(&ptr_, b));
        break;
      case HostMemory::kWriteCombined:
        LADDER_CUDA_TRY(cudaHostAlloc(&ptr_, b, cudaHostAllocWriteCombined));
        break;
      case HostMemory::kMapped:
        LADDER_CUDA_TRY(cudaHostAlloc(&ptr_, b, cudaHostAllocMapped));
        break;
      case HostMemory::kManaged:
        LADDER_CUDA_TRY(cudaMallocManaged(&ptr_, b));
        break;
    }
  }
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
  HostBuffer(HostBuffer&& o) noexcept { *this = static_cast<HostBuffer&&>(o); }
  HostBuffer& operator=(HostBuffer&& o) noexcept {
    if (this != &o) {
      release();
      kind_ = o.kind_;
      bytes_ = o.bytes_;
      ptr_ = o.ptr_;
      o.ptr_ = nullptr;
      o.bytes_ = 0;
    }
    return *this;
  }
  ~HostBuffer() { release(); }

  template <typename T>
  T* as() const {
    return static_cast<T*>(ptr_);
  }
  size_t bytes() const { return bytes_; }
  HostMemory kind() const { return kind_; }

 private:
  void release() {
    if (!ptr_) return;
    switch (kind_) {
      case HostMemory::kPageable:
        std::free(ptr_);
        break;
      case HostMemory::kManaged:
        cudaFree(ptr_);
        break;
      default:
        cudaFreeHost(ptr_);
        break;
    }
    ptr_ = nullptr;
  }
  HostMemory kind_ = HostMemory::kPageable;
  size_t bytes_ = 0;
  void* ptr_ = nullptr;
};

}  // namespace ladder::elementwise::transfer
