// sort/v12_large_tiles.cuh — sort v12: v11 with larger one-sweep tiles for large inputs, 256 x 44
// keys (pairs 256 x 40) at two resident blocks per SM instead of 256 x 24 at three.
// Technique: v10's passes (ballot ranking, short circuit, 32-bit look-back words, v09's
// histogram) over tiles of 11,264 keys (pairs 10,240), each thread holding 44 keys (40 pairs) in
// registers, capped at 128 registers for two blocks of 256 threads per SM. Pairs keep each staged
// position's digit, four to a register, instead of its destination (v06::kPackedDigits). The
// large tiles start at 10 of them per SM (pairs 8); below that, v11 (pairs: v10), whose smaller
// tiles finish sooner when there are few of them. For pairs up to 6,144, v07's one-block sort
// loads each slot's value with its key (EARLY_VALUES) instead of gathering the values from DRAM
// after the last pass. From 1,073,740,801 keys (just under 2^30), where a count may outgrow the
// 30 bits of v10's look-back words, each pass runs as one launch a portion of fewer than 2^30
// keys (v08's launch_passes, v06::Portion; CUB cuts its one-sweep passes the same way): a
// portion looks back only within itself, and its last tile hands the next portion its digit
// starts.
// Changes from v11: v06's tile (256 x 24, three blocks per SM) was chosen with v06's 64-bit
// look-back words and its bank-conflicted histogram. With those fixed (v09, v10), a tile's fixed
// costs weigh more than occupancy on large inputs: every tile runs a digit scan, its barriers and
// a look-back for all 256 digits whatever its size, and on uniform keys each digit's run in a
// tile averages ITEMS keys (96 bytes at 24), so the scatter's runs begin and end inside 32-byte
// sectors. Larger tiles divide those costs by more keys, and the look-back words shrink from 45 MB
// to 24 MB a pass at 2^28 keys. At two blocks per SM every step from 32 keys a thread up to 44 was
// faster than the one before; at 46 the registers spill and the time jumps.
// Remains (bottleneck): latency. Two blocks of 8 warps an SM leave four warps a scheduler, and a
// pass issues on fewer than half its cycles (Nsight Compute at 2^25 and 2^28, H100): the ballots,
// the look-back and the scattered stores each wait. Neither the stores alone (a control with them
// coalesced) nor the ranking alone (a pass ranked by one shared atomic a key) is the pass's time
// (sort/lab/LAB_NOTES.md). And registers: 44 keys and their 44 ranks fill the 128-register cap (a
// few bytes spill), so the tile cannot grow further this way.
// Source: CUB's tuning policies, which choose the one-sweep tile per key and value size the same
// way (tuning_radix_sort.cuh: sm90 4-byte keys 384 x 19, pairs 384 x 17); A. Adinets and
// D. Merrill, "Onesweep: A Faster Least Significant Digit Radix Sort for GPUs", 2022. The shapes
// and the crossover were timed on both GPUs (sort/lab/LAB_NOTES.md).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/device.h"
#include "common/registry.h"
#include "sort/v07_small_n_dispatch.cuh"
#include "sort/v08_short_circuit.cuh"
#include "sort/v09_striped_histogram.cuh"
#include "sort/v10_narrow_status.cuh"
#include "sort/v11_merge_small.cuh"

namespace ladder::sort::v12 {

inline constexpr VersionDoc kDoc = {
    12, "v12_large_tiles", "v11 with one-sweep tiles of 256 x 44 keys (pairs 256 x 40) for large n",
    /*technique*/
    "From 10 large tiles per SM on (pairs 8), v10's one-sweep passes over tiles of 11,264 keys "
    "(pairs 10,240): 44 keys (40 pairs) a thread, 256 threads, registers capped for two blocks "
    "per SM. Pairs keep each staged position's digit, four to a register, instead of its "
    "destination (fewer registers live; measured a little faster). Below that, v11 (pairs: v10, "
    "whose one-block sort up to "
    "6,144 pairs here loads the values with the keys instead of after the last pass). From "
    "1,073,740,801 keys (just under 2^30) each pass runs in portions of fewer than 2^30 keys, a "
    "launch each, as CUB's does: a "
    "portion looks back only within itself and its last tile writes the next one's digit "
    "starts.",
    /*changes*/
    "v06's tile, 256 x 24 at three blocks per SM, was chosen before v09 and v10 removed the "
    "histogram's bank conflicts and halved the look-back words. Since then, on large inputs, a "
    "tile's fixed costs (digit scan, barriers, a look-back for all 256 digits) and the partly "
    "filled 32-byte sectors at the ends of each digit's run weigh more than occupancy: larger "
    "tiles spread them over more keys and halve the look-back words again.",
    /*remains*/
    "Latency: two blocks of 8 warps an SM leave four warps a scheduler, and a pass issues on "
    "fewer than half its cycles; the ballots, the look-back and the scattered stores each wait, "
    "and no one of them alone is the pass's time (measured with controls, sort/lab/LAB_NOTES.md). "
    "44 keys and their ranks fill the 128-register cap, so the tile cannot grow further this way.",
    /*source*/
    "CUB's per-type one-sweep tunings (tuning_radix_sort.cuh); Adinets & Merrill, \"Onesweep: "
    "A Faster Least Significant Digit Radix Sort for GPUs\", 2022; v10's passes; tile shapes "
    "and crossover timed on both GPUs"};

inline constexpr size_t kMaxN = v10::kMaxN;
inline constexpr unsigned kThreads = 256;
inline constexpr unsigned kItems = 44;       // keys a thread (45 KB of staging: under 48 KB)
inline constexpr unsigned kItemsPairs = 40;  // pairs a thread
inline constexpr unsigned kMinBlocks = 2;    // resident blocks per SM: caps registers at 128
inline constexpr size_t kTile = size_t(kThreads) * kItems;            // 11,264 keys
inline constexpr size_t kTilePairs = size_t(kThreads) * kItemsPairs;  // 10,240 pairs
// From this many large tiles per SM on, the large tiles; below, v10's tiles (v11's dispatch for
// keys). A large tile takes longer from its first load to its last store, so while there are
// few tiles per SM the GPU waits on the slowest of them. Timed on both GPUs
// (sort/lab/LAB_NOTES.md): keys' large tiles win from 11.3 of them per SM on (16.8M keys on 132
// SMs) and lose at 9.4 and below; pairs' win from 8.9 on (the H200 already from 6.2, the H100 not
// at 7.4). Below about 2 tiles per SM either shape's time jumps with the wave count.
inline constexpr size_t kLargeFromTilesPerSm = 10;
inline constexpr size_t kLargeFromTilesPerSmPairs = 8;

// The first n that takes the large tiles on this device.
inline size_t large_from(bool pairs) {
  const size_t sms = static_cast<size_t>(current_sm_count());
  return pairs ? kLargeFromTilesPerSmPairs * sms * kTilePairs : kLargeFromTilesPerSm * sms * kTile;
}

// Workspace: v10's, which holds the large tiles' layout too (fewer tiles, fewer look-back words).
inline size_t workspace_bytes(size_t n) { return v10::workspace_bytes(n); }
inline size_t workspace_bytes_pairs(size_t n) { return v10::workspace_bytes_pairs(n); }

// The sort launcher contract (sort/sort.h). ws: workspace_bytes(n) (unused up to 16,384 keys).
inline cudaError_t launch(const uint32_t* in, uint32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  if (n < large_from(false)) return v11::launch(in, out, n, ws, stream);
  return v08::launch_passes<false, v10::NarrowStatus, 0, kThreads, kItems, kMinBlocks>(
      in, nullptr, out, nullptr, n, ws, stream, v09::striped_histogram);
}

inline cudaError_t launch_pairs(const uint32_t* keys_in, const uint32_t* values_in,
                                uint32_t* keys_out, uint32_t* values_out, size_t n, void* ws,
                                cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  if (n <= v07::kSmallMax)
    return v07::launch_small<true, true>(keys_in, values_in, keys_out, values_out, n, stream);
  if (n < large_from(true))
    return v10::launch_pairs(keys_in, values_in, keys_out, values_out, n, ws, stream);
  return v08::launch_passes<true, v10::NarrowStatus, v06::kPackedDigits, kThreads, kItemsPairs,
                            kMinBlocks>(keys_in, values_in, keys_out, values_out, n, ws, stream,
                                        v09::striped_histogram);
}

// The most keys one portion of the large tiles' passes holds (the last n a pass runs in one
// launch): the most whole tiles whose keys fit the look-back words' counts.
inline constexpr size_t kPortionKeys = v10::kNarrowMax / kTile * kTile;
inline constexpr size_t kPortionKeysPairs = v10::kNarrowMax / kTilePairs * kTilePairs;

// Every boundary of the dispatch on this device (the largest n of each path but the last):
// v11's (keys) or v10's (pairs), the last n before the large tiles, and the last n of one
// portion.
inline std::vector<size_t> dispatch_bounds() {
  std::vector<size_t> b = v11::dispatch_bounds();
  b.push_back(large_from(false) - 1);
  b.push_back(kPortionKeys);
  std::sort(b.begin(), b.end());
  return b;
}
inline std::vector<size_t> dispatch_bounds_pairs() {
  std::vector<size_t> b = v10::dispatch_bounds();
  b.push_back(large_from(true) - 1);
  b.push_back(kPortionKeysPairs);
  std::sort(b.begin(), b.end());
  return b;
}

}  // namespace ladder::sort::v12
