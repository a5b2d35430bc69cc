// scan/v03_warp_organized.cuh — scan v03: the block scan organised by warps.
// Technique: each warp's lane 0 scans its 32 values, one warp scans the 32 warp totals, and
// every warp adds the totals before it.
// Changes from v02: one 1024-step chain becomes 32 chains of 32 steps in parallel.
// Remains (bottleneck): a 32-step serial chain per warp; the one-thread part-sum scan.
// Source: W. Zhang, "Classic problems in high-performance CUDA: prefix sum" (OneFlow, 2022, in
// Chinese), §5.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "common/device.h"
#include "common/registry.h"
#include "scan/v01_scan_then_fan.cuh"  // v01's part-sum scan and fan, unchanged

namespace ladder::scan::v03 {

inline constexpr VersionDoc kDoc = {
    3, "v03_warp_organized", "Block scan organised by warps, warp sums in shared memory",
    /*technique*/
    "Each warp scans its own 32 elements (lane 0 still does it serially), lane 31 stores the "
    "warp's total, one warp scans the 32 warp totals, and every warp adds the totals before it.",
    /*changes*/
    "v02's one-thread scan of 1024 elements becomes 32 one-lane scans of 32 in parallel.",
    /*remains*/
    "Inside each warp one lane works and 31 wait: a 32-step serial chain per warp. The part-sum "
    "scan is still one thread.",
    /*source*/
    "Will Zhang, Classic problems in high-performance CUDA: prefix sum (OneFlow, 2022, in "
    "Chinese), §5 (ScanBlock)"};

using v01::kPart;
inline constexpr size_t kMaxN = v01::kMaxN;
inline constexpr unsigned kWarps = kPart / 32;

// Lane 0 scans the 32 ints at `warp_data` in place.
__device__ __forceinline__ void scan_warp_serial(int32_t* warp_data, unsigned lane) {
  if (lane == 0) {
    int32_t acc = 0;
    for (int k = 0; k < 32; ++k) {
      acc += warp_data[k];
      warp_data[k] = acc;
    }
  }
}

// Inclusive scan of shm[0, kPart) in place; every thread of the kPart-thread block calls it.
__device__ __forceinline__ void scan_block(int32_t* shm) {
  __shared__ int32_t warp_sums[kWarps];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  scan_warp_serial(shm + warp * 32, lane);
  __syncthreads();
  if (lane == 31) warp_sums[warp] = shm[threadIdx.x];
  __syncthreads();
  if (warp == 0) scan_warp_serial(warp_sums, lane);
  __syncthreads();
  if (warp > 0) shm[threadIdx.x] += warp_sums[warp - 1];
  __syncthreads();
}

// Block of kPart threads; grid-stride over parts. Writes out and part_sums as v01.
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

}  // namespace ladder::scan::v03
