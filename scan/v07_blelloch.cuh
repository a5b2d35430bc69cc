// scan/v07_blelloch.cuh — scan v07: work-efficient Blelloch block scan, conflict-free padding.
// Technique: Blelloch's work-efficient block scan (up-sweep, down-sweep), one padding word per 32.
// Changes from v06: the warp-organised Kogge-Stone block scan becomes Blelloch's (512 threads x 2).
// Remains (bottleneck): 20 barrier-separated steps, most threads idle in most of them (the
// working threads halve through the up-sweep and double again through the down-sweep).
// Source: Harris, Sengupta & Owens, GPU Gems 3 ch. 39 (2007); Blelloch (1990); PaddlePaddle's
// CUDA Kernel Primitive API documentation (Cumsum).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "common/device.h"
#include "common/registry.h"
#include "scan/v06_recursive.cuh"  // the recursion and the fan

namespace ladder::scan::v07 {

inline constexpr VersionDoc kDoc = {
    7, "v07_blelloch", "Blelloch up-sweep/down-sweep block scan with conflict-free padding",
    /*technique*/
    "The work-efficient scan: an up-sweep builds a reduction tree in place (n - 1 additions), a "
    "down-sweep walks it back giving the exclusive scan (n - 1 more), against Kogge-Stone's "
    "n log n. One padding word per 32 keeps the tree's power-of-two strides off a single bank.",
    /*changes*/
    "v06's warp-organised Kogge-Stone block scan is replaced by Blelloch's, 512 threads of two "
    "elements each; the recursion is v06's.",
    /*remains*/
    "2 log2(1024) = 20 barrier-separated steps, most threads idle in most of them (halving "
    "through the up-sweep, doubling again through the down-sweep): fewer "
    "additions, but more latency than the warp-synchronous scan, and shared memory still holds "
    "the data.",
    /*source*/
    "Harris, Sengupta & Owens, Parallel Prefix Sum (Scan) with CUDA, GPU Gems 3 ch. 39 (2007); "
    "Blelloch, Prefix Sums and Their Applications (1990); PaddlePaddle documentation, CUDA "
    "Kernel Primitive API (Cumsum with bank-conflict padding, in Chinese)"};

using v06::kPart;
inline constexpr unsigned kThreads = kPart / 2;  // two elements per thread

// One padding word after every 32: index i lives at i + i / 32. (GPU Gems 3 prints
// CONFLICT_FREE_OFFSET(n) as ((n) >> NUM_BANKS + (n) >> (2 * LOG_NUM_BANKS)), a known misprint;
// its first term, n >> LOG_NUM_BANKS, is this one word per 32.)
__device__ __forceinline__ unsigned padded(unsigned i) { return i + (i >> 5); }

// Block of kThreads threads; grid-stride over parts of kPart elements. Writes out and part_sums
// as v01. `in` may equal `out` (v06's recursion).
__global__ void scan_parts_kernel(const int32_t* in, int32_t* out, int32_t* part_sums, size_t n,
                                  size_t parts) {
  __shared__ int32_t temp[kPart + kPart / 32];
  const unsigned t = threadIdx.x;
  for (size_t p = blockIdx.x; p < parts; p += gridDim.x) {
    const size_t base = p * kPart;
    const unsigned a = t, b = t + kThreads;  // this thread's two elements: conflict-free loads
    const int32_t xa = base + a < n ? in[base + a] : 0;
    const int32_t xb = base + b < n ? in[base + b] : 0;
    temp[padded(a)] = xa;
    temp[padded(b)] = xb;
    // Up-sweep (reduce): after the step with stride `offset`, temp[k*2*offset - 1] holds the
    // sum of the 2*offset elements ending there.
    unsigned offset = 1;
    for (unsigned d = kPart / 2; d > 0; d /= 2) {
      __syncthreads();
      if (t < d) {
        const unsigned ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
        temp[padded(bi)] += temp[padded(ai)];
      }
      offset *= 2;
    }
    __syncthreads();
    const int32_t total = temp[padded(kPart - 1)];
    __syncthreads();  // everyone has read the total before thread 0 clears it
    if (t == 0) temp[padded(kPart - 1)] = 0;
    // Down-sweep: each node passes its value to its left child and value + left to its right.
    for (unsigned d = 1; d < kPart; d *= 2) {
      offset /= 2;
      __syncthreads();
      if (t < d) {
        const unsigned ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
        const int32_t left = temp[padded(ai)];
        temp[padded(ai)] = temp[padded(bi)];
        temp[padded(bi)] += left;
      }
    }
    __syncthreads();
    // temp now holds the exclusive scan; inclusive = exclusive + own element.
    if (base + a < n) out[base + a] = temp[padded(a)] + xa;
    if (base + b < n) out[base + b] = temp[padded(b)] + xb;
    if (t == 0) part_sums[p] = total;
    __syncthreads();  // temp is reused by the next part
  }
}

inline size_t workspace_bytes(size_t n) { return v06::workspace_bytes(n); }

inline void scan_parts(const int32_t* in, int32_t* out, int32_t* part_sums, size_t n, size_t parts,
                       cudaStream_t stream) {
  static const size_t resident = resident_grid((const void*)scan_parts_kernel, kThreads, 0);
  const size_t grid = std::max<size_t>(1, std::min(parts, resident));
  scan_parts_kernel<<<static_cast<unsigned>(grid), kThreads, 0, stream>>>(in, out, part_sums, n,
                                                                          parts);
}

inline cudaError_t launch(const int32_t* in, int32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  v06::scan_recursive<scan_parts>(in, out, n, static_cast<int32_t*>(ws), stream);
  return cudaGetLastError();
}

}  // namespace ladder::scan::v07
