// scan/v06_recursive.cuh — scan v06: the part sums scanned by the same algorithm, recursively.
// Technique: the part sums are scanned by ScanThenFan itself, in place, level by level.
// Changes from v05: the <<<1, 1>>> part-sum scan becomes a recursive call; no size limit.
// Remains (bottleneck): ScanThenFan's traffic, 16 bytes per element (the fan rereads and
// rewrites the output), and two launches per level.
// Source: W. Zhang, "Classic problems in high-performance CUDA: prefix sum" (OneFlow, 2022, in
// Chinese), §8.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "common/device.h"
#include "common/registry.h"
#include "scan/v01_scan_then_fan.cuh"  // the fan (add_base_kernel)
#include "scan/v05_zero_padding.cuh"   // the block scan

namespace ladder::scan::v06 {

inline constexpr VersionDoc kDoc = {
    6, "v06_recursive", "Recursive ScanThenFan: the part sums scanned in parallel too",
    /*technique*/
    "The part sums are an array like any other: scan them with ScanThenFan itself, in place, "
    "until a level fits in one part (1024^2 = 1M elements per two levels, three levels at 2^28).",
    /*changes*/
    "v05's <<<1, 1>>> part-sum scan is replaced by a recursive call, so the rung runs at any "
    "size (v01-v05 stop at 2^28, where their one-thread scan is already slow); indexing is "
    "size_t throughout, correct beyond 2^31 elements.",
    /*remains*/
    "Memory traffic: every element is read, written, read and written again by the fan (16 "
    "bytes of the 8 a scan needs), and the block scan still goes through shared memory.",
    /*source*/
    "Will Zhang, Classic problems in high-performance CUDA: prefix sum (OneFlow, 2022, in "
    "Chinese), §8 (Recursion)"};

using v01::kPart;

// Scans in[0, n) into out, then part sums for each part, given by the caller's kernel.
// `in` may equal `out`.
using PartsLauncher = void (*)(const int32_t* in, int32_t* out, int32_t* part_sums, size_t n,
                               size_t parts, cudaStream_t stream);

// Part sums of every level: ceil(n/1024) + ceil(n/1024^2) + ... down to the level of one part
// (whose single sum is written too).
inline size_t workspace_bytes(size_t n) {
  size_t words = 0;
  for (size_t m = n; m > 0;) {
    m = ceil_div(m, kPart);
    words += m;
    if (m == 1) break;
  }
  return words * sizeof(int32_t);
}

// The recursion every recursive rung shares: scan each part (ScanParts), scan the part sums with
// this same function, then fan the scanned sums out. `sums` holds workspace_bytes(n) bytes.
template <PartsLauncher ScanParts>
void scan_recursive(const int32_t* in, int32_t* out, size_t n, int32_t* sums, cudaStream_t stream) {
  if (n == 0) return;
  const size_t parts = ceil_div(n, kPart);
  ScanParts(in, out, sums, n, parts, stream);
  if (parts > 1) {
    scan_recursive<ScanParts>(sums, sums, parts, sums + parts, stream);
    v01::add_base_kernel<<<static_cast<unsigned>(v01::grid_for(parts)), kPart, 0, stream>>>(
        sums, out, n, parts);
  }
}

inline void scan_parts(const int32_t* in, int32_t* out, int32_t* part_sums, size_t n, size_t parts,
                       cudaStream_t stream) {
  v05::scan_parts_kernel<<<static_cast<unsigned>(v01::grid_for(parts)), kPart, 0, stream>>>(
      in, out, part_sums, n, parts);
}

inline cudaError_t launch(const int32_t* in, int32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  scan_recursive<scan_parts>(in, out, n, static_cast<int32_t*>(ws), stream);
  return cudaGetLastError();
}

}  // namespace ladder::scan::v06
