// reduce/cols/v03_split_rows.cuh — col_sum v03: the block's shape from the column count, the rows
// split over the grid, a second pass over the partial sums.
// Technique: X lanes along the columns (16-byte vectors where the rows allow), 256 / X along the
// rows; grid.y splits the rows so that every SM has blocks; each thread loads four rows (eight
// for floats) before adding them; v01 sums the splits' partials.
// Changes from v02: the grid no longer depends on the columns alone, and short rows no longer
// leave lanes idle. Remains (bottleneck): the second pass (a thread per column over the splits)
// and its launch; a grid of up to two waves of blocks.
// Source: PaddlePaddle documentation, CUDA Kernel Primitive API (BlockYReduce, kGlobalMode);
// the split-K idea of GEMM libraries.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "common/device.h"
#include "common/registry.h"
#include "reduce/cols/v01_thread_per_column.cuh"  // the second pass

namespace ladder::reduce::cols::v03 {

inline constexpr VersionDoc kDoc = {
    3, "v03_split_rows", "Block shape from the columns, rows split over the grid, second pass",
    /*technique*/
    "A 256-thread block is X lanes along the columns by 256 / X along the rows, X the smallest "
    "power of two (at most 32) that covers a row in vectors (float4 where every row starts "
    "16-byte aligned): a 64-column matrix gets 16 x 16, a wide one 32 x 8. blockIdx.y splits "
    "the rows so that the grid fills every SM; each block reduces its rows (BlockYReduce "
    "through shared memory) into one partial sum per column, and v01 adds the partials. Each "
    "thread loads four rows (eight for 4-byte loads) before it adds them: that many loads in "
    "flight.",
    /*changes*/
    "v02's grid was cols / 32 blocks and its lanes were fixed at 32 along the columns; here the "
    "rows are split over the grid and the block's shape follows the columns.",
    /*remains*/
    "The memory system; for a split, the partials' second pass (splits x cols floats) and its "
    "launch.",
    /*source*/
    "PaddlePaddle documentation, CUDA Kernel Primitive API (BlockYReduce); split-K reductions "
    "of GEMM libraries (a second pass over partial sums)"};

inline constexpr unsigned kThreads = 256;

struct Plan {
  unsigned vec = 1, x = 1;
  size_t tiles = 0, splits = 1, rows_per_split = 0;
};

// blocks_per_sm: the grid the splits aim for, in 256-thread blocks per SM (8: one full wave).
inline Plan plan_for(const float* in, size_t rows, size_t cols, size_t blocks_per_sm = 8) {
  Plan p;
  p.vec = (reinterpret_cast<uintptr_t>(in) % 16 == 0 && cols % 4 == 0) ? 4 : 1;
  const size_t units = cols / p.vec;
  while (p.x < 32 && p.x < units) p.x *= 2;
  const size_t y = kThreads / p.x;
  p.tiles = std::max<size_t>(1, ceil_div(units, p.x));
  const size_t target = size_t(current_sm_count()) * blocks_per_sm;
  const size_t most = std::min<size_t>(65535, std::max<size_t>(1, ceil_div(rows, y)));
  p.splits = std::clamp<size_t>(ceil_div(target, p.tiles), 1, most);
  p.rows_per_split = ceil_div(rows, p.splits);
  return p;
}

template <unsigned V>
using VecOf = std::conditional_t<V == 4, float4, float>;
template <unsigned V>
__device__ __forceinline__ VecOf<V> load_vec(const float* p) {
  if constexpr (V == 4)
    return __ldg(reinterpret_cast<const float4*>(p));
  else
    return __ldg(p);
}
template <unsigned V>
__device__ __forceinline__ void add_vec(float* acc, VecOf<V> v) {
  if constexpr (V == 4) {
    acc[0] += v.x;
    acc[1] += v.y;
    acc[2] += v.z;
    acc[3] += v.w;
  } else {
    acc[0] += v;
  }
}
// Rows loaded before they are added (16-byte loads: 4, 64 bytes in flight per thread; 4-byte
// loads: 8).
template <unsigned V>
inline constexpr unsigned kUnroll = V == 4 ? 4 : 8;

// Block (tile = blockIdx.x, split = blockIdx.y): vector columns tile * X + tx, rows of the split
// from ty in steps of 256 / X. Writes dst[split * cols + c] for its columns.
template <unsigned V>
__global__ void __launch_bounds__(kThreads)
    split_kernel(const float* __restrict__ in, float* __restrict__ dst, size_t rows, size_t cols,
                 unsigned x, size_t rows_per_split) {
  __shared__ float part[kThreads * V];
  const unsigned tx = threadIdx.x % x, ty = threadIdx.x / x, y = kThreads / x;
  const size_t units = cols / V;
  const size_t u = blockIdx.x * size_t(x) + tx;
  const size_t r0 = blockIdx.y * rows_per_split, r1 = std::min(rows, r0 + rows_per_split);
  float acc[V] = {};
  if (u < units) {
    // kUnroll<V> rows a step, loaded before they are added: that many loads in flight per thread.
    size_t r = r0 + ty;
    for (; r + (kUnroll<V> - 1) * y < r1; r += kUnroll<V> * y) {
      VecOf<V> v[kUnroll<V>];
#pragma unroll
      for (unsigned k = 0; k < kUnroll<V>; ++k) v[k] = load_vec<V>(in + (r + k * y) * cols + u * V);
#pragma unroll
      for (unsigned k = 0; k < kUnroll<V>; ++k) add_vec<V>(acc, v[k]);
    }
    for (; r < r1; r += y) add_vec<V>(acc, load_vec<V>(in + r * cols + u * V));
  }
#pragma unroll
  for (unsigned k = 0; k < V; ++k) part[threadIdx.x * V + k] = acc[k];
  __syncthreads();
  if (ty == 0 && u < units)
#pragma unroll
    for (unsigned k = 0; k < V; ++k) {
      float total = 0.0f;
      for (unsigned j = 0; j < y; ++j) total += part[(j * x + tx) * V + k];
      dst[blockIdx.y * cols + u * V + k] = total;
    }
}

inline size_t workspace_bytes(size_t rows, size_t cols) {
  const Plan p = plan_for(nullptr, rows, cols);                            // 16-byte aligned
  const Plan q = plan_for(reinterpret_cast<const float*>(4), rows, cols);  // unaligned
  return sizeof(float) * cols * std::max(p.splits, q.splits);
}

inline cudaError_t launch(const float* in, float* out, size_t rows, size_t cols, void* ws,
                          cudaStream_t stream) {
  if (cols == 0) return cudaSuccess;
  const Plan p = plan_for(in, rows, cols);
  float* dst = p.splits == 1 ? out : static_cast<float*>(ws);
  const dim3 grid(static_cast<unsigned>(p.tiles), static_cast<unsigned>(p.splits));
  if (p.vec == 4)
    split_kernel<4><<<grid, kThreads, 0, stream>>>(in, dst, rows, cols, p.x, p.rows_per_split);
  else
    split_kernel<1><<<grid, kThreads, 0, stream>>>(in, dst, rows, cols, p.x, p.rows_per_split);
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess || p.splits == 1) return e;
  // The partials are a splits x cols matrix: its column sums are the answer.
  return v01::launch(dst, out, p.splits, cols, nullptr, stream);
}

}  // namespace ladder::reduce::cols::v03
