// reduce/lab/probe_single.cu — a standalone probe for reduce v12's one-block path: at 1,024 to
// 16,384 floats, which block shape and which load reach CUB's single-tile time (the sweep on both
// Hopper GPUs had v12 about 2.5% behind CUB at 4,096 floats, and v12 at 1,024 floats slower than
// CUB at 4,096). Each launch is timed as the benchmark times it: the stream held by a blocking
// kernel while the start event, the launch and the stop event are enqueued, L2 flushed before,
// median of 101. Every sum is checked against CUB's. Not part of the binary.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. reduce/lab/probe_single.cu common/device.cu \
//     -o probe_single && ./probe_single
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "common/device.h"
#include "common/probe_timer.cuh"
#include "common/warp_reduce.cuh"
#include "reduce/v12_size_dispatch.cuh"

using namespace ladder;

enum Load { kNoAllocate, kLdg, kPlain };
const char* kLoadNames[] = {"no_allocate", "ldg", "plain"};

template <Load L>
__device__ __forceinline__ float4 load4(const float4* p) {
  if constexpr (L == kNoAllocate) return load_once(p);
  if constexpr (L == kLdg) return __ldg(p);
  return *p;
}

// One block of BS threads, UNROLL float4 each, every load issued before the first add; n a
// multiple of 4 and at most BS * UNROLL * 4 (the probe's sizes), `in` 16-byte aligned.
template <unsigned BS, int UNROLL, Load L>
__global__ void __launch_bounds__(BS)
    one_block(const float* __restrict__ in, float* out, size_t n) {
  const float4* in4 = reinterpret_cast<const float4*>(in);
  const unsigned n4 = static_cast<unsigned>(n / 4);
  float4 v[UNROLL];
#pragma unroll
  for (int u = 0; u < UNROLL; ++u) {
    const unsigned i = u * BS + threadIdx.x;
    v[u] = i < n4 ? load4<L>(in4 + i) : make_float4(0, 0, 0, 0);
  }
  float s = 0;
#pragma unroll
  for (int u = 0; u < UNROLL; ++u) s += (v[u].x + v[u].y) + (v[u].z + v[u].w);
  s = block_reduce_sum<BS>(s);
  if (threadIdx.x == 0) *out = s;
}

float *in, *out;
void* cub_ws;
size_t cub_bytes = 1 << 20;
cudaStream_t stream;
probe_timing::Timer* timer;

template <typename F>
float median_us(F&& run) {
  return timer->median_us(run, 101);
}

float got() {
  float h = 0;
  cudaStreamSynchronize(stream);
  cudaMemcpy(&h, out, 4, cudaMemcpyDefault);
  return h;
}

template <unsigned BS, int UNROLL, Load L>
void shape(size_t n, float cub_us, float want) {
  if (n > size_t(BS) * UNROLL * 4 || n * 2 <= size_t(BS) * UNROLL * 4) return;
  const float us = median_us([&] { one_block<BS, UNROLL, L><<<1, BS, 0, stream>>>(in, out, n); });
  cudaMemsetAsync(out, 0xff, 4, stream);
  one_block<BS, UNROLL, L><<<1, BS, 0, stream>>>(in, out, n);
  const float g = got();
  printf("  n=%6zu  %4u x %d float4 %-11s %6.2f us  %.3fx cub  sum %s  %s\n", n, BS, UNROLL,
         kLoadNames[L], us, us / cub_us,
         std::fabs(g - want) <= 1e-3f * std::fabs(want) ? "ok" : "WRONG",
         cudaGetErrorString(cudaGetLastError()));
}

template <unsigned BS, int UNROLL>
void loads(size_t n, float cub_us, float want) {
  shape<BS, UNROLL, kNoAllocate>(n, cub_us, want);
  shape<BS, UNROLL, kLdg>(n, cub_us, want);
  shape<BS, UNROLL, kPlain>(n, cub_us, want);
}

int main() {
  const size_t cap = 1 << 16;
  cudaMalloc(&in, cap * 4);
  cudaMalloc(&out, 4);
  cudaMalloc(&cub_ws, cub_bytes);
  std::vector<float> h(cap);
  for (size_t i = 0; i < cap; ++i) h[i] = float((i * 2654435761u) % 1000) / 1000.0f;
  cudaMemcpy(in, h.data(), cap * 4, cudaMemcpyDefault);
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  probe_timing::Timer t(stream);
  timer = &t;
  printf("%s\n", query_device(0).name.c_str());
  for (size_t n : {1024, 2048, 4096, 8192, 16384}) {
    size_t bytes = cub_bytes;
    cub::DeviceReduce::Sum(cub_ws, bytes, in, out, static_cast<int>(n), stream);
    const float want = got();
    const float cub_us = median_us([&] {
      size_t b = cub_bytes;
      cub::DeviceReduce::Sum(cub_ws, b, in, out, static_cast<int>(n), stream);
    });
    void* ws = nullptr;
    const float v12_us = median_us([&] { reduce::v12::launch(in, out, n, ws, stream); });
    cudaMemsetAsync(out, 0xff, 4, stream);
    reduce::v12::launch(in, out, n, ws, stream);
    const float g = got();
    printf("n=%6zu  cub %6.2f us   v12 %6.2f us  %.3fx cub  sum %s\n", n, cub_us, v12_us,
           v12_us / cub_us, std::fabs(g - want) <= 1e-3f * std::fabs(want) ? "ok" : "WRONG");
    loads<64, 4>(n, cub_us, want);
    loads<128, 2>(n, cub_us, want);
    loads<128, 4>(n, cub_us, want);
    loads<128, 8>(n, cub_us, want);
    loads<256, 1>(n, cub_us, want);
    loads<256, 2>(n, cub_us, want);
    loads<256, 4>(n, cub_us, want);
    loads<512, 1>(n, cub_us, want);
    loads<512, 2>(n, cub_us, want);
    loads<512, 4>(n, cub_us, want);
    loads<1024, 1>(n, cub_us, want);
    loads<1024, 2>(n, cub_us, want);
    loads<1024, 4>(n, cub_us, want);
  }
  return 0;
}
