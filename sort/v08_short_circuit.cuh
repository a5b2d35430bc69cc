// sort/v08_short_circuit.cuh — sort v08: tiles whose keys all share the pass's digit skip the
// ranking and are copied straight to their place; v07 below its one-block threshold.
// Technique: a one-sweep pass whose tile holds one digit value only needs to know where that
// digit's run goes: the keys keep their order, so no ranking, no staging, one coalesced store per
// key. Whether a tile qualifies costs an XOR and an OR per key and one barrier; the check runs
// only in passes where it can pay (the histogram says so before the first pass). Such a tile
// looks back only for the digits some key of the input has (8 predecessors a step).
// Changes from v07: above the one-block threshold, the short circuit in front of v06's pass
// (v06::rank_and_scatter, for tiles that do not qualify), and a bases kernel that gives each
// pass its mode: check or not, some digit absent or not.
// Remains (bottleneck): on uniform keys, v06's (the ballots of the ranking); on regular inputs,
// the look-back latency of the short-circuited tiles, which leaves such a pass well above a
// copy's time; the histogram pass (v09). A pass whose digit is the same for every key is a copy,
// not skipped.
// Source: CUB's TryShortCircuit (agent_radix_sort_onesweep.cuh), which checks once the tile's
// digits are counted (a shared atomic a key), before the ballots; here the check needs no counts
// (an XOR and an OR a key). A. Adinets and D. Merrill, "Onesweep:
// A Faster Least Significant Digit Radix Sort for GPUs", 2022.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <vector>

#include "common/arch.cuh"
#include "common/device.h"
#include "common/registry.h"
#include "sort/radix_rank.cuh"  // block_exclusive_scan
#include "sort/v06_onesweep_ballot.cuh"
#include "sort/v07_small_n_dispatch.cuh"

namespace ladder::sort::v08 {

inline constexpr VersionDoc kDoc = {
    8, "v08_short_circuit", "One-sweep passes copy tiles whose keys share the digit, v07 below",
    /*technique*/
    "v06's digit pass with a short circuit in front: after a tile's keys are loaded, each "
    "thread ORs the XOR of its keys with the tile's first key, and after one barrier the block "
    "knows whether every key of the tile has the first key's digit. Such a tile is already in "
    "order for this pass: it publishes its count (the whole tile, in one digit), looks back for "
    "that digit's earlier count (8 predecessor tiles a step), and stores its keys straight from "
    "registers, coalesced, without ranking or staging. Digits that no key of the input has are "
    "published as an inclusive count of 0 at once instead of looked back for. The check runs in "
    "a later pass with at most 64 digit values and in the first pass only when every key has "
    "one digit (the bases kernel marks them); a tile that does not qualify, and every tile of a "
    "pass without the check (uniform keys), runs v06's code itself. Up to 6,144 keys, v07.",
    /*changes*/
    "v06 ranked every tile with eight ballots a key whatever the keys. With few distinct keys, "
    "after the first pass the keys are grouped by their low digit, and most tiles of the later "
    "passes hold a single key value: there the pass becomes a copy plus a look-back. CUB checks "
    "the same thing once it has counted the tile's digits (TryShortCircuit, a shared atomic a "
    "key), before its ballots; this check needs no counts.",
    /*remains*/
    "On uniform keys, v06's passes (the ballots). On regular inputs, the look-back latency of the "
    "short-circuited tiles: such a pass still takes well above a copy's time. The histogram "
    "pass is v06's (v09 replaces it). A pass whose digit is the same for every key copies every "
    "key instead of being skipped.",
    /*source*/
    "CUB's TryShortCircuit (agent_radix_sort_onesweep.cuh); Adinets & Merrill, \"Onesweep: A "
    "Faster Least Significant Digit Radix Sort for GPUs\", 2022; v06's passes and v07's "
    "one-block sort"};

using v06::kDigits;
using v06::kPasses;
inline constexpr size_t kMaxN = v06::kMaxN;
inline constexpr unsigned kCheckBins = 64;  // a pass with at most this many digit values checks
inline constexpr unsigned kCheck = 1, kSomeAbsent = 2;  // a pass's mode bits (bases_check_kernel)
inline constexpr unsigned kScWindow = 8;  // look-back window of a short-circuited tile

using v06::digit_at;
using v06::flag_of;
using v06::kAggregate;
using v06::kPrefix;
using v06::Status;

// bases[p * 256 + d]: the exclusive scan of pass p's digit counts (v05's bases kernel), and
// check[p]: kCheck if the short circuit is worth its check in pass p, kSomeAbsent if some digit
// value occurs in no key. Pass 0 reads the keys in the caller's order, where a tile of one digit
// is rare unless every key has that digit (one non-zero count); a later pass reads keys grouped
// by the lower digits, where few digit values (at most kCheckBins non-zero counts) make whole
// tiles of one digit likely. One block of 256 threads.
__global__ void __launch_bounds__(kDigits)
    bases_check_kernel(const unsigned* hist, unsigned* bases, unsigned* check) {
  __shared__ unsigned warp_sums[radix::kWarps];
  for (unsigned p = 0; p < kPasses; ++p) {
    const unsigned c = hist[p * kDigits + threadIdx.x];
    bases[p * kDigits + threadIdx.x] = radix::block_exclusive_scan(c, warp_sums);
    const int bins = __syncthreads_count(c != 0);
    if (threadIdx.x == 0)
      check[p] = ((p == 0 ? bins == 1 : bins <= static_cast<int>(kCheckBins)) ? kCheck : 0u) |
                 (bins < static_cast<int>(kDigits) ? kSomeAbsent : 0u);
  }
}

// One digit pass over n keys (n <= kMaxN), THREADS x ITEMS keys per tile: v06's onesweep_kernel
// with the short circuit in front. check: this pass's mode bits from bases_check_kernel.
// SC_WINDOW: the look-back window of a short-circuited tile (sort/lab/probe_short_circuit.cu).
// Other arguments as v06's. A tile that does not qualify runs v06's code (v06::rank_and_scatter,
// which loads its keys again, from L1 or L2).
template <unsigned THREADS, unsigned ITEMS, unsigned WINDOW, bool PAIRS, unsigned MIN_BLOCKS = 1,
          unsigned SC_WINDOW = kScWindow, typename SW = v06::WideStatus, unsigned OPT = 0,
          typename P = v06::BasePolicy>
__global__ void __launch_bounds__(THREADS, arch::min_blocks(THREADS, MIN_BLOCKS))
    onesweep_kernel(const uint32_t* __restrict__ keys_in, const uint32_t* __restrict__ vals_in,
                    uint32_t* __restrict__ keys_out, uint32_t* __restrict__ vals_out, size_t n,
                    unsigned pass, unsigned* counter, typename SW::Word* status,
                    const unsigned* bases, const unsigned* check,
                    v06::Portion portion = v06::Portion{}) {
  constexpr unsigned kTile = THREADS * ITEMS;
  // The tile's storage: declared statically up to v06::kStaticPassBytes; a larger tile (a probe's)
  // takes it from the launch's dynamic shared memory.
  using Storage = v06::PassStorage<THREADS, ITEMS, v06::kSeparate<OPT>>;
  constexpr bool kDynamic = v06::pass_storage_dynamic<THREADS, ITEMS, v06::kSeparate<OPT>>();
  __shared__ std::conditional_t<kDynamic, int, Storage> st_static;
  extern __shared__ __align__(16) unsigned char st_dynamic[];
  Storage& st = *reinterpret_cast<Storage*>(kDynamic ? static_cast<void*>(st_dynamic)
                                                     : static_cast<void*>(&st_static));
  __shared__ int mixed;          // some key of the tile has another digit than the first key
  const unsigned mode = *check;  // grid-uniform; loaded while the tile is drawn
  if (threadIdx.x == 0) mixed = 0;
  v06::draw_tile(st, counter, portion.first);
  P::template ahead<THREADS, ITEMS, PAIRS, MIN_BLOCKS>(st.tile_slot, keys_in, vals_in, n);

  if (mode & kCheck) {
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32, d = threadIdx.x;
    const size_t tile = st.tile_slot;
    const size_t base = tile * kTile;
    const bool full = base + kTile <= n;
    const unsigned in_tile = full ? kTile : static_cast<unsigned>(n - base);
    // v06's layout: item j of lane l of warp w is tile element (w * ITEMS + j) * 32 + l.
    const size_t first = base + size_t(warp) * ITEMS * 32 + lane;
    uint32_t key[ITEMS];
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j)
      if (full || first + j * 32 < n) key[j] = v06::load_key<OPT>(keys_in + first + j * 32);

    // Does every key of the tile have the digit of its first key?
    const uint32_t lead = keys_in[base];
    uint32_t differ = 0;
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j)
      differ |= (full || first + j * 32 < n) ? key[j] ^ lead : 0u;
    if (digit_at(differ, pass) != 0) mixed = 1;
    __syncthreads();
    if (!mixed) {  // block-uniform: the tile is in order for this pass
      const unsigned ld = digit_at(lead, pass);
      // A digit that no key of the whole input has: no key of it comes before this tile, so the
      // tile publishes its inclusive count, 0, at once and does not look back for it. (Tiles that
      // run v06's code look back for every digit; they stop at this word.)
      const unsigned* whole = portion.whole ? portion.whole : bases;
      const bool absent = (mode & kSomeAbsent) && d < kDigits &&
                          (d + 1 < kDigits ? whole[d + 1] : static_cast<unsigned>(n)) == whole[d];
      if (absent) {
        SW::publish(status + tile * kDigits + d, SW::prefix(pass), 0u);
        if (portion.next && tile == portion.last) portion.next[d] = bases[d];
      } else if (d < kDigits) {
        const unsigned count = d == ld ? in_tile : 0u;
        SW::publish(status + tile * kDigits + d,
                    tile == portion.first ? SW::prefix(pass) : SW::aggregate(pass), count);
        const unsigned before =
            v06::look_back<SC_WINDOW, SW>(status, tile, d, pass, count, portion.first);
        if (d == ld) st.offset[0] = bases[d] + before;
        if (portion.next && tile == portion.last) portion.next[d] = bases[d] + before + count;
      }
      __syncthreads();
      const unsigned to = st.offset[0] + warp * ITEMS * 32 + lane;  // + the key's place in the tile
#pragma unroll
      for (unsigned j = 0; j < ITEMS; ++j) {
        if (full || first + j * 32 < n) {
          keys_out[to + j * 32] = key[j];
          if constexpr (PAIRS) vals_out[to + j * 32] = vals_in[first + j * 32];
        }
      }
      return;
    }
  }
  v06::rank_and_scatter<THREADS, ITEMS, WINDOW, PAIRS, 0, SW, OPT, P>(
      st, keys_in, vals_in, keys_out, vals_out, n, pass, status, bases, portion);
}

using v06::round256;
using v06::zeroed_bytes;
// Workspace: v06's, with kPasses check words after the bases (tiles of THREADS x ITEMS keys).
template <unsigned THREADS = v06::kThreads, unsigned ITEMS = v06::kItems>
size_t workspace_bytes_for(size_t n, bool pairs) {
  return round256(zeroed_bytes<THREADS, ITEMS>(n)) + round256(kPasses * kDigits * 4 + kPasses * 4) +
         (pairs ? 2 : 1) * round256(n * sizeof(uint32_t));
}
inline size_t workspace_bytes(size_t n) { return workspace_bytes_for(n, false); }
inline size_t workspace_bytes_pairs(size_t n) { return workspace_bytes_for(n, true); }

// v06's histogram: hist (kPasses x 256 counts, zeroed) of keys[0, n).
inline cudaError_t v06_histogram(const uint32_t* keys, size_t n, unsigned* hist,
                                 cudaStream_t stream) {
  const auto histogram =
      v06::histogram_kernel<v06::kHistThreads, v06::kHistItems, true, true, v06::kHistMinBlocks>;
  static const size_t resident = resident_grid((const void*)histogram, v06::kHistThreads, 0);
  const unsigned grid = static_cast<unsigned>(
      std::clamp<size_t>(ceil_div(n, size_t(v06::kHistThreads) * v06::kHistItems), 1, resident));
  histogram<<<grid, v06::kHistThreads, 0, stream>>>(keys, n, hist);
  return cudaGetLastError();
}

// The most portions a pass may be cut into: the zeroed counters (64 words) hold one a portion and
// pass.
inline constexpr size_t kMaxPortions = 16;

// The tiles of one portion of a pass over `tiles` tiles of `tile` keys whose look-back words hold
// counts up to `max_count` (word_bytes each): the most whose keys stay within max_count, or the
// count of keys in the environment variable LADDER_SORT_PORTION_KEYS, rounded down to whole tiles
// (the tests set it to cut small inputs into portions; a value that is not a count is reported
// once and ignored). Either way at least four tiles, so that a later portion's starts fit the
// bytes that 32-bit words leave free, and few enough tiles that no pass has more than
// kMaxPortions portions. With 8-byte words (v06's; counts to 2^32 - 1): one portion.
inline size_t portion_tiles(size_t tiles, size_t tile, size_t max_count, size_t word_bytes) {
  static const size_t forced = [] {
    const char* e = std::getenv("LADDER_SORT_PORTION_KEYS");
    if (!e) return size_t(0);
    char* end = nullptr;
    const unsigned long long x = std::strtoull(e, &end, 10);
    if (end != e && *end == '\0' && e[0] != '-' && x > 0) return size_t(x);
    std::fprintf(stderr, "sort: LADDER_SORT_PORTION_KEYS=%s is not a count of keys; ignored\n", e);
    return size_t(0);
  }();
  if (word_bytes >= 8) return std::max<size_t>(tiles, 1);
  size_t per = max_count / tile;
  if (forced) per = std::min(per, forced / tile);
  return std::max({per, size_t(4), ceil_div(tiles, kMaxPortions)});
}

// v06's passes (in -> buffer -> out -> buffer -> out) with this file's kernels; n > 0.
// histogram(keys, n, hist, stream) counts the digits (v06_histogram; sort v09 passes its own).
// SW: the look-back word (v06::WideStatus; sort v10 passes a 32-bit one, for n < 2^30), whose
// array, with the counters and the histogram, is zeroed first; the rest of the workspace lies
// where v06's layout puts it, so workspace_bytes(n) holds either. P: the passes' policy
// (v06::BasePolicy; sort v13's and v14's files define theirs). OPT: v06's candidate options
// (kPrefetchValuesLanes, kPrefetchValuesBulk, kStreamKeys, kPackedDigits; of the shipped rungs
// only v12's pairs use one, kPackedDigits). THREADS x ITEMS, MIN_BLOCKS: the passes' tile shape
// and resident-block hint (v06's registered shape unless v12 or a probe asks for another; ws then
// holds workspace_bytes_for<THREADS, ITEMS>, no more than v06's shape needs when the tile is
// larger: fewer tiles, fewer look-back words). WINDOW: the look-back's status words loaded a
// step (v06's kWindow unless a probe asks for another; sort/lab/probe_pairs_shape.cu);
// SC_WINDOW, a short-circuited tile's (kScWindow unless a probe asks for another).
// values_skew, keys_skew (a probe's, bytes, multiples of 256): the values' ping-pong buffer starts
// values_skew later in ws, and both start keys_skew later (ws must hold that much more), so that
// they lie a chosen distance from each other and from the caller's buffers.
template <bool PAIRS, typename SW = v06::WideStatus, unsigned OPT = 0,
          unsigned THREADS = v06::kThreads, unsigned ITEMS = v06::kItems,
          unsigned MIN_BLOCKS = PAIRS ? v06::kMinBlocksPairs : v06::kMinBlocks,
          unsigned WINDOW = v06::kWindow, unsigned SC_WINDOW = kScWindow,
          typename P = v06::BasePolicy, typename Histogram>
cudaError_t launch_passes(const uint32_t* keys_in, const uint32_t* vals_in, uint32_t* keys_out,
                          uint32_t* vals_out, size_t n, void* ws, cudaStream_t stream,
                          Histogram histogram, size_t values_skew = 0, size_t keys_skew = 0) {
  constexpr unsigned kThreads = THREADS, kItems = ITEMS;
  constexpr size_t kTile = size_t(kThreads) * kItems;
  const size_t tiles = ceil_div(n, kTile);
  using Word = typename SW::Word;
  char* p = static_cast<char*>(ws);
  unsigned* counters = reinterpret_cast<unsigned*>(p);
  unsigned* hist = reinterpret_cast<unsigned*>(p + 256);
  Word* status = reinterpret_cast<Word*>(p + 256 + kPasses * kDigits * 4);
  const size_t zeroed = 256 + kPasses * kDigits * 4 + tiles * kDigits * sizeof(Word);
  char* q = p + round256(zeroed_bytes<kThreads, kItems>(n));
  unsigned* bases = reinterpret_cast<unsigned*>(q);
  unsigned* check = bases + kPasses * kDigits;
  q += round256(kPasses * kDigits * 4 + kPasses * 4);
  q += keys_skew;
  uint32_t* key_buf = reinterpret_cast<uint32_t*>(q);
  uint32_t* val_buf =
      PAIRS ? reinterpret_cast<uint32_t*>(q + round256(n * 4) + values_skew) : nullptr;
  // Portions: runs of at most `per` tiles whose counts fit the look-back words (portion_tiles).
  // A later portion's digit starts lie just after the look-back words, in bytes that the
  // workspace holds for words of 8 bytes (v06's) and 32-bit words leave free.
  const size_t per = portion_tiles(tiles, kTile, SW::kMaxCount, sizeof(Word));
  const size_t portions = ceil_div(tiles, per);
  unsigned* later_bases = reinterpret_cast<unsigned*>(p + round256(zeroed));
  if (portions > 1 &&
      (portions > kMaxPortions || round256(zeroed) + (portions - 1) * kPasses * kDigits * 4 >
                                      round256(zeroed_bytes<kThreads, kItems>(n))))
    return cudaErrorInvalidValue;  // portion_tiles keeps both within bounds
  cudaError_t e = cudaMemsetAsync(ws, 0, zeroed, stream);
  if (e != cudaSuccess) return e;
  e = histogram(keys_in, n, hist, stream);
  if (e != cudaSuccess) return e;
  bases_check_kernel<<<1, kDigits, 0, stream>>>(hist, bases, check);
  const uint32_t* ksrc = keys_in;
  const uint32_t* vsrc = vals_in;
  for (unsigned pass = 0; pass < kPasses; ++pass) {
    uint32_t* kdst = pass % 2 ? keys_out : key_buf;
    uint32_t* vdst = pass % 2 ? vals_out : val_buf;
    const auto kernel =
        onesweep_kernel<kThreads, kItems, WINDOW, PAIRS, MIN_BLOCKS, SC_WINDOW, SW, OPT, P>;
    constexpr bool kSeparate = v06::kSeparate<OPT>;
    constexpr size_t kDynamicBytes = v06::pass_storage_dynamic<kThreads, kItems, kSeparate>()
                                         ? sizeof(v06::PassStorage<kThreads, kItems, kSeparate>)
                                         : 0;
    if constexpr (kDynamicBytes > 0) {
      static const cudaError_t attr = cudaFuncSetAttribute(
          kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(kDynamicBytes));
      if (attr != cudaSuccess) return attr;
    }
    // Portion q's starts: the whole input's for q = 0, else those portion q - 1 leaves.
    const auto starts = [&](size_t q) {
      return q == 0 ? bases + pass * kDigits : later_bases + ((q - 1) * kPasses + pass) * kDigits;
    };
    for (size_t q = 0; q < portions; ++q) {
      const size_t first = q * per, count = std::min(per, tiles - first);
      const v06::Portion portion{
          static_cast<unsigned>(first), static_cast<unsigned>(first + count - 1),
          q + 1 < portions ? starts(q + 1) : nullptr, bases + pass * kDigits};
      kernel<<<static_cast<unsigned>(count), kThreads, kDynamicBytes, stream>>>(
          ksrc, vsrc, kdst, vdst, n, pass, counters + q * kPasses + pass, status, starts(q),
          check + pass, portion);
    }
    ksrc = kdst;
    vsrc = vdst;
  }
  return cudaGetLastError();
}

// The one-block threshold and v07's steps below it.
inline std::vector<size_t> dispatch_bounds() { return v07::dispatch_bounds(); }

// The sort launcher contract (sort/sort.h). ws: workspace_bytes(n) (unused below the threshold).
inline cudaError_t launch(const uint32_t* in, uint32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  if (n > v07::kSmallMax)
    return launch_passes<false>(in, nullptr, out, nullptr, n, ws, stream, v06_histogram);
  return v07::launch_small<false>(in, nullptr, out, nullptr, n, stream);
}

inline cudaError_t launch_pairs(const uint32_t* keys_in, const uint32_t* values_in,
                                uint32_t* keys_out, uint32_t* values_out, size_t n, void* ws,
                                cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  if (n > v07::kSmallMax)
    return launch_passes<true>(keys_in, values_in, keys_out, values_out, n, ws, stream,
                               v06_histogram);
  return v07::launch_small<true>(keys_in, values_in, keys_out, values_out, n, stream);
}

}  // namespace ladder::sort::v08
