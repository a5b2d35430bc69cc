// copy_if/lab/batched_lookahead.cuh — a look-ahead that serves every claim already in with one
// round of reads: measured, slower, not a rung. Not part of the binary; the probe
// copy_if/lab/probe_v06_oracle.cu runs it (`batch`) as v10's kernel with this look-ahead policy.
// Idea: v10's look-ahead warp serves its block's claims one at a time, at least one pass (its loads
// issued together, then used) a claim: at 2^28 on an H200, where the memory system is saturated,
// about 1.5 µs a claim and 1.4 a pass at half kept, and it is busy 95 to 98% of the time (the lab
// notes, "The look-ahead's pace"). This one takes, at each turn, the claim it waits for and every
// later claim of its block already in (up to K), issues the loads for all of them at once (the
// statuses from its running count to the next group boundary, the group words up to the last
// claim's group, and each claim's own group's statuses up to its tile), and walks the claims in
// order, handing each its offset as soon as the walk reaches it. A claim whose loads came back
// incomplete waits for the next pass, as in v10.
// Measured (session 30, call 3, registered as copy_if v11 with K = 3 then): correct (868 GPU tests,
// 2^31 + 17, compute-sanitizer's four tools clean, the sm_80 build's tests; mutant M1 failed the
// tests, M2 hung them) and slower than v10 at every size in the probe: at 2^28 and half kept 417.47
// µs with two claims a pass and 432.86 with three, against v10's 393.63. Inferred, not counted: the
// later claims of a batch are fresh, their lower tiles not yet published, so passes end short and
// poll again.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/bulk_copy.cuh"  // mbarrier wait / ready / arrive
#include "copy_if/copy_if.h"
#include "copy_if/v10_group_sums.cuh"  // the kernel, statuses, group words, workspace
#include "scan/lookback.cuh"           // Status words, peek

namespace ladder::copy_if::lab_batched {

// The run of lanes from lo whose `ok` holds, at most hi - lo long (0 <= lo, hi <= 32), and in
// `sum` the sum of `value` over it. All 32 lanes call it with the same lo and hi.
__device__ __forceinline__ unsigned run_from(bool ok, unsigned lo, unsigned hi, uint32_t value,
                                             unsigned& sum) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned mask = __ballot_sync(0xffffffffu, ok);
  if (lo >= hi) {
    sum = 0;
    return 0;
  }
  const unsigned gaps = ~(mask >> lo);
  const unsigned run = min(hi - lo, gaps ? unsigned(__ffs(gaps)) - 1 : 32u);
  sum = __reduce_add_sync(0xffffffffu, lane >= lo && lane < lo + run ? value : 0u);
  return run;
}

// One pass of the batched look-ahead over the claims tk[jf, nk) (tiles, increasing; nk <= K). On
// entry `sum` holds the counts of tiles [0, counted) and `stuck` says the last pass ended inside
// a group, whose statuses this pass reads. Issues all its loads before it uses any:
//   head:   statuses from `counted` to the next group boundary (or a whole group when stuck),
//           stopping at the first claim's tile;
//   groups: one word for each group from the head's end up to the last claim's group (at most
//           32), 32 arrivals meaning the group is whole;
//   tails:  for each claim, its own group's statuses up to its tile.
// Then walks the claims in order: to each claim's group over whole group words (from inside a
// group, over its word less what the walk counted in it, which the walk knows only when it came
// in at the group's start), then over that group's statuses to the tile. Each claim reached is
// handed its offset by give(k, offset) and jf moves past it. A load not ready ends the pass there
// (`stuck`), as does a group word the pass did not load. It waits only on tiles below the claims'.
template <unsigned K, class Give>
__device__ __forceinline__ void batched_pass(const scan::lookback::Status* status,
                                             const scan::lookback::Status* groups,
                                             const size_t (&tk)[K], unsigned nk, unsigned& jf,
                                             size_t& counted, unsigned& sum, bool& stuck,
                                             uint32_t flag, Give&& give) {
  namespace lb = scan::lookback;
  constexpr size_t G = v10::kGroup;
  const unsigned lane = threadIdx.x % 32;
  size_t first = tk[0], last = tk[0];
#pragma unroll
  for (unsigned k = 1; k < K; ++k) {
    if (k == jf) first = tk[k];
    if (k + 1 == nk) last = tk[k];
  }
  const size_t up = (counted + G - 1) / G * G;  // the next group boundary
  const size_t head_end = min(first, stuck ? (up == counted ? counted + G : up) : up);
  const unsigned n_head = unsigned(head_end - counted);
  const size_t g0 = head_end / G;  // lane l's group word: group g0 + l
  const size_t g_last = last / G;
  const unsigned n_groups = g_last > g0 ? unsigned(min(g_last - g0, size_t(32))) : 0u;
  const lb::Status head = lane < n_head ? lb::peek(status + counted + lane) : 0;
  const lb::Status group = lane < n_groups ? lb::peek(groups + (g0 + lane) * v10::kGroupStride) : 0;
  lb::Status tail[K];
#pragma unroll
  for (unsigned k = 0; k < K; ++k) {
    const size_t base = tk[k] / G * G;
    const bool wanted = k >= jf && k < nk && !(k == jf && head_end == first);
    tail[k] = wanted && lane < tk[k] - base ? lb::peek(status + base + lane) : 0;
  }

  size_t pos = counted;
  unsigned acc = sum, part = 0;
  bool group_known = counted % G == 0;  // acc_group: the count at the start of pos's group
  unsigned acc_group = sum;
  stuck = true;  // unless the walk reaches every claim or stops for want of a load
  unsigned run = run_from(uint32_t(head >> 32) == flag, 0, n_head, uint32_t(head), part);
  acc += part;
  pos += run;
  if (run == n_head) {
    if (pos % G == 0) {
      group_known = true;
      acc_group = acc;
    }
#pragma unroll
    for (unsigned k = 0; k < K; ++k) {
      if (k < jf || k >= nk) continue;
      const size_t target = tk[k], tg = target / G;
      if (pos < target) {
        if (pos % G != 0 && pos / G < tg) {  // the rest of pos's group, from its word
          const size_t l = pos / G - g0;
          if (!group_known || l >= n_groups) {  // the next pass's head reads it
            stuck = false;
            break;
          }
          const lb::Status w = __shfl_sync(0xffffffffu, group, unsigned(l));
          if (uint32_t(w >> 32) != G) break;
          acc = acc_group + uint32_t(w);
          pos = (pos / G + 1) * G;
          acc_group = acc;
        }
        if (pos / G < tg) {  // whole groups, from a boundary
          const unsigned lo = unsigned(pos / G - g0), hi = unsigned(min(tg - g0, size_t(n_groups)));
          run = run_from(lane < n_groups && uint32_t(group >> 32) == G, lo, hi, uint32_t(group),
                         part);
          acc += part;
          pos += size_t(run) * G;
          if (lo + run < hi) break;
          if (pos / G < tg) {  // more groups than one load holds
            stuck = false;
            break;
          }
          acc_group = acc;
          group_known = true;
        }
        const size_t base = tg * G;  // the claim's group, from pos to the claim's tile
        run = run_from(uint32_t(tail[k] >> 32) == flag, unsigned(pos - base),
                       unsigned(target - base), uint32_t(tail[k]), part);
        acc += part;
        pos += run;
        if (pos < target) break;
      }
      give(k, acc);
      jf = k + 1;
    }
    if (jf == nk) stuck = false;
  }
  counted = pos;
  sum = acc;
}

// The look-ahead warp, a look-ahead policy of v10's kernel: waits for claim i, takes the claims
// after it that are already in (lane 0 asks each stage's barrier without waiting, up to K claims,
// stopping at the first not in or past the last tile), and runs passes until each has its offset
// (tile_offset, then an arrival on prefixed, in claim order). Ends at the first claim past the
// last tile.
template <unsigned K>
struct BatchedLookAhead {
  // Two blocks an SM, as v10 runs: without the bound the compiler gives this kernel 108 registers
  // a thread, and only one block of 320 threads fits an SM.
  static constexpr unsigned kMinBlocks = 2;
  template <unsigned NS>
  __device__ __forceinline__ static void run(unsigned long long* claimed,
                                             unsigned long long* prefixed, const unsigned* tile_of,
                                             unsigned* tile_offset, unsigned tiles,
                                             const scan::lookback::Status* status,
                                             const scan::lookback::Status* groups, uint32_t flag,
                                             unsigned long long* /*reduced*/,
                                             const unsigned* /*tile_count*/) {
    static_assert(K >= 1 && K <= NS, "each claim of a batch in a stage of its own");
    const unsigned lane = threadIdx.x % 32;
    size_t counted = 0;
    unsigned sum = 0;
    bool stuck = false;
    for (unsigned i = 0;;) {
      bulk::wait(&claimed[i % NS], (i / NS) & 1);
      size_t tk[K];
      tk[0] = tile_of[i % NS];
      if (tk[0] >= tiles) break;
      unsigned nk = 1;
#pragma unroll
      for (unsigned k = 1; k < K; ++k) {
        unsigned t = tiles;
        if (nk == k && lane == 0 && bulk::ready(&claimed[(i + k) % NS], ((i + k) / NS) & 1))
          t = tile_of[(i + k) % NS];
        t = __shfl_sync(0xffffffffu, t, 0);
        tk[k] = t;
        if (nk == k && t < tiles) nk = k + 1;
      }
      unsigned jf = 0;
      while (jf < nk)
        batched_pass<K>(status, groups, tk, nk, jf, counted, sum, stuck, flag,
                        [&](unsigned k, unsigned offset) {
                          if (lane == 0) {
                            tile_offset[(i + k) % NS] = offset;
                            bulk::arrive(&prefixed[(i + k) % NS]);
                          }
                        });
      i += nk;
    }
  }
};

}  // namespace ladder::copy_if::lab_batched
