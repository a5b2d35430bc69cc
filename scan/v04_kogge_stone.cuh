// scan/v04_kogge_stone.cuh — scan v04: Kogge-Stone warp scan in shared memory.
// Technique: Kogge-Stone warp scan in shared memory, 5 steps (offsets 1, 2, 4, 8, 16).
// Changes from v03: lane 0's serial warp scan becomes five parallel steps; each step reads,
// __syncwarp()s, then writes (Zhang's version races since Volta).
// Remains (bottleneck): a guard (lane >= k) per step; the one-thread part-sum scan.
// Source: W. Zhang, "Classic problems in high-performance CUDA: prefix sum" (OneFlow, 2022, in
// Chinese), §6; Kogge & Stone (1973); Hillis & Steele (1986).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "common/device.h"
#include "common/registry.h"
#include "scan/v01_scan_then_fan.cuh"  // v01's part-sum scan and fan, unchanged

namespace ladder::scan::v04 {

inline constexpr VersionDoc kDoc = {
    4, "v04_kogge_stone", "Kogge-Stone warp scan: log2(32) = 5 parallel steps",
    /*technique*/
    "Every lane adds the value 1, 2, 4, 8, 16 places to its left: after step k each lane holds "
    "the sum of the 2^k elements ending at it. 5 steps instead of 32, each a warp reading 32 "
    "consecutive words.",
    /*changes*/
    "v03's lane-0 serial warp scan becomes Kogge-Stone. Zhang's version reads and writes the "
    "same words in one step with no barrier between (a race since Volta's independent thread "
    "scheduling); here each step reads, __syncwarp(), then writes.",
    /*remains*/
    "A branch per step (lanes below the offset sit out), and the part-sum scan is still one "
    "thread.",
    /*source*/
    "Will Zhang, Classic problems in high-performance CUDA: prefix sum (OneFlow, 2022, in "
    "Chinese), §6 (ScanWarp); Kogge & Stone 1973; Hillis & Steele 1986"};

using v01::kPart;
inline constexpr size_t kMaxN = v01::kMaxN;
inline constexpr unsigned kWarps = kPart / 32;

// `v` points at this lane's word; the warp's 32 words are consecutive. Inclusive scan in place.
__device__ __forceinline__ void scan_warp(int32_t* v, unsigned lane) {
#pragma unroll
  for (unsigned k = 1; k < 32; k *= 2) {
    int32_t left = 0;
    if (lane >= k) left = v[-static_cast<int>(k)];
    __syncwarp();  // every read of this step before any write
    if (lane >= k) v[0] += left;
    __syncwarp();
  }
}

__device__ __forceinline__ void scan_block(int32_t* shm) {
  __shared__ int32_t warp_sums[kWarps];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  scan_warp(shm + threadIdx.x, lane);
  __syncthreads();
  if (lane == 31) warp_sums[warp] = shm[threadIdx.x];
  __syncthreads();
  if (warp == 0) scan_warp(warp_sums + lane, lane);
  __syncthreads();
  if (warp > 0) shm[threadIdx.x] += warp_sums[warp - 1];
  __syncthreads();
}

__global__ void scan_parts_kernel(const int32_t* __restrict__ in, int32_t* __restrict__ out,
                                  int32_t* __restrict__ part_sums, size_t n, size_t parts) {
  __shared__ int32_t shm[kPart];
  for (size_t p = blockIdx.x; p < parts; p += gridDim.x) {
    const size_t i = p * kPart + threadIdx.x;
    shm[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    scan_block(shm);
    if (i < n) out[i] = shm[threadIdx.x];
    if (threadIdx.x == kPart - 1) part_sums[p] = shm[threadIdx.x];
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

}  // namespace ladder::scan::v04
