// sort/v14_l2_prefetch.cuh — sort v14: v13 with each block prefetching a later tile's keys into
// L2, so that the block that draws that tile finds its keys there instead of waiting on DRAM.
// Technique: v13's one-sweep passes (three blocks of 256 x 32 keys an SM, 16-bit ranks, ballot
// ranking, short circuit, 32-bit look-back words). A pass's blocks draw their tiles in order from
// an atomic counter, so the tile that will be drawn D tiles after a block's own is known the moment
// it draws: one thread asks the TMA (the copy engine of an SM) to fetch that tile's 32 KB of keys
// into L2 with one cp.async.bulk.prefetch.L2 instruction. D is a quarter of the blocks the GPU
// holds at once (SMs x 3): the tile is drawn about a quarter of a tile's lifetime later, long
// enough for DRAM to deliver it, short enough that the 3 MB or so in flight stay in L2.
// Changes from v13: Nsight Compute's source counters at 2^28 put 9% of a pass's warp time on the
// first use of the tile's keys, a DRAM round trip that every block waits out at its start; a
// quarter of the tiles in flight ahead, the round trip is to L2. Nothing else changes: the same
// bytes cross DRAM, read earlier.
// Remains (bottleneck): latency elsewhere in the pass: the look-back's L2 round trips, the
// ballots' dependent instructions and the barriers between the pass's steps. Prefetching further
// ahead is slower (a tile's lifetime ahead holds 13 MB of keys in L2 and evicts the scatter's
// partly written lines), and pairs are slower with it: they keep v12's passes.
// Source: bulk prefetch into L2, PTX ISA (cp.async.bulk.prefetch, sm_90) and the CUDA C++
// Programming Guide's "Asynchronous Data Copies using the Tensor Memory Accelerator"; prefetching
// by a known schedule as in software pipelining; the passes of A. Adinets and D. Merrill,
// "Onesweep: A Faster Least Significant Digit Radix Sort for GPUs", 2022. The distance was timed
// against v13 on the H100 (sort/LAB_NOTES.md).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "common/device.h"
#include "common/registry.h"
#include "sort/v08_short_circuit.cuh"
#include "sort/v09_striped_histogram.cuh"
#include "sort/v10_narrow_status.cuh"
#include "sort/v12_large_tiles.cuh"
#include "sort/v13_more_warps.cuh"

namespace ladder::sort::v14 {

inline constexpr VersionDoc kDoc = {
    14, "v14_l2_prefetch", "v13 with each block prefetching a later tile's keys into L2",
    /*technique*/
    "Where v13 runs its own passes (keys only, large inputs), the same passes with one more "
    "instruction a tile: when a block has drawn tile t, one thread asks the TMA to prefetch the "
    "keys of tile t + D into L2 (cp.async.bulk.prefetch.L2), D a quarter of the blocks the GPU "
    "holds at once. Tiles are drawn in order, so the block that later draws t + D finds its keys "
    "in L2. Below that, and for pairs, v13 (which is v12 there).",
    /*changes*/
    "v13's warps waited on the first use of their tile's keys for 9% of their time at 2^28 "
    "(Nsight Compute's source counters): every block starts with a DRAM round trip. With the "
    "prefetch that round trip is to L2; the same bytes cross DRAM.",
    /*remains*/
    "Latency elsewhere: the look-back's L2 round trips, the ballots' dependent instructions, the "
    "barriers. Prefetching further ahead is slower (the keys in flight evict the scatter's "
    "partly written lines), and pairs were slower with it.",
    /*source*/
    "PTX ISA cp.async.bulk.prefetch.L2 (sm_90) and the CUDA C++ Programming Guide's TMA "
    "section; Adinets & Merrill, \"Onesweep\", 2022; the distance timed against v13 on the H100"};

inline constexpr size_t kMaxN = v13::kMaxN;
// How far ahead, in sixteenths of the blocks resident on the GPU (v06::kPrefetchAheadShift).
inline constexpr unsigned kAheadSixteenths = 4;

// Workspace: v13's.
inline size_t workspace_bytes(size_t n) { return v13::workspace_bytes(n); }

// The sort launcher contract (sort/sort.h). ws: workspace_bytes(n) (unused up to 16,384 keys).
// Where v13 runs its own passes (from v12's large-tile threshold up to 2^30 - 1 keys), those
// passes with the prefetch; elsewhere v13 (that is, v12). The prefetch needs sm_90; built for an
// older architecture the passes are v13's.
inline cudaError_t launch(const uint32_t* in, uint32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  if (n < v12::large_from(false) || n > v10::kNarrowMax) return v13::launch(in, out, n, ws, stream);
  constexpr unsigned kOpt = v06::kRanks16 | (kAheadSixteenths << v06::kPrefetchAheadShift);
  return v08::launch_passes<false, v10::NarrowStatus, kOpt, v13::kThreads, v13::kItems,
                            v13::kMinBlocks>(in, nullptr, out, nullptr, n, ws, stream,
                                             v09::striped_histogram);
}

// Every boundary of the dispatch on this device: v13's (v12's).
inline std::vector<size_t> dispatch_bounds() { return v13::dispatch_bounds(); }

}  // namespace ladder::sort::v14
