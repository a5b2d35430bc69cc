// scan/v05_zero_padding.cuh — scan v05: zero padding makes the warp scan branch-free.
// Technique: 16 zeros before each warp's 32 words, so every lane runs every Kogge-Stone step.
// Changes from v04: the guard (lane >= k) goes.
// Remains (bottleneck): the one-thread scan of the part sums, which hides the gain.
// Source: W. Zhang, "Classic problems in high-performance CUDA: prefix sum" (OneFlow, 2022, in
// Chinese), §7.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "common/device.h"
#include "common/registry.h"
#include "scan/v01_scan_then_fan.cuh"  // v01's part-sum scan and fan, unchanged

namespace ladder::scan::v05 {

inline constexpr VersionDoc kDoc = {
    5, "v05_zero_padding", "Zero padding: every lane runs every Kogge-Stone step",
    /*technique*/
    "16 zeros in shared memory before each warp's 32 words: a lane reading 1..16 places to its "
    "left from lane 0 reads a zero instead of leaving the array, so the `if (lane >= k)` goes "
    "and all 32 lanes add at every step.",
    /*changes*/
    "v04 with each warp's data at a 48-word stride (16 zeros + 32 values) and the warp-sum "
    "array padded the same way; the steps lose their branches.",
    /*remains*/
    "The one-thread scan of the part sums: 25 thousand dependent steps at the ladder size, which "
    "hides what the block scan gained (Zhang's article saw 1%).",
    /*source*/
    "Will Zhang, Classic problems in high-performance CUDA: prefix sum (OneFlow, 2022, in "
    "Chinese), §7 (ZeroPadding)"};

using v01::kPart;
inline constexpr size_t kMaxN = v01::kMaxN;
inline constexpr unsigned kWarps = kPart / 32;
inline constexpr unsigned kPad = 16;            // zeros before each run of 32 words
inline constexpr unsigned kStride = kPad + 32;  // one padded run
// Layout: [16 zeros | 32 warp sums] then, per warp, [16 zeros | 32 values].
inline constexpr unsigned kSharedWords = kStride + kWarps * kStride;

// `v` points at this lane's word, with kPad zeros before the warp's 32 words. In place.
__device__ __forceinline__ void scan_warp(int32_t* v) {
#pragma unroll
  for (unsigned k = 1; k < 32; k *= 2) {
    const int32_t left = v[-static_cast<int>(k)];
    __syncwarp();
    v[0] += left;
    __syncwarp();
  }
}

// `mine` = this thread's padded word. Every thread of the block calls it.
__device__ __forceinline__ void scan_block(int32_t* shm, int32_t* mine) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int32_t* warp_sums = shm + kPad;
  scan_warp(mine);
  __syncthreads();
  if (lane == 31) warp_sums[warp] = *mine;
  __syncthreads();
  if (warp == 0) scan_warp(warp_sums + lane);
  __syncthreads();
  if (warp > 0) *mine += warp_sums[warp - 1];
  __syncthreads();
}

// Block of kPart threads; grid-stride over parts. Writes out and part_sums as v01. `in` and
// `out` may be the same array (v06 scans the part sums in place): each thread reads its own
// element before any thread writes, so they are not __restrict__.
__global__ void scan_parts_kernel(const int32_t* in, int32_t* out, int32_t* part_sums, size_t n,
                                  size_t parts) {
  __shared__ int32_t shm[kSharedWords];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (threadIdx.x < kPad) shm[threadIdx.x] = 0;
  if (lane < kPad) shm[kStride + warp * kStride + lane] = 0;
  int32_t* mine = shm + kStride + warp * kStride + kPad + lane;
  __syncthreads();
  for (size_t p = blockIdx.x; p < parts; p += gridDim.x) {
    const size_t i = p * kPart + threadIdx.x;
    *mine = i < n ? in[i] : 0;
    __syncthreads();
    scan_block(shm, mine);
    if (i < n) out[i] = *mine;
    if (threadIdx.x == kPart - 1) part_sums[p] = *mine;
    __syncthreads();
  }
}

inline size_t workspace_bytes(size_t n) { return ceil_div(n, kPart) * sizeof(int32_t); }

inline cudaError_t launch(const int32_t* in, int32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  const size_t parts = ceil_div(n, kPart);
  const auto grid = static_cast<unsigned>(v01::grid_for(parts));
  auto* part_sums = static_cast<int32_t*>(ws);
  scan_parts_kernel<<<grid, kPart, 0, stream>>>(in, out, part_sums, n, parts);
  v01::scan_part_sums_serial<<<1, 1, 0, stream>>>(part_sums, parts);
  v01::add_base_kernel<<<grid, kPart, 0, stream>>>(part_sums, out, n, parts);
  return cudaGetLastError();
}

}  // namespace ladder::scan::v05
