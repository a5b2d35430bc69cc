// reduce/v08_warp_shuffle.cuh — reduce v08: warp-shuffle block reduction.
//
// Technique: lanes sum their values through registers with __shfl_down_sync (five steps, no
// shared memory, no barrier), then one warp adds the warp sums. Changed from v07: the block's
// shared-memory tree becomes common/warp_reduce.cuh's block_reduce_sum (one __syncthreads instead
// of three). What remains: the block step was never the bottleneck; the grid-stride loop's one
// 4-byte load per trip and its hand-picked grid leave too few bytes in flight (v09 widens the
// loads). Source: PyTorch's BlockReduceSum; J. Luitjens, Faster Parallel Reductions on Kepler
// (NVIDIA blog, 2014). The kDoc below says each in full.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>

#include "common/device.h"
#include "common/registry.h"
#include "common/warp_reduce.cuh"  // warp_reduce_sum, block_reduce_sum: this rung's idea

namespace ladder::reduce::v08 {

inline constexpr VersionDoc kDoc = {
    8, "v08_warp_shuffle", "Warp shuffle: __shfl_down_sync instead of a shared-memory tree",
    /*technique*/
    "Within a warp, lanes exchange registers with __shfl_down_sync: five steps sum 32 values "
    "with no shared memory and no barrier. Lane 0 of each warp stores its warp's sum, and one "
    "more warp-level reduction adds the (at most 32) warp sums: the block needs one "
    "__syncthreads() instead of v07's three. The code is common/warp_reduce.cuh's "
    "block_reduce_sum, "
    "which later rungs reuse.",
    /*changes*/
    "v07's grid-stride loop and fixed grid, with the shared-memory tree replaced by "
    "block_reduce_sum.",
    /*remains*/
    "The block step was never the bottleneck at this size: the time is still the grid-stride "
    "loop's one 4-byte load per trip and a hand-picked grid, i.e. too few bytes in flight.",
    /*source*/
    "PyTorch's BlockReduceSum (aten/src/ATen/native/cuda/block_reduce.cuh), as read in SunGeng, "
    "Understanding PyTorch's CUDA operators 01: BlockReduceSum (blog, 2024); the warp-level "
    "reduce of the anonymous Chinese notes on CUDA operator optimization; Justin Luitjens, "
    "Faster Parallel Reductions on Kepler (NVIDIA blog, 2014)"};

inline constexpr unsigned kThreads = 256;
inline constexpr size_t kGrid = 1024;

// Reduces in[0, m) with a grid-stride loop; block b writes its sum to out[b]. Launch with
// BS threads.
template <unsigned BS>
__global__ void grid_stride_kernel(const float* __restrict__ in, float* __restrict__ out,
                                   size_t m) {
  float sum = 0.0f;
  for (size_t i = size_t(blockIdx.x) * BS + threadIdx.x; i < m; i += size_t(gridDim.x) * BS)
    sum += in[i];
  sum = block_reduce_sum<BS>(sum);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

inline size_t grid_for(size_t n) { return std::clamp<size_t>(ceil_div(n, kThreads), 1, kGrid); }

inline size_t workspace_bytes(size_t n) { return grid_for(n) * sizeof(float); }

inline cudaError_t launch(const float* in, float* out, size_t n, void* ws, cudaStream_t stream) {
  const size_t grid = grid_for(n);
  float* partial = grid == 1 ? out : static_cast<float*>(ws);
  grid_stride_kernel<kThreads>
      <<<static_cast<unsigned>(grid), kThreads, 0, stream>>>(in, partial, n);
  if (grid > 1) grid_stride_kernel<kThreads><<<1, kThreads, 0, stream>>>(partial, out, grid);
  return cudaGetLastError();
}

}  // namespace ladder::reduce::v08
