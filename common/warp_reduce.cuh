// common/warp_reduce.cuh — warp- and block-level sums built on warp shuffle.
//
// Introduced by reduce v08, after PyTorch's BlockReduceSum (aten/src/ATen/native/cuda/
// block_reduce.cuh; common/GLOSSARY.md#references); every later rung, and other ladders, use
// these by name. CUB's cub::WarpReduce / cub::BlockReduce are the library equivalents.
#pragma once

#include <cuda_runtime.h>

namespace ladder {

inline constexpr unsigned kWarpSize = 32;
inline constexpr unsigned kFullMask = 0xffffffffu;

// Sum of `v` over the 32 lanes of a warp, in five __shfl_down_sync steps (offsets 16, 8, 4, 2,
// 1): registers exchanged directly, no shared memory, no barrier. Every lane must call it
// (full mask). The sum is valid in lane 0; other lanes hold partial sums.
__device__ __forceinline__ float warp_reduce_sum(float v) {
#pragma unroll
  for (unsigned offset = kWarpSize / 2; offset > 0; offset >>= 1)
    v += __shfl_down_sync(kFullMask, v, offset);
  return v;
}

// Sum of `v` over a block of BS threads (a multiple of 32, at most 1024): each warp reduces by
// shuffle, lane 0 of each warp stores its warp's sum in shared memory, and warp 0 reduces those.
// Every thread of the block must call it. The sum is valid in thread 0.
// Uses BS/32 floats of static shared memory; a caller that calls it twice in one kernel needs a
// __syncthreads() between the calls.
template <unsigned BS>
__device__ __forceinline__ float block_reduce_sum(float v) {
  static_assert(BS % kWarpSize == 0 && BS >= kWarpSize && BS <= 1024, "BS: 32..1024, warps");
  constexpr unsigned kWarps = BS / kWarpSize;
  __shared__ float warp_sums[kWarps];
  const unsigned lane = threadIdx.x % kWarpSize;
  const unsigned warp = threadIdx.x / kWarpSize;
  v = warp_reduce_sum(v);
  if (kWarps == 1) return v;
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) v = warp_reduce_sum(lane < kWarps ? warp_sums[lane] : 0.0f);
  return v;
}

}  // namespace ladder
