// copy_if/lab/group_word_head.cuh — v10 whose look-ahead takes its last tile's group from the
// group's word instead of that group's remaining statuses (two loads a pass, not three): measured,
// level with v10, not a rung. Not part of the binary; the probe copy_if/lab/probe_v06_oracle.cu
// runs it (`rewind`) as v10's kernel with this look-ahead policy.
// Idea: v10's look-ahead warp is busy 95 to 98% of the time at 2^28 on an H200, and a slower
// look-ahead slows the launch (the lab notes, "The look-ahead's pace"); a pass loads the statuses
// from its last tile to the next group boundary, the whole groups' words and its own group's
// statuses. This one keeps, beside its running count, the count at the start of the group that
// holds its last tile; at a new claim beyond that group it goes back to the group's start and takes
// the group's word with the words after it, so a pass loads the group words and its own group's
// statuses only. Where that word is not complete yet, the next pass reads the group's statuses, as
// v10 does.
// Measured (session 30, call 5, registered as copy_if v11 then): correct (868 GPU tests, 2^31 + 17,
// compute-sanitizer's four tools clean, the sm_80 build's tests) and level with v10: 397.79 µs at
// 2^28 and half kept against v10's 395.94 in the same run (its passes and pass times were not
// measured): dropping a load did not make the launch faster. Of two mutants (the count at the
// group's start not kept where the whole groups, or the head, end on a boundary), the first failed
// the tests; the second is equivalent (whenever the head completes, the whole groups' step follows
// and sets the count again) and passed them, as it must.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "common/bulk_copy.cuh"  // mbarrier wait / arrive
#include "copy_if/copy_if.h"
#include "copy_if/v10_group_sums.cuh"  // the kernel, statuses, group words, workspace
#include "scan/lookback.cuh"           // Status words, peek

namespace ladder::copy_if::lab_rewind {

inline constexpr size_t kMaxN = v10::kMaxN;
inline size_t workspace_bytes(size_t n) { return v10::workspace_bytes(n); }
inline bool above_uses_pipeline(size_t n) { return v10::above_uses_pipeline(n); }
inline std::vector<size_t> dispatch_bounds() { return v10::dispatch_bounds(); }

// v10's advance_grouped with one change: `group_sum`, the count of tiles [0, counted rounded down
// to a group boundary), kept across calls. At a call's first pass, where `counted` lies inside a
// group and `tile` beyond it, the count goes back to that group's start (counted and sum from
// group_sum), so that the group is taken whole from its word, with the words after it: no head
// statuses. The rest is v10's: on entry `sum` holds the counts of tiles [0, counted); on return,
// of tiles [0, tile), and counted == tile; any load not ready ends the pass where it stands and
// the next pass reads that group's statuses. All 32 lanes call it with the same arguments; every
// lane gets the sum. It waits only on tiles below `tile`.
__device__ __forceinline__ void advance_rewound(const scan::lookback::Status* status,
                                                const scan::lookback::Status* groups, size_t tile,
                                                size_t& counted, unsigned& sum, unsigned& group_sum,
                                                uint32_t flag) {
  namespace lb = scan::lookback;
  constexpr size_t G = v10::kGroup;
  const unsigned lane = threadIdx.x % 32;
  bool stuck = false;  // the last pass ended in a group: read that group's statuses next
  while (counted < tile) {
    if (!stuck && counted % G != 0 && tile / G > counted / G) {  // back to the group's start
      counted = counted / G * G;
      sum = group_sum;
    }
    const size_t up = (counted + G - 1) / G * G;  // the next group boundary
    const size_t head_end = min(tile, stuck ? (up == counted ? counted + G : up) : up);
    size_t tail_start = max(head_end, tile / G * G);  // the start of tile's group
    size_t n_groups = (tail_start - head_end) / G;
    size_t tail_end = tile;
    if (n_groups > 32) {  // the rest in later passes; no tail in this one
      n_groups = 32;
      tail_start = tail_end = head_end + 32 * G;
    }
    const unsigned n_head = unsigned(head_end - counted), n_tail = unsigned(tail_end - tail_start);
    const lb::Status head = lane < n_head ? lb::peek(status + counted + lane) : 0;
    const lb::Status group =
        lane < n_groups ? lb::peek(groups + (head_end / G + lane) * v10::kGroupStride) : 0;
    const lb::Status tail = lane < n_tail ? lb::peek(status + tail_start + lane) : 0;
    stuck = true;  // unless every load of the pass counts
    // the head: the run of published statuses from `counted`
    unsigned ok = __ballot_sync(0xffffffffu, lane < n_head && uint32_t(head >> 32) == flag);
    unsigned run = min(n_head, ~ok ? unsigned(__ffs(~ok)) - 1 : 32u);
    sum += __reduce_add_sync(0xffffffffu, lane < run ? uint32_t(head) : 0u);
    counted += run;
    if (counted % G == 0) group_sum = sum;
    if (run < n_head) continue;
    // the whole groups: the run of words with all their arrivals in
    ok = __ballot_sync(0xffffffffu, lane < n_groups && uint32_t(group >> 32) == G);
    run = min(unsigned(n_groups), ~ok ? unsigned(__ffs(~ok)) - 1 : 32u);
    sum += __reduce_add_sync(0xffffffffu, lane < run ? uint32_t(group) : 0u);
    counted += size_t(run) * G;
    if (counted % G == 0) group_sum = sum;
    if (run < n_groups) continue;
    // the tail: the run of published statuses in tile's group
    ok = __ballot_sync(0xffffffffu, lane < n_tail && uint32_t(tail >> 32) == flag);
    run = min(n_tail, ~ok ? unsigned(__ffs(~ok)) - 1 : 32u);
    sum += __reduce_add_sync(0xffffffffu, lane < run ? uint32_t(tail) : 0u);
    counted += run;
    if (counted % G == 0) group_sum = sum;
    stuck = run < n_tail;
  }
}

// The look-ahead warp, a look-ahead policy of v10's kernel: v10's loop (each claim in turn, its
// offset to the compact-store warps) on advance_rewound.
struct RewoundLookAhead {
  // Two blocks an SM, as v10 runs (v10's kernel asks for one and fits two; with this look-ahead
  // the compiler might use more registers unless asked).
  static constexpr unsigned kMinBlocks = 2;
  template <unsigned NS>
  __device__ __forceinline__ static void run(unsigned long long* claimed,
                                             unsigned long long* prefixed, const unsigned* tile_of,
                                             unsigned* tile_offset, unsigned tiles,
                                             const scan::lookback::Status* status,
                                             const scan::lookback::Status* groups, uint32_t flag,
                                             unsigned long long* /*reduced*/,
                                             const unsigned* /*tile_count*/) {
    const unsigned lane = threadIdx.x % 32;
    size_t counted = 0;
    unsigned sum = 0, group_sum = 0;
    for (unsigned i = 0;; ++i) {
      const unsigned s = i % NS, round = i / NS;
      bulk::wait(&claimed[s], round & 1);
      const size_t t = tile_of[s];
      if (t >= tiles) break;
      advance_rewound(status, groups, t, counted, sum, group_sum, flag);
      if (lane == 0) {
        tile_offset[s] = sum;
        bulk::arrive(&prefixed[s]);
      }
    }
  }
};

// The copy_if launcher contract (copy_if/copy_if.h), as v10's (the same workspace, paths and
// errors): v10's launch with this file's look-ahead.
inline cudaError_t launch(const int32_t* in, int32_t* out, unsigned long long* count, size_t n,
                          void* ws, cudaStream_t stream) {
  return v10::launch_with<RewoundLookAhead>(in, out, count, n, ws, stream);
}

}  // namespace ladder::copy_if::lab_rewind
