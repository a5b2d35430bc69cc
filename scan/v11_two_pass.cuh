// scan/v11_two_pass.cuh — scan v11: two-pass ReduceThenScan, one part per block, no recursion.
// Technique: one part per resident block: pass 1 sums the parts, one block scans the sums, pass 2
// scans each part chunk by chunk with a running base.
// Changes from v10: no recursion, three launches at any n.
// Remains (bottleneck): the input is still read twice (12 bytes per element).
// Source: W. Zhang, "Classic problems in high-performance CUDA: prefix sum" (OneFlow, 2022, in
// Chinese), §11 (two-pass ReduceThenScan).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/device.h"
#include "common/registry.h"
#include "scan/v09_ptx_predicated.cuh"  // the block scan

namespace ladder::scan::v11 {

inline constexpr VersionDoc kDoc = {
    11, "v11_two_pass", "Two-pass ReduceThenScan: as many parts as resident blocks",
    /*technique*/
    "Make the parts big: one per resident block (264 on an H200). Pass 1: each block sums its "
    "part. One block scans the 264 sums. Pass 2: each block scans its part 1024 elements at a "
    "time, carrying a running base from chunk to chunk.",
    /*changes*/
    "v10's recursion (and its levels of launches) is gone: three launches at any n. The part "
    "count follows the GPU (Zhang's article fixes 1024 parts, about four uneven waves here).",
    /*remains*/
    "Still 12 bytes per element: the input is read once to reduce and once to scan. Only a "
    "single pass can reach the 8 bytes a scan needs.",
    /*source*/
    "Will Zhang, Classic problems in high-performance CUDA: prefix sum (OneFlow, 2022, in "
    "Chinese), §11 (ReduceThenScanTwoPass; its launch configuration is garbled there)"};

inline constexpr unsigned kThreads = 1024;  // threads per block = elements per chunk

// Sum of part p = in[p * part_size, min((p + 1) * part_size, n)). One block per part.
__global__ void reduce_parts_kernel(const int32_t* __restrict__ in, int32_t* __restrict__ part_sums,
                                    size_t n, size_t part_size) {
  __shared__ int32_t warp_sums[kThreads / 32];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const size_t begin = blockIdx.x * part_size, end = min(begin + part_size, n);
  int32_t s = 0;
  for (size_t i = begin + threadIdx.x; i < end; i += kThreads) s += in[i];
  s = __reduce_add_sync(0xffffffffu, s);
  if (lane == 0) warp_sums[warp] = s;
  __syncthreads();
  if (warp == 0) {
    const int32_t total = __reduce_add_sync(0xffffffffu, warp_sums[lane]);
    if (lane == 0) part_sums[blockIdx.x] = total;
  }
}

// Scans part blockIdx.x chunk by chunk, starting from scanned_sums[blockIdx.x - 1] (0 for the
// first part, or when scanned_sums is null). `in` may equal `out`.
__global__ void scan_parts_kernel(const int32_t* in, int32_t* out, const int32_t* scanned_sums,
                                  size_t n, size_t part_size) {
  int32_t base = (blockIdx.x > 0 && scanned_sums) ? scanned_sums[blockIdx.x - 1] : 0;
  const size_t begin = blockIdx.x * part_size, end = min(begin + part_size, n);
  for (size_t chunk = begin; chunk < end; chunk += kThreads) {
    const size_t i = chunk + threadIdx.x;
    int32_t total;
    const int32_t v = v09::scan_block<kThreads>(i < end ? in[i] : 0, &total);
    if (i < end) out[i] = v + base;
    base += total;
  }
}

// Parts: one per block that fits on the GPU at once (one wave, no tail), at most one per chunk,
// and at most kThreads so that the part-sum scan is one chunk of one block.
inline size_t parts_for(size_t n) {
  static const size_t resident = resident_grid((const void*)scan_parts_kernel, kThreads, 0);
  return std::clamp<size_t>(ceil_div(n, kThreads), 1, std::min<size_t>(resident, kThreads));
}

inline size_t workspace_bytes(size_t n) { return parts_for(n) * sizeof(int32_t); }

inline cudaError_t launch(const int32_t* in, int32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  const size_t parts = parts_for(n);
  // Part size: a whole number of chunks, so every chunk but the last is full.
  const size_t part_size = ceil_div(ceil_div(n, parts), kThreads) * kThreads;
  const auto blocks = static_cast<unsigned>(ceil_div(n, part_size));
  auto* sums = static_cast<int32_t*>(ws);
  reduce_parts_kernel<<<blocks, kThreads, 0, stream>>>(in, sums, n, part_size);
  scan_parts_kernel<<<1, kThreads, 0, stream>>>(sums, sums, nullptr, blocks, blocks);
  scan_parts_kernel<<<blocks, kThreads, 0, stream>>>(in, out, sums, n, part_size);
  return cudaGetLastError();
}

}  // namespace ladder::scan::v11
