// reduce/v01_interleaved_divergent.cuh — reduce v01: shared memory, interleaved addressing.
#pragma once

#include <cuda_runtime.h>

#include "common/registry.h"
#include "reduce/tree_passes.cuh"

namespace ladder::reduce::v01 {

inline constexpr VersionDoc kDoc = {
    1, "v01_interleaved_divergent", "Shared memory tree, interleaved addressing (tid % 2s)",
    /*technique*/
    "Every thread loads one element into shared memory; the block then adds pairs in log2(256) "
    "= 8 steps, the stride s doubling each step, with __syncthreads() between steps. Block sums "
    "are reduced by launching the same kernel again until one value is left.",
    /*changes*/ "From one thread to n threads: the whole GPU works.",
    /*remains*/
    "Warp divergence: the active threads are those with tid % (2s) == 0, scattered over every "
    "warp, so the first five steps keep all 8 warps busy while most of their lanes idle (the "
    "last three 4, 2 and 1); and % is slow.",
    /*source*/
    "Mark Harris, Optimizing Parallel Reduction in CUDA (NVIDIA, 2007), kernel 1; reduce_v0 of "
    "the anonymous Chinese notes on CUDA operator optimization"};

inline constexpr unsigned kThreads = 256;

// One block reduces in[blockIdx.x * 256 ... + 256) (bounds-checked against m) into
// out[blockIdx.x]. Launch with 256 threads and 256 floats of dynamic shared memory.
__global__ void tile_kernel(const float* __restrict__ in, float* __restrict__ out, size_t m) {
  extern __shared__ float smem[];
  const unsigned tid = threadIdx.x;
  const size_t i = size_t(blockIdx.x) * blockDim.x + tid;
  smem[tid] = i < m ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) smem[tid] += smem[tid + s];  // divergent: active lanes interleave
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = smem[0];
}

inline size_t workspace_bytes(size_t n) { return tree_workspace_bytes(n, kThreads); }

inline cudaError_t launch(const float* in, float* out, size_t n, void* ws, cudaStream_t stream) {
  return launch_tree(tile_kernel, kThreads, kThreads, in, out, n, ws, stream);
}

}  // namespace ladder::reduce::v01
