// reduce/v05_unroll_last_warp.cuh — reduce v05: unroll the last warp.
#pragma once

#include <cuda_runtime.h>

#include "common/registry.h"
#include "reduce/tree_passes.cuh"

namespace ladder::reduce::v05 {

inline constexpr VersionDoc kDoc = {
    5, "v05_unroll_last_warp", "Unrolled last warp, synchronized with __syncwarp()",
    /*technique*/
    "Once 32 or fewer threads remain, all the work is in warp 0: the last six steps are "
    "unrolled and need no __syncthreads(). Since Volta, independent thread scheduling means the "
    "lanes of a warp are no longer guaranteed to run in lockstep, so the classic `volatile` "
    "trick alone is a data race: lane 0 may read smem[16] before lane 16 has written it. Each "
    "step therefore reads into a register, __syncwarp(), writes, __syncwarp().",
    /*changes*/
    "The loop stops at s = 64; the warp finishes with an unrolled, barrier-free "
    "sequence of six adds.",
    /*remains*/
    "The loop over s is still a loop: its bounds are only known at run time, so the compiler "
    "cannot unroll it, and every iteration pays its compare, branch and barrier.",
    /*source*/
    "Mark Harris, Optimizing Parallel Reduction in CUDA (NVIDIA, 2007), kernel 5, and reduce_v4 "
    "of the anonymous Chinese notes on CUDA operator optimization, both with volatile alone; "
    "Yuan Lin and Vinod Grover, Using CUDA Warp-Level Primitives (NVIDIA blog, 2018), on "
    "__syncwarp"};

inline constexpr unsigned kThreads = 256;
inline constexpr size_t kTile = 2 * kThreads;

// The last 64 values of smem reduced by warp 0 into smem[0]. Called by threads 0..31 only.
// Each lane reads before it writes and the warp synchronizes in between: no lane can overwrite
// a value another lane has yet to read, and every write is visible to the next step.
__device__ __forceinline__ void warp_tail(float* smem, unsigned tid) {
  float v = smem[tid];
#pragma unroll
  for (unsigned s = 32; s > 0; s >>= 1) {
    v += smem[tid + s];
    __syncwarp();
    smem[tid] = v;
    __syncwarp();
  }
}

// One block reduces in[blockIdx.x * 512 ... + 512) (bounds-checked against m) into
// out[blockIdx.x]. Launch with 256 threads (at least 64) and 256 floats of shared memory.
__global__ void tile_kernel(const float* __restrict__ in, float* __restrict__ out, size_t m) {
  extern __shared__ float smem[];
  const unsigned tid = threadIdx.x;
  const size_t i = size_t(blockIdx.x) * (2 * blockDim.x) + tid;
  float v = i < m ? in[i] : 0.0f;
  if (i + blockDim.x < m) v += in[i + blockDim.x];
  smem[tid] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) smem[tid] += smem[tid + s];
    __syncthreads();
  }
  if (tid < 32) warp_tail(smem, tid);
  if (tid == 0) out[blockIdx.x] = smem[0];
}

inline size_t workspace_bytes(size_t n) { return tree_workspace_bytes(n, kTile); }

inline cudaError_t launch(const float* in, float* out, size_t n, void* ws, cudaStream_t stream) {
  return launch_tree(tile_kernel, kThreads, kTile, in, out, n, ws, stream);
}

}  // namespace ladder::reduce::v05
