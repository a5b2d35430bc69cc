// sort/v05_onesweep.cuh — sort v05: one-sweep LSD radix sort with decoupled look-back.
// Technique: one histogram pass for all four digits (a digit's global start does not depend on
// the keys' order), then one pass per digit that ranks a tile with warp-private counters, looks
// back per digit over the earlier tiles' counts, and scatters through shared memory in runs.
// Changes from v04: the per-pass upsweep and scan are gone: the keys are read 5 times instead of 8,
// and the ranking pays five block barriers per tile instead of 64.
// Remains (bottleneck): the match per key (match.any.sync, on the shared-memory pipe) and the
// one-thread-per-digit look-back chain, one L2 round trip per earlier tile.
// Source: A. Adinets and D. Merrill, "Onesweep: A Faster Least Significant Digit Radix Sort for
// GPUs", arXiv:2206.01784, 2022; D. Merrill and M. Garland, "Single-pass Parallel Prefix Scan with
// Decoupled Look-back", NVIDIA Technical Report NVR-2016-002, 2016.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/device.h"
#include "common/registry.h"
#include "scan/lookback.cuh"   // status words: publish, peek
#include "scan/warp_scan.cuh"  // warp_scan_inclusive
#include "sort/radix_rank.cuh"

namespace ladder::sort::v05 {

inline constexpr VersionDoc kDoc = {
    5, "v05_onesweep", "One-sweep radix sort: one histogram pass, one chained-scan pass per digit",
    /*technique*/
    "A first kernel counts all four 8-bit digits of every key at once (shared atomics, one per "
    "warp where the warp's keys share the digit, then global atomics); one block scans the four "
    "histograms into each digit "
    "value's global start. Then one kernel per digit: each block draws a 4096-key tile in "
    "start order, ranks its keys stably by the digit with warp-private counters "
    "(radix::rank_tile: per key a match and one counter update by the lowest matching lane, "
    "five block barriers per tile), and for each of "
    "the 256 digit values one thread publishes the tile's count and looks back over the earlier "
    "tiles' published counts (decoupled look-back, scan/lookback.cuh's status words) for the "
    "number of keys with that digit in earlier tiles. The keys are staged in shared memory in "
    "digit order and written out as contiguous runs, one per digit value.",
    /*changes*/
    "v04's upsweep, scan and downsweep per pass become one kernel per pass, and the four "
    "upsweeps one histogram pass: the keys are read 5 times and written 4 times in all, "
    "against v04's 8 and 4, and stores go out as runs instead of one key at a time. v04's "
    "ranking pays 4 block barriers per round of 256 keys (64 per tile); this one pays 5 per "
    "tile.",
    /*remains*/
    "The look-back is one thread per digit stepping back one tile at a time, and the match "
    "per key is not free; CUB also keeps more keys per thread and overlaps tiles more.",
    /*source*/
    "Adinets & Merrill, \"Onesweep: A Faster Least Significant Digit Radix Sort for GPUs\", "
    "2022; Merrill & Garland, \"Single-pass Parallel Prefix Scan with Decoupled Look-back\", "
    "2016"};

using radix::kDigits;
using radix::kThreads;
inline constexpr unsigned kItems = 16;  // keys per thread
inline constexpr size_t kTile = size_t(kThreads) * kItems;
inline constexpr unsigned kPasses = 4;
inline constexpr size_t kMaxN = 0xffffffffu;  // per-digit counts travel as 32-bit sums
using scan::lookback::Status;

// Counts every digit of every key: hist[pass][digit] (kPasses x 256 uint32, zeroed).
__global__ void __launch_bounds__(kThreads)
    histogram_kernel(const uint32_t* __restrict__ keys, size_t n, unsigned* hist) {
  __shared__ unsigned h[kPasses][kDigits];
  for (unsigned i = threadIdx.x; i < kPasses * kDigits; i += kThreads) (&h[0][0])[i] = 0;
  __syncthreads();
  const size_t stride = size_t(gridDim.x) * kThreads;
  for (size_t base = size_t(blockIdx.x) * kThreads; base < n; base += stride) {
    const size_t i = base + threadIdx.x;  // the loop is warp-uniform, so every lane matches
    const bool valid = i < n;
    const uint32_t key = valid ? keys[i] : 0;
    const unsigned lanes = __popc(__ballot_sync(0xffffffffu, valid));
#pragma unroll
    for (unsigned p = 0; p < kPasses; ++p) {
      // A warp whose lanes all hold one digit (sorted or equal runs) adds once; otherwise every
      // lane adds its own. (A match per key and pass cost more than the conflicts it saves.)
      const unsigned d = radix::digit_of(key, 8 * p);
      const unsigned first = __shfl_sync(0xffffffffu, d, 0);  // every lane, before any ||
      const bool same = __all_sync(0xffffffffu, !valid || d == first);
      if (same) {
        if (threadIdx.x % 32 == 0) atomicAdd(&h[p][d], lanes);
      } else if (valid) {
        atomicAdd(&h[p][d], 1u);
      }
    }
  }
  __syncthreads();
  for (unsigned i = threadIdx.x; i < kPasses * kDigits; i += kThreads)
    if ((&h[0][0])[i]) atomicAdd(hist + i, (&h[0][0])[i]);
}

// bases[pass][digit]: the number of keys whose digit in that pass is smaller. One block.
// Counts up to n < 2^32 are exact in unsigned arithmetic (warp_scan_inclusive wraps mod 2^32).
__global__ void __launch_bounds__(kThreads) bases_kernel(const unsigned* hist, unsigned* bases) {
  __shared__ unsigned warp_sums[radix::kWarps];
  for (unsigned p = 0; p < kPasses; ++p)
    bases[p * kDigits + threadIdx.x] =
        radix::block_exclusive_scan(hist[p * kDigits + threadIdx.x], warp_sums);
}

// One digit pass. status: tiles x 256 words for this pass (zeroed); counter: this pass's tile
// counter (zeroed); bases: this pass's 256 global starts. PAIRS: values travel with their keys.
template <bool PAIRS>
__global__ void __launch_bounds__(kThreads)
    onesweep_kernel(const uint32_t* __restrict__ keys_in, const uint32_t* __restrict__ vals_in,
                    uint32_t* __restrict__ keys_out, uint32_t* __restrict__ vals_out, size_t n,
                    unsigned shift, unsigned* counter, Status* status, const unsigned* bases) {
  __shared__ radix::WarpRankStorage s;
  __shared__ uint32_t staged_keys[kTile];
  __shared__ uint32_t staged_vals[PAIRS ? kTile : 1];
  __shared__ unsigned digit_start[kDigits], global_start[kDigits];
  __shared__ unsigned tile_slot;
  if (threadIdx.x == 0) tile_slot = atomicAdd(counter, 1u);
  __syncthreads();
  const size_t tile = tile_slot;
  const size_t base = tile * kTile;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;

  // Item j of lane l of warp w: tile element (w * kItems + j) * 32 + l (coalesced per item).
  uint32_t key[kItems], val[PAIRS ? kItems : 1];
  bool valid[kItems];
  unsigned rank[kItems];
#pragma unroll
  for (unsigned j = 0; j < kItems; ++j) {
    const size_t i = base + (size_t(warp) * kItems + j) * 32 + lane;
    valid[j] = i < n;
    key[j] = valid[j] ? keys_in[i] : 0;
    if constexpr (PAIRS) val[j] = valid[j] ? vals_in[i] : 0;
  }
  unsigned count, start;  // thread d: the tile's count and start of digit d
  radix::rank_tile(key, valid, shift, rank, s, count, start);

  // Thread d: publish this tile's count of digit d, look back for the earlier tiles' total.
  const unsigned d = threadIdx.x;
  Status* mine = status + tile * kDigits + d;
  unsigned before = 0;
  if (tile == 0) {
    scan::lookback::publish<unsigned>(mine, scan::lookback::kPrefix, count);
  } else {
    scan::lookback::publish<unsigned>(mine, scan::lookback::kAggregate, count);
    for (size_t t = tile - 1;; --t) {
      Status word;
      uint32_t flag;
      do {
        word = scan::lookback::peek(status + t * kDigits + d);
        flag = static_cast<uint32_t>(word >> 32);
      } while (flag == scan::lookback::kInvalid);
      before += static_cast<uint32_t>(word);
      if (flag == scan::lookback::kPrefix) break;
    }
    scan::lookback::publish<unsigned>(mine, scan::lookback::kPrefix, before + count);
  }
  global_start[d] = bases[d] + before;
  digit_start[d] = start;

  // Stage the tile in digit order, then write each digit's run to its place.
#pragma unroll
  for (unsigned j = 0; j < kItems; ++j)
    if (valid[j]) {
      staged_keys[rank[j]] = key[j];
      if constexpr (PAIRS) staged_vals[rank[j]] = val[j];
    }
  __syncthreads();
  const unsigned in_tile = static_cast<unsigned>(n - base < kTile ? n - base : kTile);
  for (unsigned i = threadIdx.x; i < in_tile; i += kThreads) {
    const uint32_t k = staged_keys[i];
    const unsigned dd = radix::digit_of(k, shift);
    const size_t dst = size_t(global_start[dd]) + (i - digit_start[dd]);
    keys_out[dst] = k;
    if constexpr (PAIRS) vals_out[dst] = staged_vals[i];
  }
}

inline size_t tiles_of(size_t n) { return std::max<size_t>(ceil_div(n, kTile), 1); }
inline size_t round256(size_t b) { return (b + 255) / 256 * 256; }
// Workspace: [counters 16 B | hist 4 KB | status 4 x tiles x 256 words] (zeroed per launch),
// bases 4 KB, two key buffers, and for pairs two value buffers.
inline size_t zeroed_bytes(size_t n) {
  return 256 + kPasses * kDigits * 4 + kPasses * tiles_of(n) * kDigits * sizeof(Status);
}
inline size_t workspace_bytes_for(size_t n, bool pairs) {
  return round256(zeroed_bytes(n)) + kPasses * kDigits * 4 +
         (pairs ? 4 : 2) * round256(n * sizeof(uint32_t));
}
inline size_t workspace_bytes(size_t n) { return workspace_bytes_for(n, false); }
inline size_t workspace_bytes_pairs(size_t n) { return workspace_bytes_for(n, true); }

template <bool PAIRS>
cudaError_t launch_impl(const uint32_t* keys_in, const uint32_t* vals_in, uint32_t* keys_out,
                        uint32_t* vals_out, size_t n, void* ws, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  const size_t tiles = tiles_of(n);
  char* p = static_cast<char*>(ws);
  unsigned* counters = reinterpret_cast<unsigned*>(p);
  unsigned* hist = reinterpret_cast<unsigned*>(p + 256);
  Status* status = reinterpret_cast<Status*>(p + 256 + kPasses * kDigits * 4);
  char* q = p + round256(zeroed_bytes(n));
  unsigned* bases = reinterpret_cast<unsigned*>(q);
  q += kPasses * kDigits * 4;
  uint32_t* key_buf[2] = {reinterpret_cast<uint32_t*>(q),
                          reinterpret_cast<uint32_t*>(q + round256(n * 4))};
  uint32_t* val_buf[2] = {nullptr, nullptr};
  if (PAIRS) {
    val_buf[0] = reinterpret_cast<uint32_t*>(q + 2 * round256(n * 4));
    val_buf[1] = reinterpret_cast<uint32_t*>(q + 3 * round256(n * 4));
  }
  cudaError_t e = cudaMemsetAsync(ws, 0, zeroed_bytes(n), stream);
  if (e != cudaSuccess) return e;
  static const size_t resident = resident_grid((const void*)histogram_kernel, kThreads, 0);
  const unsigned hist_grid =
      static_cast<unsigned>(std::clamp<size_t>(ceil_div(n, size_t(kThreads)), 1, resident));
  histogram_kernel<<<hist_grid, kThreads, 0, stream>>>(keys_in, n, hist);
  bases_kernel<<<1, kThreads, 0, stream>>>(hist, bases);
  const uint32_t* ksrc = keys_in;
  const uint32_t* vsrc = vals_in;
  for (unsigned pass = 0; pass < kPasses; ++pass) {
    const bool last = pass + 1 == kPasses;
    uint32_t* kdst = last ? keys_out : key_buf[pass % 2];
    uint32_t* vdst = last ? vals_out : val_buf[pass % 2];
    onesweep_kernel<PAIRS><<<static_cast<unsigned>(tiles), kThreads, 0, stream>>>(
        ksrc, vsrc, kdst, vdst, n, 8 * pass, counters + pass, status + pass * tiles * kDigits,
        bases + pass * kDigits);
    ksrc = kdst;
    vsrc = vdst;
  }
  return cudaGetLastError();
}

inline cudaError_t launch(const uint32_t* in, uint32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  return launch_impl<false>(in, nullptr, out, nullptr, n, ws, stream);
}

inline cudaError_t launch_pairs(const uint32_t* keys_in, const uint32_t* vals_in,
                                uint32_t* keys_out, uint32_t* vals_out, size_t n, void* ws,
                                cudaStream_t stream) {
  return launch_impl<true>(keys_in, vals_in, keys_out, vals_out, n, ws, stream);
}

}  // namespace ladder::sort::v05
