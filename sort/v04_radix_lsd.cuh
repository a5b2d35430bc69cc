// sort/v04_radix_lsd.cuh — sort v04: LSD radix sort, 8-bit digits, reduce-then-scan per pass.
// Technique: four stable passes, least significant digit first; per pass an upsweep histogram
// per 4,096-key tile, a scan of the counts (the scan ladder's v13), and a downsweep that ranks
// each tile's keys by digit (__match_any_sync per warp) and scatters them.
// Changes from v03: no comparisons; 4 passes of O(n) work instead of 17 merge passes at 2^28.
// Remains (bottleneck): three kernels and a second read of the keys per pass; stores scattered one
// key at a time; four block barriers per round of 256 keys in the ranking.
// Source: N. Satish, M. Harris and M. Garland, "Designing Efficient Sorting Algorithms for
// Manycore GPUs", IPDPS 2009; D. Merrill and A. Grimshaw, "High Performance and Scalable Radix
// Sorting", Parallel Processing Letters 21(2), 2011.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdint>

#include "common/device.h"
#include "common/registry.h"
#include "scan/scan.h"  // lookback_scan: the scan ladder's single-pass scan
#include "sort/radix_rank.cuh"

namespace ladder::sort::v04 {

inline constexpr VersionDoc kDoc = {
    4, "v04_radix_lsd", "LSD radix sort: 8-bit digits, upsweep, scan, stable scatter per pass",
    /*technique*/
    "Four passes, least significant digit first. Each pass: an upsweep kernel counts the digits "
    "of each 4096-key tile into a digit-major table counts[digit][tile]; the scan ladder's "
    "single-pass scan turns the table into every (digit, tile)'s output offset; a downsweep "
    "kernel ranks each tile's keys stably by digit (__match_any_sync per warp, warp counts "
    "scanned per digit, sort/radix_rank.cuh) and writes each key to its offset plus rank.",
    /*changes*/
    "No comparisons: O(n) work per pass and 4 passes for 32-bit keys, against v03's 17 merge "
    "passes at 2^28.",
    /*remains*/
    "Per pass the keys are read twice (upsweep and downsweep) and written once, with a scan "
    "between; stores land wherever their digit's run is, one 4-byte store at a time.",
    /*source*/
    "Satish, Harris & Garland, \"Designing Efficient Sorting Algorithms for Manycore GPUs\", "
    "IPDPS 2009; Merrill & Grimshaw, \"High Performance and Scalable Radix Sorting\", 2011; "
    "scan v13 for the offsets"};

using radix::kThreads;
inline constexpr unsigned kRounds = 16;
inline constexpr size_t kTile = size_t(kThreads) * kRounds;
inline constexpr size_t kMaxN = INT_MAX;  // the offsets are scanned as int32

__global__ void __launch_bounds__(kThreads)
    upsweep_kernel(const uint32_t* __restrict__ keys, size_t n, unsigned shift, int32_t* counts,
                   size_t tiles) {
  __shared__ unsigned hist[radix::kDigits];
  hist[threadIdx.x] = 0;
  __syncthreads();
  const size_t base = size_t(blockIdx.x) * kTile;
#pragma unroll 4
  for (unsigned r = 0; r < kRounds; ++r) {
    const size_t i = base + size_t(r) * kThreads + threadIdx.x;
    if (i < n) atomicAdd(&hist[radix::digit_of(keys[i], shift)], 1u);
  }
  __syncthreads();
  counts[size_t(threadIdx.x) * tiles + blockIdx.x] = static_cast<int32_t>(hist[threadIdx.x]);
}

__global__ void __launch_bounds__(kThreads)
    downsweep_kernel(const uint32_t* __restrict__ keys, uint32_t* __restrict__ out, size_t n,
                     unsigned shift, const int32_t* counts, const int32_t* inclusive,
                     size_t tiles) {
  __shared__ radix::RankStorage s;
  const size_t base = size_t(blockIdx.x) * kTile;
  const size_t slot = size_t(threadIdx.x) * tiles + blockIdx.x;  // digit threadIdx.x, this tile
  s.running[threadIdx.x] = static_cast<unsigned>(inclusive[slot] - counts[slot]);
  uint32_t key[kRounds];
  bool valid[kRounds];
  unsigned rank[kRounds];
#pragma unroll
  for (unsigned r = 0; r < kRounds; ++r) {
    const size_t i = base + size_t(r) * kThreads + threadIdx.x;
    valid[r] = i < n;
    key[r] = valid[r] ? keys[i] : 0;
  }
  __syncthreads();
  radix::rank_keys(key, valid, shift, rank, s);
#pragma unroll
  for (unsigned r = 0; r < kRounds; ++r)
    if (valid[r]) out[rank[r]] = key[r];
}

inline size_t tiles_of(size_t n) { return std::max<size_t>(ceil_div(n, kTile), 1); }
inline size_t table_bytes(size_t n) {
  return (radix::kDigits * tiles_of(n) * sizeof(int32_t) + 255) / 256 * 256;
}
inline size_t buffer_bytes(size_t n) { return (n * sizeof(uint32_t) + 255) / 256 * 256; }

// Workspace: two key buffers, the counts table, its inclusive scan, the scan's workspace.
inline size_t workspace_bytes(size_t n) {
  return 2 * buffer_bytes(n) + 2 * table_bytes(n) +
         scan::lookback_scan_workspace_bytes(radix::kDigits * tiles_of(n));
}

inline cudaError_t launch(const uint32_t* in, uint32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  char* p = static_cast<char*>(ws);
  uint32_t* buf_a = reinterpret_cast<uint32_t*>(p);
  uint32_t* buf_b = reinterpret_cast<uint32_t*>(p + buffer_bytes(n));
  int32_t* counts = reinterpret_cast<int32_t*>(p + 2 * buffer_bytes(n));
  int32_t* inclusive = reinterpret_cast<int32_t*>(p + 2 * buffer_bytes(n) + table_bytes(n));
  void* scan_ws = p + 2 * buffer_bytes(n) + 2 * table_bytes(n);
  const size_t tiles = tiles_of(n);
  const uint32_t* src = in;
  uint32_t* dsts[4] = {buf_a, buf_b, buf_a, out};
  for (unsigned pass = 0; pass < 4; ++pass) {
    const unsigned shift = 8 * pass;
    upsweep_kernel<<<static_cast<unsigned>(tiles), kThreads, 0, stream>>>(src, n, shift, counts,
                                                                          tiles);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    e = scan::lookback_scan(counts, inclusive, radix::kDigits * tiles, scan_ws, stream);
    if (e != cudaSuccess) return e;
    downsweep_kernel<<<static_cast<unsigned>(tiles), kThreads, 0, stream>>>(
        src, dsts[pass], n, shift, counts, inclusive, tiles);
    src = dsts[pass];
  }
  return cudaGetLastError();
}

}  // namespace ladder::sort::v04
