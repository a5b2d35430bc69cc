// reduce/rows/v02_warp_per_row.cuh — row_sum v02: one warp per row.
// Technique: the 32 lanes of a warp stride along one row together (coalesced) and combine
// their sums with the warp shuffle. Remains (bottleneck): one warp per row, whatever the row's
// length: short rows (64 columns) give each lane two loads, then five shuffles, long rows (4M
// columns) give 64 warps the whole matrix.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>

#include "common/device.h"
#include "common/registry.h"
#include "common/warp_reduce.cuh"

namespace ladder::reduce::rows::v02 {

inline constexpr VersionDoc kDoc = {
    2, "v02_warp_per_row", "One warp per row, lanes along the row, warp-shuffle sum",
    /*technique*/
    "Warp w takes row w (grid-stride over rows); lane l reads columns l, l + 32, ...: each "
    "load instruction of the warp reads 128 consecutive bytes. The lanes' sums meet by "
    "warp_reduce_sum (five shuffles), and lane 0 writes the row's sum.",
    /*changes*/ "v01's thread per row becomes a warp per row: the loads coalesce.",
    /*remains*/
    "The shape: a warp per row is too little for a few long rows and too much for many short "
    "ones (a 64-column row gives each lane two loads and then five shuffles).",
    /*source*/
    "PaddlePaddle documentation, CUDA Kernel Primitive API (WarpReduce); PyTorch's "
    "BlockReduceSum as read in SunGeng, Understanding PyTorch's CUDA operators 01: "
    "BlockReduceSum (blog, 2024), for the warp shuffle"};

inline constexpr unsigned kThreads = 256;
inline constexpr unsigned kWarps = kThreads / 32;

__global__ void __launch_bounds__(kThreads)
    warp_per_row_kernel(const float* __restrict__ in, float* __restrict__ out, size_t rows,
                        size_t cols) {
  const unsigned lane = threadIdx.x % 32;
  for (size_t r = blockIdx.x * size_t(kWarps) + threadIdx.x / 32; r < rows;
       r += size_t(gridDim.x) * kWarps) {
    const float* row = in + r * cols;
    float sum = 0.0f;
    for (size_t c = lane; c < cols; c += 32) sum += row[c];
    sum = warp_reduce_sum(sum);
    if (lane == 0) out[r] = sum;
  }
}

inline size_t workspace_bytes(size_t, size_t) { return 0; }

inline cudaError_t launch(const float* in, float* out, size_t rows, size_t cols, void*,
                          cudaStream_t stream) {
  if (rows == 0) return cudaSuccess;
  const size_t grid = std::clamp<size_t>(ceil_div(rows, kWarps), 1, size_t(current_sm_count()) * 8);
  warp_per_row_kernel<<<static_cast<unsigned>(grid), kThreads, 0, stream>>>(in, out, rows, cols);
  return cudaGetLastError();
}

}  // namespace ladder::reduce::rows::v02
