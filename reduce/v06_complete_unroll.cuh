// reduce/v06_complete_unroll.cuh — reduce v06: completely unrolled, block size a template.
#pragma once

#include <cuda_runtime.h>

#include "common/registry.h"
#include "reduce/tree_passes.cuh"

namespace ladder::reduce::v06 {

inline constexpr VersionDoc kDoc = {
    6, "v06_complete_unroll", "Completely unrolled: block size as a template parameter",
    /*technique*/
    "With the block size a compile-time constant, every `if (BS >= 512)` is decided by the "
    "compiler: the tree becomes straight-line code with no loop counter, no loop branch, and "
    "only the barriers it needs.",
    /*changes*/ "The shared-memory tree and the warp tail are unrolled for BS = 256.",
    /*remains*/
    "Too little work per thread: each thread still loads just two elements, so a 2^28 input "
    "needs 2^19 blocks and a second, third and fourth launch for the block sums: the cost of "
    "starting a block is paid for every 512 elements.",
    /*source*/
    "Mark Harris, Optimizing Parallel Reduction in CUDA (NVIDIA, 2007), kernel 6; reduce_v5 of "
    "the anonymous Chinese notes on CUDA operator optimization"};

inline constexpr unsigned kThreads = 256;
inline constexpr size_t kTile = 2 * kThreads;

// smem[0..BS) reduced into smem[0]; called by every thread of the block. The steps above 32
// are block-wide; the last six run in warp 0 with the read / __syncwarp / write pattern of v05.
template <unsigned BS>
__device__ __forceinline__ void block_tree(float* smem, unsigned tid) {
  static_assert(BS >= 64 && BS <= 1024 && (BS & (BS - 1)) == 0, "BS: a power of two, 64..1024");
  if (BS >= 1024) {
    if (tid < 512) smem[tid] += smem[tid + 512];
    __syncthreads();
  }
  if (BS >= 512) {
    if (tid < 256) smem[tid] += smem[tid + 256];
    __syncthreads();
  }
  if (BS >= 256) {
    if (tid < 128) smem[tid] += smem[tid + 128];
    __syncthreads();
  }
  if (BS >= 128) {
    if (tid < 64) smem[tid] += smem[tid + 64];
    __syncthreads();
  }
  if (tid < 32) {
    float v = smem[tid];
#pragma unroll
    for (unsigned s = 32; s > 0; s >>= 1) {  // constant trip count: fully unrolled
      v += smem[tid + s];
      __syncwarp();
      smem[tid] = v;
      __syncwarp();
    }
  }
}

// One block reduces in[blockIdx.x * 2BS ... + 2BS) (bounds-checked against m) into
// out[blockIdx.x]. Launch with BS threads and BS floats of dynamic shared memory.
template <unsigned BS>
__global__ void tile_kernel(const float* __restrict__ in, float* __restrict__ out, size_t m) {
  extern __shared__ float smem[];
  const unsigned tid = threadIdx.x;
  const size_t i = size_t(blockIdx.x) * (2 * BS) + tid;
  float v = i < m ? in[i] : 0.0f;
  if (i + BS < m) v += in[i + BS];
  smem[tid] = v;
  __syncthreads();
  block_tree<BS>(smem, tid);
  if (tid == 0) out[blockIdx.x] = smem[0];
}

inline size_t workspace_bytes(size_t n) { return tree_workspace_bytes(n, kTile); }

inline cudaError_t launch(const float* in, float* out, size_t n, void* ws, cudaStream_t stream) {
  return launch_tree(tile_kernel<kThreads>, kThreads, kTile, in, out, n, ws, stream);
}

}  // namespace ladder::reduce::v06
