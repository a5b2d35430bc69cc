// reduce/v02_strided_index.cuh — reduce v02: contiguous active threads, strided index.
#pragma once

#include <cuda_runtime.h>

#include "common/registry.h"
#include "reduce/tree_passes.cuh"

namespace ladder::reduce::v02 {

inline constexpr VersionDoc kDoc = {
    2, "v02_strided_index", "Strided index: no divergence, but bank conflicts",
    /*technique*/
    "Thread tid works on index 2*s*tid, so the active threads are the first 256/(2s): whole "
    "warps are either busy or idle and finished warps skip the step entirely.",
    /*changes*/
    "Replaces `tid % (2s) == 0` with a contiguous range of active threads: no "
    "divergence within a warp, no modulo.",
    /*remains*/
    "Shared-memory bank conflicts: lane k touches word 2*s*k, and with 32 banks of 4 bytes that "
    "puts 2 lanes on one bank at s = 1, 4 at s = 2 and up to 8 from s = 4 on (with 256 threads no "
    "more than 8 active lanes share a bank): the accesses serialize.",
    /*source*/
    "Mark Harris, Optimizing Parallel Reduction in CUDA (NVIDIA, 2007), kernel 2; reduce_v1 of "
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
    const unsigned index = 2 * s * tid;  // lanes 16/s apart share a bank
    if (index < blockDim.x) smem[index] += smem[index + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = smem[0];
}

inline size_t workspace_bytes(size_t n) { return tree_workspace_bytes(n, kThreads); }

inline cudaError_t launch(const float* in, float* out, size_t n, void* ws, cudaStream_t stream) {
  return launch_tree(tile_kernel, kThreads, kThreads, in, out, n, ws, stream);
}

}  // namespace ladder::reduce::v02
