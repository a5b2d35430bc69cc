// scan/lab/probe_copy.cu — how close an SM-issued copy gets to cudaMemcpy on this GPU (the copy
// ceiling the chapters measure against). Not part of the binary. probe_v15_stores.cu found no
// one-wave copy kernel of its own past 92.7% of cudaMemcpy on an H200; this probe adds grids that
// are not one resident wave and CUB's own transform (cub::DeviceTransform::Transform with an
// identity operator, the library's tuned streaming kernel). 2^28 int32 (1 GiB each way); three
// interleaved rounds of 31-launch medians, timed as the benchmark times (common/probe_timer.cuh);
// every output compared with the input. Persistent grids: tiles taken in turn (b, b + grid, ...)
// or claimed in order from an atomic counter (the claimed cases include its 4-byte memset).
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_copy.cu common/device.cu -o p && ./p
// Run on an H200 on 2026-11-29: results/logs/h200-probes-32f22b4-2026-11-29/probe_copy-2.txt
// (scan/lab/LAB_NOTES.md, "A copy that reaches the ceiling").
#include <cub/device/device_transform.cuh>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

#include "common/device.h"
#include "common/probe_timer.cuh"

using namespace ladder;

namespace {

struct Identity {
  __device__ int32_t operator()(int32_t x) const { return x; }
};

// One tile of U x BS int4 per block, thread t taking int4 t, t + BS, ...; as many blocks as
// tiles (not a resident wave). n4 a multiple of U * BS.
template <int U, int BS>
__global__ void copy_flat(const int4* __restrict__ in, int4* __restrict__ out) {
  const size_t base = size_t(blockIdx.x) * U * BS + threadIdx.x;
  int4 v[U];
#pragma unroll
  for (int u = 0; u < U; ++u) v[u] = in[base + u * BS];
#pragma unroll
  for (int u = 0; u < U; ++u) out[base + u * BS] = v[u];
}

// Tile-contiguous trips over `grid` blocks of 256 (probe_v15_stores.cu's copy kernel, plain
// loads and stores). n4 a multiple of U * 256.
template <int U>
__global__ void copy_trips(const int4* __restrict__ in, int4* __restrict__ out, size_t n4) {
  constexpr size_t kTile = size_t(U) * 256;
  for (size_t base = size_t(blockIdx.x) * kTile; base < n4; base += size_t(gridDim.x) * kTile) {
    int4 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u) v[u] = in[base + u * 256 + threadIdx.x];
#pragma unroll
    for (int u = 0; u < U; ++u) out[base + u * 256 + threadIdx.x] = v[u];
  }
}

// Tiles claimed in order from an atomic counter (as scan v15's producer claims them), U x 256
// int4 a tile, one resident wave of 256-thread blocks. `counter` is 0 at launch. n4 a multiple of
// U * 256.
template <int U>
__global__ void copy_claimed(const int4* __restrict__ in, int4* __restrict__ out, size_t n4,
                             unsigned* counter) {
  constexpr size_t kTile = size_t(U) * 256;
  __shared__ unsigned tile;
  while (true) {
    if (threadIdx.x == 0) tile = atomicAdd(counter, 1u);
    __syncthreads();
    const size_t base = size_t(tile) * kTile;
    __syncthreads();  // every thread has read `tile` before thread 0 claims the next
    if (base >= n4) return;
    int4 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u) v[u] = in[base + u * 256 + threadIdx.x];
#pragma unroll
    for (int u = 0; u < U; ++u) out[base + u * 256 + threadIdx.x] = v[u];
  }
}

}  // namespace

int main() {
  const size_t n = size_t(1) << 28, n4 = n / 4;
  int32_t *in, *out;
  unsigned long long* scratch;
  unsigned* counter;
  if (cudaMalloc(&in, n * 4) || cudaMalloc(&out, n * 4) || cudaMalloc(&scratch, 8) ||
      cudaMalloc(&counter, 4)) {
    printf("cudaMalloc failed\n");
    return 1;
  }
  std::vector<int32_t> h(n);
  uint32_t x = 12345;
  for (auto& v : h) v = int32_t(x = x * 1664525u + 1013904223u);
  cudaMemcpy(in, h.data(), n * 4, cudaMemcpyDefault);
  cudaStream_t st;
  cudaStreamCreate(&st);
  probe_timing::Timer timer(st);
  const int4* i4 = reinterpret_cast<const int4*>(in);
  int4* o4 = reinterpret_cast<int4*>(out);
  const unsigned wave =
      unsigned(resident_grid(reinterpret_cast<const void*>(copy_trips<4>), 256, 0));
  struct Case {
    const char* name;
    std::function<void()> run;
  };
  std::vector<Case> cases = {
      {"cudaMemcpy", [&] { cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDefault, st); }},
      {"cub DeviceTransform identity",
       [&] { cub::DeviceTransform::Transform(in, out, int64_t(n), Identity{}, st); }},
      {"flat 1 int4/thread, 256", [&] { copy_flat<1, 256><<<n4 / 256, 256, 0, st>>>(i4, o4); }},
      {"flat 1 int4/thread, 1024", [&] { copy_flat<1, 1024><<<n4 / 1024, 1024, 0, st>>>(i4, o4); }},
      {"flat 2 int4/thread, 256", [&] { copy_flat<2, 256><<<n4 / 512, 256, 0, st>>>(i4, o4); }},
      {"flat 4 int4/thread, 256", [&] { copy_flat<4, 256><<<n4 / 1024, 256, 0, st>>>(i4, o4); }},
      {"flat 8 int4/thread, 128", [&] { copy_flat<8, 128><<<n4 / 1024, 128, 0, st>>>(i4, o4); }},
      {"trips 4/thread, 1 wave", [&] { copy_trips<4><<<wave, 256, 0, st>>>(i4, o4, n4); }},
      {"trips 4/thread, 2 waves", [&] { copy_trips<4><<<2 * wave, 256, 0, st>>>(i4, o4, n4); }},
      {"trips 4/thread, 8 waves", [&] { copy_trips<4><<<8 * wave, 256, 0, st>>>(i4, o4, n4); }},
      {"trips 16/thread, 1 wave", [&] { copy_trips<16><<<wave, 256, 0, st>>>(i4, o4, n4); }},
      {"trips 1/thread, 1 wave", [&] { copy_trips<1><<<wave, 256, 0, st>>>(i4, o4, n4); }},
      {"trips 1/thread, 8 waves", [&] { copy_trips<1><<<8 * wave, 256, 0, st>>>(i4, o4, n4); }},
      {"claimed 1/thread, 1 wave",
       [&] {
         cudaMemsetAsync(counter, 0, 4, st);
         copy_claimed<1><<<wave, 256, 0, st>>>(i4, o4, n4, counter);
       }},
      {"claimed 4/thread, 1 wave",
       [&] {
         cudaMemsetAsync(counter, 0, 4, st);
         copy_claimed<4><<<wave, 256, 0, st>>>(i4, o4, n4, counter);
       }},
  };
  printf("n = 2^28 int32 (%zu bytes each way); one wave = %u blocks of 256\n", n * 4, wave);
  std::vector<std::vector<float>> us(cases.size());
  for (int round = 0; round < 3; ++round)
    for (size_t c = 0; c < cases.size(); ++c) {
      cudaMemsetAsync(out, 0, n * 4, st);
      const float t = timer.median_us(cases[c].run);
      const unsigned long long bad = probe_timing::mismatches(out, in, n, scratch, st);
      us[c].push_back(t);
      printf("round %d  %-32s %8.2f us  %7.1f GB/s  mismatches %llu  %s\n", round, cases[c].name, t,
             8.0 * n / t / 1e3, bad, cudaGetErrorString(cudaGetLastError()));
    }
  printf("summary (median of the three rounds; %% of cudaMemcpy's median)\n");
  std::vector<float> med(cases.size());
  for (size_t c = 0; c < cases.size(); ++c) {
    std::sort(us[c].begin(), us[c].end());
    med[c] = us[c][1];
  }
  for (size_t c = 0; c < cases.size(); ++c)
    printf("  %-32s %8.2f us  %6.1f%%\n", cases[c].name, med[c], 100.0 * med[0] / med[c]);
  return 0;
}
