// common/device.h — CUDA plumbing the whole harness shares: error handling, device buffers,
// device facts, the L2 flush and the measured copy ceiling.
//
// Host-only header (no kernels): safe to include from .cpp files compiled by the host compiler.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace ladder {

// A failed CUDA runtime call. `sticky()` is true for errors that poison the CUDA context (a
// kernel fault such as an illegal address): after one of those no further GPU work can run.
class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const std::string& what);
  cudaError_t code() const { return code_; }
  bool sticky() const;

 private:
  cudaError_t code_;
};

// Throws CudaError("<what>: <cudaGetErrorString>") when `code` is not cudaSuccess.
void cuda_check(cudaError_t code, const char* what);
#define LADDER_CUDA_TRY(expr) ::ladder::cuda_check((expr), #expr)

// Copies host memory to the device and waits until the data has landed. (cudaMemcpy from
// pageable memory may return while the DMA is still in flight, and a kernel on a non-blocking
// stream does not wait for it: the tests caught a first launch reading stale input.)
void upload(void* dst, const void* src, size_t bytes);

// Copies `bytes` of device memory at `src` into a host buffer that the process keeps for the
// slot (0 or 1: a check that needs two arrays at once, keys and values) and reuses, growing it
// when a larger copy comes, and returns that buffer: pinned memory, or pageable memory where the
// system will not pin that much. The checks download up to 1 GiB
// an array per call; a fresh std::vector paid zero-filling, first-touch page faults and a copy
// from pageable memory every time. Synchronous (returns after the data has landed). The
// caller may modify the copy (an unordered check sorts it); it is valid until the next download
// into the same slot. Not thread-safe (the checks run one at a time). Errors: CudaError, from
// the allocation or the copy.
void* download(const void* src, size_t bytes, int slot = 0);
// Frees a slot's buffer (the next download into it allocates again). The benchmark frees slot
// 1, which only the pairs checks use, when a new operator starts: 1 GiB less resident memory.
void release_download_slot(int slot);
template <typename T>
T* download(const T* src, size_t count, int slot = 0) {
  return static_cast<T*>(download(static_cast<const void*>(src), count * sizeof(T), slot));
}

// digest() of common/parallel.h, of `bytes` bytes of device (or managed) memory at `src`,
// computed on the GPU: a grid-stride sum of the per-word terms, so that a check can see an
// output is one already verified without copying it to the host. `src` must be 8-byte aligned
// (a cudaMalloc'd buffer is); otherwise it is downloaded and digested on the host. Enqueued on
// `stream` and waited for. Errors: CudaError.
uint64_t device_digest(const void* src, size_t bytes, cudaStream_t stream);

// Owning device allocation (cudaMalloc). Throws CudaError with the byte count on failure, so an
// out-of-memory size becomes a clear message. `zero` fills it with zero bytes once, and waits
// for the fill to complete.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t bytes, bool zero = false);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& other) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void* get() const { return ptr_; }
  template <typename T>
  T* as() const {
    return static_cast<T*>(ptr_);
  }
  size_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  size_t bytes_ = 0;
};

// What the JSON context and the bandwidth counters need to know about a GPU. Clocks are read
// with cudaDeviceGetAttribute (CUDA 13 dropped the clock fields of cudaDeviceProp).
struct DeviceFacts {
  int index = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  size_t l2_bytes = 0;
  size_t global_mem_bytes = 0;
  int sm_clock_khz = 0;   // peak SM clock
  int mem_clock_khz = 0;  // peak memory clock
  int bus_width_bits = 0;
  double peak_gbps = 0;  // theoretical: 2 (double data rate) x memory clock x bus width
  int driver_version = 0, runtime_version = 0;
};

// Number of CUDA devices, 0 when there is none or no driver (never throws).
int device_count(std::string* why_none = nullptr);
DeviceFacts query_device(int index);

// "NVIDIA H200" -> "nvidia-h200": the results file name for a GPU.
std::string gpu_slug(const std::string& name);

// Multiprocessor count of the current device, cached: cheap enough for launchers to call
// inside a timed region.
int current_sm_count();
// Shared memory one block of the current device may opt in to (bytes,
// cudaDevAttrMaxSharedMemoryPerBlockOptin), cached the same way.
size_t current_smem_per_block_optin();

// Which of this binary's device code the current GPU runs, read from a probe kernel compiled
// with the same flags as every kernel of the suite (cudaFuncGetAttributes): binary_version is
// the machine code's architecture (90 for sm_90), ptx_version the architecture the code was
// compiled for (80 when compute_80 PTX was JIT-compiled for a newer GPU; that code took the
// pre-Hopper branches of every `#if __CUDA_ARCH__`). has_image is false when the binary holds
// no code this GPU can run; `error` then says why. Cached per device.
struct DeviceCode {
  bool has_image = false;
  int binary_version = 0, ptx_version = 0;
  std::string error;
  std::string describe() const;  // "sm_90 machine code" or "compute_80 PTX, JIT-compiled for sm_90"
};
const DeviceCode& current_device_code();

// Whether Hopper-only kernels (bulk copies, mbarrier try_wait) can run here: the GPU is compute
// capability 9.0 or later *and* the code it runs was compiled for sm_90 or later. A binary built
// only for older architectures runs on a Hopper GPU through JIT-compiled PTX whose bulk-copy
// paths were compiled out (common/bulk_copy.cuh traps there), so those rungs are skipped.
// Cached like current_sm_count. Launchers of Hopper-only kernels check it first.
bool current_device_runs_sm90_code();
// Why current_device_runs_sm90_code() is false, for the skip message.
std::string sm90_skip_reason();

// Blocks of `kernel` that fit on the current GPU at once: SM count x blocks per SM from the
// occupancy API, at least 1. Not cached: call it once per kernel and keep the result.
size_t resident_grid(const void* kernel, int threads, size_t dynamic_smem_bytes);

// Launches one thread that stores to an invalid address: a deliberate kernel fault (sticky
// illegal-address error) for the --inject-fault self-test. Returns the launch error.
cudaError_t launch_fault_kernel(cudaStream_t stream);

// Evicts the L2 cache by reading a buffer of twice its size with a kernel. A read leaves clean
// lines behind, so unlike a memset flush no dirty lines are written back during the next timed
// kernel.
class L2Flusher {
 public:
  explicit L2Flusher(size_t l2_bytes);
  void flush(cudaStream_t stream);

 private:
  DeviceBuffer buffer_;
  DeviceBuffer sink_;
};

// Holds a stream until the host has enqueued the work to be timed, as nvbench does with its
// blocking kernel: block() enqueues a one-thread kernel that spins on a flag in mapped pinned
// host memory; the host then records the start event, enqueues the launches and the stop
// event, and calls release(). The GPU thus meets the start event, the work and the stop event
// back to back, and the interval between the events is GPU time alone: the host's enqueue
// time (a launch costs microseconds, CUB's several launches more) no longer falls between them.
// A launcher that waits on the GPU would wait forever behind the blocked stream; the kernel
// gives up after `timeout_s` and timed_out() then says so. Kernels launched while the stream is
// blocked must already be loaded (CUDA's lazy loading may synchronize to load one): the
// harness launches every version once, unblocked, before it times it.
class StreamBlocker {
 public:
  explicit StreamBlocker(double timeout_s = 10.0);
  ~StreamBlocker();
  StreamBlocker(const StreamBlocker&) = delete;
  StreamBlocker& operator=(const StreamBlocker&) = delete;
  void block(cudaStream_t stream);  // throws CudaError
  void release();                   // idempotent
  // Releases the blocker when it goes out of scope, so that an exception thrown while the
  // stream is held does not leave it blocked until the timeout.
  struct Hold {
    explicit Hold(StreamBlocker& b) : blocker(b) {}
    ~Hold() { blocker.release(); }
    StreamBlocker& blocker;
  };
  // Whether the last block() ended by its timeout instead of release(). Call after the
  // stream's work completed.
  bool timed_out() const;

 private:
  volatile int* flags_ = nullptr;  // [0] release, [1] timed out: mapped pinned host memory
  int* device_flags_ = nullptr;
  unsigned long long timeout_ns_;
};

// The measured speed of light: a `bytes`-sized device-to-device cudaMemcpyAsync, L2 flushed
// before each sample, median of `samples` after a warm-up. Returns GB/s counting bytes read plus
// bytes written (2 x bytes per copy).
// The host link's bandwidth: a copy of `bytes` between pinned host memory and the GPU, in one
// direction (to_device: host to GPU), median of `samples` after a warm-up, in GB/s (bytes moved
// once). Throws CudaError if the pinned allocation fails.
double measure_link_gbps(cudaStream_t stream, size_t bytes, bool to_device, int samples = 7);

double measure_copy_ceiling_gbps(cudaStream_t stream, L2Flusher& flusher, size_t bytes,
                                 int samples = 15);

// The read ceiling: the speed of light of a kernel that only reads (reduce, the row and column
// sums, histogram). A streaming read of `bytes` (16-byte loads in flight per thread over a
// resident grid, like BabelStream's Dot on one array), L2 flushed before each sample, median of
// `samples` after a warm-up, for each of nine shapes (256, 512 or 1,024 threads a block; 4, 8
// or 16 loads in flight a thread); the fastest shape's GB/s of bytes read. A copy must also write,
// and the DRAM bus turns around between reads and writes, so a read-only kernel can pass the copy
// ceiling but not this one (by more than noise).
double measure_read_ceiling_gbps(cudaStream_t stream, L2Flusher& flusher, size_t bytes,
                                 int samples = 15);

// Version strings recorded in the results context.
std::string cub_version_string();
const char* git_commit();  // generated at build time (cmake/GitInfo.cmake)

inline size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }

}  // namespace ladder
