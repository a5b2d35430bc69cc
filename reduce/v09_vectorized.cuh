// reduce/v09_vectorized.cuh — reduce v09: 16-byte loads, grid sized from the GPU.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/device.h"
#include "common/registry.h"
#include "common/warp_reduce.cuh"

namespace ladder::reduce::v09 {

inline constexpr VersionDoc kDoc = {
    9, "v09_vectorized", "16-byte float4 loads, several in flight, grid sized from the SM count",
    /*technique*/
    "kUnroll independent 16-byte loads (float4) per trip before any add: 64 bytes in flight per "
    "thread instead of 4. The grid is every block the GPU holds at once (SM count x blocks per "
    "SM from the occupancy API), each looping over the input: persistent blocks.",
    /*changes*/
    "v08 with float4 loads, a kUnroll = 4 load batch, and an occupancy-sized grid "
    "instead of the fixed 1024 blocks.",
    /*remains*/
    "The second launch: it adds only one sum per block of the first (1,056 on a 132-SM GPU at "
    "eight blocks per SM), but at the ladder size (25.6M floats, about 25 us of traffic) its "
    "launch gap and tiny one-block run are a visible share of the time.",
    /*source*/
    "Justin Luitjens, CUDA Pro Tip: Increase Performance with Vectorized Memory Access (NVIDIA "
    "blog, 2013) and Faster Parallel Reductions on Kepler (NVIDIA blog, 2014). Sizing the grid "
    "from the device goes past Harris's kernel 7 and the Chinese notes on CUDA operator "
    "optimization, which both pick it by hand"};

inline constexpr unsigned kThreads = 256;
inline constexpr int kUnroll = 4;

// Any n and any 4-byte-aligned pointer: up to 3 scalar elements before the first 16-byte
// boundary (the head) and up to 3 after the last full float4 (the tail) are added separately.
// This thread's share of sum(in[0, n)). The 16-byte-aligned body is read as float4 with
// UNROLL loads in flight per trip; the scalar head and tail go to the first threads of the grid.
// Precondition: `in` is 4-byte aligned. Works for any n, including n > 2^31.
template <unsigned BS, int UNROLL>
__device__ __forceinline__ float thread_sum_vec4(const float* __restrict__ in, size_t n) {
  const size_t misalign = reinterpret_cast<uintptr_t>(in) & 15;
  const size_t head = min(n, ((16 - misalign) & 15) / sizeof(float));
  const float4* __restrict__ body = reinterpret_cast<const float4*>(in + head);
  const size_t n4 = (n - head) / 4;
  const size_t tail_begin = head + 4 * n4;
  const size_t thread = size_t(blockIdx.x) * BS + threadIdx.x;
  const size_t stride = size_t(gridDim.x) * BS;

  float acc[UNROLL] = {};
  size_t i = thread;
  for (; i + (UNROLL - 1) * stride < n4; i += UNROLL * stride) {
    float4 v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) v[u] = body[i + u * stride];  // all loads first...
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) acc[u] += (v[u].x + v[u].y) + (v[u].z + v[u].w);  // ...then
  }
  for (; i < n4; i += stride) {
    const float4 v = body[i];
    acc[0] += (v.x + v.y) + (v.z + v.w);
  }
  float sum = 0.0f;
#pragma unroll
  for (int u = 0; u < UNROLL; ++u) sum += acc[u];
  if (thread < head) sum += in[thread];
  if (thread < n - tail_begin) sum += in[tail_begin + thread];
  return sum;
}

// Block b writes the sum of its share of in[0, n) to out[b]. Launch with BS threads.
template <unsigned BS, int UNROLL>
__global__ void vec4_kernel(const float* __restrict__ in, float* __restrict__ out, size_t n) {
  float sum = thread_sum_vec4<BS, UNROLL>(in, n);
  sum = block_reduce_sum<BS>(sum);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

// Sums m block sums with one block (the second pass).
template <unsigned BS>
__global__ void final_kernel(const float* __restrict__ partial, float* __restrict__ out, size_t m) {
  float sum = 0.0f;
  for (size_t i = threadIdx.x; i < m; i += BS) sum += partial[i];
  sum = block_reduce_sum<BS>(sum);
  if (threadIdx.x == 0) *out = sum;
}

// Blocks resident on the whole GPU at once, but no more than there is work for.
inline size_t grid_for(size_t n) {
  static const int per_sm = [] {
    int blocks = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, vec4_kernel<kThreads, kUnroll>, kThreads,
                                                  0);
    return std::max(blocks, 1);
  }();
  const size_t full = size_t(current_sm_count()) * per_sm;
  return std::clamp<size_t>(ceil_div(n, size_t(kThreads) * 4 * kUnroll), 1, full);
}

inline size_t workspace_bytes(size_t n) { return grid_for(n) * sizeof(float); }

inline cudaError_t launch(const float* in, float* out, size_t n, void* ws, cudaStream_t stream) {
  const size_t grid = grid_for(n);
  float* partial = grid == 1 ? out : static_cast<float*>(ws);
  vec4_kernel<kThreads, kUnroll>
      <<<static_cast<unsigned>(grid), kThreads, 0, stream>>>(in, partial, n);
  if (grid > 1) final_kernel<kThreads><<<1, kThreads, 0, stream>>>(partial, out, grid);
  return cudaGetLastError();
}

}  // namespace ladder::reduce::v09
