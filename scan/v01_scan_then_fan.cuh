// scan/v01_scan_then_fan.cuh — scan v01: ScanThenFan, one thread per part.
// Technique: ScanThenFan in three kernels: thread 0 of each block scans a 1024-element part,
// one thread scans the part sums, and a fan kernel adds each part's base to its elements.
// Changes from v00: many parts at once, one thread per block instead of one per GPU.
// Remains (bottleneck): serial chains of global loads (one working thread per block, and one
// thread for the part sums).
// Source: W. Zhang, "Classic problems in high-performance CUDA: prefix sum" (OneFlow, 2022, in
// Chinese), §2-3; N. Wilt, The CUDA Handbook (2013), ch. 13 (ScanThenFan).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/device.h"
#include "common/registry.h"

namespace ladder::scan::v01 {

inline constexpr VersionDoc kDoc = {
    1, "v01_scan_then_fan", "ScanThenFan: parts scanned by one thread each, then fanned out",
    /*technique*/
    "Three kernels: every 1024-element part is scanned by thread 0 of a block and its total "
    "written to part_sums; one thread scans part_sums; every element adds the total of the parts "
    "before it (the fan).",
    /*changes*/ "v00's loop now runs on many parts at once: one thread per block, not per GPU.",
    /*remains*/
    "One thread of 1024 works in each scan block, reading global memory one int at a time; the "
    "part-sum scan is a single thread again. Both are serial chains of global loads.",
    /*source*/
    "Will Zhang, Classic problems in high-performance CUDA: prefix sum (OneFlow, 2022, in "
    "Chinese), §2-3 (ScanThenFan, Baseline); Nicholas Wilt, The CUDA Handbook (2013), ch. 13"};

inline constexpr unsigned kPart = 1024;  // elements per part = threads per block
// Largest n it runs at: the one-thread part-sum scan makes it slow, not wrong, beyond.
inline constexpr size_t kMaxN = size_t(1) << 28;

// Thread 0 of each block scans whole parts: out[part] = inclusive scan of in[part], and
// part_sums[p] = the part's total. Grid-stride over the `parts` parts of kPart elements.
__global__ void scan_parts_kernel(const int32_t* __restrict__ in, int32_t* __restrict__ out,
                                  int32_t* __restrict__ part_sums, size_t n, size_t parts) {
  for (size_t p = blockIdx.x; p < parts; p += gridDim.x) {
    if (threadIdx.x == 0) {
      const size_t begin = p * kPart, end = min(begin + kPart, n);
      int32_t acc = 0;
      for (size_t i = begin; i < end; ++i) {
        acc += in[i];
        out[i] = acc;
      }
      part_sums[p] = acc;
    }
  }
}

// Launch: <<<1, 1>>>. Inclusive scan of part_sums[0, parts), in place, by one thread.
__global__ void scan_part_sums_serial(int32_t* part_sums, size_t parts) {
  int32_t acc = 0;
  for (size_t i = 0; i < parts; ++i) {
    acc += part_sums[i];
    part_sums[i] = acc;
  }
}

// The fan: out[i] += part_sums[p - 1] for every element of part p > 0, where part_sums is
// already scanned. Block of kPart threads, grid-stride over parts. (Zhang's article computes the
// index in int32, which overflows past 2^31 elements; size_t here.)
__global__ void add_base_kernel(const int32_t* __restrict__ part_sums, int32_t* __restrict__ out,
                                size_t n, size_t parts) {
  for (size_t p = blockIdx.x; p < parts; p += gridDim.x) {
    if (p == 0) continue;
    const size_t i = p * kPart + threadIdx.x;
    if (i < n) out[i] += part_sums[p - 1];
  }
}

// Blocks to launch for `parts` parts: no more than fit on the GPU at once (Zhang's article fixes
// 128, which leaves SMs of an H200 idle).
inline size_t grid_for(size_t parts) {
  static const size_t resident = resident_grid((const void*)add_base_kernel, kPart, 0);
  return std::max<size_t>(1, std::min(parts, resident));
}

inline size_t workspace_bytes(size_t n) { return ceil_div(n, kPart) * sizeof(int32_t); }

inline cudaError_t launch(const int32_t* in, int32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  const size_t parts = ceil_div(n, kPart);
  const auto grid = static_cast<unsigned>(grid_for(parts));
  auto* part_sums = static_cast<int32_t*>(ws);
  scan_parts_kernel<<<grid, kPart, 0, stream>>>(in, out, part_sums, n, parts);
  scan_part_sums_serial<<<1, 1, 0, stream>>>(part_sums, parts);
  add_base_kernel<<<grid, kPart, 0, stream>>>(part_sums, out, n, parts);
  return cudaGetLastError();
}

}  // namespace ladder::scan::v01
