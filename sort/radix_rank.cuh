// sort/radix_rank.cuh — stable ranking of a tile's keys by one 8-bit digit, for radix sort v04
// and v05. Device functions only.
//
// A tile is kRounds rounds of 256 keys: key r of thread t is element r * 256 + t of the tile,
// so rounds in order and threads in order within a round is input order. Per round, each warp
// groups its lanes by digit with __match_any_sync (one instruction: the lanes holding the same
// digit), a lane's rank inside its warp is the number of matching lanes below it, the lowest
// matching lane records the warp's count for that digit, and one thread per digit turns the 8
// warps' counts into exclusive offsets, continuing a running offset per digit across rounds.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "scan/warp_scan.cuh"  // warp_scan_inclusive

namespace ladder::sort::radix {

inline constexpr unsigned kThreads = 256;  // one thread per digit value in the digit loops
inline constexpr unsigned kWarps = kThreads / 32;
inline constexpr unsigned kDigits = 256;

struct RankStorage {
  unsigned warp_count[kWarps][kDigits];
  unsigned running[kDigits];  // the caller sets each digit's starting offset, then syncs
};

__device__ __forceinline__ unsigned lanemask_lt() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
}

__device__ __forceinline__ unsigned digit_of(uint32_t key, unsigned shift) {
  return (key >> shift) & 0xffu;
}

// rank[r] = running[d] at entry + the number of valid keys before key r (in tile order) with the
// same digit d. On return running[d] has grown by the tile's count of digit d. All kThreads
// threads call it; valid[r] false marks the missing keys of a partial tile.
template <unsigned kRounds>
__device__ __forceinline__ void rank_keys(const uint32_t (&key)[kRounds],
                                          const bool (&valid)[kRounds], unsigned shift,
                                          unsigned (&rank)[kRounds], RankStorage& s) {
  const unsigned warp = threadIdx.x / 32;
  unsigned* counts = &s.warp_count[0][0];
#pragma unroll
  for (unsigned r = 0; r < kRounds; ++r) {
    for (unsigned i = threadIdx.x; i < kWarps * kDigits; i += kThreads) counts[i] = 0;
    __syncthreads();
    const unsigned d = digit_of(key[r], shift);
    const unsigned peers = __match_any_sync(0xffffffffu, valid[r] ? d : 0xffffffffu);
    const unsigned below = __popc(peers & lanemask_lt());
    if (valid[r] && below == 0) s.warp_count[warp][d] = __popc(peers);
    __syncthreads();
    for (unsigned dd = threadIdx.x; dd < kDigits; dd += kThreads) {
      unsigned run = s.running[dd];
#pragma unroll
      for (unsigned w = 0; w < kWarps; ++w) {
        const unsigned c = s.warp_count[w][dd];
        s.warp_count[w][dd] = run;
        run += c;
      }
      s.running[dd] = run;
    }
    __syncthreads();
    if (valid[r]) rank[r] = s.warp_count[warp][d] + below;
    __syncthreads();
  }
}

}  // namespace ladder::sort::radix

namespace ladder::sort::radix {

// The ranking of v05: warp-private digit counters, five block barriers per tile (one after the
// warps' ranking, three in block_exclusive_scan, one after the digit starts).
struct WarpRankStorage {
  unsigned warp_hist[kWarps][kDigits];  // per warp: count, then offset, of each digit
  unsigned warp_sums[kWarps];
};

// Exclusive scan of one value per thread over a 256-thread block (three barriers). Unsigned
// sums wrap modulo 2^32 (the warp scan adds as int32, which wraps the same way).
__device__ __forceinline__ unsigned block_exclusive_scan(unsigned v, unsigned* warp_sums) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const unsigned incl = static_cast<unsigned>(scan::warp_scan_inclusive(static_cast<int32_t>(v)));
  if (lane == 31) warp_sums[warp] = incl;
  __syncthreads();
  if (warp == 0) {
    const unsigned w = lane < kWarps ? warp_sums[lane] : 0;
    const unsigned wi = static_cast<unsigned>(scan::warp_scan_inclusive(static_cast<int32_t>(w)));
    if (lane < kWarps) warp_sums[lane] = wi;
  }
  __syncthreads();
  const unsigned result = incl - v + (warp ? warp_sums[warp - 1] : 0);
  __syncthreads();  // warp_sums may be reused
  return result;
}

// Ranks a tile of kThreads * kItems keys stably by one digit. Item j of lane l of warp w is tile
// element (w * kItems + j) * 32 + l, so a warp's items in order, lanes in order, are input
// order. Each warp ranks its own keys against a warp-private counter per digit (match, then the
// lowest matching lane reads and bumps the counter: no atomics, no block barrier), then thread d
// scans digit d's counts over the warps and the block scans the digit totals. On return rank[j]
// is the key's position in the tile sorted stably by digit, and thread d holds the tile's count
// and start of digit d.
template <unsigned kItems>
__device__ __forceinline__ void rank_tile(const uint32_t (&key)[kItems],
                                          const bool (&valid)[kItems], unsigned shift,
                                          unsigned (&rank)[kItems], WarpRankStorage& s,
                                          unsigned& digit_count, unsigned& digit_start) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (unsigned i = lane; i < kDigits; i += 32) s.warp_hist[warp][i] = 0;
  __syncwarp();
#pragma unroll
  for (unsigned j = 0; j < kItems; ++j) {
    const unsigned d = digit_of(key[j], shift);
    const unsigned peers = __match_any_sync(0xffffffffu, valid[j] ? d : 0xffffffffu);
    const unsigned leader = __ffs(peers) - 1;
    unsigned base = 0;
    if (lane == leader && valid[j]) {
      base = s.warp_hist[warp][d];
      s.warp_hist[warp][d] = base + __popc(peers);
    }
    base = __shfl_sync(0xffffffffu, base, leader);
    rank[j] = base + __popc(peers & lanemask_lt());
    __syncwarp();  // the counter's new value is visible to next item's leader
  }
  __syncthreads();
  const unsigned d = threadIdx.x;  // one thread per digit value
  unsigned run = 0;
#pragma unroll
  for (unsigned w = 0; w < kWarps; ++w) {
    const unsigned c = s.warp_hist[w][d];
    s.warp_hist[w][d] = run;
    run += c;
  }
  digit_count = run;
  digit_start = block_exclusive_scan(run, s.warp_sums);
#pragma unroll
  for (unsigned w = 0; w < kWarps; ++w) s.warp_hist[w][d] += digit_start;
  __syncthreads();
#pragma unroll
  for (unsigned j = 0; j < kItems; ++j)
    if (valid[j]) rank[j] += s.warp_hist[warp][digit_of(key[j], shift)];
}

}  // namespace ladder::sort::radix
