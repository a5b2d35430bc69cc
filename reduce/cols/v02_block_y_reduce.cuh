// reduce/cols/v02_block_y_reduce.cuh — col_sum v02: BlockYReduce, 32 columns x 8 row lanes.
// Technique: a 32 x 8 block takes 32 columns; its 8 rows of threads split the rows (thread y
// takes rows y, y + 8, ...), then the 8 partial sums per column meet in shared memory
// (Paddle's BlockYReduce). Remains (bottleneck): the grid is cols / 32 blocks: 64 columns
// make two blocks.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>

#include "common/device.h"
#include "common/registry.h"

namespace ladder::reduce::cols::v02 {

inline constexpr VersionDoc kDoc = {
    2, "v02_block_y_reduce", "32 columns per block, 8 row lanes, BlockYReduce in shared memory",
    /*technique*/
    "Block (32, 8): threadIdx.x picks one of 32 neighbouring columns, threadIdx.y one of 8 "
    "interleaved sets of rows. Each thread sums its column over its rows; the 8 sums of a "
    "column are written to shared memory and the y = 0 thread adds them (BlockYReduce, "
    "kGlobalMode). The row of shared memory is padded to 33 words.",
    /*changes*/ "v01's one thread per column becomes eight: eight times the loads in flight.",
    /*remains*/
    "The grid is still tied to the columns: cols / 32 blocks, two for a 64-column matrix, and "
    "each of their threads walks 4M / 8 rows.",
    /*source*/
    "PaddlePaddle documentation, CUDA Kernel Primitive API (BlockYReduce: reduce along "
    "blockDim.y through shared memory)"};

inline constexpr unsigned kX = 32, kY = 8;

__global__ void __launch_bounds__(kX* kY)
    block_y_kernel(const float* __restrict__ in, float* __restrict__ out, size_t rows,
                   size_t cols) {
  __shared__ float part[kY][kX + 1];
  for (size_t c0 = blockIdx.x * size_t(kX); c0 < cols; c0 += size_t(gridDim.x) * kX) {
    const size_t c = c0 + threadIdx.x;
    float sum = 0.0f;
    if (c < cols)
      for (size_t r = threadIdx.y; r < rows; r += kY) sum += in[r * cols + c];
    part[threadIdx.y][threadIdx.x] = sum;
    __syncthreads();
    if (threadIdx.y == 0 && c < cols) {
      float total = 0.0f;
#pragma unroll
      for (unsigned y = 0; y < kY; ++y) total += part[y][threadIdx.x];
      out[c] = total;
    }
    __syncthreads();  // part is rewritten by the next tile of columns
  }
}

inline size_t workspace_bytes(size_t, size_t) { return 0; }

inline cudaError_t launch(const float* in, float* out, size_t rows, size_t cols, void*,
                          cudaStream_t stream) {
  if (cols == 0) return cudaSuccess;
  const size_t grid = std::clamp<size_t>(ceil_div(cols, kX), 1, size_t(current_sm_count()) * 8);
  block_y_kernel<<<static_cast<unsigned>(grid), dim3(kX, kY), 0, stream>>>(in, out, rows, cols);
  return cudaGetLastError();
}

}  // namespace ladder::reduce::cols::v02
