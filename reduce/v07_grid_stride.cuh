// reduce/v07_grid_stride.cuh — reduce v07: grid-stride loop, many elements per thread.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>

#include "common/registry.h"
#include "reduce/v06_complete_unroll.cuh"  // v06::block_tree, the unrolled block step

namespace ladder::reduce::v07 {

inline constexpr VersionDoc kDoc = {
    7, "v07_grid_stride", "Grid-stride loop: a fixed grid, many elements per thread, two passes",
    /*technique*/
    "Launch a fixed number of blocks (1024) and let each thread add every (1024 x 256)-th "
    "element in a register before the block tree runs once. A second launch of one block "
    "reduces the 1024 block sums. Thread count no longer follows n, so the same kernel serves "
    "any size, including n > 2^31 (size_t indices).",
    /*changes*/
    "From two elements per thread and log_512(n) launches to n / 262,144 elements "
    "per thread and exactly two launches; the block step is v06's.",
    /*remains*/
    "Latency: each thread issues one 4-byte load at a time and waits for it before the next "
    "trip; with a grid picked by hand rather than from the GPU, loads in flight fall short of "
    "what the H200's memory needs to reach its bandwidth.",
    /*source*/
    "Mark Harris, Optimizing Parallel Reduction in CUDA (NVIDIA, 2007), kernel 7; reduce_v6 of "
    "the anonymous Chinese notes on CUDA operator optimization (a grid-stride loop, then a "
    "second kernel for the block sums)"};

inline constexpr unsigned kThreads = 256;
inline constexpr size_t kGrid = 1024;  // picked by hand, as in Harris's kernel 7

// Reduces in[0, m) with a grid-stride loop; block b writes its sum to out[b]. Launch with
// BS threads (any grid, including one block for the second pass).
template <unsigned BS>
__global__ void grid_stride_kernel(const float* __restrict__ in, float* __restrict__ out,
                                   size_t m) {
  __shared__ float smem[BS];
  const unsigned tid = threadIdx.x;
  float sum = 0.0f;
  for (size_t i = size_t(blockIdx.x) * BS + tid; i < m; i += size_t(gridDim.x) * BS) sum += in[i];
  smem[tid] = sum;
  __syncthreads();
  v06::block_tree<BS>(smem, tid);
  if (tid == 0) out[blockIdx.x] = smem[0];
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

}  // namespace ladder::reduce::v07
