// sort/v10_narrow_status.cuh — sort v10: v09 with 32-bit look-back words, half the bytes that
// the passes write beside the keys.
// Technique: a pass publishes, per tile and digit, a count and a flag (aggregate or inclusive
// prefix) that later tiles read in their look-back. v06-v09 store that as 64 bits (flag word +
// count word); here it is one 32-bit word, the count in the high 30 bits and a 2-bit flag below.
// Two bits cannot hold the pass number that let v06's words go unzeroed between passes, but they
// can hold its parity: an even pass publishes flags 1 (aggregate) and 2 (prefix), an odd one 3
// and 0, and since every pass writes every word, a word left by the pass before (or by the
// zeroing before pass 0, flag 0, read only by pass 0) never carries a flag the current pass
// reads as published. Counts of 30 bits cover n < 2^30; larger inputs run v09.
// Changes from v09: the look-back words (one array of tiles x 256, zeroed once per sort): 4 bytes
// instead of 8, 45 MB instead of 89 MB a pass at n = 2^28, smaller than the H100's 50 MiB L2.
// Remains (bottleneck): the passes' ranking (ballots) on uniform keys, as in v06.
// Source: CUB's one-sweep look-back words (agent_radix_sort_onesweep.cuh: 32-bit, a 2-bit kind
// over a 30-bit count; dispatch_radix_sort.cuh cuts inputs into portions below 2^28 keys, so at
// n = 2^28 CUB already runs each pass as two portions), which CUB zeroes before each
// pass; Ilya Grebnov's libcusort (github.com/IlyaGrebnov/libcusort) flips a status bit per pass
// instead. What pointed here: Nsight Compute's DRAM bytes per kernel, each v09 pass writing more
// than CUB's beyond the keys.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "common/device.h"
#include "common/registry.h"
#include "sort/v06_onesweep_ballot.cuh"
#include "sort/v07_small_n_dispatch.cuh"
#include "sort/v08_short_circuit.cuh"
#include "sort/v09_striped_histogram.cuh"

namespace ladder::sort::v10 {

inline constexpr VersionDoc kDoc = {
    10, "v10_narrow_status", "v09 with 32-bit look-back words (count and a 2-bit flag)",
    /*technique*/
    "Each tile's look-back word per digit is 32 bits: the count in the high 30 bits, a 2-bit "
    "flag below. The flag encodes the kind (aggregate or inclusive prefix) and the pass's "
    "parity (even passes 1 and 2, odd passes 3 and 0), so the array is zeroed once per sort, "
    "as v06's 64-bit words with the pass number in their flag were: every pass rewrites every "
    "word, so a word left by the previous pass never reads as published. n < 2^30 keys; above, "
    "v09. Up to 6,144 keys, v07.",
    /*changes*/
    "v09 wrote 8 bytes per tile and digit in every pass, 89 MB a pass at 2^28 keys (tiles of "
    "6,144 keys), more than an H100's L2 holds; here 45 MB, the width CUB's one-sweep look-back "
    "words have.",
    /*remains*/
    "The ranking of the passes (eight ballots a key) on uniform keys, as in v06.",
    /*source*/
    "CUB's one-sweep look-back (agent_radix_sort_onesweep.cuh: 30-bit counts under a 2-bit "
    "kind, zeroed before each pass); Ilya Grebnov's libcusort (a status bit flipped per pass); "
    "v09's kernels"};

inline constexpr size_t kMaxN = v09::kMaxN;
inline constexpr size_t kNarrowMax = (size_t(1) << 30) - 1;  // counts fit in 30 bits

// The 32-bit look-back word: count << 2 | flag, flags by the pass's parity (see the header).
struct NarrowStatus {
  using Word = uint32_t;
  static constexpr size_t kMaxCount = kNarrowMax;  // the largest count a word holds
  __device__ static unsigned aggregate(unsigned pass) { return pass % 2 ? 3u : 1u; }
  __device__ static unsigned prefix(unsigned pass) { return pass % 2 ? 0u : 2u; }
  __device__ static unsigned flag(Word w) { return w & 3u; }
  __device__ static unsigned value(Word w) { return w >> 2; }
  __device__ static Word make(unsigned flag, unsigned value) { return value << 2 | flag; }
  __device__ static void publish(Word* w, unsigned flag, unsigned value) {
    asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(w), "r"(make(flag, value)) : "memory");
  }
  __device__ static Word peek(const Word* w) {
    Word v;
    asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(w) : "memory");
    return v;
  }
};

// Every boundary of the dispatch: v07's steps, then v09's 64-bit words from 2^30 keys on.
inline std::vector<size_t> dispatch_bounds() {
  std::vector<size_t> b = v07::dispatch_bounds();
  b.push_back(kNarrowMax);
  return b;
}
inline size_t workspace_bytes(size_t n) { return v09::workspace_bytes(n); }
inline size_t workspace_bytes_pairs(size_t n) { return v09::workspace_bytes_pairs(n); }

// The sort launcher contract (sort/sort.h). ws: workspace_bytes(n) (unused below the threshold).
inline cudaError_t launch(const uint32_t* in, uint32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  if (n <= v07::kSmallMax) return v07::launch_small<false>(in, nullptr, out, nullptr, n, stream);
  if (n > kNarrowMax) return v09::launch(in, out, n, ws, stream);
  return v08::launch_passes<false, NarrowStatus>(in, nullptr, out, nullptr, n, ws, stream,
                                                 v09::striped_histogram);
}

inline cudaError_t launch_pairs(const uint32_t* keys_in, const uint32_t* values_in,
                                uint32_t* keys_out, uint32_t* values_out, size_t n, void* ws,
                                cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  if (n <= v07::kSmallMax)
    return v07::launch_small<true>(keys_in, values_in, keys_out, values_out, n, stream);
  if (n > kNarrowMax)
    return v09::launch_pairs(keys_in, values_in, keys_out, values_out, n, ws, stream);
  return v08::launch_passes<true, NarrowStatus>(keys_in, values_in, keys_out, values_out, n, ws,
                                                stream, v09::striped_histogram);
}

}  // namespace ladder::sort::v10
