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
