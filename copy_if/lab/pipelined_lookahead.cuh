// copy_if/lab/pipelined_lookahead.cuh — two look-aheads for v10's kernel: one with the next
// claim's reads in flight while it sums the current claim's (slower), one that polls less (level):
// measured, not rungs. Not part of the binary; copy_if/lab/count_lookahead.cu counts their passes,
// and each was registered as a copy_if rung for the session-31 calls that timed it.
// Idea (the overlap): v10's look-ahead serves its block's claims one at a time: a pass issues its
// loads (the statuses and group words between its running count and its tile), waits for them,
// sums them, and only then starts the next claim's pass. PipelinedLookAhead issues the next
// claim's first pass (if that claim is already drawn) before it sums the current one's, from just
// past the current claim's tile, whose count it takes from its own block's reduce warps (shared
// memory) or, in the other form, from the tile's status like any other. A status read early is
// never wrong (a launch publishes each status once); a pass that comes back short is followed by
// v10's passes from where it stopped. The overlap is software pipelining (loads for iteration
// i + 1 issued before iteration i's use), as in the multistage mainloops of CUTLASS's GEMMs.
// Idea (polling less): PatientLookAhead is v10's loop with a claim's first pass issued once its
// own tile is reduced, or a sleep after a pass that fell short, or both.
// Measured (session 31, H200; the lab notes, "Counted passes; overlapping, polling less,
// publishing first"): a copy of v10's look-ahead in this file's code (PipelinedLookAhead<false,
// false>), counted, makes 1.48 to 1.70 passes a claim at 2^28 (1.59 and 1.70 at half kept). The
// overlap's early passes reach their tile 31 to 43% of the time at 2^28, it makes about 2 passes a
// claim at half kept, and it is slower than v10 at every size and distribution timed (413 against
// 392 µs at 2^28 and half kept). The patient forms with the sleep make fewer passes at 2^28 (1.45 a
// claim at half kept with both options); waiting for the own tile alone does so only at 2^24. All
// are level with v10 at 2^28 and half kept (391.5 to 392.2 µs against 392.2); waiting for the own
// tile is a little faster at 1% kept and at 2^24.
// The policies' interface (v10's group_kernel) gives the look-ahead the reduce barriers and the
// tiles' counts in shared memory for the first of these.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "common/bulk_copy.cuh"  // mbarrier wait / ready / arrive
#include "copy_if/copy_if.h"
#include "copy_if/v10_group_sums.cuh"  // the kernel, statuses, group words, workspace
#include "scan/lookback.cuh"           // Status words, peek

namespace ladder::copy_if::lab_pipelined {

// Lab counts (copy_if/lab/count_lookahead.cu defines LADDER_LAB_LOOKAHEAD_COUNTS): claims, passes,
// early passes (a next claim's first pass, issued before the current claim's was summed), and
// early passes that reached their claim's tile.
#ifdef LADDER_LAB_LOOKAHEAD_COUNTS
__device__ unsigned long long lab_lookahead_counts[4];
#define LADDER_LAB_COUNT(k, v) \
  if (threadIdx.x % 32 == 0 && (v)) atomicAdd(&lab_lookahead_counts[k], 1ull)
#else
#define LADDER_LAB_COUNT(k, v)
#endif

// One pass of v10's two-level look-ahead, issued: its loads and how many lanes of each count.
struct Pass {
  scan::lookback::Status head, group, tail;
  unsigned n_head, n_groups, n_tail;
};

// Issues the loads of one pass from `counted` toward `tile` (counted <= tile), v10's geometry: at
// most 32 head statuses (from `counted` to the next group boundary, or a whole group when `stuck`),
// 32 group words (whole groups), and 32 tail statuses (from the start of `tile`'s group to `tile`);
// with more than 32 whole groups between, the pass ends after them and has no tail. All 32 lanes
// call it with the same arguments. Uses none of the loaded words.
__device__ __forceinline__ Pass issue_pass(const scan::lookback::Status* status,
                                           const scan::lookback::Status* groups, unsigned counted,
                                           bool stuck, unsigned tile) {
  namespace lb = scan::lookback;
  constexpr unsigned G = v10::kGroup;
  const unsigned lane = threadIdx.x % 32;
  const unsigned up = (counted + G - 1) / G * G;  // the next group boundary
  const unsigned head_end = min(tile, stuck ? (up == counted ? counted + G : up) : up);
  unsigned tail_start = max(head_end, tile / G * G);  // the start of tile's group
  unsigned n_groups = (tail_start - head_end) / G;
  unsigned tail_end = tile;
  if (n_groups > 32) {  // the rest in later passes; no tail in this one
    n_groups = 32;
    tail_start = tail_end = head_end + 32 * G;
  }
  Pass p;
  p.n_head = head_end - counted;
  p.n_groups = n_groups;
  p.n_tail = tail_end - tail_start;
  p.head = lane < p.n_head ? lb::peek(status + counted + lane) : 0;
  p.group =
      lane < n_groups ? lb::peek(groups + size_t(head_end / G + lane) * v10::kGroupStride) : 0;
  p.tail = lane < p.n_tail ? lb::peek(status + tail_start + lane) : 0;
  return p;
}

// Sums an issued pass into the running count, as v10's advance_grouped does: the run of published
// head statuses, then (if the head was whole) the run of whole group words, then (if those were
// all whole) the run of published tail statuses. On entry `sum` holds the counts of tiles
// [0, counted), where the pass was issued from; on return, of tiles [0, counted) for the new
// counted. Returns whether the pass stopped inside a group (the next pass reads its statuses).
__device__ __forceinline__ bool sum_pass(const Pass& p, unsigned& counted, unsigned& sum,
                                         uint32_t flag) {
  constexpr unsigned G = v10::kGroup;
  const unsigned lane = threadIdx.x % 32;
  unsigned ok = __ballot_sync(0xffffffffu, lane < p.n_head && uint32_t(p.head >> 32) == flag);
  unsigned run = min(p.n_head, ~ok ? unsigned(__ffs(~ok)) - 1 : 32u);
  sum += __reduce_add_sync(0xffffffffu, lane < run ? uint32_t(p.head) : 0u);
  counted += run;
  if (run < p.n_head) return true;
  ok = __ballot_sync(0xffffffffu, lane < p.n_groups && uint32_t(p.group >> 32) == G);
  run = min(p.n_groups, ~ok ? unsigned(__ffs(~ok)) - 1 : 32u);
  sum += __reduce_add_sync(0xffffffffu, lane < run ? uint32_t(p.group) : 0u);
  counted += run * G;
  if (run < p.n_groups) return true;
  ok = __ballot_sync(0xffffffffu, lane < p.n_tail && uint32_t(p.tail >> 32) == flag);
  run = min(p.n_tail, ~ok ? unsigned(__ffs(~ok)) - 1 : 32u);
  sum += __reduce_add_sync(0xffffffffu, lane < run ? uint32_t(p.tail) : 0u);
  counted += run;
  return run < p.n_tail;
}

// The overlapped look-ahead warp, a look-ahead policy of v10's kernel. For claim i (tile t, stage
// s): if claim i + 1 is already drawn, issue its first pass from t + 1; sum claim i's pass (issued
// during claim i - 1, or now), and v10's passes after it until the running count reaches t; add t's
// own count (tile_count[s], once the reduce warps arrive on reduced[s]: before the offset is handed
// over, so that the barrier cannot have moved on to the stage's next round); hand the offset to
// the compact-store warps. Ends at the first claim past the last tile. It waits only on tiles
// below its claims' and on its own block's reduce (v06's forward-progress argument holds).
// kOwnFromReduce false: the next claim's first pass starts at t, and t's count comes from its
// status like any other (no wait on the reduce). kPipelined false: no early pass (with
// kOwnFromReduce false, v10's look-ahead in this file's code: 32-bit tile arithmetic).
template <bool kOwnFromReduce = true, bool kPipelined = true>
struct PipelinedLookAhead {
  static constexpr unsigned kMinBlocks = 2;  // two blocks an SM, as v10 runs
  template <unsigned NS>
  __device__ __forceinline__ static void run(unsigned long long* claimed,
                                             unsigned long long* prefixed, const unsigned* tile_of,
                                             unsigned* tile_offset, unsigned tiles,
                                             const scan::lookback::Status* status,
                                             const scan::lookback::Status* groups, uint32_t flag,
                                             unsigned long long* reduced,
                                             const unsigned* tile_count) {
    const unsigned lane = threadIdx.x % 32;
    bulk::wait(&claimed[0], 0);
    unsigned t = tile_of[0];
    if (t >= tiles) return;
    unsigned counted = 0, sum = 0;
    Pass p = issue_pass(status, groups, counted, false, t);
    bool early_next = false;  // p was issued early, during the claim before
    for (unsigned i = 0;; ++i) {
      const unsigned s = i % NS, s1 = (i + 1) % NS, r1 = (i + 1) / NS;
      // The next claim, if it is in: its first pass now.
      unsigned next = 0, in = 0;
      if (kPipelined && lane == 0 && bulk::ready(&claimed[s1], r1 & 1)) {
        in = 1;
        next = tile_of[s1];
      }
      in = __shfl_sync(0xffffffffu, in, 0);
      next = __shfl_sync(0xffffffffu, next, 0);
      Pass q{};
      if (in && next < tiles)
        q = issue_pass(status, groups, kOwnFromReduce ? t + 1 : t, false, next);
      // This claim: its pass, then v10's passes until the count reaches t.
      [[maybe_unused]] const bool early = i > 0 && early_next;
      bool stuck = sum_pass(p, counted, sum, flag);
      LADDER_LAB_COUNT(0, true);
      LADDER_LAB_COUNT(1, true);
      LADDER_LAB_COUNT(3, early && counted == t);
      while (counted < t) {
        p = issue_pass(status, groups, counted, stuck, t);
        stuck = sum_pass(p, counted, sum, flag);
        LADDER_LAB_COUNT(1, true);
      }
      early_next = in && next < tiles;
      LADDER_LAB_COUNT(2, early_next);
      unsigned own = 0;
      if (kOwnFromReduce) {
        bulk::wait(&reduced[s], (i / NS) & 1);
        own = tile_count[s];
      }
      if (lane == 0) {
        tile_offset[s] = sum;
        bulk::arrive(&prefixed[s]);
      }
      if (kOwnFromReduce) {
        sum += own;
        counted = t + 1;
      }
      if (!in) {  // not in before: wait for it
        bulk::wait(&claimed[s1], r1 & 1);
        next = tile_of[s1];
        if (next >= tiles) break;
        p = issue_pass(status, groups, counted, false, next);
      } else {
        if (next >= tiles) break;
        p = q;
      }
      t = next;
    }
  }
};

// A look-ahead that polls less (session 31, after the counts: a counted copy of v10's look-ahead
// makes about 1.6 to 1.7 passes a claim at 2^28 and half kept). v10's loop on issue_pass and
// sum_pass, with two options: kWaitOwn, the first pass of a claim only once the block's reduce
// warps have its own tile's count (the tiles below it were drawn earlier); kBackoffNs, a
// __nanosleep of about that many ns (its length is not exact) after a pass that did not reach the
// tile, before the next. Waiting on reduced[s] before the
// offset is handed over keeps the barrier from moving on to the stage's next round.
template <bool kWaitOwn, unsigned kBackoffNs>
struct PatientLookAhead {
  static constexpr unsigned kMinBlocks = 2;  // two blocks an SM, as v10 runs
  template <unsigned NS>
  __device__ __forceinline__ static void run(unsigned long long* claimed,
                                             unsigned long long* prefixed, const unsigned* tile_of,
                                             unsigned* tile_offset, unsigned tiles,
                                             const scan::lookback::Status* status,
                                             const scan::lookback::Status* groups, uint32_t flag,
                                             unsigned long long* reduced,
                                             const unsigned* /*tile_count*/) {
    const unsigned lane = threadIdx.x % 32;
    unsigned counted = 0, sum = 0;
    for (unsigned i = 0;; ++i) {
      const unsigned s = i % NS, round = i / NS;
      bulk::wait(&claimed[s], round & 1);
      const unsigned t = tile_of[s];
      if (t >= tiles) break;
      if (kWaitOwn) bulk::wait(&reduced[s], round & 1);
      LADDER_LAB_COUNT(0, true);
      bool stuck = false;
      while (counted < t) {
        const Pass p = issue_pass(status, groups, counted, stuck, t);
        stuck = sum_pass(p, counted, sum, flag);
        LADDER_LAB_COUNT(1, true);
        if (kBackoffNs && counted < t) __nanosleep(kBackoffNs);
      }
      if (lane == 0) {
        tile_offset[s] = sum;
        bulk::arrive(&prefixed[s]);
      }
    }
  }
};

}  // namespace ladder::copy_if::lab_pipelined
