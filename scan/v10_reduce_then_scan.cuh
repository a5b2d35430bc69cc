// scan/v10_reduce_then_scan.cuh — scan v10: ReduceThenScan, recursive.
// Technique: ReduceThenScan: sum each part, scan the sums recursively, scan each part again
// from its base.
// Changes from v09: the output is written once (12 bytes per element instead of 16).
// Remains (bottleneck): the input is read twice; a pair of launches per recursion level.
// Source: W. Zhang, "Classic problems in high-performance CUDA: prefix sum" (OneFlow, 2022, in
// Chinese), §11; Merrill & Grimshaw, Parallel Scan for Stream Architectures (2009).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "common/device.h"
#include "common/registry.h"
#include "scan/v06_recursive.cuh"       // workspace layout and part size
#include "scan/v09_ptx_predicated.cuh"  // the block scan

namespace ladder::scan::v10 {

inline constexpr VersionDoc kDoc = {
    10, "v10_reduce_then_scan", "ReduceThenScan: sum the parts first, scan once at the end",
    /*technique*/
    "The first pass only sums each part (no output written); the part sums are scanned "
    "recursively; the last pass scans each part again, starting from the sum of the parts before "
    "it, and writes the output once.",
    /*changes*/
    "v09's order is turned round: reduce, scan the sums, then scan-with-base. The output is "
    "written once instead of written and then read and rewritten by the fan.",
    /*remains*/
    "The input is still read twice (12 bytes per element where 8 would do), and the recursion "
    "adds a pair of launches per level.",
    /*source*/
    "Will Zhang, Classic problems in high-performance CUDA: prefix sum (OneFlow, 2022, in "
    "Chinese), §11 (ReduceThenScan); Merrill & Grimshaw, Parallel Scan for Stream Architectures "
    "(2009)"};

using v06::kPart;

// Sum of each kPart-element part of in[0, n): part_sums[p]. Block of kPart threads, grid-stride
// over parts. __reduce_add_sync is the sm_80+ warp reduction for integers (one instruction).
__global__ void reduce_parts_kernel(const int32_t* __restrict__ in, int32_t* __restrict__ part_sums,
                                    size_t n, size_t parts) {
  __shared__ int32_t warp_sums[kPart / 32];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (size_t p = blockIdx.x; p < parts; p += gridDim.x) {
    const size_t i = p * kPart + threadIdx.x;
    const int32_t s = __reduce_add_sync(0xffffffffu, i < n ? in[i] : 0);
    if (lane == 0) warp_sums[warp] = s;
    __syncthreads();
    if (warp == 0) {
      const int32_t total = __reduce_add_sync(0xffffffffu, warp_sums[lane]);
      if (lane == 0) part_sums[p] = total;
    }
    __syncthreads();
  }
}

// out[part p] = inclusive scan of in[part p] + scanned_sums[p - 1]. `in` may equal `out`.
__global__ void scan_with_base_kernel(const int32_t* in, int32_t* out, const int32_t* scanned_sums,
                                      size_t n, size_t parts) {
  for (size_t p = blockIdx.x; p < parts; p += gridDim.x) {
    const size_t i = p * kPart + threadIdx.x;
    int32_t total;
    int32_t v = v09::scan_block<kPart>(i < n ? in[i] : 0, &total);
    if (p > 0) v += scanned_sums[p - 1];
    if (i < n) out[i] = v;
  }
}

inline size_t workspace_bytes(size_t n) { return v06::workspace_bytes(n); }

// `sums` holds workspace_bytes(n) bytes: this level's part sums, then the deeper levels'.
inline void reduce_then_scan(const int32_t* in, int32_t* out, size_t n, int32_t* sums,
                             cudaStream_t stream) {
  if (n == 0) return;
  const size_t parts = ceil_div(n, kPart);
  const auto grid = static_cast<unsigned>(v01::grid_for(parts));
  if (parts > 1) {
    reduce_parts_kernel<<<grid, kPart, 0, stream>>>(in, sums, n, parts);
    reduce_then_scan(sums, sums, parts, sums + parts, stream);
  }
  scan_with_base_kernel<<<grid, kPart, 0, stream>>>(in, out, sums, n, parts);
}

inline cudaError_t launch(const int32_t* in, int32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  reduce_then_scan(in, out, n, static_cast<int32_t*>(ws), stream);
  return cudaGetLastError();
}

}  // namespace ladder::scan::v10
