// sort/v15_counted_ahead.cuh — sort v15: where a pass has few digit values, the pass before it
// counts each of its tiles' keys, so that the pass knows where every tile goes before it starts
// and needs no look-back.
// Technique: v14's passes. The histogram says, before the first pass, which passes from the
// third on have at most 16 digit values (their digits get codes 0..15). For such a pass q, pass
// q - 1's write-out adds the keys it writes to a count per (tile of pass q, code): a key written
// to position p is key p of pass q's input. A tile copied whole (v08's short circuit) whose keys
// share their next digit adds them with one reduction or two. Pass q's first 16 tiles scan those
// counts, a code each, into every tile's output offset per code (reduce-then-scan, the reduce
// done by the pass before); then a tile of one digit is copied straight to its place, and a mixed
// tile is ranked as in v14 but finds its predecessors' prefixes already published. Which kernel
// each pass runs is chosen on the GPU: the sort is a CUDA graph whose switch node takes the
// histogram's verdict, so a pass that neither is counted nor counts runs v14's kernel itself.
// Changes from v14: on keys with few distinct values (`few`), after the first pass nearly every
// tile holds one key value and is copied whole, but each still waited in the look-back for the
// tiles before it to load and check their keys: those passes took 27-32% longer than a copy.
// Counted, they take about as long as a copy. From 2^27 keys up to 2^30 - 1; below, v14.
// Remains (bottleneck): the first two passes (every tile ranked in the first; the second counts
// the third's tiles, and runs 7% longer than v14's on the H100, 9% on the H200, under Nsight
// Compute); the histogram pass. Inputs with many digit values in every pass (uniform, sorted)
// run v14's kernels and pay the graph's switch node.
// Source: the look-back of D. Merrill and M. Garland, "Single-pass Parallel Prefix Scan with
// Decoupled Look-back", 2016, as A. Adinets and D. Merrill's "Onesweep" (2022) uses it; the
// per-tile digit counts of reduce-then-scan radix sorts (D. Merrill and A. Grimshaw, "High
// Performance and Scalable Radix Sorting", 2011), here taken during the previous pass's scatter;
// v08's short circuit (CUB's TryShortCircuit); CUDA graphs' conditional nodes (NVIDIA, "Dynamic
// Control Flow in CUDA Graphs with Conditional Nodes", NVIDIA Technical Blog, 2024, updated 2025
// for the switch nodes of CUDA 12.8).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "common/arch.cuh"
#include "common/device.h"
#include "common/registry.h"
#include "scan/warp_scan.cuh"
#include "sort/graph_cache.h"
#include "sort/radix_rank.cuh"
#include "sort/v06_onesweep_ballot.cuh"
#include "sort/v08_short_circuit.cuh"
#include "sort/v09_striped_histogram.cuh"
#include "sort/v10_narrow_status.cuh"
#include "sort/v12_large_tiles.cuh"
#include "sort/v14_l2_prefetch.cuh"

namespace ladder::sort::v15 {

inline constexpr VersionDoc kDoc = {
    15, "v15_counted_ahead",
    "v14's passes; a pass with few digit values gets its tiles' places counted by the pass before",
    /*technique*/
    "From 2^27 keys (keys only): the histogram marks each pass from the third on that has at most "
    "16 digit values as counted. The pass before a counted pass adds the keys it writes to a "
    "count per (tile of the next pass, digit): one reduction or two for a tile copied whole. The "
    "counted pass's first tiles scan those counts into each tile's offsets, and every tile knows "
    "where its keys go as it starts: a tile of one digit is copied there, a mixed tile is ranked "
    "and finds its predecessors' prefixes already published. A CUDA graph's switch node, set on "
    "the GPU, picks each pass's kernel: v14's where a pass neither is counted nor counts.",
    /*changes*/
    "On few distinct keys v14's short-circuited tiles still waited on the look-back: each "
    "tile's count was published only after its keys had arrived and been checked, and the "
    "passes took 27-32% longer than a copy of the keys. Counted ahead, no tile of such a pass "
    "waits on another.",
    /*remains*/
    "The first pass (every tile ranked), the second (it counts the third's tiles) and the "
    "histogram pass; on inputs with many digit values in every pass (uniform, sorted keys), "
    "v14's ballots and scatter, plus the graph's switch node.",
    /*source*/
    "Merrill & Garland, \"Single-pass Parallel Prefix Scan with Decoupled Look-back\", 2016; "
    "Adinets & Merrill, \"Onesweep\", 2022; per-tile counts as in reduce-then-scan radix sorts "
    "(Merrill & Grimshaw, \"High Performance and Scalable Radix Sorting\", 2011), here taken "
    "during the previous pass's scatter; v08's short circuit; CUDA graph conditional nodes"};

using v06::kDigits;
using v06::kPasses;
inline constexpr size_t kMaxN = v14::kMaxN;
inline constexpr unsigned kCountCodes = 16;  // a counted pass has at most this many digit values
// A pass's mode bits: v08's (kCheck, kSomeAbsent) and two more.
inline constexpr unsigned kCountedPass = 4;  // this pass's tiles are counted ahead
inline constexpr unsigned kCountNext = 8;    // this pass counts the next pass's tiles
// The first pass that may be counted: the pass before it must mostly copy tiles whole (v08's
// short circuit), so that it can count a tile's keys with one atomic or two. Pass 0 reads the
// keys in the caller's order and ranks them; pass 1 would have to be counted by that ranking,
// key by key.
inline constexpr unsigned kFirstCounted = 2;
inline constexpr unsigned kThreads = v12::kThreads, kItems = v12::kItems;
inline constexpr size_t kTile = v12::kTile;
using SW = v10::NarrowStatus;

// Where a pass's counts live. A pass's digits that occur in the input are numbered 0, 1, ... in
// digit order (their codes; a counted pass has at most kCountCodes). Per-tile counts are kept
// per code, a column each: element c * stride + t is tile t's (stride: tiles + 1, rounded up to
// a multiple of 4; the entries past the last tile stay 0). Null pointers where a pass has none.
//   offsets      this pass is counted: its counts, added up by the pass before; the pass's first
//                kCountCodes tiles scan them in place, so that offsets[c * stride + t] becomes
//                the output position of tile t's first key of code c (from t = tiles on: the
//                code's end), each adding kReadyOne to `counter` when done
//   code         this pass's code of each digit (256 bytes; 0xff for a digit no key has)
//   digit_of     this pass's digit of each code (kCountCodes words; 0xffffffff for no digit)
//   counter      this pass's tile counter (zeroed): tiles drawn plus kReadyOne per column scanned
//   next_counts  the next pass is counted: its per-tile counts, which this pass adds up
//   next_code    the next pass's code of each digit (256 bytes)
inline constexpr unsigned kReadyOne = 1u << 26;  // tiles are fewer than 2^26 (n < 2^30)
struct Counted {
  unsigned* offsets = nullptr;
  const unsigned char* code = nullptr;
  const unsigned* digit_of = nullptr;
  unsigned* counter = nullptr;
  unsigned* next_counts = nullptr;
  const unsigned char* next_code = nullptr;
  unsigned stride = 0;
};

// *p += v in global memory, with no value returned: a RED, so that the thread need not wait for
// the L2's answer before it goes on or ends.
__device__ __forceinline__ void red_add(unsigned* p, unsigned v) {
  asm volatile("red.relaxed.gpu.global.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// A warp's count of keys bound for one (code, tile) of the next pass. The key written to output
// position `to` is key `to` of the next pass's input, so it falls in that pass's tile to / TILE,
// under its next digit's code. add() takes one key a lane (valid = false for a lane without
// one); where all 32 lanes agree with each other it adds 32 to the warp's open count (slot,
// keys: the same in every lane), and adds that count to global memory only when the slot
// changes or at flush(). So a warp whose keys run in order adds once a run: on few distinct
// keys, once or twice a tile. Lanes that disagree add at once, one atomic for each group of equal
// slots (match.any.sync). All 32 lanes call both.
struct Tally {
  unsigned slot = 0xffffffffu, keys = 0;
  template <unsigned TILE>
  __device__ __forceinline__ void add(const Counted& cp, bool valid, uint32_t key, unsigned to,
                                      unsigned next_pass) {
    const unsigned s =
        valid ? cp.next_code[v06::digit_at(key, next_pass)] * cp.stride + to / TILE : 0xffffffffu;
    const unsigned lead = __shfl_sync(0xffffffffu, s, 0);
    if (__all_sync(0xffffffffu, s == lead)) {
      if (lead != slot) {
        flush(cp);
        slot = lead;
      }
      if (lead != 0xffffffffu) keys += 32;
    } else {
      const unsigned peers = __match_any_sync(0xffffffffu, s);
      if (s != 0xffffffffu && threadIdx.x % 32 == static_cast<unsigned>(__ffs(peers) - 1))
        red_add(cp.next_counts + s, static_cast<unsigned>(__popc(peers)));
    }
  }
  __device__ __forceinline__ void flush(const Counted& cp) {
    if (keys && threadIdx.x % 32 == 0) red_add(cp.next_counts + slot, keys);
    keys = 0;
  }
};

// Counts `len` keys of the next pass's code `code` that are written to the consecutive places
// [at, at + len) (len <= TILE): one or two of the next pass's tiles. One thread calls it.
template <unsigned TILE>
__device__ __forceinline__ void count_range(const Counted& cp, unsigned code, unsigned at,
                                            unsigned len) {
  const unsigned t0 = at / TILE;
  const unsigned in_first = std::min(len, (t0 + 1) * TILE - at);
  unsigned* c = cp.next_counts + code * cp.stride + t0;
  red_add(c, in_first);
  if (in_first < len) red_add(c + 1, len - in_first);
}

// v08's bases_check_kernel plus the codes: bases[p * 256 + d], check[p] (v08's bits, and
// kCountedPass for a pass p >= kFirstCounted with at most kCountCodes digit values, kCountNext
// for the pass before one), code[p * 256 + d] (the number of occurring digits below d, 0xff where
// no key has d) and digit_of[p * kCountCodes + c] (the digit of code c, 0xffffffff past the last).
// With set_chain it also sets `chain`, the condition of the graph's switch node (launch), to
// 2 * (pass 2 is counted) + (pass 3 is counted): which kernels passes 1 to 3 run.
// One block of 256 threads.
__global__ void __launch_bounds__(kDigits)
    bases_codes_kernel(const unsigned* hist, unsigned* bases, unsigned* check, unsigned char* code,
                       unsigned* digit_of, cudaGraphConditionalHandle chain, bool set_chain) {
  __shared__ unsigned warp_sums[radix::kWarps];
  __shared__ unsigned counted[kPasses];
  __shared__ unsigned warp_nonzero[radix::kWarps];
  const unsigned d = threadIdx.x;
  for (unsigned p = 0; p < kPasses; ++p) {
    if (d < kCountCodes) digit_of[p * kCountCodes + d] = 0xffffffffu;
    const unsigned c = hist[p * kDigits + d];
    bases[p * kDigits + d] = radix::block_exclusive_scan(c, warp_sums);
    // The code: the occurring digits below d, from each warp's ballot of occurring digits (the
    // counting barrier also publishes warp_nonzero).
    const unsigned ballot = __ballot_sync(0xffffffffu, c != 0);
    if (d % 32 == 0) warp_nonzero[d / 32] = __popc(ballot);
    const int bins = __syncthreads_count(c != 0);
    unsigned my_code = __popc(ballot & ((1u << (d % 32)) - 1));
    for (unsigned w = 0; w < d / 32; ++w) my_code += warp_nonzero[w];
    code[p * kDigits + d] = c != 0 ? static_cast<unsigned char>(my_code) : 0xffu;
    if (c != 0 && my_code < kCountCodes) digit_of[p * kCountCodes + my_code] = d;
    const bool is_counted = p >= kFirstCounted && bins <= static_cast<int>(kCountCodes);
    if (d == 0) {
      counted[p] = is_counted;
      check[p] =
          ((p == 0 ? bins == 1 : bins <= static_cast<int>(v08::kCheckBins)) ? v08::kCheck : 0u) |
          (bins < static_cast<int>(kDigits) ? v08::kSomeAbsent : 0u) |
          (is_counted ? kCountedPass : 0u);
    }
  }
  __syncthreads();
  if (d + 1 < kPasses && counted[d + 1]) check[d] |= kCountNext;
  static_assert(kFirstCounted == 2 && kPasses == 4, "the switch's bodies cover passes 2 and 3");
  if (set_chain && d == 0)
    cudaGraphSetConditional(chain, (counted[2] ? 2u : 0u) | (counted[3] ? 1u : 0u));
}

// A counted pass's column of counts (col[0, stride), one code's, stride a multiple of 4) into
// offsets in place: an exclusive scan plus `start`, the code's digit start. One block of 256
// threads; each thread scans a run of consecutive entries, 16 bytes a load. warp_sums: 8 words
// of shared memory. Every thread calls it.
__device__ __forceinline__ void scan_column(unsigned* col, unsigned stride, unsigned start,
                                            unsigned* warp_sums) {
  uint4* a = reinterpret_cast<uint4*>(col);
  const unsigned groups = stride / 4, per = (groups + kDigits - 1) / kDigits;
  const unsigned lo = std::min(threadIdx.x * per, groups), hi = std::min(lo + per, groups);
  unsigned sum = 0;
#pragma unroll 4
  for (unsigned g = lo; g < hi; ++g) {
    const uint4 v = __ldcg(a + g);
    sum += v.x + v.y + v.z + v.w;
  }
  unsigned run = start + radix::block_exclusive_scan(sum, warp_sums);
#pragma unroll 4
  for (unsigned g = lo; g < hi; ++g) {
    const uint4 v = __ldcg(a + g);
    uint4 o;
    o.x = run;
    o.y = o.x + v.x;
    o.z = o.y + v.y;
    o.w = o.z + v.z;
    run = o.w + v.w;
    a[g] = o;
  }
}

// The Tally of a copied tile whose keys have several next digits (rare in a pass that counts),
// out of line, its keys loaded again (from L1 or L2). Inlined, this code and count_staged's,
// though almost never run, made the copy path of the pass that counts 14% slower.
template <unsigned TILE, unsigned ITEMS>
__device__ __noinline__ void tally_copied(const Counted cp, const uint32_t* keys_in, size_t first,
                                          unsigned to, size_t n, bool full, unsigned pass) {
  Tally t;
#pragma unroll 4
  for (unsigned j = 0; j < ITEMS; ++j) {
    const bool valid = full || first + j * 32 < n;
    t.add<TILE>(cp, valid, valid ? keys_in[first + j * 32] : 0u, to + j * 32, pass + 1);
  }
  t.flush(cp);
}

// One digit pass of v14's shape (keys only, 32-bit look-back words, n < 2^30). mode = *check.
// Not counted: v14's pass (v08's kernel: the short circuit, else v06's ranking and look-back).
// Counted (kCountedPass): each tile first publishes, for every digit, its inclusive count as a
// look-back prefix (from the offsets), and threads 0..15 read the tile's offsets: a tile whose
// keys all have one code is copied to its offset; any other runs v06's ranking, whose look-back
// then finds its predecessor's prefix at once. With kCountNext the keys written are counted for
// the next pass (Tally): from registers after a copied tile, from the staged tile after a ranked
// one. cp: the count pointers (Counted); those this pass's mode does not use are ignored.
// The short-circuited tile of counted_kernel (mode has kCheck or kCountedPass): loads the tile's
// keys and, where they all have one digit of this pass, copies them to their place (with the
// look-back if the pass is not counted) and counts them for the next pass; returns true then,
// false for a tile that must be ranked. Every thread calls it.
template <unsigned THREADS, unsigned ITEMS>
__device__ __forceinline__ bool copy_tile(v06::PassStorage<THREADS, ITEMS, false>& st, int& mixed,
                                          const uint32_t* __restrict__ keys_in,
                                          uint32_t* __restrict__ keys_out, size_t n, unsigned pass,
                                          SW::Word* status, const unsigned* bases, unsigned mode,
                                          unsigned ready, const Counted& cp) {
  constexpr unsigned kTileKeys = THREADS * ITEMS;
  const bool counted = (mode & kCountedPass) != 0;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32, d = threadIdx.x;
  const size_t tile = st.tile_slot;
  const size_t base = tile * kTileKeys;
  const bool full = base + kTileKeys <= n;
  const unsigned in_tile = full ? kTileKeys : static_cast<unsigned>(n - base);
  const size_t first = base + size_t(warp) * ITEMS * 32 + lane;  // v06's layout
  uint32_t key[ITEMS];
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j)
    key[j] = full || first + j * 32 < n ? keys_in[first + j * 32] : 0u;

  if (counted) {
    // The pass's first kCountCodes tiles turn the counts into offsets, a code each; every tile
    // waits for all of them (those tiles were drawn first, so they are running).
    // A scanning tile adds kReadyOne to the pass's tile counter when its column is done, so the
    // draw that gave a tile its number also told it how many columns were done then (ready);
    // only a tile drawn before all of them were waits, on the counter.
    if (tile < kCountCodes) {  // block-uniform
      const unsigned digit = cp.digit_of[tile];
      if (digit < kDigits)
        scan_column(cp.offsets + tile * cp.stride, cp.stride, bases[digit], st.warp_sums);
      __threadfence();
      __syncthreads();
      if (threadIdx.x == 0) atomicAdd(cp.counter, kReadyOne);
    }
    if (ready < kCountCodes) {  // block-uniform
      if (threadIdx.x == 0) {
        unsigned r;
        asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(r) : "l"(cp.counter) : "memory");
        while (r / kReadyOne < kCountCodes) {
          __nanosleep(256);
          asm volatile("ld.acquire.gpu.global.u32 %0, [%1];"
                       : "=r"(r)
                       : "l"(cp.counter)
                       : "memory");
        }
      }
      __syncthreads();
    }
    if (d < kDigits) {  // digit d's count up to and including this tile, for any look-back
      const unsigned c = cp.code[d];
      SW::publish(status + tile * kDigits + d, SW::prefix(pass),
                  c < kCountCodes ? __ldcg(cp.offsets + c * cp.stride + tile + 1) - bases[d] : 0u);
    }
    if (d < kCountCodes) {  // does code d hold the whole tile?
      const unsigned at = __ldcg(cp.offsets + d * cp.stride + tile);
      if (__ldcg(cp.offsets + d * cp.stride + tile + 1) - at == in_tile) {
        st.offset[0] = at;
        mixed = 0;
      }
    }
  }
  // v08's check (does every key of the tile have the digit of its first key?), and with
  // kCountNext the same for the next pass's digit.
  const uint32_t lead = keys_in[base];
  // The next pass's code of the first key, asked for now so that the count at the end of the
  // tile does not wait for it.
  const unsigned lead_code =
      (mode & kCountNext) && threadIdx.x == 0 ? cp.next_code[v06::digit_at(lead, pass + 1)] : 0u;
  uint32_t differ = 0;
  if (!counted || (mode & kCountNext)) {
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j)
      differ |= (full || first + j * 32 < n) ? key[j] ^ lead : 0u;
  }
  if (!counted && v06::digit_at(differ, pass) != 0) mixed = 1;
  const bool next_differs =
      __syncthreads_or((mode & kCountNext) && v06::digit_at(differ, pass + 1) != 0);
  if (!mixed) {      // block-uniform: the tile is in order for this pass
    if (!counted) {  // v08's look-back for the one digit
      const unsigned ld = v06::digit_at(lead, pass);
      const bool absent = (mode & v08::kSomeAbsent) && d < kDigits &&
                          (d + 1 < kDigits ? bases[d + 1] : static_cast<unsigned>(n)) == bases[d];
      if (absent) {
        SW::publish(status + tile * kDigits + d, SW::prefix(pass), 0u);
      } else if (d < kDigits) {
        const unsigned count = d == ld ? in_tile : 0u;
        SW::publish(status + tile * kDigits + d, tile == 0 ? SW::prefix(pass) : SW::aggregate(pass),
                    count);
        const unsigned before = v06::look_back<v08::kScWindow, SW>(status, tile, d, pass, count);
        if (d == ld) st.offset[0] = bases[d] + before;
      }
      __syncthreads();
    }
    const unsigned to = st.offset[0] + warp * ITEMS * 32 + lane;  // + the key's place in the tile
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j)
      if (full || first + j * 32 < n) keys_out[to + j * 32] = key[j];
    if ((mode & kCountNext) && !next_differs) {
      // One next digit: the tile's keys land on [at, at + in_tile) of the next pass's input,
      // in one or two of its tiles.
      if (threadIdx.x == 0) count_range<kTileKeys>(cp, lead_code, st.offset[0], in_tile);
    } else if (mode & kCountNext) {  // rare: out of line, so that the copy keeps v14's code
      tally_copied<kTileKeys, ITEMS>(cp, keys_in, first, to, n, full, pass);
    }
    return true;
  }
  return false;
}

// After a ranked tile of a pass that counts the next one (kCountNext): counts the staged tile
// (st.s.keys, st.offset), each warp a run of consecutive places. Every thread calls it.
template <unsigned THREADS, unsigned ITEMS>
__device__ __forceinline__ void count_staged(v06::PassStorage<THREADS, ITEMS, false>& st, size_t n,
                                             unsigned pass, const Counted& cp) {
  constexpr unsigned kTileKeys = THREADS * ITEMS;
  unsigned tid;  // read again: a value kept from before the ranking would hold a register
  asm volatile("mov.u32 %0, %%tid.x;" : "=r"(tid));
  const unsigned lane = tid % 32, warp = tid / 32;
  const size_t base = size_t(st.tile_slot) * kTileKeys;
  const unsigned in_tile = base + kTileKeys <= n ? kTileKeys : static_cast<unsigned>(n - base);
  const unsigned from = warp * ITEMS * 32;  // this warp's run of staged places
  if (from < in_tile) {
    const unsigned len = std::min(ITEMS * 32, in_tile - from);
    // Do all of them share this pass's digit (so their places in the output are consecutive)
    // and the next pass's? Then the run is counted with one atomic or two.
    const uint32_t k0 = st.s.keys[from];
    const unsigned code0 = lane == 0 ? cp.next_code[v06::digit_at(k0, pass + 1)] : 0u;
    uint32_t differ = 0;
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j)
      if (j * 32 + lane < len) differ |= st.s.keys[from + j * 32 + lane] ^ k0;
    differ = v06::warp_or(differ);
    if (v06::digit_at(differ, pass) == 0 && v06::digit_at(differ, pass + 1) == 0) {
      if (lane == 0)
        count_range<kTileKeys>(cp, code0, from + st.offset[v06::digit_at(k0, pass)], len);
    } else {
      Tally t;
#pragma unroll 4
      for (unsigned j = 0; j < ITEMS; ++j) {
        const unsigned i = from + j * 32 + lane;
        const bool valid = i < in_tile;
        const uint32_t k = valid ? st.s.keys[i] : 0u;
        t.add<kTileKeys>(cp, valid, k, i + st.offset[v06::digit_at(k, pass)], pass + 1);
      }
      t.flush(cp);
    }
  }
}

// count_staged out of line (tally_copied says why).
template <unsigned THREADS, unsigned ITEMS>
__device__ __noinline__ void count_staged_out_of_line(v06::PassStorage<THREADS, ITEMS, false>* st,
                                                      size_t n, unsigned pass, const Counted cp) {
  count_staged<THREADS, ITEMS>(*st, n, pass, cp);
}

// BITS: which of kCountedPass and kCountNext this instantiation can run (the others' code is
// compiled out); the runtime mode is masked by it. P: the pass policy (v14's prefetch).
template <unsigned THREADS, unsigned ITEMS, unsigned MIN_BLOCKS, typename P, unsigned BITS>
__global__ void __launch_bounds__(THREADS, arch::min_blocks(THREADS, MIN_BLOCKS))
    counted_kernel(const uint32_t* __restrict__ keys_in, uint32_t* __restrict__ keys_out, size_t n,
                   unsigned pass, unsigned* counter, SW::Word* status, const unsigned* bases,
                   const unsigned* check, Counted cp) {
  static_assert(!v06::pass_storage_dynamic<THREADS, ITEMS, false>(), "a static tile");
  __shared__ v06::PassStorage<THREADS, ITEMS, false> st;
  __shared__ int mixed;
  __shared__ unsigned mode_s;  // the mode again, for the end of a ranked tile
  const unsigned mode = *check & (BITS | v08::kCheck | v08::kSomeAbsent);  // grid-uniform
  const bool counted = (mode & kCountedPass) != 0;
  if (threadIdx.x == 0) {
    mixed = counted ? 1 : 0;  // counted: a code with the whole tile clears it
    mode_s = mode;
  }
  __shared__ unsigned drawn;  // the tile counter as the draw found it
  {                           // v06::draw_tile, keeping the counter's high bits (kReadyOne) apart
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (threadIdx.x == 0) {
      const unsigned d = atomicAdd(counter, 1u);
      drawn = d;
      st.tile_slot = d % kReadyOne;
    }
    for (unsigned i = lane; i < kDigits; i += 32) st.s.warp_hist[warp][i] = 0;
    __syncthreads();
  }
  P::template ahead<THREADS, ITEMS, false, MIN_BLOCKS>(st.tile_slot, keys_in, nullptr, n);
  if (mode & (v08::kCheck | kCountedPass)) {
    if (copy_tile<THREADS, ITEMS>(st, mixed, keys_in, keys_out, n, pass, status, bases, mode,
                                  drawn / kReadyOne, cp))
      return;
  }
  v06::rank_and_scatter<THREADS, ITEMS, v06::kWindow, false, 0, SW, 0, P>(
      st, keys_in, nullptr, keys_out, nullptr, n, pass, status, bases);
  // The mode read again (from shared memory) rather than held through the ranking.
  if constexpr ((BITS & kCountNext) != 0)
    if (mode_s & kCountNext) count_staged_out_of_line<THREADS, ITEMS>(&st, n, pass, cp);
}

// The workspace of the counted passes, in order: [tile counters |
// histogram | look-back words | the counts of passes kFirstCounted.., kCountCodes x
// counts_stride(tiles) words each] (zeroed per sort), [bases | check words], [codes 4 x 256
// bytes | digit_of 4 x kCountCodes words], the key buffer.
inline size_t counts_stride(size_t tiles) { return (tiles + 1 + 3) / 4 * 4; }
inline size_t counts_words(size_t tiles) { return size_t(kCountCodes) * counts_stride(tiles); }
inline size_t counted_zeroed_bytes(size_t n) {
  const size_t tiles = ceil_div(n, kTile);
  return 256 + kPasses * kDigits * 4 + tiles * kDigits * sizeof(SW::Word) +
         (kPasses - kFirstCounted) * counts_words(tiles) * 4;
}
inline size_t counted_workspace_bytes(size_t n) {
  using v06::round256;
  return round256(counted_zeroed_bytes(n)) + round256(kPasses * kDigits * 4 + kPasses * 4) +
         round256(kPasses * kDigits + kPasses * kCountCodes * 4) + round256(n * sizeof(uint32_t));
}
// Workspace: the counted passes' where they run, v14's elsewhere.
inline size_t workspace_bytes(size_t n) {
  return std::max(v14::workspace_bytes(n), counted_workspace_bytes(n));
}

// Where a sort runs the counted passes: from kCountedFrom keys up to v10::kNarrowMax. Below,
// the counting and the column scans cost more than the look-back they save (on the H100, `few`
// at 2^24 and 25.6M keys took longer than v14's), and v15 runs v14.
inline constexpr size_t kCountedFrom = size_t(1) << 27;

// The first n that runs the counted passes on this device: kCountedFrom (or v12's large-tile
// threshold, if that is larger), or the count of keys in the environment variable
// LADDER_SORT_V15_COUNTED_FROM, which the tests set to run the counted passes at small sizes.
// Never below kCountCodes tiles: a counted pass's first 16 tiles scan its 16 columns of counts,
// and with fewer tiles its other tiles would wait for them forever. A value that is not a decimal
// count is reported once on stderr and ignored.
inline size_t counted_from() {
  static const size_t from_env = [] {  // 0: not set
    const char* e = std::getenv("LADDER_SORT_V15_COUNTED_FROM");
    if (!e) return size_t(0);
    char* end = nullptr;
    const unsigned long long x = std::strtoull(e, &end, 10);
    if (end != e && *end == '\0' && e[0] != '-') return static_cast<size_t>(x);
    std::fprintf(stderr,
                 "sort v15: LADDER_SORT_V15_COUNTED_FROM=%s is not a count of keys; ignored\n", e);
    return size_t(0);
  }();
  const size_t from = from_env ? from_env : std::max(kCountedFrom, v12::large_from(false));
  return std::max(from, size_t(kCountCodes) * kTile);
}

// The workspace's parts (counted_workspace_bytes(n) bytes at ws; see there).
struct Parts {
  unsigned* counters;  // the passes' tile counters
  unsigned* hist;
  SW::Word* status;
  unsigned* counts;  // passes kFirstCounted.. (counts_words each)
  size_t zeroed;     // bytes from ws that are zeroed per sort
  unsigned* bases;
  unsigned* check;
  unsigned char* code;
  unsigned* digit_of;
  uint32_t* key_buf;
};
inline Parts parts_of(void* ws, size_t n) {
  using v06::round256;
  const size_t tiles = ceil_div(n, kTile);
  Parts r;
  char* p = static_cast<char*>(ws);
  r.counters = reinterpret_cast<unsigned*>(p);
  r.hist = reinterpret_cast<unsigned*>(p + 256);
  r.status = reinterpret_cast<SW::Word*>(p + 256 + kPasses * kDigits * 4);
  r.counts = reinterpret_cast<unsigned*>(r.status + tiles * kDigits);
  r.zeroed = counted_zeroed_bytes(n);
  char* q = p + round256(r.zeroed);
  r.bases = reinterpret_cast<unsigned*>(q);
  r.check = r.bases + kPasses * kDigits;
  q += round256(kPasses * kDigits * 4 + kPasses * 4);
  r.code = reinterpret_cast<unsigned char*>(q);
  r.digit_of = reinterpret_cast<unsigned*>(q + kPasses * kDigits);
  q += round256(kPasses * kDigits + kPasses * kCountCodes * 4);
  r.key_buf = reinterpret_cast<uint32_t*>(q);
  return r;
}

// Pass `pass` (0..3) of the sort of keys_in[0, n) into keys_out onto `stream`: v14's kernel for
// bits 0, else counted_kernel compiled for `bits` (kCountedPass and/or kCountNext). w: the
// workspace's parts. Passes read and write in -> buffer -> out -> buffer -> out.
inline void pass_on(const uint32_t* keys_in, uint32_t* keys_out, size_t n, const Parts& w,
                    unsigned pass, unsigned bits, cudaStream_t stream) {
  using P = v14::Policy;  // v14's prefetch
  const size_t tiles = ceil_div(n, kTile);
  const unsigned grid = static_cast<unsigned>(tiles);
  const auto counts_of = [&](unsigned p) {
    return p >= kFirstCounted && p < kPasses ? w.counts + (p - kFirstCounted) * counts_words(tiles)
                                             : nullptr;
  };
  const uint32_t* src = pass == 0 ? keys_in : pass % 2 ? w.key_buf : keys_out;
  uint32_t* dst = pass % 2 ? keys_out : w.key_buf;
  Counted cp;
  cp.offsets = counts_of(pass);
  cp.code = w.code + pass * kDigits;
  cp.digit_of = w.digit_of + pass * kCountCodes;
  cp.counter = w.counters + pass;
  cp.next_counts = counts_of(pass + 1);
  cp.next_code = pass + 1 < kPasses ? w.code + (pass + 1) * kDigits : nullptr;
  cp.stride = static_cast<unsigned>(counts_stride(tiles));
  const auto run = [&](auto kernel) {
    kernel<<<grid, kThreads, 0, stream>>>(src, dst, n, pass, w.counters + pass, w.status,
                                          w.bases + pass * kDigits, w.check + pass, cp);
  };
  if (bits == 0)
    v08::onesweep_kernel<kThreads, kItems, v06::kWindow, false, v12::kMinBlocks, v08::kScWindow, SW,
                         0, P>
        <<<grid, kThreads, 0, stream>>>(src, nullptr, dst, nullptr, n, pass, w.counters + pass,
                                        w.status, w.bases + pass * kDigits, w.check + pass);
  else if (bits == kCountNext)
    run(counted_kernel<kThreads, kItems, v12::kMinBlocks, P, kCountNext>);
  else if (bits == kCountedPass)
    run(counted_kernel<kThreads, kItems, v12::kMinBlocks, P, kCountedPass>);
  else
    run(counted_kernel<kThreads, kItems, v12::kMinBlocks, P, kCountedPass | kCountNext>);
}

// Builds the sort of keys_in[0, n) into keys_out as a CUDA graph (counted_from() <= n <=
// v10::kNarrowMax): the zeroing, the histogram, bases_codes_kernel and pass 0 (v14's kernel; it
// is never counted and, with kFirstCounted = 2, counts nothing), then one switch node whose
// condition bases_codes_kernel sets on the GPU, with a body for each combination of passes 2 and
// 3 counted. A body runs passes 1 to 3, each with v14's kernel where the pass is not counted and
// counts nothing, else counted_kernel compiled for the bits that pass uses. So an input with many
// digit values in every pass runs v14's kernels, byte for byte: compiled into one kernel with
// the counting, v14's ranking ran 2 to 7% slower (the lab notes). cs: a stream to capture on.
// build_into adds those nodes to g, an empty graph (sort v16 builds the sort into a body of its
// own conditional node); outside [counted_from(), v10::kNarrowMax] it captures v14's launches.
inline cudaError_t build_into(cudaGraph_t g, const uint32_t* keys_in, uint32_t* keys_out, size_t n,
                              void* ws, cudaStream_t cs) {
  if (n < counted_from() || n > v10::kNarrowMax) {
    cudaError_t e =
        cudaStreamBeginCaptureToGraph(cs, g, nullptr, nullptr, 0, cudaStreamCaptureModeRelaxed);
    if (e != cudaSuccess) return e;
    const cudaError_t launched = v14::launch(keys_in, keys_out, n, ws, cs);
    cudaGraph_t captured = nullptr;
    e = cudaStreamEndCapture(cs, &captured);
    return launched != cudaSuccess ? launched : e;
  }
  const Parts w = parts_of(ws, n);
  const auto pass_on_cs = [&](unsigned pass, unsigned bits) {
    pass_on(keys_in, keys_out, n, w, pass, bits, cs);
  };
  cudaGraphConditionalHandle chain{};
  cudaError_t e = cudaGraphConditionalHandleCreate(&chain, g, 0, 0);
  // The prologue, captured into g.
  if (e == cudaSuccess)
    e = cudaStreamBeginCaptureToGraph(cs, g, nullptr, nullptr, 0, cudaStreamCaptureModeRelaxed);
  if (e == cudaSuccess) {
    cudaMemsetAsync(ws, 0, w.zeroed, cs);
    v09::striped_histogram(keys_in, n, w.hist, cs);
    bases_codes_kernel<<<1, kDigits, 0, cs>>>(w.hist, w.bases, w.check, w.code, w.digit_of, chain,
                                              true);
    pass_on_cs(0, 0);
    cudaStreamCaptureStatus status;
    const cudaGraphNode_t* deps = nullptr;
    size_t ndeps = 0;
    e = cudaStreamGetCaptureInfo(cs, &status, nullptr, nullptr, &deps, nullptr, &ndeps);
    cudaGraphNode_t last = e == cudaSuccess && ndeps == 1 ? deps[0] : nullptr;
    cudaGraph_t captured = nullptr;
    const cudaError_t end = cudaStreamEndCapture(cs, &captured);
    if (e == cudaSuccess) e = end != cudaSuccess ? end : last ? cudaSuccess : cudaErrorUnknown;
    // The switch after pass 0, and its four bodies.
    cudaGraphNodeParams np = {};
    np.type = cudaGraphNodeTypeConditional;
    np.conditional.handle = chain;
    np.conditional.type = cudaGraphCondTypeSwitch;
    np.conditional.size = 4;
    cudaGraphNode_t node;
    if (e == cudaSuccess) e = cudaGraphAddNode(&node, g, &last, nullptr, 1, &np);
    for (unsigned v = 0; v < 4 && e == cudaSuccess; ++v) {
      const bool counted2 = v & 2, counted3 = v & 1;
      e = cudaStreamBeginCaptureToGraph(cs, np.conditional.phGraph_out[v], nullptr, nullptr, 0,
                                        cudaStreamCaptureModeRelaxed);
      if (e != cudaSuccess) break;
      pass_on_cs(1, counted2 ? kCountNext : 0u);
      pass_on_cs(2, (counted2 ? kCountedPass : 0u) | (counted3 ? kCountNext : 0u));
      pass_on_cs(3, counted3 ? kCountedPass : 0u);
      e = cudaStreamEndCapture(cs, &captured);
    }
  }
  return e;
}
inline cudaError_t build_graph(const uint32_t* keys_in, uint32_t* keys_out, size_t n, void* ws,
                               cudaStream_t cs, cudaGraphExec_t* exec) {
  cudaGraph_t g = nullptr;
  cudaError_t e = cudaGraphCreate(&g, 0);
  if (e != cudaSuccess) return e;
  e = build_into(g, keys_in, keys_out, n, ws, cs);
  if (e == cudaSuccess) e = cudaGraphInstantiate(exec, g, 0);
  cudaGraphDestroy(g);
  return e;
}

// The sort launcher contract (sort/sort.h). ws: workspace_bytes(n) (unused up to 16,384 keys).
// From counted_from() keys up to v10::kNarrowMax, the graph of build_graph, launched on `stream`;
// elsewhere v14. A graph is built on the first call for its (device, keys_in, keys_out, n, ws)
// and kept (sort/graph_cache.h). Not safe to call from two host threads at once. Errors: those
// of the CUDA calls (a graph that could not be built is not kept).
inline cudaError_t launch(const uint32_t* keys_in, uint32_t* keys_out, size_t n, void* ws,
                          cudaStream_t stream) {
  if (n < counted_from() || n > v10::kNarrowMax)
    return v14::launch(keys_in, keys_out, n, ws, stream);
  // LADDER_NO_GRAPHS set (scripts/ncu_counters.sh sets it: Nsight Compute does not profile the
  // kernels of a conditional node's body): the same launches with no graph, each pass's kernel
  // chosen on the host after reading the modes back. That waits on the GPU: time it only with
  // --no-blocking.
  static const bool no_graphs = std::getenv("LADDER_NO_GRAPHS") != nullptr;
  if (no_graphs) {
    const Parts w = parts_of(ws, n);
    cudaError_t e = cudaMemsetAsync(ws, 0, w.zeroed, stream);
    if (e == cudaSuccess) e = v09::striped_histogram(keys_in, n, w.hist, stream);
    if (e != cudaSuccess) return e;
    bases_codes_kernel<<<1, kDigits, 0, stream>>>(w.hist, w.bases, w.check, w.code, w.digit_of,
                                                  cudaGraphConditionalHandle{}, false);
    unsigned modes[kPasses];
    e = cudaMemcpyAsync(modes, w.check, sizeof(modes), cudaMemcpyDeviceToHost, stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
    if (e != cudaSuccess) return e;
    for (unsigned pass = 0; pass < kPasses; ++pass)
      pass_on(keys_in, keys_out, n, w, pass, modes[pass] & (kCountedPass | kCountNext), stream);
    return cudaGetLastError();
  }
  static GraphCache cache;
  return cache.launch(keys_in, keys_out, ws, n, stream,
                      [&](cudaStream_t cs, cudaGraphExec_t* exec) {
                        return build_graph(keys_in, keys_out, n, ws, cs, exec);
                      });
}

// Every boundary of the dispatch on this device: v14's, and the last size before the graph.
inline std::vector<size_t> dispatch_bounds() {
  std::vector<size_t> b = v14::dispatch_bounds();
  if (counted_from() <= v10::kNarrowMax) b.push_back(counted_from() - 1);
  std::sort(b.begin(), b.end());
  return b;
}

}  // namespace ladder::sort::v15
