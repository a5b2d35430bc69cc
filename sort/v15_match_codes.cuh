// sort/v15_match_codes.cuh — sort v15: v14, ranking with four ballots a key instead of eight in
// the passes where at most 16 digit values occur.
// Technique: a pass ranks each key among the warp's keys of the same digit by matching digits,
// one warp ballot per bit of the digit (v06). The histogram, counted before the first pass, tells
// which of the 256 digit values occur in each pass. Where 16 or fewer do, each block numbers them
// in order (a digit's code: how many occurring digits lie below it, a 256-byte table in shared
// memory built from the pass's digit starts with one ballot a warp) and matches 4-bit codes
// instead of 8-bit digits. The codes keep the digits' order and no two occurring digits share
// one, so the ranks, the staging and every output position are the same as v14's.
// Changes from v14: the option v06::kMatchCodes, and in v08's kernel the table and one barrier
// a tile in the passes that use it; other passes, and every pass of an input whose passes all
// see more than 16 digit values (uniform or sorted keys), run v14's code.
// Remains (bottleneck): as v14 on inputs with many digit values; on few values, the four
// ballots and the rest of the pass.
// Source: the ballot match of v06 (CUB's MatchAny); taking the digits that occur from the
// histogram the sort counts anyway is this suite's. A. Adinets and D. Merrill, "Onesweep: A Faster
// Least Significant Digit Radix Sort for GPUs", 2022 (the passes).
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
#include "sort/v14_l2_prefetch.cuh"

namespace ladder::sort::v15 {

inline constexpr VersionDoc kDoc = {
    15, "v15_match_codes", "v14, matching 4-bit digit codes where at most 16 digit values occur",
    /*technique*/
    "Where at most 16 of a pass's 256 digit values occur in the input (the histogram, counted "
    "before the first pass, says which), each block numbers them in order, a 256-byte table in "
    "shared memory, and the ranking matches each key's 4-bit code with four warp ballots instead "
    "of its 8-bit digit with eight. The codes keep the digits' order, so every output position is "
    "v14's. Elsewhere, v14.",
    /*changes*/
    "From v14: the option v06::kMatchCodes, and in v08's kernel the code table and one barrier a "
    "tile in the passes that use it; passes with more digit values run v14's code.",
    /*remains*/
    "As v14 on inputs with many digit values in every pass (uniform, sorted); on few values, the "
    "four ballots and the rest of the pass.",
    /*source*/
    "v06's ballot match (CUB's MatchAny); taking the digits that occur from the histogram is this "
    "suite's; Adinets & Merrill, \"Onesweep\", 2022"};

inline constexpr size_t kMaxN = v14::kMaxN;

// Workspace: v14's.
inline size_t workspace_bytes(size_t n) { return v14::workspace_bytes(n); }

// The sort launcher contract (sort/sort.h). ws: workspace_bytes(n) (unused up to 16,384 keys).
// Where v14 runs its prefetching passes, those passes with v06::kMatchCodes; elsewhere v14.
inline cudaError_t launch(const uint32_t* in, uint32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  if (n < v12::large_from(false) || n > v10::kNarrowMax) return v14::launch(in, out, n, ws, stream);
  constexpr unsigned kOpt = (v14::kAheadSixteenths << v06::kPrefetchAheadShift) | v06::kMatchCodes;
  return v08::launch_passes<false, v10::NarrowStatus, kOpt, v12::kThreads, v12::kItems,
                            v12::kMinBlocks>(in, nullptr, out, nullptr, n, ws, stream,
                                             v09::striped_histogram);
}

// Every boundary of the dispatch on this device: v14's.
inline std::vector<size_t> dispatch_bounds() { return v14::dispatch_bounds(); }

}  // namespace ladder::sort::v15
