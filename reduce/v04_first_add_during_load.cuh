// reduce/v04_first_add_during_load.cuh — reduce v04: first add during the global load.
#pragma once

#include <cuda_runtime.h>

#include "common/registry.h"
#include "reduce/tree_passes.cuh"

namespace ladder::reduce::v04 {

inline constexpr VersionDoc kDoc = {
    4, "v04_first_add_during_load", "First add during load: every thread adds two elements",
    /*technique*/
    "Each block covers a tile of 2 x 256 elements; every thread loads two (256 apart, so both "
    "loads stay coalesced) and adds them before the shared-memory tree.",
    /*changes*/
    "Halves the number of blocks: the first step of the tree, the one that left half "
    "the threads idle, now happens in registers during the load.",
    /*remains*/
    "Instruction overhead: the tree's last six steps (s = 32 down to 1) run in a single warp, "
    "yet each still pays a "
    "__syncthreads() and the loop's compare and branch. The kernel is no longer short of "
    "threads but short of useful instructions per element.",
    /*source*/
    "Mark Harris, Optimizing Parallel Reduction in CUDA (NVIDIA, 2007), kernel 4; reduce_v3 of "
    "the anonymous Chinese notes on CUDA operator optimization"};

inline constexpr unsigned kThreads = 256;
inline constexpr size_t kTile = 2 * kThreads;

// One block reduces in[blockIdx.x * 512 ... + 512) (bounds-checked against m) into
// out[blockIdx.x]. Launch with 256 threads and 256 floats of dynamic shared memory.
__global__ void tile_kernel(const float* __restrict__ in, float* __restrict__ out, size_t m) {
  extern __shared__ float smem[];
  const unsigned tid = threadIdx.x;
  const size_t i = size_t(blockIdx.x) * (2 * blockDim.x) + tid;
  float v = i < m ? in[i] : 0.0f;
  if (i + blockDim.x < m) v += in[i + blockDim.x];
  smem[tid] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) smem[tid] += smem[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = smem[0];
}

inline size_t workspace_bytes(size_t n) { return tree_workspace_bytes(n, kTile); }

inline cudaError_t launch(const float* in, float* out, size_t n, void* ws, cudaStream_t stream) {
  return launch_tree(tile_kernel, kThreads, kTile, in, out, n, ws, stream);
}

}  // namespace ladder::reduce::v04
