// reduce/rows/v04_shape_dispatch.cuh — row_sum v04: the threads per row picked from the shape.
// Technique: a group of G lanes per row (G from the row's length in 16-byte vectors: several
// rows per warp for short rows), a warp per row for many long rows, and for a few long rows a
// row split over several blocks with a second pass. 16-byte loads where the rows allow them.
// Four independent sums per thread keep four loads in flight.
// Changes from v03: one kernel shape per matrix shape instead of one for all.
// Remains (bottleneck): the memory system for every shape; the second pass of a split row.
// Source: PaddlePaddle documentation, CUDA Kernel Primitive API (kLocalMode / kGlobalMode,
// BlockXReduce); CUB's and PyTorch's choice of threads per segment by its length.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/device.h"
#include "common/registry.h"
#include "common/warp_reduce.cuh"
#include "reduce/rows/v02_warp_per_row.cuh"  // the second pass of split rows

namespace ladder::reduce::rows::v04 {

inline constexpr VersionDoc kDoc = {
    4, "v04_shape_dispatch", "Threads per row from the shape: lane groups, warps or split blocks",
    /*technique*/
    "The row's length in vectors (float4 where every row starts 16-byte aligned, else floats) "
    "picks the shape. Up to 32 vectors: a group of G = 1, 2, ..., 32 lanes per row, 32 / G rows "
    "per warp, each group reducing with shuffles of width G (a 64-column row: 16 lanes, one "
    "float4 each, two rows per warp). Longer rows, with enough rows to fill the GPU with one "
    "warp each: a warp per row. Few long rows (the 64 x 4M shape): each row split over several "
    "blocks, block sums into a workspace, and v02's warp per row sums those partial sums. "
    "Every thread keeps four independent sums (four row sets per warp, four strides per "
    "block), so four loads are in flight per thread even where a row is one load per lane.",
    /*changes*/
    "v01-v03 each used one shape for every matrix; here the matrix picks the shape, and the "
    "loads are 16 bytes wide where the rows allow it.",
    /*remains*/
    "The memory system; for split rows, the second (small) pass and its launch.",
    /*source*/
    "PaddlePaddle documentation, CUDA Kernel Primitive API (Reduce in kLocalMode / "
    "kGlobalMode; BlockXReduce); CUB's segmented reduce and PyTorch's reduction config, which "
    "both pick threads per segment from its length"};

inline constexpr unsigned kThreads = 256;
// Independent sums per thread (row sets per warp in the group kernel, strides in the split
// kernel): the loads each thread keeps in flight.
inline constexpr unsigned kRowSets = 4;

template <unsigned V>
struct Vec;
template <>
struct Vec<1> {
  static __device__ __forceinline__ float load_sum(const float* p) { return __ldg(p); }
};
template <>
struct Vec<4> {
  static __device__ __forceinline__ float load_sum(const float* p) {
    const float4 v = __ldg(reinterpret_cast<const float4*>(p));
    return (v.x + v.y) + (v.z + v.w);
  }
};

// G lanes per row, 32 / G rows per warp, U such row sets per pass: a lane keeps U rows' loads in
// flight (U independent sums) before it shuffles, so a short row (one float4 per lane) still has
// U loads outstanding per lane. Row r's vector u is in + r * cols + u * V. The loop runs per warp
// (every lane shuffles); lanes of rows past the end add nothing.
template <unsigned G, unsigned V, unsigned U>
__global__ void __launch_bounds__(kThreads)
    group_kernel(const float* __restrict__ in, float* __restrict__ out, size_t rows, size_t cols) {
  constexpr unsigned kRowsPerWarp = 32 / G, kWarps = kThreads / 32;
  const unsigned lane = threadIdx.x % 32, sub = lane % G;
  const size_t units = cols / V;
  for (size_t first = (blockIdx.x * size_t(kWarps) + threadIdx.x / 32) * kRowsPerWarp * U;
       first < rows; first += size_t(gridDim.x) * kWarps * kRowsPerWarp * U) {
    float sum[U];
#pragma unroll
    for (unsigned k = 0; k < U; ++k) sum[k] = 0.0f;
    for (size_t u = sub; u < units; u += G) {
#pragma unroll
      for (unsigned k = 0; k < U; ++k) {
        const size_t r = first + k * kRowsPerWarp + lane / G;
        if (r < rows) sum[k] += Vec<V>::load_sum(in + r * cols + u * V);
      }
    }
#pragma unroll
    for (unsigned k = 0; k < U; ++k) {
#pragma unroll
      for (unsigned offset = G / 2; offset > 0; offset /= 2)
        sum[k] += __shfl_down_sync(0xffffffffu, sum[k], offset, G);
      const size_t r = first + k * kRowsPerWarp + lane / G;
      if (sub == 0 && r < rows) out[r] = sum[k];
    }
  }
}

// Job j = (row j / splits, part j % splits): the block sums its part of the row's vectors and
// writes dst[j] (the row's sum when splits == 1, else a partial sum).
template <unsigned V>
__global__ void __launch_bounds__(kThreads)
    split_kernel(const float* __restrict__ in, float* __restrict__ dst, size_t rows, size_t cols,
                 size_t splits) {
  const size_t units = cols / V, per = (units + splits - 1) / splits;
  for (size_t j = blockIdx.x; j < rows * splits; j += gridDim.x) {
    const size_t r = j / splits, s = j % splits;
    const size_t begin = s * per, end = std::min(units, begin + per);
    const float* row = in + r * cols;
    float part[kRowSets] = {};  // kRowSets independent sums: that many loads in flight
    size_t u = begin + threadIdx.x;
    for (; u + (kRowSets - 1) * kThreads < end; u += kRowSets * kThreads)
#pragma unroll
      for (unsigned k = 0; k < kRowSets; ++k)
        part[k] += Vec<V>::load_sum(row + (u + k * kThreads) * V);
    for (; u < end; u += kThreads) part[0] += Vec<V>::load_sum(row + u * V);
    float sum = 0.0f;
#pragma unroll
    for (unsigned k = 0; k < kRowSets; ++k) sum += part[k];
    sum = block_reduce_sum<kThreads>(sum);
    if (threadIdx.x == 0) dst[j] = sum;
    __syncthreads();  // block_reduce_sum's shared memory is reused by the next job
  }
}

// The plan for a shape on this device.
struct Plan {
  unsigned vec = 1;    // 4: float4 loads
  unsigned group = 0;  // lanes per row (1..32) for the group kernel; 0: the split kernel
  size_t splits = 1;   // parts per row for the split kernel
};

inline Plan plan_for(const float* in, size_t rows, size_t cols) {
  Plan p;
  p.vec = (reinterpret_cast<uintptr_t>(in) % 16 == 0 && cols % 4 == 0) ? 4 : 1;
  const size_t units = cols / p.vec;
  const size_t sms = static_cast<size_t>(current_sm_count());
  const size_t resident_warps = sms * 64;  // 8 blocks of 8 warps per SM
  if (units <= 32) {
    p.group = 1;
    while (p.group < units) p.group *= 2;
  } else if (rows >= resident_warps) {
    p.group = 32;
  } else {
    p.group = 0;
    const size_t jobs = sms * 8;  // one wave of 256-thread blocks
    p.splits =
        rows >= jobs ? 1 : std::min((jobs + rows - 1) / rows, std::max<size_t>(1, units / 2048));
  }
  return p;
}

inline size_t workspace_bytes(size_t rows, size_t cols) {
  // The most any plan asks for, for either vector width: rows * splits partial sums.
  const Plan p = plan_for(nullptr, rows, cols);  // nullptr: 16-byte aligned
  const Plan q = plan_for(reinterpret_cast<const float*>(4), rows, cols);  // unaligned
  return sizeof(float) * rows * std::max(p.group ? 1 : p.splits, q.group ? 1 : q.splits);
}

template <unsigned V>
cudaError_t launch_group(unsigned g, const float* in, float* out, size_t rows, size_t cols,
                         cudaStream_t stream) {
  const size_t rows_per_block = size_t(kThreads / 32) * (32 / g) * kRowSets;
  const unsigned grid = static_cast<unsigned>(
      std::clamp<size_t>(ceil_div(rows, rows_per_block), 1, size_t(current_sm_count()) * 8));
  constexpr unsigned U = kRowSets;
  switch (g) {
    case 1:
      group_kernel<1, V, U><<<grid, kThreads, 0, stream>>>(in, out, rows, cols);
      break;
    case 2:
      group_kernel<2, V, U><<<grid, kThreads, 0, stream>>>(in, out, rows, cols);
      break;
    case 4:
      group_kernel<4, V, U><<<grid, kThreads, 0, stream>>>(in, out, rows, cols);
      break;
    case 8:
      group_kernel<8, V, U><<<grid, kThreads, 0, stream>>>(in, out, rows, cols);
      break;
    case 16:
      group_kernel<16, V, U><<<grid, kThreads, 0, stream>>>(in, out, rows, cols);
      break;
    default:
      group_kernel<32, V, U><<<grid, kThreads, 0, stream>>>(in, out, rows, cols);
      break;
  }
  return cudaGetLastError();
}

inline cudaError_t launch(const float* in, float* out, size_t rows, size_t cols, void* ws,
                          cudaStream_t stream) {
  if (rows == 0) return cudaSuccess;
  const Plan p = plan_for(in, rows, cols);
  if (p.group)
    return p.vec == 4 ? launch_group<4>(p.group, in, out, rows, cols, stream)
                      : launch_group<1>(p.group, in, out, rows, cols, stream);
  float* dst = p.splits == 1 ? out : static_cast<float*>(ws);
  const unsigned grid =
      static_cast<unsigned>(std::clamp<size_t>(rows * p.splits, 1, size_t(current_sm_count()) * 8));
  if (p.vec == 4)
    split_kernel<4><<<grid, kThreads, 0, stream>>>(in, dst, rows, cols, p.splits);
  else
    split_kernel<1><<<grid, kThreads, 0, stream>>>(in, dst, rows, cols, p.splits);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess || p.splits == 1) return e;
  // The partial sums are a rows x splits matrix: its row sums are the answer.
  return v02::launch(dst, out, rows, p.splits, nullptr, stream);
}

}  // namespace ladder::reduce::rows::v04
