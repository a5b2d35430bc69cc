// sort/v14_l2_prefetch.cuh — sort v14: v12's passes with each block prefetching a later tile's keys
// into L2, so that the block that draws that tile finds its keys there instead of waiting on DRAM.
// Technique: v12's one-sweep passes (two blocks of 256 x 44 keys an SM, ballot ranking, short
// circuit, 32-bit look-back words). A pass's blocks draw their tiles in order from an atomic
// counter, so the tile that will be drawn D tiles after a block's own is known the moment it
// draws: one thread asks the TMA (the copy engine of each SM) to fetch that tile's 44 KB of keys
// into L2 with one cp.async.bulk.prefetch.L2 instruction. D is an eighth of the blocks the GPU
// holds at once (about 33 tiles on a 132-SM GPU; the SMs are read from %nsmid, which may count a
// few more than there are): the tile is drawn about an eighth of a tile's lifetime later, long
// enough for DRAM to deliver it, and the 1.5 MB or so in flight stay in L2.
// Changes from v13: v13 hid the wait for each tile's keys behind more warps (24 an SM), and
// Nsight Compute's source counters still put 9% of its warps' time on the first use of those
// keys, a DRAM round trip at the start of every block. v14 removes the wait instead of hiding it,
// and goes back to v12's tile and 16 warps: over 31 sizes from 2^24 to 2^28 keys, v13's passes
// were 5 to 13% slower than their neighbours at some sizes (every multiple of 40 x 2^20 keys, and
// 2^27; the cause is not known), and v12's were smooth. The same bytes cross DRAM, read earlier.
// Remains (bottleneck): latency elsewhere in the pass: the look-back's L2 round trips, the
// ballots' dependent instructions and the barriers between the pass's steps. Prefetching much
// further ahead is slower (a tile's lifetime ahead holds 13 MB of keys in L2 and evicts the
// scatter's partly written lines); pairs were slower with the prefetch and keep v12's passes.
// Source: bulk prefetch into L2, PTX ISA (cp.async.bulk.prefetch, sm_90) and the CUDA C++
// Programming Guide's section on the Tensor Memory Accelerator; prefetching by a known schedule,
// as software pipelining does; the passes of A. Adinets and D. Merrill, "Onesweep: A Faster Least
// Significant Digit Radix Sort for GPUs", 2022. The distance and the shape were timed against v12
// and v13 on the H100 (sort/lab/LAB_NOTES.md).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/arch.cuh"
#include "common/device.h"
#include "common/registry.h"
#include "sort/v08_short_circuit.cuh"
#include "sort/v09_striped_histogram.cuh"
#include "sort/v10_narrow_status.cuh"
#include "sort/v12_large_tiles.cuh"
#include "sort/v13_more_warps.cuh"

namespace ladder::sort::v14 {

inline constexpr VersionDoc kDoc = {
    14, "v14_l2_prefetch", "v12's passes, each block prefetching a later tile's keys into L2",
    /*technique*/
    "Where v12 runs its large tiles (keys only), v12's passes with one more instruction a tile: "
    "when a block has drawn tile t, one thread asks the TMA to prefetch the keys of tile t + D "
    "into L2 (cp.async.bulk.prefetch.L2), D an eighth of the blocks the GPU holds at once. Tiles "
    "are drawn in order, so the block that later draws t + D finds its keys in L2. Below that, "
    "and for pairs, v13 (which is v12 there).",
    /*changes*/
    "v13 hid each block's wait for its keys, a DRAM round trip (9% of its warps' time at 2^28), "
    "behind more warps; v14 removes it with the prefetch and keeps v12's 16 warps an SM, whose "
    "passes were smooth over 31 sizes where v13's were 5 to 13% slower at some of them.",
    /*remains*/
    "Latency elsewhere: the look-back's L2 round trips, the ballots' dependent instructions, the "
    "barriers. Prefetching much further ahead is slower (the keys in flight evict the scatter's "
    "partly written lines); pairs were slower with it.",
    /*source*/
    "PTX ISA cp.async.bulk.prefetch.L2 (sm_90) and the CUDA C++ Programming Guide's TMA "
    "section; Adinets & Merrill, \"Onesweep\", 2022; distance and shape timed against v12 and v13 "
    "on the H100"};

inline constexpr size_t kMaxN = v13::kMaxN;
// How far ahead, in sixteenths of the blocks resident on the GPU.
inline constexpr unsigned kAheadSixteenths = 2;

// v14's change, as the passes' policy (v06::BasePolicy says what a policy is): when a block has
// drawn tile `tile_slot`, one of its threads asks the TMA to prefetch into L2 the keys (and, for
// a probe's pairs, the values) of the tile D later, D = AHEAD sixteenths of the blocks the GPU
// holds at once (tile_slot: the block's shared word, read where the distance is added). Tiles are
// drawn in order, so the block that draws that tile does so about AHEAD/16 of a tile's lifetime
// later and finds its keys in L2. Nothing below sm_90 (a build for an older GPU runs v12's pass).
template <unsigned AHEAD = kAheadSixteenths>
struct PrefetchPolicy : v06::BasePolicy {
  template <unsigned THREADS, unsigned ITEMS, bool PAIRS, unsigned MIN_BLOCKS>
  __device__ __forceinline__ static void ahead(const unsigned& tile_slot, const uint32_t* keys_in,
                                               const uint32_t* vals_in, size_t n) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    constexpr unsigned kTile = THREADS * ITEMS;
    unsigned sms;  // the number of SM identifiers: the SMs, or a few more
    asm("mov.u32 %0, %%nsmid;" : "=r"(sms));
    const size_t distance = std::max(1u, sms * arch::min_blocks(THREADS, MIN_BLOCKS) * AHEAD / 16);
    const size_t ahead = (tile_slot + distance) * kTile;  // that tile's first key
    if (threadIdx.x == 0 && ahead < n && reinterpret_cast<uintptr_t>(keys_in) % 16 == 0) {
      const unsigned bytes = static_cast<unsigned>(std::min<size_t>(kTile, n - ahead) * 4) & ~15u;
      if (bytes)
        asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(keys_in + ahead), "r"(bytes)
                     : "memory");
      // Pairs (a probe's): that tile's values too.
      if (PAIRS && bytes && reinterpret_cast<uintptr_t>(vals_in) % 16 == 0)
        asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(vals_in + ahead), "r"(bytes)
                     : "memory");
    }
#else
    (void)tile_slot, (void)keys_in, (void)vals_in, (void)n;
#endif
  }
};
using Policy = PrefetchPolicy<>;

// Workspace: v13's (v12's).
inline size_t workspace_bytes(size_t n) { return v13::workspace_bytes(n); }

// The sort launcher contract (sort/sort.h). ws: workspace_bytes(n) (unused up to 16,384 keys).
// Where v12 runs its large tiles (from 10 of them per SM on; from 2^30 keys in portions), those
// passes with the prefetch; elsewhere v13 (that is, v12). The prefetch needs sm_90: built for an
// older architecture, the passes are v12's.
inline cudaError_t launch(const uint32_t* in, uint32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  if (n < v12::large_from(false)) return v13::launch(in, out, n, ws, stream);
  return v08::launch_passes<false, v10::NarrowStatus, 0, v12::kThreads, v12::kItems,
                            v12::kMinBlocks, v06::kWindow, v08::kScWindow, Policy>(
      in, nullptr, out, nullptr, n, ws, stream, v09::striped_histogram);
}

// Every boundary of the dispatch on this device: v13's (v12's).
inline std::vector<size_t> dispatch_bounds() { return v13::dispatch_bounds(); }

}  // namespace ladder::sort::v14
