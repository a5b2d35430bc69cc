// sort/v13_more_warps.cuh — sort v13: v12 with more warps on each SM for large inputs: each key's
// rank is held in 16 bits, two to a register, which lets three blocks of 256 threads x 32 keys
// share an SM where v12 fits two blocks of 256 x 44.
// Technique: v12's one-sweep passes (ballot ranking, short circuit, 32-bit look-back words, v09's
// histogram). A thread keeps its keys and their ranks in registers from the ranking to the
// staging; a rank is below the tile's 8,192 keys, so two ranks share a 32-bit register
// (v13::PackedRanks, the passes' policy: a shift and a mask to read one, one add to raise one by
// the digit's start). 32 keys and 16 rank registers fit the 80 registers that three blocks of 256
// threads leave each thread (16 bytes spill; with a register a rank, 244), so an SM holds 24 warps
// instead of 16.
// Changes from v12: on large inputs v12's passes are bound by latency, not by any one unit: with
// 16 warps an SM, four a scheduler, an instruction issues on fewer than half of a pass's cycles,
// and the warps wait on the ballots' dependent instructions, on global loads and the look-back,
// and on shared memory in turn (Nsight Compute; sort/lab/LAB_NOTES.md). More warps give each
// scheduler more warps to choose from while the others wait. The tile shrinks from 11,264 keys
// to 8,192, which shortens each digit's run of stores; on the H200 the extra warps gain more than
// that costs, on the H100 (2^28, uniform and sorted keys) less (the chapter's v13 box).
// Below v12's large-tile threshold, for pairs, and from 2^30 keys, v13 is v12.
// Remains (bottleneck): still latency; three blocks an SM is as far as the registers go at 32 keys
// a thread, and a larger tile at three blocks spills (36 keys: 140 bytes; 40: 240). More warps do
// not help (32 an SM at 512 x 22 were no faster), nor do larger tiles at one block an SM, where
// every barrier of the pass idles the SM. The smaller tile costs a seventh more instructions a pass
// and more partly written sectors than v12's, so the margin over v12 is a few per cent either way.
// Four 8-bit passes stay far from the copy ceiling; fewer passes need a wider digit whose scatter
// costs more. Measured later over 31 sizes: at some (every multiple of 40 x 2^20 keys, and 2^27)
// these passes are 5 to 13% slower than at the sizes around them, for a reason not known; v12's
// tile is not, and sort v14 goes back to it.
// Source: A. Adinets and D. Merrill, "Onesweep: A Faster Least Significant Digit Radix Sort for
// GPUs", 2022; 16-bit ranks as in GPUSorting (b0nes164/GPUSorting on GitHub, SortCommon.cuh);
// latency hiding by occupancy: V. Volkov, "Understanding Latency Hiding on GPUs",
// PhD thesis, UC Berkeley, 2016. The shapes were timed against v12 on the H100
// (sort/lab/LAB_NOTES.md).
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

namespace ladder::sort::v13 {

inline constexpr VersionDoc kDoc = {
    13, "v13_more_warps", "v12 with ranks in 16 bits: three blocks of 256 x 32 keys per SM",
    /*technique*/
    "Where v12 takes its large tiles (keys only), one-sweep passes over tiles of 256 x 32 keys "
    "with each key's rank held in 16 bits, two to a register, so that three blocks of 256 "
    "threads fit an SM's registers (24 warps instead of 16). Below that, and for pairs, v12.",
    /*changes*/
    "v12's large-input passes are bound by latency at four warps a scheduler: fewer than half of "
    "a pass's cycles issue an instruction, and the warps wait on the ballots, the loads, the "
    "look-back and shared memory in turn. Packing the ranks frees the registers for a third "
    "block per SM; the tile shrinks from 11,264 keys to 8,192.",
    /*remains*/
    "Still latency: three blocks an SM is as far as the registers go at 32 keys a thread, larger "
    "tiles at three blocks spill, 32 warps an SM were no faster, and larger tiles at one block "
    "an SM were slower. Four 8-bit passes stay far from the copy ceiling. At some sizes (every "
    "multiple of 40 x 2^20 keys, and 2^27) the passes are 5 to 13% slower than around them.",
    /*source*/
    "Adinets & Merrill, \"Onesweep\", 2022; 16-bit ranks as in GPUSorting (b0nes164); Volkov, "
    "\"Understanding Latency Hiding on GPUs\", 2016; shapes timed against v12 on the H100"};

inline constexpr size_t kMaxN = v12::kMaxN;
inline constexpr unsigned kThreads = 256;
inline constexpr unsigned kItems = 32;     // keys a thread: 8,192 a tile (32 KB of staging)
inline constexpr unsigned kMinBlocks = 3;  // resident blocks per SM: caps registers at 80

// v13's change, as the passes' policy (v06::BasePolicy says what a policy is): each key's rank
// within the tile in 16 bits, two to a register (ITEMS / 2 registers instead of ITEMS; tiles
// below 2^16 keys), so that a thread holds its 32 keys in fewer registers and three blocks fit an
// SM. j must be a compile-time index, set in increasing j before add or get.
template <unsigned THREADS, unsigned ITEMS>
struct PackedRanks {
  static_assert(THREADS * ITEMS <= 65536, "16-bit ranks need tiles below 2^16");
  unsigned r[(ITEMS + 1) / 2];
  __device__ __forceinline__ void set(unsigned j, unsigned v) {
    r[j / 2] = j % 2 ? r[j / 2] | (v << 16) : v;
  }
  __device__ __forceinline__ void add(unsigned j, unsigned v) {
    r[j / 2] += v << (16 * (j % 2));  // no carry: every rank stays below 2^16
  }
  __device__ __forceinline__ unsigned get(unsigned j) const {
    return (r[j / 2] >> (16 * (j % 2))) & 0xffffu;
  }
};
struct Policy : v06::BasePolicy {
  template <unsigned THREADS, unsigned ITEMS>
  using Ranks = PackedRanks<THREADS, ITEMS>;
};

// Workspace: v10's (its tiles of 6,144 keys need more look-back words than these).
inline size_t workspace_bytes(size_t n) { return v10::workspace_bytes(n); }

// The sort launcher contract (sort/sort.h). ws: workspace_bytes(n) (unused up to 16,384 keys).
// Where v12 runs its large tiles (from 10 of them per SM up to 2^30 - 1 keys), these passes;
// elsewhere, and from 2^30 keys, v12 (whose passes run in portions there).
inline cudaError_t launch(const uint32_t* in, uint32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  if (n < v12::large_from(false) || n > v10::kNarrowMax) return v12::launch(in, out, n, ws, stream);
  return v08::launch_passes<false, v10::NarrowStatus, 0, kThreads, kItems, kMinBlocks, v06::kWindow,
                            v08::kScWindow, Policy>(in, nullptr, out, nullptr, n, ws, stream,
                                                    v09::striped_histogram);
}

// Every boundary of the dispatch on this device: v12's.
inline std::vector<size_t> dispatch_bounds() { return v12::dispatch_bounds(); }

}  // namespace ladder::sort::v13
