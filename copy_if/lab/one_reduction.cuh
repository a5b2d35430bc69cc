// copy_if/lab/one_reduction.cuh — v10 whose look-ahead sums each pass with one warp reduction
// instead of three: measured, level with v10, not a rung. Not part of the binary; the probe
// copy_if/lab/probe_v06_oracle.cu runs it (`fused`) as v10's kernel with this look-ahead policy.
// Idea: a v10 look-ahead pass measured about 0.8 µs until all its loads were back and about 0.36 µs
// of work after them, at 2^28 and half kept on an H200 (the lab notes, "The look-ahead's pace",
// call 8's `lat4`). That work is three steps in a row, each a ballot, a find-first and a warp
// reduction (the head's statuses, the whole groups' words, the tail's statuses). This one takes the
// three ballots at once, finds the three runs at once, decides how far the pass got (the groups
// count only if the head was whole, the tail only if the groups were), and adds every counted word
// in one warp reduction, as CUB's decoupled look-back reduces each window of statuses with one
// (TilePrefixCallbackOp::ProcessWindow, a TailSegmentedReduce, in
// cub/agent/single_pass_scan_operators.cuh).
// Measured (session 30, call 9, registered as copy_if v11 then): correct (868 GPU tests, 2^31 + 17,
// compute-sanitizer's four tools clean, the sm_80 build's tests; both mutants failed the tests) and
// level with v10: 393.82 µs at 2^28 and half kept against v10's 393.18 in the same run, 275.71
// against 277.86 at 1% kept, 537.50 against 535.07 at 99% kept. The launch was no faster; its pass
// times were not measured.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "common/bulk_copy.cuh"  // mbarrier wait / arrive
#include "copy_if/copy_if.h"
#include "copy_if/v10_group_sums.cuh"  // the kernel, statuses, group words, workspace
#include "scan/lookback.cuh"           // Status words, peek

namespace ladder::copy_if::lab_fused {

inline constexpr size_t kMaxN = v10::kMaxN;
inline size_t workspace_bytes(size_t n) { return v10::workspace_bytes(n); }
inline bool above_uses_pipeline(size_t n) { return v10::above_uses_pipeline(n); }
inline std::vector<size_t> dispatch_bounds() { return v10::dispatch_bounds(); }

// v10's advance_grouped with the work after each pass's loads done at once: the three ballots,
// the three runs (the head's; the groups', which count only if the head was whole; the tail's,
// which counts only if the groups were), and one warp reduction of every counted word. The same
// loads, passes and results as v10's: on entry `sum` holds the counts of tiles [0, counted); on
// return, of tiles [0, tile), and counted == tile. All 32 lanes call it with the same arguments;
// every lane gets the sum. It waits only on tiles below `tile`.
__device__ __forceinline__ void advance_one_reduction(const scan::lookback::Status* status,
                                                      const scan::lookback::Status* groups,
                                                      size_t tile, size_t& counted, unsigned& sum,
                                                      uint32_t flag) {
  namespace lb = scan::lookback;
  constexpr size_t G = v10::kGroup;
  const unsigned lane = threadIdx.x % 32;
  bool stuck = false;  // the last pass ended in a group: read that group's statuses next
  while (counted < tile) {
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
    // the three runs at once, then one reduction
    const unsigned ok_head =
        __ballot_sync(0xffffffffu, lane < n_head && uint32_t(head >> 32) == flag);
    const unsigned ok_group =
        __ballot_sync(0xffffffffu, lane < n_groups && uint32_t(group >> 32) == G);
    const unsigned ok_tail =
        __ballot_sync(0xffffffffu, lane < n_tail && uint32_t(tail >> 32) == flag);
    const unsigned run_head = min(n_head, ~ok_head ? unsigned(__ffs(~ok_head)) - 1 : 32u);
    const unsigned run_group =
        run_head < n_head
            ? 0u
            : min(unsigned(n_groups), ~ok_group ? unsigned(__ffs(~ok_group)) - 1 : 32u);
    const unsigned run_tail = run_head < n_head || run_group < n_groups
                                  ? 0u
                                  : min(n_tail, ~ok_tail ? unsigned(__ffs(~ok_tail)) - 1 : 32u);
    const uint32_t mine = (lane < run_head ? uint32_t(head) : 0u) +
                          (lane < run_group ? uint32_t(group) : 0u) +
                          (lane < run_tail ? uint32_t(tail) : 0u);
    sum += __reduce_add_sync(0xffffffffu, mine);
    counted += run_head + size_t(run_group) * G + run_tail;
    stuck = run_head < n_head || run_group < n_groups || run_tail < n_tail;
  }
}

// The look-ahead warp, a look-ahead policy of v10's kernel: v10's loop (each claim in turn, its
// offset to the compact-store warps) on advance_one_reduction.
struct OneReductionLookAhead {
  static constexpr unsigned kMinBlocks = 2;  // two blocks an SM, as v10 runs
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
    unsigned sum = 0;
    for (unsigned i = 0;; ++i) {
      const unsigned s = i % NS, round = i / NS;
      bulk::wait(&claimed[s], round & 1);
      const size_t t = tile_of[s];
      if (t >= tiles) break;
      advance_one_reduction(status, groups, t, counted, sum, flag);
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
  return v10::launch_with<OneReductionLookAhead>(in, out, count, n, ws, stream);
}

}  // namespace ladder::copy_if::lab_fused
