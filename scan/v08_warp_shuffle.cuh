// scan/v08_warp_shuffle.cuh — scan v08: the warp scan in registers with __shfl_up_sync.
// Technique: Kogge-Stone between registers with __shfl_up_sync; shared memory holds warp sums only.
// Changes from v07: back to v06's shape, the warp scan without shared memory or __syncwarp.
// Remains (bottleneck): a compare and a select per step; 16 bytes of traffic per element.
// Source: W. Zhang, "Classic problems in high-performance CUDA: prefix sum" (OneFlow, 2022, in
// Chinese), §9; CUDA C++ Programming Guide, warp shuffle functions.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "common/device.h"
#include "common/registry.h"
#include "scan/v06_recursive.cuh"  // the recursion and the fan

namespace ladder::scan::v08 {

inline constexpr VersionDoc kDoc = {
    8, "v08_warp_shuffle", "Warp shuffle: Kogge-Stone between registers",
    /*technique*/
    "__shfl_up_sync(mask, v, k) hands each lane the register of the lane k below it: the five "
    "Kogge-Stone steps run with no shared memory and no __syncwarp. Each thread keeps its "
    "element in a register; shared memory holds only the 32 warp sums.",
    /*changes*/
    "v06's shared-memory warp scan (and its 6 KB padded array) becomes five shuffles; the data "
    "never goes through shared memory.",
    /*remains*/
    "The `if (lane >= k)` after each shuffle compiles to a compare and a select before the add "
    "(three instructions a step); and the recursion still moves 16 bytes per element.",
    /*source*/
    "Will Zhang, Classic problems in high-performance CUDA: prefix sum (OneFlow, 2022, in "
    "Chinese), §9 (WarpShuffle); CUDA C++ Programming Guide, warp shuffle functions"};

using v06::kPart;
inline constexpr unsigned kWarps = kPart / 32;

__device__ __forceinline__ int32_t scan_warp(int32_t v) {
  const unsigned lane = threadIdx.x % 32;
#pragma unroll
  for (unsigned k = 1; k < 32; k *= 2) {
    const int32_t left = __shfl_up_sync(0xffffffffu, v, k);
    if (lane >= k) v += left;
  }
  return v;
}

// Inclusive scan of one value per thread over the kPart-thread block.
__device__ __forceinline__ int32_t scan_block(int32_t v) {
  __shared__ int32_t warp_sums[kWarps];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = scan_warp(v);
  if (lane == 31) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) warp_sums[lane] = scan_warp(warp_sums[lane]);
  __syncthreads();
  if (warp > 0) v += warp_sums[warp - 1];
  __syncthreads();  // warp_sums is reused by the next call
  return v;
}

// Block of kPart threads; grid-stride over parts. `in` may equal `out` (v06's recursion).
__global__ void scan_parts_kernel(const int32_t* in, int32_t* out, int32_t* part_sums, size_t n,
                                  size_t parts) {
  for (size_t p = blockIdx.x; p < parts; p += gridDim.x) {
    const size_t i = p * kPart + threadIdx.x;
    const int32_t v = scan_block(i < n ? in[i] : 0);
    if (i < n) out[i] = v;
    if (threadIdx.x == kPart - 1) part_sums[p] = v;
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

}  // namespace ladder::scan::v08
