// reduce/v03_sequential_addressing.cuh — reduce v03: sequential addressing.
#pragma once

#include <cuda_runtime.h>

#include "common/registry.h"
#include "reduce/tree_passes.cuh"

namespace ladder::reduce::v03 {

inline constexpr VersionDoc kDoc = {
    3, "v03_sequential_addressing", "Sequential addressing: no bank conflicts",
    /*technique*/
    "The stride starts at half the block and halves each step; thread tid adds smem[tid + s] "
    "into smem[tid]. A warp's 32 lanes read 32 consecutive words: 32 different banks.",
    /*changes*/
    "Reverses the loop (s = 128, 64, ... 1) and indexes by tid: bank-conflict free, "
    "active threads still contiguous.",
    /*remains*/
    "Idle threads: half the block does nothing after its load, and the first step already "
    "halves the workers. Each thread does one load and, on average, less than one add: the block "
    "spends its time in barriers and index arithmetic, not in moving bytes.",
    /*source*/
    "Mark Harris, Optimizing Parallel Reduction in CUDA (NVIDIA, 2007), kernel 3; reduce_v2 of "
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
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) smem[tid] += smem[tid + s];  // consecutive lanes, consecutive banks
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = smem[0];
}

inline size_t workspace_bytes(size_t n) { return tree_workspace_bytes(n, kThreads); }

inline cudaError_t launch(const float* in, float* out, size_t n, void* ws, cudaStream_t stream) {
  return launch_tree(tile_kernel, kThreads, kThreads, in, out, n, ws, stream);
}

}  // namespace ladder::reduce::v03
