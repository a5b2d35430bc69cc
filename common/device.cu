// common/device.cu — implementation of common/device.h.
#include <cub/version.cuh>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <vector>

#include "common/device.h"
#include "common/globaltimer.cuh"
#include "common/parallel.h"

namespace ladder {

CudaError::CudaError(cudaError_t code, const std::string& what)
    : std::runtime_error(what), code_(code) {}

bool CudaError::sticky() const {
  switch (code_) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorHardwareStackError:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
      return true;
    default:
      return false;
  }
}

void upload(void* dst, const void* src, size_t bytes) {
  LADDER_CUDA_TRY(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
  LADDER_CUDA_TRY(cudaDeviceSynchronize());
}

namespace {
// One host buffer per download slot, kept for the process (freed at exit): pinned, or pageable
// where the system will not pin that much.
struct HostSlot {
  void* ptr = nullptr;
  size_t bytes = 0;
  bool pinned = false;
  void release() {
    if (ptr && pinned) cudaFreeHost(ptr);  // an error here has no one to report to
    if (ptr && !pinned) std::free(ptr);
    ptr = nullptr;
    bytes = 0;
  }
  ~HostSlot() { release(); }
};
HostSlot host_slots[2];
}  // namespace

void release_download_slot(int slot) {
  if (slot < 0 || slot > 1) throw std::invalid_argument("download: slot must be 0 or 1");
  host_slots[slot].release();
}

void* download(const void* src, size_t bytes, int slot) {
  if (slot < 0 || slot > 1) throw std::invalid_argument("download: slot must be 0 or 1");
  HostSlot& s = host_slots[slot];
  if (bytes > s.bytes) {
    s.release();
    if (cudaHostAlloc(&s.ptr, bytes, cudaHostAllocDefault) == cudaSuccess) {
      s.pinned = true;
    } else {
      cudaGetLastError();  // not sticky: fall back to pageable memory
      s.ptr = std::malloc(bytes);
      s.pinned = false;
      if (!s.ptr) throw std::bad_alloc();
    }
    s.bytes = bytes;
  }
  if (bytes) LADDER_CUDA_TRY(cudaMemcpy(s.ptr, src, bytes, cudaMemcpyDeviceToHost));
  return s.ptr;
}

namespace {
// One thread per 8-byte word, grid-stride; warp sums by shuffle, one 64-bit atomic add a warp
// (addition mod 2^64 is exact in any order, so the sum is the host's).
__global__ void digest_kernel(const uint64_t* __restrict__ words, size_t full_words,
                              const unsigned char* tail, size_t tail_bytes,
                              unsigned long long* sum) {
  uint64_t acc = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < full_words;
       i += size_t(gridDim.x) * blockDim.x)
    acc += digest_term(words[i], i);
  if (tail_bytes > 0 && blockIdx.x == 0 && threadIdx.x == 0) {
    uint64_t w = 0;
    for (size_t b = 0; b < tail_bytes; ++b) w |= uint64_t(tail[b]) << (8 * b);  // little-endian
    acc += digest_term(w, full_words);
  }
  for (int offset = 16; offset > 0; offset /= 2) acc += __shfl_down_sync(0xffffffffu, acc, offset);
  if (threadIdx.x % 32 == 0) atomicAdd(sum, static_cast<unsigned long long>(acc));
}
}  // namespace

uint64_t device_digest(const void* src, size_t bytes, cudaStream_t stream) {
  if (reinterpret_cast<uintptr_t>(src) % 8 != 0) return digest(download(src, bytes), bytes);
  static DeviceBuffer sum(sizeof(unsigned long long));  // kept for the process
  LADDER_CUDA_TRY(cudaMemsetAsync(sum.get(), 0, sizeof(unsigned long long), stream));
  const size_t full = bytes / 8;
  int device = 0, sms = 0;
  LADDER_CUDA_TRY(cudaGetDevice(&device));
  LADDER_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const size_t blocks = std::max<size_t>(1, std::min<size_t>(size_t(sms) * 8, (full + 255) / 256));
  digest_kernel<<<static_cast<unsigned>(blocks), 256, 0, stream>>>(
      static_cast<const uint64_t*>(src), full, static_cast<const unsigned char*>(src) + 8 * full,
      bytes % 8, sum.as<unsigned long long>());
  LADDER_CUDA_TRY(cudaGetLastError());
  unsigned long long total = 0;
  LADDER_CUDA_TRY(cudaMemcpyAsync(&total, sum.get(), sizeof total, cudaMemcpyDeviceToHost, stream));
  LADDER_CUDA_TRY(cudaStreamSynchronize(stream));
  return digest_finish(total, bytes);
}

void cuda_check(cudaError_t code, const char* what) {
  if (code == cudaSuccess) return;
  cudaGetLastError();  // clear a non-sticky error so later calls start clean
  throw CudaError(code, std::string(what) + ": " + cudaGetErrorString(code));
}

DeviceBuffer::DeviceBuffer(size_t bytes, bool zero) : bytes_(bytes) {
  if (bytes == 0) return;
  cudaError_t e = cudaMalloc(&ptr_, bytes);
  if (e != cudaSuccess) {
    ptr_ = nullptr;
    cudaGetLastError();
    throw CudaError(
        e, "cudaMalloc of " + std::to_string(bytes) + " bytes failed: " + cudaGetErrorString(e));
  }
  if (zero) {
    LADDER_CUDA_TRY(cudaMemset(ptr_, 0, bytes));
    // cudaMemset may return before it completes, and the harness launches on non-blocking
    // streams that do not wait for the legacy default stream: finish it here.
    LADDER_CUDA_TRY(cudaDeviceSynchronize());
  }
}

DeviceBuffer::~DeviceBuffer() {
  if (ptr_) cudaFree(ptr_);
}

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept : ptr_(other.ptr_), bytes_(other.bytes_) {
  other.ptr_ = nullptr;
  other.bytes_ = 0;
}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  if (this != &other) {
    if (ptr_) cudaFree(ptr_);
    ptr_ = other.ptr_;
    bytes_ = other.bytes_;
    other.ptr_ = nullptr;
    other.bytes_ = 0;
  }
  return *this;
}

int device_count(std::string* why_none) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    cudaGetLastError();
    if (why_none) *why_none = cudaGetErrorString(e);
    return 0;
  }
  if (count == 0 && why_none) *why_none = "the driver reports zero devices";
  return count;
}

DeviceFacts query_device(int index) {
  DeviceFacts f;
  f.index = index;
  cudaDeviceProp prop{};
  LADDER_CUDA_TRY(cudaGetDeviceProperties(&prop, index));
  f.name = prop.name;
  f.cc_major = prop.major;
  f.cc_minor = prop.minor;
  f.sm_count = prop.multiProcessorCount;
  f.l2_bytes = static_cast<size_t>(prop.l2CacheSize);
  f.global_mem_bytes = prop.totalGlobalMem;
  LADDER_CUDA_TRY(cudaDeviceGetAttribute(&f.sm_clock_khz, cudaDevAttrClockRate, index));
  LADDER_CUDA_TRY(cudaDeviceGetAttribute(&f.mem_clock_khz, cudaDevAttrMemoryClockRate, index));
  LADDER_CUDA_TRY(
      cudaDeviceGetAttribute(&f.bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, index));
  f.peak_gbps = 2.0 * f.mem_clock_khz * 1e3 * (f.bus_width_bits / 8.0) / 1e9;
  LADDER_CUDA_TRY(cudaDriverGetVersion(&f.driver_version));
  LADDER_CUDA_TRY(cudaRuntimeGetVersion(&f.runtime_version));
  return f;
}

std::string gpu_slug(const std::string& name) {
  std::string s;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!s.empty() && s.back() != '-') {
      s += '-';
    }
  }
  while (!s.empty() && s.back() == '-') s.pop_back();
  return s.empty() ? "unknown-gpu" : s;
}

int current_sm_count() {
  constexpr int kMaxDevices = 64;
  static int cache[kMaxDevices] = {};
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= kMaxDevices) return 1;
  if (cache[dev] == 0) {
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cache[dev] = sms > 0 ? sms : 1;
  }
  return cache[dev];
}

size_t current_smem_per_block_optin() {
  constexpr int kMaxDevices = 64;
  static int cache[kMaxDevices] = {};
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= kMaxDevices) return 48 * 1024;
  if (cache[dev] == 0) {
    int bytes = 0;
    cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
    cache[dev] = bytes > 0 ? bytes : 48 * 1024;
  }
  return static_cast<size_t>(cache[dev]);
}

namespace {
__global__ void code_probe_kernel() {}

int current_cc(int dev) {
  int major = 0, minor = 0;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
  cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
  return 10 * major + minor;
}
}  // namespace

std::string DeviceCode::describe() const {
  if (!has_image) return "no code for this GPU";
  if (ptx_version == binary_version)
    return "sm_" + std::to_string(binary_version) + " machine code";
  return "compute_" + std::to_string(ptx_version) + " PTX, JIT-compiled for sm_" +
         std::to_string(binary_version);
}

const DeviceCode& current_device_code() {
  constexpr int kMaxDevices = 64;
  static DeviceCode cache[kMaxDevices];
  static bool known[kMaxDevices] = {};
  static DeviceCode none;
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= kMaxDevices) return none;
  if (!known[dev]) {
    cudaFuncAttributes attr{};
    const cudaError_t e = cudaFuncGetAttributes(&attr, code_probe_kernel);
    DeviceCode& c = cache[dev];
    if (e == cudaSuccess) {
      c.has_image = true;
      c.binary_version = attr.binaryVersion;
      c.ptx_version = attr.ptxVersion;
    } else {
      cudaGetLastError();
      c.error = cudaGetErrorString(e);
    }
    known[dev] = true;
  }
  return cache[dev];
}

bool current_device_runs_sm90_code() {
  constexpr int kMaxDevices = 64;
  static int cache[kMaxDevices] = {};  // 0 unknown, 1 no, 2 yes: launchers call this per launch
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= kMaxDevices) return false;
  if (cache[dev] == 0) {
    const DeviceCode& code = current_device_code();
    cache[dev] = current_cc(dev) >= 90 && code.has_image && code.ptx_version >= 90 ? 2 : 1;
  }
  return cache[dev] == 2;
}

std::string sm90_skip_reason() {
  int dev = 0;
  cudaGetDevice(&dev);
  const int cc = current_cc(dev);
  if (cc < 90)
    return "needs compute capability 9.0 or later (Hopper); this GPU is " +
           std::to_string(cc / 10) + "." + std::to_string(cc % 10);
  return "needs sm_90 code; this binary runs " + current_device_code().describe() +
         " here (its bulk-copy paths are compiled out): add 90 to CMAKE_CUDA_ARCHITECTURES";
}

size_t resident_grid(const void* kernel, int threads, size_t dynamic_smem_bytes) {
  int per_sm = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, dynamic_smem_bytes);
  return size_t(current_sm_count()) * size_t(per_sm > 0 ? per_sm : 1);
}

namespace {

// Reads every 16-byte word of `buf`; the store never happens for data the harness wrote (zeros)
// but the compiler cannot prove it, so the loads stay.
__global__ void flush_read_kernel(const int4* __restrict__ buf, size_t words, int* sink) {
  int acc = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < words;
       i += size_t(gridDim.x) * blockDim.x) {
    int4 v = buf[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x7fffffff) *sink = acc;
}

// The read ceiling's kernel, a streaming read like BabelStream's Dot with one array: each thread
// keeps kLoads independent 16-byte loads in flight per trip of a grid-stride loop over a
// resident grid, and adds them up. As in the flush, the store of the sum never happens for
// zeros, so no byte is written.
template <int kLoads>
__global__ void read_ceiling_kernel(const float4* __restrict__ a, size_t words, float* sink) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  float acc[kLoads] = {};
  for (; i + (kLoads - 1) * stride < words; i += kLoads * stride) {
    float4 v[kLoads];
#pragma unroll
    for (int k = 0; k < kLoads; ++k) v[k] = a[i + k * stride];
#pragma unroll
    for (int k = 0; k < kLoads; ++k) acc[k] += v[k].x + v[k].y + v[k].z + v[k].w;
  }
  for (; i < words; i += stride) acc[0] += a[i].x + a[i].y + a[i].z + a[i].w;
  float sum = 0;
#pragma unroll
  for (int k = 0; k < kLoads; ++k) sum += acc[k];
  if (sum == 12345.0f) *sink = sum;
}

__global__ void fault_kernel(int* p) { *p = 1; }

// StreamBlocker's kernel: one thread polls the host's flag (over the bus, through the mapped
// pointer) until it is set or the timeout passes.
__global__ void block_kernel(volatile int* flags, unsigned long long timeout_ns) {
  const unsigned long long start = globaltimer_ns();
  while (flags[0] == 0) {
    if (globaltimer_ns() - start > timeout_ns) {
      flags[1] = 1;
      __threadfence_system();
      return;
    }
    __nanosleep(500);
  }
}

}  // namespace

cudaError_t launch_fault_kernel(cudaStream_t stream) {
  fault_kernel<<<1, 1, 0, stream>>>(reinterpret_cast<int*>(uintptr_t(16)));
  return cudaGetLastError();
}

StreamBlocker::StreamBlocker(double timeout_s)
    : timeout_ns_(static_cast<unsigned long long>(timeout_s * 1e9)) {
  void* host = nullptr;
  LADDER_CUDA_TRY(cudaHostAlloc(&host, 2 * sizeof(int), cudaHostAllocMapped));
  flags_ = static_cast<volatile int*>(host);
  flags_[0] = flags_[1] = 0;
  void* device = nullptr;
  LADDER_CUDA_TRY(cudaHostGetDevicePointer(&device, host, 0));
  device_flags_ = static_cast<int*>(device);
}

StreamBlocker::~StreamBlocker() {
  if (flags_) cudaFreeHost(const_cast<int*>(flags_));
}

void StreamBlocker::block(cudaStream_t stream) {
  flags_[0] = 0;
  flags_[1] = 0;
  block_kernel<<<1, 1, 0, stream>>>(device_flags_, timeout_ns_);
  LADDER_CUDA_TRY(cudaGetLastError());
}

void StreamBlocker::release() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  flags_[0] = 1;
}

bool StreamBlocker::timed_out() const { return flags_[1] != 0; }

L2Flusher::L2Flusher(size_t l2_bytes)
    : buffer_(std::max<size_t>(2 * l2_bytes, 1 << 20), /*zero=*/true),
      sink_(sizeof(int), /*zero=*/true) {}

void L2Flusher::flush(cudaStream_t stream) {
  const size_t words = buffer_.bytes() / sizeof(int4);
  flush_read_kernel<<<current_sm_count() * 4, 512, 0, stream>>>(buffer_.as<int4>(), words,
                                                                sink_.as<int>());
  LADDER_CUDA_TRY(cudaGetLastError());
}

namespace {
// The median time (ms) of `samples` runs of enqueue() on the stream, after one warm-up run:
// before() (untimed), a start event, enqueue(), a stop event.
template <typename Before, typename Enqueue>
float median_ms(cudaStream_t stream, int samples, Before before, Enqueue enqueue) {
  cudaEvent_t start, stop;
  LADDER_CUDA_TRY(cudaEventCreate(&start));
  LADDER_CUDA_TRY(cudaEventCreate(&stop));
  std::vector<float> ms;
  for (int i = 0; i <= samples; ++i) {  // sample 0 is the warm-up
    before();
    LADDER_CUDA_TRY(cudaEventRecord(start, stream));
    LADDER_CUDA_TRY(enqueue());
    LADDER_CUDA_TRY(cudaEventRecord(stop, stream));
    LADDER_CUDA_TRY(cudaEventSynchronize(stop));
    float t = 0;
    LADDER_CUDA_TRY(cudaEventElapsedTime(&t, start, stop));
    if (i > 0) ms.push_back(t);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}
}  // namespace

double measure_copy_ceiling_gbps(cudaStream_t stream, L2Flusher& flusher, size_t bytes,
                                 int samples) {
  DeviceBuffer src(bytes, /*zero=*/true), dst(bytes);
  const float ms = median_ms(
      stream, samples, [&] { flusher.flush(stream); },
      [&] {
        return cudaMemcpyAsync(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice, stream);
      });
  return 2.0 * static_cast<double>(bytes) / (ms / 1e3) / 1e9;
}

double measure_read_ceiling_gbps(cudaStream_t stream, L2Flusher& flusher, size_t bytes,
                                 int samples) {
  DeviceBuffer src(bytes, /*zero=*/true), sink(sizeof(float));
  const size_t words = bytes / sizeof(float4);
  // The fastest of a few shapes (threads per block x loads in flight per thread): a ceiling is
  // the best streaming read this GPU gives, not one kernel's.
  float best_ms = 0;
  auto try_shape = [&](auto kernel, int threads) {
    const size_t blocks = resident_grid(reinterpret_cast<const void*>(kernel), threads, 0);
    const float ms = median_ms(
        stream, samples, [&] { flusher.flush(stream); },
        [&] {
          kernel<<<static_cast<unsigned>(blocks), threads, 0, stream>>>(src.as<const float4>(),
                                                                        words, sink.as<float>());
          return cudaGetLastError();
        });
    if (best_ms == 0 || ms < best_ms) best_ms = ms;
  };
  for (int threads : {256, 512, 1024}) {
    try_shape(read_ceiling_kernel<4>, threads);
    try_shape(read_ceiling_kernel<8>, threads);
    try_shape(read_ceiling_kernel<16>, threads);
  }
  return static_cast<double>(words * sizeof(float4)) / (best_ms / 1e3) / 1e9;
}

double measure_link_gbps(cudaStream_t stream, size_t bytes, bool to_device, int samples) {
  DeviceBuffer device(bytes, /*zero=*/true);
  void* host = nullptr;
  LADDER_CUDA_TRY(cudaMallocHost(&host, bytes));
  std::memset(host, 0, bytes);
  float ms = 0;
  try {
    ms = median_ms(
        stream, samples, [] {},
        [&] {
          return to_device
                     ? cudaMemcpyAsync(device.get(), host, bytes, cudaMemcpyHostToDevice, stream)
                     : cudaMemcpyAsync(host, device.get(), bytes, cudaMemcpyDeviceToHost, stream);
        });
  } catch (...) {
    cudaFreeHost(host);
    throw;
  }
  cudaFreeHost(host);
  return static_cast<double>(bytes) / (ms / 1e3) / 1e9;
}

std::string cub_version_string() {
  return std::to_string(CUB_MAJOR_VERSION) + "." + std::to_string(CUB_MINOR_VERSION) + "." +
         std::to_string(CUB_SUBMINOR_VERSION);
}

}  // namespace ladder
