// reduce/rows/v03_block_per_row.cuh — row_sum v03: one block per row (BlockXReduce).
// Technique: a whole block strides along one row and reduces along threadIdx.x (warp sums,
// then the warp sums). Remains (bottleneck): the grid is the number of rows: 64 long rows make
// 64 blocks on a 132-SM GPU; short rows waste most of each block.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>

#include "common/device.h"
#include "common/registry.h"
#include "common/warp_reduce.cuh"

namespace ladder::reduce::rows::v03 {

inline constexpr VersionDoc kDoc = {
    3, "v03_block_per_row", "One block per row: BlockXReduce along threadIdx.x",
    /*technique*/
    "Block b takes row b (grid-stride over rows); its 256 threads stride along the row and "
    "block_reduce_sum combines them: each warp by shuffles, then warp 0 over the eight warp "
    "sums in shared memory (Paddle's BlockXReduce, kGlobalMode: one result per block).",
    /*changes*/
    "v02's warp per row becomes a block per row: eight times the loads in flight "
    "per row.",
    /*remains*/
    "Still one shape for all: 64 rows of 4M columns give 64 blocks (half the SMs idle), and a "
    "64-column row leaves 192 of 256 threads without an element.",
    /*source*/
    "PaddlePaddle documentation, CUDA Kernel Primitive API (BlockXReduce, "
    "ReduceMode::kGlobalMode)"};

inline constexpr unsigned kThreads = 256;

__global__ void __launch_bounds__(kThreads)
    block_per_row_kernel(const float* __restrict__ in, float* __restrict__ out, size_t rows,
                         size_t cols) {
  for (size_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const float* row = in + r * cols;
    float sum = 0.0f;
    for (size_t c = threadIdx.x; c < cols; c += kThreads) sum += row[c];
    sum = block_reduce_sum<kThreads>(sum);
    if (threadIdx.x == 0) out[r] = sum;
    __syncthreads();  // block_reduce_sum's shared memory is reused by the next row
  }
}

inline size_t workspace_bytes(size_t, size_t) { return 0; }

inline cudaError_t launch(const float* in, float* out, size_t rows, size_t cols, void*,
                          cudaStream_t stream) {
  if (rows == 0) return cudaSuccess;
  const size_t grid = std::clamp<size_t>(rows, 1, size_t(current_sm_count()) * 8);
  block_per_row_kernel<<<static_cast<unsigned>(grid), kThreads, 0, stream>>>(in, out, rows, cols);
  return cudaGetLastError();
}

}  // namespace ladder::reduce::rows::v03
