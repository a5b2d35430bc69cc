// histogram/lab/probe_grid.cu — a standalone probe of v05's grid and merge at small and middle
// sizes. Not part of the binary. The sweep has v05 at 2^20 int32 samples slower than CUB while
// 2^18 and 2^22 are well ahead: at 2^20 v05's grid (one 16-byte vector a thread) is 512 blocks, at
// 2^18 128, and each block ends with 256 global atomics on the same 256 counters. This times v05's
// kernel at each size with the grid capped so that a thread reads K vectors (K = 1 was v05's
// grid until this probe; v05 now takes sqrt(vectors / 16) blocks), with the merge's bins rotated
// by block, and cub::DeviceHistogram::HistogramEven (float levels, as histogram/cub calls it),
// the L2 flushed before every launch, median of 41 launches, the histogram zeroed inside the
// timed interval as v05's launcher does (CUB zeroes its own). Every variant's counts are
// compared with CUB's on the device.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. -I/usr/local/cuda/include/cccl \
//     histogram/lab/probe_grid.cu common/device.cu -o probe_grid && ./probe_grid
#include <cub/device/device_histogram.cuh>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "common/device.h"
#include "common/probe_timer.cuh"
#include "histogram/v05_lane_striped.cuh"

using namespace ladder;
using namespace ladder::histogram;

namespace {

// v05's kernel with the merge's bins rotated by block: thread t adds bin (t + 8 * block) % 256,
// so that blocks finishing together start their global atomics on different counters.
template <typename T>
__global__ void rotated_kernel(const T* __restrict__ in, unsigned* __restrict__ bins, size_t n) {
  extern __shared__ unsigned h[];
  for (unsigned i = threadIdx.x; i < kBins * 32; i += v05::kThreads) h[i] = 0;
  __syncthreads();
  const unsigned lane = threadIdx.x % 32;
  auto add = [&](unsigned b) {
    if (b < kBins) atomicAdd(&h[b * 32 + lane], 1u);
  };
  using Vec = typename SampleTraits<T>::Vec;
  for_each_sample<T, v05::kUnroll>(
      in, n, [](const Vec* p) { return load_once(p); }, add);
  __syncthreads();
  if (threadIdx.x < kBins) {
    const unsigned b = (threadIdx.x + 8 * blockIdx.x) % kBins;
    unsigned sum = 0;
#pragma unroll 8
    for (unsigned j = 0; j < 32; ++j) sum += h[b * 32 + ((j + b) & 31)];
    if (sum != 0) atomicAdd(&bins[b], sum);
  }
}

__global__ void fill_int(int32_t* p, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    unsigned long long x = (i + 1) * 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    p[i] = static_cast<int32_t>((x ^ (x >> 31)) >> 56);  // 0..255
  }
}

template <typename T>
void run_size(probe_timing::Timer& timer, const T* in, size_t n, unsigned* bins, unsigned* ref,
              void* ws, size_t ws_bytes, const char* type) {
  cudaStream_t s = timer.stream();
  auto cub_call = [&] {
    size_t b = ws_bytes;
    cub::DeviceHistogram::HistogramEven(ws, b, in, ref, int(kBins + 1), 0.f, float(kBins), int(n),
                                        s);
  };
  const float cub_us = timer.median_us(cub_call, 41);
  const size_t full =
      resident_grid((const void*)v05::lane_striped_kernel<T>, v05::kThreads, v05::kSmemBytes);
  const size_t n_vec = n / SampleTraits<T>::kPerVec;
  std::printf("%s n=%zu: cub %.2f us; full grid %zu\n", type, n, cub_us, full);
  for (int rotated = 0; rotated < 2; ++rotated) {
    for (size_t k : {1, 2, 4, 8, 16}) {
      const size_t grid = std::min(full, std::max<size_t>(1, ceil_div(n_vec, v05::kThreads * k)));
      auto run = [&] {
        cudaMemsetAsync(bins, 0, kBins * sizeof(unsigned), s);
        if (rotated)
          rotated_kernel<T><<<unsigned(grid), v05::kThreads, v05::kSmemBytes, s>>>(in, bins, n);
        else
          v05::lane_striped_kernel<T>
              <<<unsigned(grid), v05::kThreads, v05::kSmemBytes, s>>>(in, bins, n);
      };
      const float us = timer.median_us(run, 41);
      run();
      cudaStreamSynchronize(s);
      std::vector<unsigned> a(kBins), b(kBins);
      cudaMemcpy(a.data(), bins, kBins * 4, cudaMemcpyDefault);
      cudaMemcpy(b.data(), ref, kBins * 4, cudaMemcpyDefault);
      std::printf("  %-8s K=%-2zu grid %4zu: %7.2f us  (%.3fx cub)  %s\n",
                  rotated ? "rotated" : "v05", k, grid, us, us / cub_us,
                  a == b ? "counts match" : "COUNTS DIFFER");
    }
  }
}

}  // namespace

int main() {
  cudaSetDevice(0);
  cudaFuncSetAttribute(v05::lane_striped_kernel<int32_t>,
                       cudaFuncAttributeMaxDynamicSharedMemorySize, int(v05::kSmemBytes));
  cudaFuncSetAttribute(v05::lane_striped_kernel<uint8_t>,
                       cudaFuncAttributeMaxDynamicSharedMemorySize, int(v05::kSmemBytes));
  const size_t max_n = size_t(1) << 24;
  int32_t* in = nullptr;
  uint8_t* in8 = nullptr;
  unsigned *bins = nullptr, *ref = nullptr;
  cudaMalloc(&in, max_n * 4);
  cudaMalloc(&in8, max_n);
  cudaMalloc(&bins, kBins * 4);
  cudaMalloc(&ref, kBins * 4);
  fill_int<<<1024, 256>>>(in, max_n);
  size_t ws_bytes = 0;
  cub::DeviceHistogram::HistogramEven(nullptr, ws_bytes, in, ref, int(kBins + 1), 0.f, float(kBins),
                                      int(max_n));
  size_t ws8 = 0;
  cub::DeviceHistogram::HistogramEven(nullptr, ws8, in8, ref, int(kBins + 1), 0.f, float(kBins),
                                      int(max_n));
  ws_bytes = std::max(ws_bytes, ws8);
  void* ws = nullptr;
  cudaMalloc(&ws, ws_bytes);
  // The bytes: the int32 samples' low bytes are another uniform sample.
  cudaMemcpy2D(in8, 1, in, 4, 1, max_n, cudaMemcpyDefault);
  cudaStream_t s;
  cudaStreamCreate(&s);
  {
    probe_timing::Timer timer(s);
    for (int lg : {18, 19, 20, 21, 22, 24})
      run_size<int32_t>(timer, in, size_t(1) << lg, bins, ref, ws, ws_bytes, "int32");
    for (int lg : {20, 22, 24})
      run_size<uint8_t>(timer, in8, size_t(1) << lg, bins, ref, ws, ws_bytes, "uint8");
  }
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
