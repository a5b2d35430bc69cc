// sort/lab/probe_options.cuh — the probes' option bits for the rungs' pass policies. The probes
// were written when the packed ranks (sort v13), the L2 prefetch (v14) and the bucket bases (v16)
// were option bits of v06's pass; those rungs now pass their change to the shared kernels as a
// policy type (v06::BasePolicy). These bits keep the probes' tables of variants as they were:
// ProbePolicy<OPT> is the policy the bits name, and OPT & kV06Options the bits v06 still reads.
// Not part of the binary.
#pragma once

#include <cstdint>
#include <type_traits>

#include "sort/v06_onesweep_ballot.cuh"
#include "sort/v08_short_circuit.cuh"
#include "sort/v13_more_warps.cuh"
#include "sort/v14_l2_prefetch.cuh"
#include "sort/v16_top_digits_first.cuh"

namespace ladder::sort::tuning {

inline constexpr unsigned kRanks16 = 32, kBucketBases = 128, kPrefetchAheadShift = 16;
inline constexpr unsigned kV06Options = v06::kPrefetchValuesLanes | v06::kPrefetchValuesBulk |
                                        v06::kStreamKeys | v06::kPackedDigits |
                                        v06::kCoalescedStores | v06::kSeparateStaging;
template <unsigned OPT>
inline constexpr unsigned kPrefetchAhead = OPT >> kPrefetchAheadShift;

template <unsigned OPT>
struct ProbePolicy : v06::BasePolicy {
  template <unsigned THREADS, unsigned ITEMS>
  using Ranks = std::conditional_t<(OPT & kRanks16) != 0, v13::PackedRanks<THREADS, ITEMS>,
                                   v06::Ranks<ITEMS>>;
  template <unsigned THREADS, unsigned ITEMS, bool PAIRS, unsigned MIN_BLOCKS>
  __device__ __forceinline__ static void ahead(const unsigned& tile_slot, const uint32_t* keys_in,
                                               const uint32_t* vals_in, size_t n) {
    if constexpr (kPrefetchAhead < OPT >> 0)
      v14::PrefetchPolicy<kPrefetchAhead<OPT>>::template ahead<THREADS, ITEMS, PAIRS, MIN_BLOCKS>(
          tile_slot, keys_in, vals_in, n);
  }
  using Place = std::conditional_t<(OPT & kBucketBases) != 0, v16::BucketPolicy::Place,
                                   v06::BasePolicy::Place>;
  static constexpr bool kKeysOnly = (OPT & kBucketBases) != 0;
};

// v08::onesweep_kernel and v08::launch_passes with the probe's bits.
template <unsigned THREADS, unsigned ITEMS, unsigned WINDOW, bool PAIRS, unsigned MIN_BLOCKS,
          unsigned SC_WINDOW, typename SW, unsigned OPT>
inline constexpr auto probe_kernel =
    v08::onesweep_kernel<THREADS, ITEMS, WINDOW, PAIRS, MIN_BLOCKS, SC_WINDOW, SW,
                         OPT & kV06Options, ProbePolicy<OPT>>;
template <bool PAIRS, typename SW, unsigned OPT, unsigned THREADS = v06::kThreads,
          unsigned ITEMS = v06::kItems,
          unsigned MIN_BLOCKS = PAIRS ? v06::kMinBlocksPairs : v06::kMinBlocks,
          unsigned WINDOW = v06::kWindow, unsigned SC_WINDOW = v08::kScWindow, typename Histogram>
cudaError_t probe_passes(const uint32_t* keys_in, const uint32_t* vals_in, uint32_t* keys_out,
                         uint32_t* vals_out, size_t n, void* ws, cudaStream_t stream,
                         Histogram histogram, size_t values_skew = 0, size_t keys_skew = 0) {
  return v08::launch_passes<PAIRS, SW, OPT & kV06Options, THREADS, ITEMS, MIN_BLOCKS, WINDOW,
                            SC_WINDOW, ProbePolicy<OPT>>(
      keys_in, vals_in, keys_out, vals_out, n, ws, stream, histogram, values_skew, keys_skew);
}

}  // namespace ladder::sort::tuning
