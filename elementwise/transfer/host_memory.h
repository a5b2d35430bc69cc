// elementwise/transfer/host_memory.h — a host buffer of one of the kinds CUDA offers: pageable,
// pinned, write-combined, mapped (zero-copy) and managed.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

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

// Page-locked buffers that a HostBuffer gave back, kept for the next one of the same kind and
// size: pinning 1 GiB takes the driver about half a second, and every Runner of the transfer
// operators asks for the same 2^28 floats, so the h2d, d2h, host_sum and pipeline_gelu
// benchmarks share a few buffers instead of pinning and unpinning one per benchmark. At most
// kCapacity bytes wait here, the least recently given back freed first; release_all() empties
// it (a failed allocation calls it before trying again). Pageable and managed memory are not
// kept: they cost little to allocate. One per process; not thread-safe (the benchmark runs on
// one thread).
class PinnedPool {
 public:
  static constexpr size_t kCapacity = size_t(2) << 30;

  static PinnedPool& instance() {
    static PinnedPool pool;
    return pool;
  }
  // A kept buffer of exactly this kind and size, or nullptr.
  void* take(HostMemory kind, size_t bytes) {
    for (size_t i = 0; i < free_.size(); ++i)
      if (free_[i].kind == kind && free_[i].bytes == bytes) {
        void* p = free_[i].ptr;
        held_ -= bytes;
        free_.erase(free_.begin() + static_cast<std::ptrdiff_t>(i));
        ++reused_;
        return p;
      }
    return nullptr;
  }
  // Keeps `ptr` (from cudaHostAlloc) for a later take(); frees the oldest beyond kCapacity.
  void give(HostMemory kind, size_t bytes, void* ptr) {
    free_.insert(free_.begin(), Entry{kind, bytes, ptr});
    held_ += bytes;
    while (held_ > kCapacity && !free_.empty()) {
      held_ -= free_.back().bytes;
      cudaFreeHost(free_.back().ptr);  // an error here has no one to report to
      free_.pop_back();
    }
  }
  void release_all() {
    for (const Entry& e : free_) cudaFreeHost(e.ptr);
    free_.clear();
    held_ = 0;
  }
  size_t held_bytes() const { return held_; }
  size_t reused() const { return reused_; }  // how many take() calls found a buffer
  ~PinnedPool() { release_all(); }

 private:
  struct Entry {
    HostMemory kind;
    size_t bytes;
    void* ptr;
  };
  std::vector<Entry> free_;  // most recently given back first
  size_t held_ = 0, reused_ = 0;
};

// Owns `bytes` of host memory of one kind. Throws CudaError when the allocation fails (after
// emptying PinnedPool and trying once more). Page-locked kinds come from and go back to
// PinnedPool.
class HostBuffer {
 public:
  HostBuffer() = default;
  HostBuffer(HostMemory kind, size_t bytes) : kind_(kind), bytes_(bytes) {
    const size_t b = bytes ? bytes : 1;
    if (pooled()) {
      ptr_ = PinnedPool::instance().take(kind, b);
      if (ptr_) return;
      if (pin(b) == cudaSuccess) return;
      cudaGetLastError();  // not sticky: free what the pool keeps and try again
      PinnedPool::instance().release_all();
      LADDER_CUDA_TRY(pin(b));
      return;
    }
    switch (kind) {
      case HostMemory::kPageable:
        ptr_ = std::malloc(b);
        if (!ptr_) LADDER_CUDA_TRY(cudaErrorMemoryAllocation);
        break;
      case HostMemory::kManaged:
        LADDER_CUDA_TRY(cudaMallocManaged(&ptr_, b));
        break;
      default:
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
  bool pooled() const {
    return kind_ == HostMemory::kPinned || kind_ == HostMemory::kWriteCombined ||
           kind_ == HostMemory::kMapped;
  }
  cudaError_t pin(size_t b) {
    const unsigned flags = kind_ == HostMemory::kWriteCombined ? cudaHostAllocWriteCombined
                           : kind_ == HostMemory::kMapped      ? cudaHostAllocMapped
                                                               : cudaHostAllocDefault;
    return cudaHostAlloc(&ptr_, b, flags);
  }
  void release() {
    if (!ptr_) return;
    if (pooled())
      PinnedPool::instance().give(kind_, bytes_ ? bytes_ : 1, ptr_);
    else if (kind_ == HostMemory::kPageable)
      std::free(ptr_);
    else
      cudaFree(ptr_);
    ptr_ = nullptr;
  }
  HostMemory kind_ = HostMemory::kPageable;
  size_t bytes_ = 0;
  void* ptr_ = nullptr;
};

}  // namespace ladder::elementwise::transfer
