// scan/v09_ptx_predicated.cuh — scan v09: the warp scan in PTX, predicated adds.
// Technique: the warp scan in inline PTX: shfl.sync.up's predicate guards the add.
// Changes from v08: two instructions a step instead of three (no compare, no select).
// Remains (bottleneck): ScanThenFan's traffic, 16 bytes per element where 8 would do.
// Source: W. Zhang, "Classic problems in high-performance CUDA: prefix sum" (OneFlow, 2022, in
// Chinese), §10; PTX ISA, shfl.sync.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "common/device.h"
#include "common/registry.h"
#include "scan/v06_recursive.cuh"  // the recursion and the fan
#include "scan/warp_scan.cuh"      // warp_scan_inclusive: the PTX

namespace ladder::scan::v09 {

inline constexpr VersionDoc kDoc = {
    9, "v09_ptx_predicated", "PTX warp scan: shfl.sync.up's predicate guards the add",
    /*technique*/
    "shfl.sync.up.b32 d|p, ... sets predicate p when the source lane exists (lane >= k), and "
    "`@p add.s32` adds only then: no compare, no select, two instructions per step. The SASS "
    "is in the chapter.",
    /*changes*/ "v08's C++ warp scan becomes five shfl/add pairs of inline PTX.",
    /*remains*/
    "ScanThenFan's traffic: the fan reads and writes the output a second time, 16 bytes per "
    "element where 8 would do.",
    /*source*/
    "Will Zhang, Classic problems in high-performance CUDA: prefix sum (OneFlow, 2022, in "
    "Chinese), §10 (PTX); PTX ISA, shfl.sync"};

using v06::kPart;

// Inclusive scan of `v` over the warp (all 32 lanes call it). The PTX is in
// scan/warp_scan.cuh, a header of device functions only, so that later rungs and other ladders
// (copy_if) can include it without this file's kernels.
__device__ __forceinline__ int32_t scan_warp(int32_t v) { return warp_scan_inclusive(v); }

// Inclusive scan of one value per thread over a block of BS threads (a multiple of 32, at most
// 1024). Every thread calls it. `*total` receives the block's sum, in every thread.
template <unsigned BS>
__device__ __forceinline__ int32_t scan_block(int32_t v, int32_t* total) {
  static_assert(BS % 32 == 0 && BS <= 1024, "BS: whole warps, at most 1024 threads");
  constexpr unsigned kWarps = BS / 32;
  __shared__ int32_t warp_sums[kWarps];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = scan_warp(v);
  if (lane == 31) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    const int32_t s = scan_warp(lane < kWarps ? warp_sums[lane] : 0);
    if (lane < kWarps) warp_sums[lane] = s;
  }
  __syncthreads();
  if (warp > 0) v += warp_sums[warp - 1];
  *total = warp_sums[kWarps - 1];
  __syncthreads();  // warp_sums is reused by the next call
  return v;
}

// Block of kPart threads; grid-stride over parts. `in` may equal `out` (v06's recursion).
__global__ void scan_parts_kernel(const int32_t* in, int32_t* out, int32_t* part_sums, size_t n,
                                  size_t parts) {
  for (size_t p = blockIdx.x; p < parts; p += gridDim.x) {
    const size_t i = p * kPart + threadIdx.x;
    int32_t total;
    const int32_t v = scan_block<kPart>(i < n ? in[i] : 0, &total);
    if (i < n) out[i] = v;
    if (threadIdx.x == 0) part_sums[p] = total;
  }
}

inline size_t workspace_bytes(size_t n) { return v06::workspace_bytes(n); }

inline void scan_parts(const int32_t* in, int32_t* out, int32_t* part_sums, size_t n, size_t parts,
                       cudaStream_t stream) {
  scan_parts_kernel<<<static_cast<unsigned>(v01::grid_for(parts)), kPart, 0, stream>>>(
      in, out, part_sums, n, parts);
}

inline cudaError_t launch(const int32_t* in, int32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  v06::scan_recursive<scan_parts>(in, out, n, static_cast<int32_t*>(ws), stream);
  return cudaGetLastError();
}

}  // namespace ladder::scan::v09
