// sort/v03_merge_sort.cuh — sort v03: blocks sort tiles, then merge passes by merge path.
// Technique: bitonic tiles of 2,048 keys in shared memory (v02's kernel), then log2(tiles) merge
// passes; each thread finds where its 8 outputs begin by a merge-path binary search along its
// diagonal and merges them sequentially, ties from the left run (stable).
// Changes from v02: O(n log n) work instead of the network's O(n log^2 n).
// Remains (bottleneck): log2(n / 2048) passes over DRAM (17 at 2^28), data-dependent branches and
// the binary searches' scattered loads.
// Source: S. Odeh, O. Green, Z. Mwassi, O. Shmueli and Y. Birk, "Merge Path - Parallel Merging
// Made Simple", IPDPS Workshops 2012; O. Green, R. McColl and D. A. Bader, "GPU Merge Path: A GPU
// Merging Algorithm", ICS 2012; merge sort as listed among the sort operators of the anonymous
// Chinese notes on CUDA operator optimization.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/device.h"
#include "common/registry.h"
#include "sort/v02_bitonic_shared.cuh"  // sort_tiles_kernel

namespace ladder::sort::v03 {

inline constexpr VersionDoc kDoc = {
    3, "v03_merge_sort", "Merge sort: bitonic tiles, then merge passes by merge path",
    /*technique*/
    "The keys are padded to a multiple of 2048 and each tile is sorted in shared memory (v02's "
    "kernel). Then runs of width w = 2048, 4096, ... are merged in pairs, one pass per width: "
    "each thread owns 8 consecutive outputs of a pair, finds where its diagonal crosses the "
    "merge path with a binary search over the two runs (Odeh et al.; Green, McColl & Bader), "
    "and merges its 8 outputs sequentially. Ties take the left run first: stable.",
    /*changes*/
    "v02's O(n log^2 n) network becomes O(n log n) work: each pass reads and writes every key "
    "once and the number of passes is log2 of the number of tiles.",
    /*remains*/
    "17 passes over DRAM at 2^28, each key compared with data-dependent branches; a radix sort "
    "needs 4 passes for 32-bit keys with 8-bit digits and no comparisons.",
    /*source*/
    "Green, McColl & Bader, \"GPU Merge Path\", ICS 2012; Odeh, Green, Mwassi, Shmueli & Birk, "
    "\"Merge Path - Parallel Merging Made Simple\", 2012; the Chinese notes on CUDA operator "
    "optimization (merge sort among their sort operators)"};

inline constexpr unsigned kThreads = 256;
inline constexpr unsigned kPerThread = 8;  // outputs per thread per pass
inline constexpr size_t kTile = v02::kTile;
inline constexpr size_t kMaxN = size_t(1) << 31;

inline size_t padded(size_t n) { return std::max<size_t>(ceil_div(n, kTile), 1) * kTile; }

__global__ void pad_kernel(const uint32_t* __restrict__ in, uint32_t* __restrict__ buf, size_t n,
                           size_t padded_n) {
  for (size_t i = size_t(blockIdx.x) * kThreads + threadIdx.x; i < padded_n;
       i += size_t(gridDim.x) * kThreads)
    buf[i] = i < n ? in[i] : 0xFFFFFFFFu;
}

// Merges the sorted runs [lo, lo + w) and [lo + w, lo + 2w) of src (clipped to m) into dst, for
// every pair. m is a multiple of kTile and w of kTile, so no thread's outputs cross a pair.
__global__ void __launch_bounds__(kThreads)
    merge_pass_kernel(const uint32_t* __restrict__ src, uint32_t* __restrict__ dst, size_t m,
                      size_t w) {
  const size_t first = (size_t(blockIdx.x) * kThreads + threadIdx.x) * kPerThread;
  if (first >= m) return;
  const size_t lo = first / (2 * w) * (2 * w);
  const uint32_t* a = src + lo;
  const size_t a_len = std::min(w, m - lo);
  const uint32_t* b = a + a_len;
  const size_t b_len = std::min(w, m - lo - a_len);
  const size_t d = first - lo;  // the diagonal: outputs before this thread's first
  // The number i of outputs before d taken from a: the smallest i with a[i] > b[d - i - 1].
  size_t i_lo = d > b_len ? d - b_len : 0, i_hi = std::min(d, a_len);
  while (i_lo < i_hi) {
    const size_t mid = (i_lo + i_hi) / 2;
    if (a[mid] <= b[d - mid - 1])
      i_lo = mid + 1;
    else
      i_hi = mid;
  }
  size_t i = i_lo, j = d - i_lo;
#pragma unroll
  for (unsigned k = 0; k < kPerThread; ++k) {
    const bool take_a = i < a_len && (j >= b_len || a[i] <= b[j]);
    dst[first + k] = take_a ? a[i++] : b[j++];
  }
}

inline size_t workspace_bytes(size_t n) { return 2 * padded(n) * sizeof(uint32_t); }

inline cudaError_t launch(const uint32_t* in, uint32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  const size_t m = padded(n);
  uint32_t* src = static_cast<uint32_t*>(ws);
  uint32_t* dst = src + m;
  const unsigned grid = static_cast<unsigned>(ceil_div(m, size_t(kThreads) * kPerThread));
  pad_kernel<<<static_cast<unsigned>(std::min<size_t>(ceil_div(m, kThreads), 1 << 20)), kThreads, 0,
               stream>>>(in, src, n, m);
  v02::sort_tiles_kernel<false>
      <<<static_cast<unsigned>(m / kTile), v02::kThreads, 0, stream>>>(src);
  for (size_t w = kTile; w < m; w *= 2) {
    merge_pass_kernel<<<grid, kThreads, 0, stream>>>(src, dst, m, w);
    std::swap(src, dst);
  }
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return e;
  return cudaMemcpyAsync(out, src, n * sizeof(uint32_t), cudaMemcpyDeviceToDevice, stream);
}

}  // namespace ladder::sort::v03
