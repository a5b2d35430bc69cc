// sort/v06_onesweep_ballot.cuh — sort v06: one-sweep radix sort that ranks with ballots.
// Technique: v05's passes, with the digit match done by eight warp ballots (integer pipe)
// instead of match.any.sync (shared-memory pipe), registers capped for three blocks per SM,
// 6144-key tiles, and a look-back that loads a window of predecessor tiles per step. The
// histogram pass counts blocked keys (8 consecutive a thread) and adds digits a whole warp
// shares as runs.
// Changes from v05: each of those steps, timed alone at 2^28 with every output compared with
// CUB's; the ballots were the largest.
// Remains (bottleneck): the integer pipe (the ballots); the histogram pass, which reads well
// below the copy ceiling (four shared atomics a key, bank-conflicted); 64-bit look-back words;
// short digit runs store partial sectors.
// Source: A. Adinets and D. Merrill, "Onesweep: A Faster Least Significant Digit Radix Sort for
// GPUs", 2022; D. Merrill and M. Garland, "Single-pass Parallel Prefix Scan with Decoupled
// Look-back", 2016; CUB's MatchAny (the ballot loop) and BlockRadixRankMatchEarlyCounts (the
// highest lane as leader).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/arch.cuh"  // min_blocks for __launch_bounds__
#include "common/device.h"
#include "common/registry.h"
#include "scan/lookback.cuh"   // status words: publish, peek
#include "scan/warp_scan.cuh"  // warp_scan_inclusive
#include "sort/radix_rank.cuh"
#include "sort/v05_onesweep.cuh"  // bases_kernel

namespace ladder::sort::v06 {

inline constexpr VersionDoc kDoc = {
    6, "v06_onesweep_ballot",
    "One-sweep radix sort ranked with warp ballots, 6144-key tiles, windowed look-back",
    /*technique*/
    "v05's structure: one histogram pass for the four digits, then one pass per digit that "
    "draws a tile in start order, ranks its keys stably by the digit with warp-private "
    "counters, publishes each digit's tile count, looks back for the earlier tiles' counts and "
    "writes each digit's run from shared memory. The lanes that share a digit are found with "
    "eight __ballot_sync votes, one per bit (a lane keeps the ballot where its bit is set, the "
    "complement where it is clear): integer-pipe work, where match.any.sync goes through the "
    "shared-memory (MIO) pipe that the ranking's atomics and the staging already load. The "
    "highest matching lane bumps the warp's counter once (its popc over lanes at or below it is "
    "the count). Registers are capped so that three 256-thread blocks fit per SM; each holds a "
    "tile of 256 x 24 keys. Each digit's look-back loads the status words of kWindow "
    "predecessor tiles at once and adds them up to the nearest inclusive prefix. The last tile "
    "is padded with 0xffffffff keys, which rank last and are never stored, so no key carries a "
    "valid flag.",
    /*changes*/
    "Measured one change at a time at 2^28: the ballots were the largest step (match.any.sync "
    "had the MIO pipe busiest; now the integer pipe is); capping registers at 80 lifted the "
    "resident blocks from 2 to 3, and 24 keys a thread made the tiles 1.5x v05's (longer digit "
    "runs, fewer tiles to look back over); the look-back window shortened v05's passes. The "
    "histogram gives each thread 8 consecutive keys (blocked, 16-byte loads), caps registers "
    "for 8 blocks per SM, tells the digits a whole warp shares by one shuffle and one "
    "OR-reduction per key, and adds those as runs, once per change of digit: on sorted keys the "
    "striped layout had put a warp's atomics on two or three counters. The workspace holds one "
    "key buffer instead of two (the output is the other) and one pass's worth of status words, "
    "tagged by pass.",
    /*remains*/
    "The ballots make the integer pipe the busiest unit; the histogram pass is the largest "
    "single kernel left and reads well below the copy ceiling (four shared atomics a key, "
    "with the bank conflicts of random digits); a tile still has only 24 keys per digit on "
    "average, so the stores of each digit's run seldom fill whole 32-byte sectors.",
    /*source*/
    "Adinets & Merrill, \"Onesweep: A Faster Least Significant Digit Radix Sort for GPUs\", "
    "2022; Merrill & Garland, \"Single-pass Parallel Prefix Scan with Decoupled Look-back\", "
    "2016; CUB's MatchAny (ballot loop) and BlockRadixRankMatchEarlyCounts (leader = highest "
    "lane)"};

inline constexpr unsigned kDigits = radix::kDigits;
inline constexpr unsigned kPasses = 4;
inline constexpr size_t kMaxN = 0xffffffffu;  // positions and counts travel as 32-bit sums
// The registered shape (chosen by timing shapes on the H200; sort/lab/LAB_NOTES.md).
inline constexpr unsigned kThreads = 256;
inline constexpr unsigned kItems = 24;
inline constexpr unsigned kWindow = 4;
inline constexpr unsigned kMinBlocks = 3;       // resident blocks per SM: caps registers at 80
inline constexpr unsigned kMinBlocksPairs = 2;  // pairs hold each position's destination too

using scan::lookback::Status;
// The status word's flag is pass * 4 + kind. A word left by an earlier pass (or zero) has
// another flag and reads as "nothing published yet" in this pass.
inline constexpr unsigned kAggregate = scan::lookback::kAggregate;  // 1: the tile's own count
inline constexpr unsigned kPrefix = scan::lookback::kPrefix;  // 2: count of tiles up to this one
__host__ __device__ constexpr unsigned flag_of(unsigned pass, unsigned kind) {
  return pass * 4 + kind;
}

// How a pass reads and writes its look-back words. v06's: 64 bits, the flag pass * 4 + kind in
// the high half and the count in the low half (scan::lookback's layout), one array for the four
// passes, zeroed once per sort. (Sort v10 brings a 32-bit one.)
struct WideStatus {
  using Word = Status;
  static constexpr size_t kMaxCount = 0xffffffffu;  // the largest count a word holds
  __device__ static unsigned aggregate(unsigned pass) { return flag_of(pass, kAggregate); }
  __device__ static unsigned prefix(unsigned pass) { return flag_of(pass, kPrefix); }
  __device__ static unsigned flag(Word w) { return static_cast<unsigned>(w >> 32); }
  __device__ static unsigned value(Word w) { return static_cast<unsigned>(w); }
  __device__ static Word make(unsigned flag, unsigned value) { return (Word(flag) << 32) | value; }
  __device__ static void publish(Word* w, unsigned flag, unsigned value) {
    scan::lookback::publish<unsigned>(w, flag, value);
  }
  __device__ static Word peek(const Word* w) { return scan::lookback::peek(w); }
};

// Byte `pass` of the key, zero-extended: one PRMT instruction (a shift and a mask are two).
__device__ __forceinline__ unsigned digit_at(uint32_t key, unsigned pass) {
  return __byte_perm(key, 0, 0x4440u | pass);
}

// The lanes of the warp whose 8-bit digit equals this lane's: one ballot per bit, each lane
// keeping the ballot where its bit is set and the complement where it is clear. Written in PTX
// as CUB's MatchAny is: per bit a test that sets a predicate, the vote, a predicated NOT and an
// AND (4 integer-pipe instructions; the same loop in C++ compiled to 7). match.any.sync goes
// through the shared-memory (MIO) pipe instead and, for 8-bit labels, costs more than the votes.
// All 32 lanes must call it.
template <unsigned kBit>
__device__ __forceinline__ unsigned ballot_of_bit(unsigned label) {
  unsigned vote;
  asm("{\n\t.reg .pred p;\n\t.reg .b32 t;\n\t"
      "and.b32 t, %1, %2;\n\t"
      "setp.ne.u32 p, t, 0;\n\t"
      "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t"
      "@!p not.b32 %0, %0;\n\t}"
      : "=r"(vote)
      : "r"(label), "n"(1u << kBit));
  return vote;
}
__device__ __forceinline__ unsigned match_digit(unsigned d) {
  return ballot_of_bit<0>(d) & ballot_of_bit<1>(d) & ballot_of_bit<2>(d) & ballot_of_bit<3>(d) &
         ballot_of_bit<4>(d) & ballot_of_bit<5>(d) & ballot_of_bit<6>(d) & ballot_of_bit<7>(d);
}

__device__ __forceinline__ unsigned lanemask_le() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_le;" : "=r"(m));
  return m;
}

// old = *counter; *counter += add, done by this lane only when `leader` is true: a predicated
// shared-memory atomic, so the warp does not branch around it. counter: a shared address.
__device__ __forceinline__ unsigned leader_fetch_add(unsigned* counter, unsigned add, bool leader) {
  unsigned old = 0;
  const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(counter));
  asm volatile(
      "{\n\t.reg .pred q;\n\t"
      "setp.ne.u32 q, %3, 0;\n\t"
      "@q atom.shared.add.u32 %0, [%1], %2;\n\t}"
      : "+r"(old)
      : "r"(addr), "r"(add), "r"(static_cast<unsigned>(leader))
      : "memory");
  return old;
}

// The OR of x over the warp, in every lane (one redux.sync from sm_80 on; a butterfly before).
__device__ __forceinline__ unsigned warp_or(unsigned x) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_or_sync(0xffffffffu, x);
#else
  for (unsigned m = 16; m; m /= 2) x |= __shfl_xor_sync(0xffffffffu, x, m);
  return x;
#endif
}

// Counts every digit of every key: hist[pass][digit] (kPasses x 256 uint32, zeroed). Each
// thread loads ITEMS keys before it counts any, so a block has THREADS x ITEMS loads in flight.
// BLOCKED (shipped): thread t of the block holds the ITEMS consecutive keys from t x ITEMS on
// (16-byte loads when the keys are 16-byte aligned); otherwise (the probe's comparison) key j of
// thread t is chunk element j x THREADS + t, so a warp's 32 keys of one j are consecutive.
// Per key j, one shuffle and one OR-reduction tell which of its four digits the whole warp
// shares (sorted runs, equal keys, few distinct keys); for the others every lane adds 1 (shared
// atomics). A shared digit is added once for the warp: at once by lane 0 (RUNS off), or
// (RUNS, shipped) into the warp's open run of that digit, a register, which lane 0 adds only
// when the digit changes and at the end.
// Why blocked: on sorted keys a warp's 32 consecutive keys have two or three distinct second
// digits, so 32 lanes' atomics land on two or three counters and queue; blocked, the warp's keys
// of one j are ITEMS apart and its second digits spread over the banks.
// Why runs: on sorted keys the top one or two digits stay the same for many chunks, and every
// warp of every block otherwise adds them to the same few counters.
template <unsigned THREADS, unsigned ITEMS, bool FULL, bool BLOCKED, bool RUNS>
__device__ __forceinline__ void histogram_chunk(const uint32_t* __restrict__ keys, size_t n,
                                                size_t base, bool aligned16,
                                                unsigned (&h)[kPasses][kDigits],
                                                unsigned (&run_digit)[kPasses],
                                                unsigned (&run_count)[kPasses]) {
  const unsigned lane = threadIdx.x % 32;
  auto index = [&](unsigned j) {
    return BLOCKED ? base + size_t(threadIdx.x) * ITEMS + j : base + j * THREADS + threadIdx.x;
  };
  uint32_t key[ITEMS];
  if (BLOCKED && FULL && ITEMS % 4 == 0 && aligned16) {
    const uint4* v = reinterpret_cast<const uint4*>(keys + index(0));
#pragma unroll
    for (unsigned q = 0; q < ITEMS / 4; ++q) {
      const uint4 x = v[q];
      key[4 * q] = x.x;
      key[4 * q + 1] = x.y;
      key[4 * q + 2] = x.z;
      key[4 * q + 3] = x.w;
    }
  } else {
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j) key[j] = FULL || index(j) < n ? keys[index(j)] : 0;
  }
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) {
    const bool valid = FULL || index(j) < n;
    const uint32_t first = __shfl_sync(0xffffffffu, key[j], 0);
    if (!valid) key[j] = first;                       // a missing key must not break a shared digit
    const unsigned differ = warp_or(key[j] ^ first);  // its nonzero bytes: digits that vary
    const unsigned lanes = FULL ? 32u : __popc(__ballot_sync(0xffffffffu, valid));
#pragma unroll
    for (unsigned p = 0; p < kPasses; ++p) {
      const unsigned d = digit_at(key[j], p);
      if (digit_at(differ, p) == 0) {  // warp-uniform, and so is d
        if (!RUNS) {
          if (lane == 0 && lanes) atomicAdd(&h[p][d], lanes);
        } else {
          if (d != run_digit[p]) {
            if (lane == 0 && run_count[p]) atomicAdd(&h[p][run_digit[p]], run_count[p]);
            run_digit[p] = d;
            run_count[p] = 0;
          }
          run_count[p] += lanes;
        }
      } else if (valid) {
        atomicAdd(&h[p][d], 1u);
      }
    }
  }
}

// MIN_BLOCKS: __launch_bounds__'s resident-block hint (it caps the registers); on GPUs with
// fewer resident threads per SM than MIN_BLOCKS x THREADS, as many as fit (arch::min_blocks).
template <unsigned THREADS, unsigned ITEMS, bool BLOCKED = true, bool RUNS = true,
          unsigned MIN_BLOCKS = 1>
__global__ void __launch_bounds__(THREADS, arch::min_blocks(THREADS, MIN_BLOCKS))
    histogram_kernel(const uint32_t* __restrict__ keys, size_t n, unsigned* hist) {
  __shared__ unsigned h[kPasses][kDigits];
  unsigned run_digit[kPasses] = {}, run_count[kPasses] = {};  // the warp's open runs (RUNS)
  for (unsigned i = threadIdx.x; i < kPasses * kDigits; i += THREADS) (&h[0][0])[i] = 0;
  __syncthreads();
  const bool aligned16 = reinterpret_cast<uintptr_t>(keys) % 16 == 0;
  constexpr size_t kChunk = size_t(THREADS) * ITEMS;
  for (size_t base = blockIdx.x * kChunk; base < n; base += gridDim.x * kChunk) {
    if (base + kChunk <= n)  // block-uniform
      histogram_chunk<THREADS, ITEMS, true, BLOCKED, RUNS>(keys, n, base, aligned16, h, run_digit,
                                                           run_count);
    else
      histogram_chunk<THREADS, ITEMS, false, BLOCKED, RUNS>(keys, n, base, aligned16, h, run_digit,
                                                            run_count);
  }
#pragma unroll
  for (unsigned p = 0; p < kPasses; ++p)
    if (RUNS && threadIdx.x % 32 == 0 && run_count[p]) atomicAdd(&h[p][run_digit[p]], run_count[p]);
  __syncthreads();
  for (unsigned i = threadIdx.x; i < kPasses * kDigits; i += THREADS)
    if ((&h[0][0])[i]) atomicAdd(hist + i, (&h[0][0])[i]);
}
inline constexpr unsigned kHistThreads = 256, kHistItems = 8, kHistMinBlocks = 8;

// Exclusive scan of the 256 digit counts held by threads 0..255 (the others pass 0 and get 0).
// Every thread of the block calls it (two barriers). warp_sums: 8 words of shared memory.
template <unsigned THREADS>
__device__ __forceinline__ unsigned digit_exclusive_scan(unsigned v, unsigned* warp_sums) {
  constexpr unsigned kDigitWarps = kDigits / 32;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  unsigned incl = 0;
  if (warp < kDigitWarps) {
    incl = static_cast<unsigned>(scan::warp_scan_inclusive(static_cast<int32_t>(v)));
    if (lane == 31) warp_sums[warp] = incl;
  }
  __syncthreads();
  if (warp == 0) {
    const unsigned w = lane < kDigitWarps ? warp_sums[lane] : 0;
    const unsigned wi = static_cast<unsigned>(scan::warp_scan_inclusive(static_cast<int32_t>(w)));
    if (lane < kDigitWarps) warp_sums[lane] = wi;
  }
  __syncthreads();
  if (warp >= kDigitWarps) return 0;
  return incl - v + (warp ? warp_sums[warp - 1] : 0);
}

// One launch of a pass over a run of its tiles, a *portion* (sort v08's launch_passes cuts an
// input whose counts would not fit the look-back words into portions, as CUB's one-sweep does):
// tiles [first, last], whose look-back stops at `first` (that tile publishes its count as its
// inclusive prefix), so that every count a word holds is below the portion's keys. The tiles'
// digit starts are the portion's: the whole input's for the first portion; for a later one, the
// previous portion's starts plus its counts, which its last tile writes to `next` once its
// look-back is done. `whole`: the pass's starts over the whole input (null: the same as the
// portion's). The default is one portion of every tile.
struct Portion {
  unsigned first = 0;           // the portion's first tile
  unsigned last = 0xffffffffu;  // its last tile
  unsigned* next = nullptr;     // the next portion's 256 digit starts (null: none follows)
  const unsigned* whole = nullptr;
};

// Thread d's look-back in pass `pass`, after its tile published `count`, the tile's count of
// digit d, as its aggregate (as its prefix, for the portion's first tile `first`): returns the
// number of keys with digit d in the portion's earlier tiles and publishes the inclusive prefix.
// Each step loads WINDOW status words (tiles t, t-1, ..., t-WINDOW+1) at once, then adds them
// nearest first up to and including the nearest inclusive prefix, waiting only on the words it
// adds. (Sort v08 calls it too.)
template <unsigned WINDOW, typename SW = WideStatus>
__device__ __forceinline__ unsigned look_back(typename SW::Word* status, size_t tile, unsigned d,
                                              unsigned pass, unsigned count, size_t first = 0) {
  using Word = typename SW::Word;
  const unsigned aggregate = SW::aggregate(pass), prefix = SW::prefix(pass);
  unsigned before = 0;
  if (tile == first) return 0;
  long long t = static_cast<long long>(tile) - 1;
  const long long lowest = static_cast<long long>(first);
  bool done = false;
  while (!done) {
    Word word[WINDOW];
#pragma unroll
    for (unsigned k = 0; k < WINDOW; ++k)
      word[k] = t - k >= lowest ? SW::peek(status + (t - k) * kDigits + d)
                                : SW::make(prefix, 0u);  // before the portion: an empty prefix
#pragma unroll
    for (unsigned k = 0; k < WINDOW; ++k) {
      if (done) break;
      unsigned f = SW::flag(word[k]);
      while (f != aggregate && f != prefix) {  // not yet published in this pass
        word[k] = SW::peek(status + (t - k) * kDigits + d);
        f = SW::flag(word[k]);
      }
      before += SW::value(word[k]);
      done = f == prefix;
    }
    t -= WINDOW;
  }
  SW::publish(status + tile * kDigits + d, prefix, before + count);
  return before;
}

// The shared memory of one digit pass. Ranking uses warp_hist; once every rank is known the same
// bytes stage the sorted tile. SEPARATE (the option kSeparateStaging below): the two get bytes of
// their own, so that staging need not wait for every warp to finish reading warp_hist.
template <unsigned THREADS, unsigned ITEMS, bool SEPARATE>
struct PassLayout {
  union {
    unsigned warp_hist[THREADS / 32][kDigits];  // per warp: count, then offset, of each digit
    uint32_t keys[THREADS * ITEMS];
  };
};
template <unsigned THREADS, unsigned ITEMS>
struct PassLayout<THREADS, ITEMS, true> {
  unsigned warp_hist[THREADS / 32][kDigits];
  uint32_t keys[THREADS * ITEMS];
};
template <unsigned THREADS, unsigned ITEMS, bool SEPARATE = false>
struct PassStorage {
  PassLayout<THREADS, ITEMS, SEPARATE> s;
  unsigned offset[kDigits];  // staged position i of digit d goes to i + offset[d]
  unsigned warp_sums[kDigits / 32];
  unsigned tile_slot;
};

// A kernel may declare at most 48 KB of shared memory statically. Every registered shape's
// PassStorage fits (v12's 256 x 44 keys: 46,128 bytes with sort v08's own words); a larger tile
// (sort/lab/probe_pairs_shape.cu's "tiles") takes it as dynamic shared memory from sort v08's
// launch instead, opted in with cudaFuncAttributeMaxDynamicSharedMemorySize.
inline constexpr size_t kStaticPassBytes = 47 * 1024;
template <unsigned THREADS, unsigned ITEMS, bool SEPARATE = false>
__host__ __device__ constexpr bool pass_storage_dynamic() {
  return sizeof(PassStorage<THREADS, ITEMS, SEPARATE>) > kStaticPassBytes;
}

// The start of a pass's block: draws its tile (st.tile_slot: `first`, the portion's first tile,
// plus the counter's count) and zeroes the warps' counters. Every thread calls it; it ends with a
// barrier.
template <unsigned THREADS, unsigned ITEMS, bool SEPARATE>
__device__ __forceinline__ void draw_tile(PassStorage<THREADS, ITEMS, SEPARATE>& st,
                                          unsigned* counter, unsigned first = 0) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (threadIdx.x == 0) st.tile_slot = first + atomicAdd(counter, 1u);
  for (unsigned i = lane; i < kDigits; i += 32) st.s.warp_hist[warp][i] = 0;
  __syncthreads();
}

// The rest of the pass for the tile drawn by draw_tile (sort v08 runs it too).
// Candidate options of a pass (bit flags, measured by sort/lab/probe_pairs_prefetch.cu; the
// shipped rungs use none). The tile's values are read only after its keys are ranked, looked back
// and scattered, a DRAM round trip at the end of the tile: kPrefetchValuesLanes has each lane
// prefetch its values into L2 (prefetch.global.L2) right after loading its keys;
// kPrefetchValuesBulk has one thread ask the TMA to prefetch the tile's values into L2
// (cp.async.bulk.prefetch.L2, sm_90; the per-lane way where the values are not 16-byte aligned
// or the code is not sm_90). No registers are held: the later loads hit L2. kStreamKeys loads
// the keys with ld.global.cs (evict first), so that a pass's once-read input does not push the
// lines its scatter is still filling out of L2. kPackedDigits (pairs;
// sort/lab/probe_pairs_shape.cu): instead of holding each staged position's destination (ITEMS
// registers) from the keys' write-out to the values', a thread keeps the positions' digits, four
// bytes to a register (ITEMS / 4), and looks the digit's offset up again: fewer registers live
// across the keys' write-out (sort v12's pairs use it; at 40 pairs a thread it measured 1-2%
// faster on the H200, neither way spilling). kCoalescedStores (keys; a control for
// sort/lab/probe_store_pattern.cu, which does NOT sort): each staged key is written back to
// its tile's own positions, consecutive and aligned, instead of to its digit's run, with every
// other step of the pass unchanged (the digit's offset is still read and folded into the value),
// so that the time it saves is what the scatter's store pattern costs.
// kSeparateStaging: the staging
// buffer does not share its bytes with warp_hist (PassStorage's SEPARATE), which removes the
// barrier between the last read of warp_hist and the first staged key, one of the tile's seven;
// it costs the warps' counters' bytes (8 KB at 256 threads) of shared memory
// (sort/lab/probe_pairs_shape.cu's "barrier" mode times it: no faster at v12's or v13's shape).
inline constexpr unsigned kPrefetchValuesLanes = 1, kPrefetchValuesBulk = 2, kStreamKeys = 4,
                          kPackedDigits = 8, kCoalescedStores = 16, kSeparateStaging = 64;
template <unsigned OPT>
inline constexpr bool kSeparate = (OPT & kSeparateStaging) != 0;

// A thread's ITEMS ranks within its tile, one register each. j must be a compile-time index (the
// callers' loops are unrolled), set before add or get. (Sort v13 packs two to a register.)
template <unsigned ITEMS>
struct Ranks {
  unsigned r[ITEMS];
  __device__ __forceinline__ void set(unsigned j, unsigned v) { r[j] = v; }
  __device__ __forceinline__ void add(unsigned j, unsigned v) { r[j] += v; }
  __device__ __forceinline__ unsigned get(unsigned j) const { return r[j]; }
};

// The policy of a pass: what a later rung changes in the shared pass (this file's
// rank_and_scatter, sort v08's and v15's kernels), passed to it as a type, the way CUB passes its
// tuning policies. This base is the pass as v06 to v12 run it; sort v13 (packed ranks), v14 (an
// L2 prefetch ahead of the tiles) and v16 (the bucket bases) each derive theirs in their own file.
struct BasePolicy {
  // A thread's ranks within its tile (set, add, get by compile-time index).
  template <unsigned THREADS, unsigned ITEMS>
  using Ranks = v06::Ranks<ITEMS>;
  // Called once a block has drawn its tile (tile_slot, shared), before it loads the keys: nothing.
  template <unsigned THREADS, unsigned ITEMS, bool PAIRS, unsigned MIN_BLOCKS>
  __device__ __forceinline__ static void ahead(const unsigned& tile_slot, const uint32_t* keys_in,
                                               const uint32_t* vals_in, size_t n) {
    (void)tile_slot, (void)keys_in, (void)vals_in, (void)n;
  }
  // Where the tile's keys go: `row` holds the pass's 256 digit starts; adjust(k, dk, to) may
  // move the position `to` of key k (digit dk). Built after the keys are staged (keys_in: the
  // pass's input; base, last: the tile's first and last key's index).
  struct Place {
    const unsigned* row;
    __device__ __forceinline__ Place(const uint32_t* keys_in, size_t base, size_t last,
                                     unsigned pass, const unsigned* bases)
        : row(bases) {
      (void)keys_in, (void)base, (void)last, (void)pass;
    }
    __device__ __forceinline__ void adjust(uint32_t k, unsigned dk, unsigned& to) const {
      (void)k, (void)dk, (void)to;
    }
    // Whether adjust may move a key of this tile (the same for the whole block): the values then
    // go straight to their keys' places (rank_and_scatter), not through the staging buffer.
    __device__ __forceinline__ bool irregular() const { return false; }
  };
  static constexpr bool kKeysOnly = false;  // a policy that cannot carry values says so
};

template <unsigned OPT>
__device__ __forceinline__ uint32_t load_key(const uint32_t* p) {
  if constexpr (OPT & kStreamKeys) return __ldcs(p);
  return *p;
}

template <unsigned THREADS, unsigned ITEMS, unsigned WINDOW, bool PAIRS, unsigned MATCH_EVERY,
          typename SW = WideStatus, unsigned OPT = 0, typename P = BasePolicy>
__device__ __forceinline__ void rank_and_scatter(
    PassStorage<THREADS, ITEMS, kSeparate<OPT>>& st, const uint32_t* __restrict__ keys_in,
    const uint32_t* __restrict__ vals_in, uint32_t* __restrict__ keys_out,
    uint32_t* __restrict__ vals_out, size_t n, unsigned pass, typename SW::Word* status,
    const unsigned* bases, const Portion& portion = Portion{}) {
  static_assert(THREADS % 32 == 0 && THREADS >= kDigits, "one thread per digit value");
  constexpr unsigned kWarps = THREADS / 32;
  constexpr unsigned kTile = THREADS * ITEMS;
  auto& s = st.s;
  unsigned* offset = st.offset;
  unsigned* warp_sums = st.warp_sums;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const size_t tile = st.tile_slot;
  const size_t base = tile * kTile;
  const bool full = base + kTile <= n;

  // Item j of lane l of warp w: tile element (w * ITEMS + j) * 32 + l, coalesced per item; a
  // warp's items in order, lanes in order, are input order.
  uint32_t key[ITEMS];
  const size_t first = base + size_t(warp) * ITEMS * 32 + lane;
  if (full) {
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j) key[j] = load_key<OPT>(keys_in + first + j * 32);
  } else {
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j)
      key[j] = first + j * 32 < n ? load_key<OPT>(keys_in + first + j * 32) : 0xffffffffu;
  }
  if constexpr (PAIRS && (OPT & (kPrefetchValuesLanes | kPrefetchValuesBulk)) != 0) {
    bool per_lane = true;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    if constexpr ((OPT & kPrefetchValuesBulk) != 0) {
      const uint32_t* tile_vals = vals_in + base;
      if (reinterpret_cast<uintptr_t>(tile_vals) % 16 == 0) {
        per_lane = false;
        if (threadIdx.x == 0) {
          const unsigned bytes =
              static_cast<unsigned>((full ? kTile : static_cast<unsigned>(n - base)) * 4 + 15) &
              ~15u;
          asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(tile_vals), "r"(bytes)
                       : "memory");
        }
      }
    }
#endif
    if (per_lane) {
#pragma unroll
      for (unsigned j = 0; j < ITEMS; ++j)
        if (full || first + j * 32 < n)
          asm volatile("prefetch.global.L2 [%0];" ::"l"(vals_in + first + j * 32));
    }
  }

  // Rank within the warp: the lanes holding the same digit, the highest of them bumps the warp's
  // counter for the digit by their number (its popc over lanes <= itself is that number).
  typename P::template Ranks<THREADS, ITEMS> rank;
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) {
    const unsigned d = digit_at(key[j], pass);
    const unsigned peers = MATCH_EVERY && j % (MATCH_EVERY ? MATCH_EVERY : 1) == MATCH_EVERY - 1
                               ? __match_any_sync(0xffffffffu, d)
                               : match_digit(d);
    const unsigned upto = __popc(peers & lanemask_le());
    const unsigned leader = 31 - __clz(peers);
    const unsigned old = leader_fetch_add(&s.warp_hist[warp][d], upto, lane == leader);
    rank.set(j, __shfl_sync(0xffffffffu, old, leader) + upto - 1);
  }
  __syncthreads();

  // Thread d: digit d's count over the warps (turned into exclusive per-warp offsets), published
  // at once so that later tiles can add it; then the tile's digit starts.
  const unsigned d = threadIdx.x;
  unsigned count = 0;
  if (d < kDigits) {
#pragma unroll
    for (unsigned w = 0; w < kWarps; ++w) {
      const unsigned c = s.warp_hist[w][d];
      s.warp_hist[w][d] = count;
      count += c;
    }
    SW::publish(status + tile * kDigits + d,
                tile == portion.first ? SW::prefix(pass) : SW::aggregate(pass), count);
  }
  const unsigned start = digit_exclusive_scan<THREADS>(count, warp_sums);
  if (d < kDigits) {
#pragma unroll
    for (unsigned w = 0; w < kWarps; ++w) s.warp_hist[w][d] += start;
  }
  __syncthreads();
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) rank.add(j, s.warp_hist[warp][digit_at(key[j], pass)]);
  if constexpr (!kSeparate<OPT>) __syncthreads();  // warp_hist is dead: its bytes become staging

#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) s.keys[rank.get(j)] = key[j];

  // Thread d: the number of keys with digit d in all earlier tiles (look_back).
  static_assert(!P::kKeysOnly || !PAIRS, "this pass policy moves keys only");
  const typename P::Place place(keys_in, base, (full ? base + kTile : n) - 1, pass, bases);
  const unsigned* row = place.row;
  if (d < kDigits) {
    const unsigned before = look_back<WINDOW, SW>(status, tile, d, pass, count, portion.first);
    offset[d] = row[d] + before - start;  // modulo 2^32; every true position is below n
    if (portion.next && tile == portion.last) portion.next[d] = bases[d] + before + count;
  }
  __syncthreads();

  // Write out: consecutive threads take consecutive staged keys, so each digit's run is stored
  // by consecutive lanes. The padding of the last tile sits at positions >= the tile's keys.
  const unsigned in_tile = full ? kTile : static_cast<unsigned>(n - base);
  constexpr bool kPack = PAIRS && (OPT & kPackedDigits) != 0;
  unsigned dst[PAIRS && !kPack ? ITEMS : 1];  // pairs: where each of this thread's positions went
  unsigned packed[kPack ? (ITEMS + 3) / 4 : 1] = {};  // or their digits, a byte each
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) {
    const unsigned i = j * THREADS + threadIdx.x;
    if (full || i < in_tile) {
      const uint32_t k = s.keys[i];
      const unsigned dk = digit_at(k, pass);
      unsigned to = i + offset[dk];  // below n < 2^32
      place.adjust(k, dk, to);
      if constexpr ((OPT & kCoalescedStores) != 0) {
        static_assert(!PAIRS, "the store-pattern control is for keys");
        keys_out[base + i] = k ^ static_cast<uint32_t>(to == 0xffffffffu);
      } else {
        keys_out[to] = k;
      }
      if constexpr (kPack)
        packed[j / 4] |= dk << (8 * (j % 4));
      else if constexpr (PAIRS)
        dst[j] = to;
    }
  }
  // Pairs: the values take the same trip through the same staging buffer. In a tile whose policy
  // moves keys (place.irregular(), block-uniform; sort v16's second pass, a tile across two upper
  // digits) each value goes straight from its input place to its key's: the key read again from
  // keys_in (L1 or L2), its place as at the write-out (its rank in the tile, its digit's offset,
  // the policy's adjustment).
  if constexpr (PAIRS) {
    if (place.irregular()) {
#pragma unroll
      for (unsigned j = 0; j < ITEMS; ++j) {
        if (full || first + j * 32 < n) {
          const uint32_t k = keys_in[first + j * 32];
          const unsigned dk = digit_at(k, pass);
          unsigned to = rank.get(j) + offset[dk];
          place.adjust(k, dk, to);
          vals_out[to] = vals_in[first + j * 32];
        }
      }
      return;
    }
    __syncthreads();
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j)
      if (full || first + j * 32 < n) s.keys[rank.get(j)] = vals_in[first + j * 32];
    __syncthreads();
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j) {
      const unsigned i = j * THREADS + threadIdx.x;
      if (full || i < in_tile) {
        if constexpr (kPack)
          vals_out[i + offset[(packed[j / 4] >> (8 * (j % 4))) & 0xffu]] = s.keys[i];
        else
          vals_out[dst[j]] = s.keys[i];
      }
    }
  }
}

// One digit pass over n keys (n <= kMaxN), THREADS x ITEMS keys per tile.
//   counter  this pass's tile counter (zeroed)
//   status   tiles x 256 status words shared by the four passes (zeroed before pass 0)
//   bases    this pass's 256 global digit starts (bases_kernel)
// PAIRS: the values travel with their keys.
// MATCH_EVERY (for the probe): 0 matches every key with ballots; k > 0 uses match.any.sync for
// every k-th key (1: all of them), spreading the work over the integer and MIO pipes.
// MIN_BLOCKS: __launch_bounds__'s resident-block hint (it caps the registers); as many as fit
// where fewer do (arch::min_blocks).
template <unsigned THREADS, unsigned ITEMS, unsigned WINDOW, bool PAIRS, unsigned MATCH_EVERY = 0,
          unsigned MIN_BLOCKS = 1>
__global__ void __launch_bounds__(THREADS, arch::min_blocks(THREADS, MIN_BLOCKS))
    onesweep_kernel(const uint32_t* __restrict__ keys_in, const uint32_t* __restrict__ vals_in,
                    uint32_t* __restrict__ keys_out, uint32_t* __restrict__ vals_out, size_t n,
                    unsigned pass, unsigned* counter, Status* status, const unsigned* bases) {
  __shared__ PassStorage<THREADS, ITEMS> st;
  draw_tile(st, counter);
  rank_and_scatter<THREADS, ITEMS, WINDOW, PAIRS, MATCH_EVERY>(st, keys_in, vals_in, keys_out,
                                                               vals_out, n, pass, status, bases);
}

template <unsigned THREADS, unsigned ITEMS>
constexpr size_t tile_keys() {
  return size_t(THREADS) * ITEMS;
}
inline size_t round256(size_t b) { return (b + 255) / 256 * 256; }
// Workspace: [counters 16 B | hist 4 KB | status tiles x 256 words] (zeroed per call), bases
// 4 KB, one key buffer, and for pairs one value buffer.
template <unsigned THREADS = kThreads, unsigned ITEMS = kItems>
size_t zeroed_bytes(size_t n) {
  const size_t tiles = std::max<size_t>(ceil_div(n, tile_keys<THREADS, ITEMS>()), 1);
  return 256 + kPasses * kDigits * 4 + tiles * kDigits * sizeof(Status);
}
template <unsigned THREADS = kThreads, unsigned ITEMS = kItems>
size_t workspace_bytes_for(size_t n, bool pairs) {
  return round256(zeroed_bytes<THREADS, ITEMS>(n)) + kPasses * kDigits * 4 +
         (pairs ? 2 : 1) * round256(n * sizeof(uint32_t));
}
inline size_t workspace_bytes(size_t n) { return workspace_bytes_for(n, false); }
inline size_t workspace_bytes_pairs(size_t n) { return workspace_bytes_for(n, true); }

// The four passes ping-pong between the workspace buffer and `out`: in -> buffer -> out ->
// buffer -> out.
template <unsigned THREADS, unsigned ITEMS, unsigned WINDOW, bool PAIRS, unsigned MATCH_EVERY = 0,
          unsigned MIN_BLOCKS = 1>
cudaError_t launch_shape(const uint32_t* keys_in, const uint32_t* vals_in, uint32_t* keys_out,
                         uint32_t* vals_out, size_t n, void* ws, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  constexpr size_t kTile = tile_keys<THREADS, ITEMS>();
  const size_t tiles = ceil_div(n, kTile);
  char* p = static_cast<char*>(ws);
  unsigned* counters = reinterpret_cast<unsigned*>(p);
  unsigned* hist = reinterpret_cast<unsigned*>(p + 256);
  Status* status = reinterpret_cast<Status*>(p + 256 + kPasses * kDigits * 4);
  char* q = p + round256(zeroed_bytes<THREADS, ITEMS>(n));
  unsigned* bases = reinterpret_cast<unsigned*>(q);
  q += kPasses * kDigits * 4;
  uint32_t* key_buf = reinterpret_cast<uint32_t*>(q);
  uint32_t* val_buf = PAIRS ? reinterpret_cast<uint32_t*>(q + round256(n * 4)) : nullptr;
  cudaError_t e = cudaMemsetAsync(ws, 0, zeroed_bytes<THREADS, ITEMS>(n), stream);
  if (e != cudaSuccess) return e;
  const auto histogram = histogram_kernel<kHistThreads, kHistItems, true, true, kHistMinBlocks>;
  static const size_t resident = resident_grid((const void*)histogram, kHistThreads, 0);
  const unsigned hist_grid = static_cast<unsigned>(
      std::clamp<size_t>(ceil_div(n, size_t(kHistThreads) * kHistItems), 1, resident));
  histogram<<<hist_grid, kHistThreads, 0, stream>>>(keys_in, n, hist);
  v05::bases_kernel<<<1, v05::kThreads, 0, stream>>>(hist, bases);
  const uint32_t* ksrc = keys_in;
  const uint32_t* vsrc = vals_in;
  for (unsigned pass = 0; pass < kPasses; ++pass) {
    uint32_t* kdst = pass % 2 ? keys_out : key_buf;
    uint32_t* vdst = pass % 2 ? vals_out : val_buf;
    onesweep_kernel<THREADS, ITEMS, WINDOW, PAIRS, MATCH_EVERY, MIN_BLOCKS>
        <<<static_cast<unsigned>(tiles), THREADS, 0, stream>>>(
            ksrc, vsrc, kdst, vdst, n, pass, counters + pass, status, bases + pass * kDigits);
    ksrc = kdst;
    vsrc = vdst;
  }
  return cudaGetLastError();
}

inline cudaError_t launch(const uint32_t* in, uint32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  return launch_shape<kThreads, kItems, kWindow, false, 0, kMinBlocks>(in, nullptr, out, nullptr, n,
                                                                       ws, stream);
}

inline cudaError_t launch_pairs(const uint32_t* keys_in, const uint32_t* vals_in,
                                uint32_t* keys_out, uint32_t* vals_out, size_t n, void* ws,
                                cudaStream_t stream) {
  return launch_shape<kThreads, kItems, kWindow, true, 0, kMinBlocksPairs>(
      keys_in, vals_in, keys_out, vals_out, n, ws, stream);
}

}  // namespace ladder::sort::v06
