// copy_if/lab/probe_v06_oracle.cu — what is v06's look-ahead's price made of? Not part of the
// binary. At 2^28 and 50% kept on the H200, v09 (v06's pipeline, no clear) takes about 11 µs more
// than v07 (the same pipeline unordered: copy_if/lab/LAB_NOTES.md, "Scan v18's epoch statuses on
// v06: v09"), and earlier probes found little of that in the waits for lower tiles or in the
// clear. This probe's kernel is v06's (as v09 has it) with the offset of each tile taken one of two
// other ways, and its run stored one of two ways, everything else the same (stages, barriers):
//   oracle   the look-ahead warp loads the tile's offset from an array of exclusive prefix sums
//            of the per-tile counts, computed on the host from the input before any timing: the
//            same ordered placement as v06, with none of its look-ahead (no status publish, no
//            polls of other blocks' statuses, no waits, no epoch), one 4-byte load a tile;
//   atomic   the look-ahead warp only answers; the compact-store warps take the tile's range with
//            one atomicAdd once it is compacted, as v07 does: placement in completion order;
//   16 B     v06's stores: 16-byte, from the run's first 16-byte boundary;
//   4 B      v07's stores: 4-byte, streaming (__stcs).
// (atomic with 16-byte stores is copy_if/lab/probe_v06_stores.cu's "atomic vec plain pad 0", which
// was slower than v07's 4-byte stores there: the lab notes, "Conflict-free 16-byte stores".)
// Beside them, with the benchmark's timing (common/probe_timer.cuh: L2 flushed, 31-launch medians,
// three interleaved rounds), on the same input: CUB, v09 as shipped (its own workspace, zeroed
// once), v07 as shipped (its two memsets inside the timing) and v07's kernel with them before it.
// Reading: oracle 16 B against v09 is the look-ahead's price with v06's stores (its reads, polls,
// waits and publishes); oracle against atomic at the same stores is the ordered placement (and
// the atomic's round trip on the store's path); 16 B against 4 B the stores under each placement.
// Checks: the ordered cases' outputs against CUB's (count and elements); the unordered ones by
// their count and by the sum and xor of their kept values (atomic's count is its range counter's
// final value). A control per input must fail: oracle with tile 1's offset one too large.
// At 2^28 (keep1, keep50, keep99), 2^26 and 2^24 (keep50). The inputs are the epoch probe's (a
// linear congruential sequence: which of an int4's four elements can be kept depends on its
// position), so the two probes compare; they are not the benchmark's.
// With the argument `seq` (its first run's answer: the look-ahead is the whole price), the cases
// are CUB, v09, oracle 16 B, v07 and the sequencer forms instead: one warp of block 0 reads every
// status once, in order, and writes each tile's exclusive prefix to an array of its own, a warp
// store per 32 tiles, so that the lines the look-aheads poll are written by one warp in bursts (the
// scan lab notes, "Who writes a polled line": other blocks' writes to polled lines cost the data
// path, one burst from one block does not); each block's look-ahead polls its tile's prefix, one
// word. The statuses and prefixes carry v09's epoch tags (never cleared). Windows of 16 or 8 x 32
// statuses; the polls back to back or 100 ns apart. Control: the epoch set back by one (stale
// prefixes).
// `stages` (v09's look-ahead and the oracle on six and seven stages) and `prepub` (v09's look-ahead
// on statuses published before the launch) are described where they are declared. `grouped`
// (written in session 28, not yet run): a look-ahead that reads one word for each whole group of
// 32 tiles between its last claim and its new one, and statuses only for the partial group at its
// start, a group not yet complete and the last 1, 2 or 4 groups below its tile: about 7 lines a
// claim instead of 17. Each tile's reduce adds (1 << 32) + its count into its group's word with
// one atomic (no return); a group is complete when its word holds 32 arrivals. Launch e adds into
// array e & 1; its last claimer clears array (e + 1) & 1, which the launch before used and the
// next one will, so no clear sits between launches. Its controls: the epoch set back by one, and
// every group word preset to 1 (each complete group's sum then one too large: the group words are
// shown in use); then one counted launch a tail (STATS) prints passes, short passes, group words
// and statuses per claim, so that a timing can be read against what the look-ahead did. `wide`
// (written in session 28, not yet run): one block an SM with v06's squads twice as wide (8 + 8
// warps, 4 int4 a thread, the same 4,096-element tile) and twelve stages, so that half as many
// look-aheads read the statuses (v09's look-ahead, the grouped one, and the oracle in that shape).
// Twelve stages keep v06's bytes in flight an SM (two blocks of six). One producer and one
// look-ahead an SM also serve tiles twice as fast, so read a wide form against the wide oracle.
// `spread` (session 29, after `grouped`'s first run: 13% faster than v09 at keep1, 2% slower at
// keep50): `grouped` with its group words GS words apart (4: one 32-byte sector each; 16: one
// 128-byte line each) instead of adjacent, where sixteen adjacent words share a line that the
// reduces' atomics write 512 times while every look-ahead polls it (the scan lab notes, "Who
// writes a polled line"). Each stride runs on a workspace of its own (a launch clears the next
// launch's array at its own stride). Its controls: every group word preset to 1, for each form.
// `lat`, `lat2`, `lat3`, `lat4`, `batch`, `paired`, `paired2`, `rewind` and `fused` (session 30)
// are described where their cases are declared. `gprepub` (session 29, after v10): v10's look-ahead
// (`spread`'s words 4 apart, tail 1) on statuses and group words published before the launch (a
// fill launch per input, the epoch then set back), with no writes (PUB 1) or the statuses written
// again (PUB 2), beside v09's look-ahead on statuses published before (`prepub`'s PUB 1): with
// nothing written during the launch and no tile to wait for, is v10's look-ahead as fast as the
// oracle? Control: group 0's word one too large in the filled array (tiles past group 0 read it),
// then as it was.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. copy_if/lab/probe_v06_oracle.cu common/device.cu -o p &&
//   timeout 400 ./p     (or `cmake --build <build> --target copy_if_probe_v06_oracle`)
#include <cub/device/device_select.cuh>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "common/bulk_copy.cuh"
#include "common/device.h"
#include "common/probe_timer.cuh"
#include "copy_if/lab/batched_lookahead.cuh"
#include "copy_if/lab/group_word_head.cuh"
#include "copy_if/lab/one_reduction.cuh"
#include "copy_if/lab/paired_claims.cuh"
#include "copy_if/lab/paired_stagewise.cuh"
#include "copy_if/v06_warp_specialized.cuh"
#include "copy_if/v07_pipelined_unordered.cuh"
#include "copy_if/v09_epoch_statuses.cuh"
#include "copy_if/v10_group_sums.cuh"
#include "scan/warp_scan.cuh"

using namespace ladder;
using namespace ladder::copy_if;

namespace {

enum class Mode { kOracle, kAtomic, kSequencer, kLookahead, kGrouped };

namespace lb = scan::lookback;
// kSequencer's workspace (`seq`, argument below): a 16-byte header (claim counter, epoch, as
// v09's), the statuses of lookback's layout (at most kMaxTiles), then the prefixes, kMaxTiles
// words.
inline constexpr size_t kMaxTiles = (size_t(1) << 28) / v06::kTile;
inline lb::Status* seq_status(void* ws) { return lb::tile_status(static_cast<char*>(ws) + 16); }
inline lb::Status* seq_prefix(void* ws) { return seq_status(ws) + kMaxTiles; }
inline constexpr size_t kSeqBytes = 32 + 2 * kMaxTiles * sizeof(lb::Status);
// kGrouped: the group sums, two arrays of kMaxGroups words (launch e adds into array e & 1 and its
// last claimer clears array (e + 1) & 1 for the next launch), where the sequencer's prefixes are.
inline constexpr unsigned kGroup = 32;  // tiles a group
inline constexpr size_t kMaxGroups = kMaxTiles / kGroup;
static_assert(2 * kMaxGroups <= kMaxTiles, "both group arrays fit in the prefixes' place");

// v06's kernel for 16-byte aligned input (v09::epoch_kernel<true> without the statuses). counter:
// the claim counter (the launch's last claim sets it back to 0, as v09 does); ranges: kAtomic's
// range counter, zero at launch, in an allocation of its own (as v07's `count`); oracle: kOracle's
// exclusive prefix sums, one per tile. STCS: v07's 4-byte streaming stores, else v06's 16-byte.
// kSequencer's block: v06's ten warps and the sequencer's; two blocks an SM, as v06's.
// LA: look-ahead warps (`lat`): claim i goes to look-ahead i mod LA.
template <Mode MODE, unsigned WQ = 1, unsigned LA = 1>
inline constexpr unsigned kThreads = (2 * v06::kWarps * WQ + 1 + LA) * 32 +
                                     (MODE == Mode::kSequencer ? 32 : 0);

// kLookahead: v09's look-ahead and statuses (its epoch_kernel<true>, in this file's copy of v06's
// kernel), on the sequencer's workspace. NS: stages; seven fit two blocks an SM only with 2-byte
// chunk offsets (static shared memory at most 1 KiB: 7 x 16 KiB + 1 KiB reserved a block, twice,
// is 228 KiB less 424 bytes).
// PUB (kLookahead): 0 publishes each count under the launch's epoch and advances it, as v09; 1 and
// 2 run on statuses already published under the epoch in the header (`prepub`: a launch with PUB 0
// on the same input filled them, and the epoch was set back), which they leave as it is: 1 writes
// no status, 2 publishes each count again (the same word, while other blocks poll its line).
// PUB (kGrouped, `gprepub`): 1 and 2 as for kLookahead, on statuses and group words that a launch
// with PUB 0 filled: neither adds to a group word nor clears the other array.
// STATS (kGrouped): the look-ahead counts its claims, passes, passes that ended short, group words
// and statuses used, and adds them to ranges[0..4] when it ends (a launch outside the timing).
// `lat` (session 30): DLY, a spin of DLY SM cycles in the look-ahead before it takes each tile's
// offset (the oracle made slower by a known amount); LA, the look-ahead warps (claim i goes to
// warp i mod LA, each with its own running count); START 1, each look-ahead waits for its tile's
// data to land before its first read (0: it reads at once; 2, `lat3`: until DLY cycles after the
// producer drew the claim, the same SM's clock); TIMES, SM cycles (clock64) summed over
// the launch into ranges[0..9], a launch outside the timing (ranges[10] and [11]: block 0's
// producer's cycles and global-timer ns from its start to its end, for the clock): [0] claims, [1]
// the look-ahead's cycles from a claim's arrival to its offset's, [2] its passes, [9] its wait for
// a claim; [3] the compact-store's wait for the offset, [4] its wait for the reduce, [5] its tiles;
// [6] the producer's wait for an empty stage, [7] its claim's atomic round trip; [8] the reduce's
// wait for the data.
__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

template <Mode MODE, bool STCS, unsigned SW = 16, unsigned NAP = 0, unsigned NS = v06::kStages,
          unsigned PUB = 0, bool STATS = false, unsigned WQ = 1, unsigned GS = 1, unsigned DLY = 0,
          unsigned LA = 1, bool TIMES = false, unsigned START = 0>
__global__ void __launch_bounds__(kThreads<MODE, WQ, LA>,
                                  MODE == Mode::kSequencer || LA > 1 || TIMES ? 2 : 1)
    probe_kernel(const int32_t* __restrict__ in, int32_t* __restrict__ out,
                 unsigned long long* count, size_t n, unsigned tiles, unsigned* counter,
                 unsigned long long* ranges, const unsigned* __restrict__ oracle,
                 lb::Status* status, lb::Status* prefix) {
  using v06::kTile;
  // WQ: v06's squads WQ times as wide (W warps each) with V int4 a thread, the same tile of kTile
  // elements; with WQ = 2 and twelve stages, one block an SM (half the look-aheads)
  constexpr unsigned W = v06::kWarps * WQ, V = v06::kVectors / WQ, T = W * 32;
  static_assert(W * V == v06::kWarps * v06::kVectors, "v06's tile");
  using Chunk = std::conditional_t<(NS > 6), uint16_t, unsigned>;  // a tile's offsets fit 16 bits
  constexpr unsigned kChunks = V * W;
  static_assert(kChunks == 32, "one lane of reduce warp 0 per chunk");
  constexpr unsigned kStageVecs = v06::stage_vecs<true>;
  extern __shared__ __align__(bulk::kStageAlign) int4 stage_data[];
  __shared__ alignas(8) unsigned long long full[NS], claimed[NS], reduced[NS], prefixed[NS],
      empty[NS];
  __shared__ unsigned tile_of[NS];
  __shared__ long long claim_clock[NS];  // START 2: when the producer drew each stage's claim
  __shared__ Chunk chunk_offset[NS][kChunks];
  __shared__ unsigned tile_count[NS], tile_offset[NS];

  const KeepPositive keep;
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  // kSequencer: v09's epoch (read before the barrier and any claim) and tag
  static_assert(2 * kMaxGroups * GS <= kMaxTiles, "both group arrays fit at stride GS");
  static_assert(WQ == 1 || MODE != Mode::kSequencer, "the sequencer's block is v06's, two an SM");
  static_assert(LA == 1 || (MODE != Mode::kSequencer && NS % LA == 0),
                "LA look-aheads: each stage served by one of them");
  constexpr bool kTagged =
      MODE == Mode::kSequencer || MODE == Mode::kLookahead || MODE == Mode::kGrouped;
  const uint32_t epoch = kTagged ? counter[1] : 0;
  const uint32_t flag = lb::kTagBit | epoch;
  // kGrouped: this launch's group sums (`prefix` is their place) and the next launch's, which the
  // last claimer clears
  unsigned long long* const my_groups =
      MODE == Mode::kGrouped ? prefix + (epoch & 1) * kMaxGroups * GS : nullptr;
  unsigned long long* const next_groups =
      MODE == Mode::kGrouped ? prefix + ((epoch + 1) & 1) * kMaxGroups * GS : nullptr;
  if (threadIdx.x == 0) {
    for (unsigned s = 0; s < NS; ++s) {
      bulk::barrier_init(&full[s], 32);
      bulk::barrier_init(&claimed[s], 1);
      bulk::barrier_init(&reduced[s], 32);
      bulk::barrier_init(&prefixed[s], 1);
      bulk::barrier_init(&empty[s], T);
    }
  }
  __syncthreads();

  if (warp == 2 * W) {
    // ---- Producer (v06's, aligned) ----
    // LA > 1: after the block's first claim past the end, LA - 1 more stages get the end marker
    // (`ends` counts them), so that the other look-aheads, waiting on the next stages, end too.
    unsigned ends = 0;
    unsigned long long tm_empty = 0, tm_claim = 0;
    const long long p0 = TIMES ? clock64() : 0;  // block 0: the SM clock against the global timer
    const unsigned long long g0 = TIMES ? global_ns() : 0;
    for (unsigned i = 0;; ++i) {
      const unsigned s = i % NS, round = i / NS;
      const long long c0 = TIMES ? clock64() : 0;
      if (round > 0) bulk::wait(&empty[s], (round - 1) & 1);
      const long long c1 = TIMES ? clock64() : 0;
      unsigned t = tiles;
      if (ends == 0) {
        if (lane == 0) t = atomicAdd(counter, 1u);
        if (lane == 0 && t == tiles + gridDim.x - 1) {  // the launch's last claim
          counter[0] = 0;
          if (kTagged && PUB == 0) counter[1] = (epoch + 1) & ~lb::kTagBit;
        }
        t = __shfl_sync(0xffffffffu, t, 0);
        if (MODE == Mode::kGrouped && PUB == 0 && t == tiles + gridDim.x - 1)  // the previous sums
          for (size_t k = lane; k < kMaxGroups; k += 32) next_groups[k * GS] = 0;
      }
      if (TIMES) {
        tm_empty += c1 - c0;
        if (ends == 0) tm_claim += clock64() - c1;
      }
      if (lane == 0) {
        tile_of[s] = t;
        if (START == 2) claim_clock[s] = clock64();
        bulk::arrive(&claimed[s]);
      }
      if (t >= tiles) {
        bulk::arrive(&full[s]);
        if (++ends < LA) continue;
        if (TIMES && lane == 0) {
          atomicAdd(ranges + 6, tm_empty);
          atomicAdd(ranges + 7, tm_claim);
          if (blockIdx.x == 0) {
            ranges[10] = static_cast<unsigned long long>(clock64() - p0);
            ranges[11] = global_ns() - g0;
          }
        }
        break;
      }
      const size_t base = size_t(t) * kTile;
      int4* dst = stage_data + size_t(s) * kStageVecs;
      if (LADDER_HAS_BULK_COPY && base + kTile <= n) {
        if (lane == 0)
          bulk::load(dst, in + base, unsigned(v06::copy_vecs<true> * sizeof(int4)), &full[s]);
        else
          bulk::arrive(&full[s]);
      } else {
        int32_t* d = reinterpret_cast<int32_t*>(dst);
        for (size_t k = lane; k < kTile; k += 32) d[k] = base + k < n ? in[base + k] : 0;
        bulk::fence_proxy_async_shared();
        bulk::arrive(&full[s]);
      }
    }
  } else if (warp >= 2 * W + 1 && warp < 2 * W + 1 + LA) {
    // ---- Look-ahead: the oracle's offset, or (kAtomic) only the answer; with LA > 1, claims
    // i = k, k + LA, ... for k = warp - 2W - 1 ----
    size_t counted = 0;  // kLookahead: v09's running count of tiles [0, counted)
    unsigned sum = 0;
    unsigned long long n_claims = 0, n_passes = 0, n_short = 0, n_groups = 0, n_statuses = 0;
    unsigned long long tm_la = 0, tm_idle = 0, tm_loads = 0, tm_rest = 0;
    long long pass_mark = 0;  // TIMES: when the current pass's loads were all back
    uint32_t sink = 0;        // keeps the shuffle of the loads
    for (unsigned i = warp - (2 * W + 1);; i += LA) {
      const unsigned s = i % NS, round = i / NS;
      const long long c0 = TIMES ? clock64() : 0;
      bulk::wait(&claimed[s], round & 1);
      const long long c1 = TIMES ? clock64() : 0;
      const unsigned t = tile_of[s];
      if (t >= tiles) break;
      if (START == 1) bulk::wait(&full[s], round & 1);  // the tile's own data has landed
      if (START == 2) {  // DLY cycles after the claim, so that the tiles below it are published
        const long long due = claim_clock[s] + DLY;
        while (clock64() < due) {
        }
      }
      if (DLY && START != 2) {
        const long long d0 = clock64();
        while (clock64() - d0 < DLY) {
        }
      }
      if (MODE == Mode::kLookahead)
        lb::advance_to<v06::kWindow>(status, t, counted, sum, lb::TaggedWith{flag});
      if (MODE == Mode::kGrouped) {
        // v09's running count, from one word a group where whole groups of kGroup tiles lie
        // between `counted` and t, and from the statuses elsewhere: the partial group at
        // `counted`, a group found incomplete (`stuck`), and the last SW groups below t, whose
        // tiles are the likeliest to be in flight. Each pass issues every load before using any:
        // at most 32 head statuses, 32 group words and SW x 32 tail statuses.
        constexpr size_t G = kGroup;
        bool stuck = false;
        ++n_claims;
        while (counted < t) {
          ++n_passes;
          const size_t up = (counted + G - 1) / G * G;
          const size_t head_end = stuck
                                      ? min(size_t(t), counted + (up == counted ? G : up - counted))
                                      : min(size_t(t), up);
          const size_t ft = size_t(t) / G * G, back = size_t(SW - 1) * G;
          size_t tail_start = max(head_end, ft > back ? ft - back : size_t(0));
          size_t ng = (tail_start - head_end) / G;
          size_t tail_end = min(size_t(t), tail_start + size_t(SW) * 32);
          if (ng > 32) {  // the rest in later passes; no tail in this one
            ng = 32;
            tail_start = tail_end = head_end + 32 * G;
          }
          const unsigned nh = unsigned(head_end - counted);
          const long long l0 = TIMES ? clock64() : 0;
          if (TIMES && pass_mark) tm_rest += l0 - pass_mark;  // the last pass's use of its loads
          const lb::Status hw = lane < nh ? lb::peek(status + counted + lane) : 0;
          const lb::Status gw = lane < ng ? lb::peek(my_groups + (head_end / G + lane) * GS) : 0;
          lb::Status tw[SW];
#pragma unroll
          for (unsigned k = 0; k < SW; ++k) {
            const size_t idx = tail_start + 32 * k + lane;
            tw[k] = idx < tail_end ? lb::peek(status + idx) : 0;
          }
          if (TIMES) {  // `lat4`: every load back (a shuffle of all of them), then the clock
            uint32_t all = uint32_t(hw >> 32) ^ uint32_t(gw >> 32);
#pragma unroll
            for (unsigned k = 0; k < SW; ++k) all ^= uint32_t(tw[k] >> 32);
            sink ^= __shfl_sync(0xffffffffu, all, 31);
            pass_mark = clock64();
            tm_loads += pass_mark - l0;
          }
          stuck = true;  // unless every load of the pass counts
          unsigned ok = __ballot_sync(0xffffffffu, lane < nh && uint32_t(hw >> 32) == flag);
          unsigned run = min(nh, ~ok ? unsigned(__ffs(~ok)) - 1 : 32u);
          sum += __reduce_add_sync(0xffffffffu, lane < run ? uint32_t(hw) : 0u);
          counted += run;
          n_statuses += run;
          if (run < nh) {
            ++n_short;
            continue;
          }
          ok = __ballot_sync(0xffffffffu, lane < ng && uint32_t(gw >> 32) == G);
          run = min(unsigned(ng), ~ok ? unsigned(__ffs(~ok)) - 1 : 32u);
          sum += __reduce_add_sync(0xffffffffu, lane < run ? uint32_t(gw) : 0u);
          counted += size_t(run) * G;
          n_groups += run;
          if (run < ng) {
            ++n_short;
            continue;
          }
          bool whole = true;
#pragma unroll
          for (unsigned k = 0; k < SW; ++k) {
            const size_t base = tail_start + 32 * k;
            if (!whole || base >= tail_end) break;
            const unsigned nv = unsigned(min(size_t(32), tail_end - base));
            ok = __ballot_sync(0xffffffffu, lane < nv && uint32_t(tw[k] >> 32) == flag);
            run = min(nv, ~ok ? unsigned(__ffs(~ok)) - 1 : 32u);
            sum += __reduce_add_sync(0xffffffffu, lane < run ? uint32_t(tw[k]) : 0u);
            counted += run;
            n_statuses += run;
            whole = run == nv;
          }
          stuck = !whole;
          n_short += stuck;
        }
        if (TIMES && pass_mark) {
          tm_rest += clock64() - pass_mark;
          pass_mark = 0;
        }
      }
      if (lane == 0) {
        if (MODE == Mode::kOracle) {
          const long long l0 = TIMES ? clock64() : 0;
          tile_offset[s] = __ldcg(oracle + t);
          if (TIMES) tm_loads += clock64() - l0;  // the load back (the store waits for it)
        }
        if (MODE == Mode::kLookahead || MODE == Mode::kGrouped) tile_offset[s] = sum;
        if (MODE == Mode::kSequencer) {  // the tile's prefix, once the sequencer has written it
          lb::Status w;
          while (uint32_t((w = lb::peek(prefix + t)) >> 32) != flag)
            if (NAP) __nanosleep(NAP);
          tile_offset[s] = static_cast<uint32_t>(w);
        }
        bulk::arrive(&prefixed[s]);
      }
      if (TIMES) {
        tm_la += clock64() - c1;
        tm_idle += c1 - c0;
        if (MODE != Mode::kGrouped) ++n_claims;
      }
    }
    if (TIMES && lane == 0) {
      atomicAdd(ranges + 0, n_claims);
      atomicAdd(ranges + 1, tm_la);
      atomicAdd(ranges + 2, n_passes);
      atomicAdd(ranges + 9, tm_idle);
      atomicAdd(ranges + 12, tm_loads);
      atomicAdd(ranges + 13, tm_rest + (sink == 0x9e3779b9u));
    }
    if (STATS && lane == 0) {
      atomicAdd(ranges + 0, n_claims);
      atomicAdd(ranges + 1, n_passes);
      atomicAdd(ranges + 2, n_short);
      atomicAdd(ranges + 3, n_groups);
      atomicAdd(ranges + 4, n_statuses);
    }
  } else if (MODE == Mode::kSequencer && warp == 2 * W + 2) {
    // ---- Sequencer (block 0's only): every status in order, once; the exclusive prefixes out ----
    // Each round trip loads SW x 32 statuses from the first not yet turned (all loads before any
    // use), turns the run of this launch's statuses from there into exclusive prefixes (a warp
    // scan a 32) and stores them to `prefix` under the same tag, one warp store a 32: the lines
    // the look-aheads poll are written by this warp alone, in bursts. The other blocks' warp ends.
    if (blockIdx.x != 0) return;
    unsigned done = 0, sum = 0;
    while (done < tiles) {
      lb::Status word[SW];
#pragma unroll
      for (unsigned j = 0; j < SW; ++j) {
        const unsigned k = done + 32 * j + lane;
        word[j] = k < tiles ? lb::peek(status + k) : 0;
      }
#pragma unroll
      for (unsigned j = 0; j < SW; ++j) {
        const unsigned got = __ballot_sync(0xffffffffu, uint32_t(word[j] >> 32) == flag);
        const unsigned run = ~got ? __ffs(~got) - 1 : 32;
        const uint32_t v = lane < run ? static_cast<uint32_t>(word[j]) : 0u;
        const uint32_t incl = static_cast<uint32_t>(scan::warp_scan_inclusive(int32_t(v)));
        if (lane < run) lb::publish<uint32_t>(prefix + done + lane, flag, sum + incl - v);
        sum += __shfl_sync(0xffffffffu, incl, 31);
        done += run;
        if (run < 32) break;
      }
    }
  } else if (warp < W) {
    // ---- Reduce (v06's, nothing published) ----
    unsigned long long tm_full = 0;
    for (unsigned i = 0;; ++i) {
      const unsigned s = i % NS, round = i / NS;
      const long long c0 = TIMES ? clock64() : 0;
      bulk::wait(&full[s], round & 1);
      if (TIMES) tm_full += clock64() - c0;
      const unsigned t = tile_of[s];
      if (t >= tiles) {
        if (warp == 0) bulk::arrive(&reduced[s]);
        if (TIMES && threadIdx.x == 0) atomicAdd(ranges + 8, tm_full);
        break;
      }
      const int4* src = stage_data + size_t(s) * kStageVecs;
#pragma unroll
      for (unsigned u = 0; u < V; ++u) {
        const int4 x = bulk::staged_chunk_words<false>(src, 0, u * T + threadIdx.x, lane);
        const unsigned c =
            __reduce_add_sync(0xffffffffu, unsigned(keep(x.x)) + keep(x.y) + keep(x.z) + keep(x.w));
        if (lane == 0) chunk_offset[s][u * W + warp] = c;
      }
      asm volatile("bar.sync 1, %0;" ::"n"(T) : "memory");
      if (warp == 0) {
        const int32_t mine = static_cast<int32_t>(chunk_offset[s][lane]);
        const int32_t incl = scan::warp_scan_inclusive(mine);
        chunk_offset[s][lane] = static_cast<Chunk>(incl - mine);
        const unsigned total = static_cast<unsigned>(__shfl_sync(0xffffffffu, incl, 31));
        if (lane == 0) {
          tile_count[s] = total;
          if (kTagged && PUB != 1) lb::publish<unsigned>(status + t, flag, total);
          if (MODE == Mode::kGrouped && PUB == 0)  // the group's sum and arrivals (a reduction)
            atomicAdd(my_groups + t / kGroup * GS, (1ull << 32) | total);
        }
        __syncwarp();
        bulk::arrive(&reduced[s]);
      }
    }
  } else {
    // ---- Compact-store (v06's; kAtomic takes the range as v07 does) ----
    const unsigned j = threadIdx.x - T, w = warp - W;
    unsigned long long tm_pre = 0, tm_red = 0, tm_tiles = 0;
    for (unsigned i = 0;; ++i) {
      const unsigned s = i % NS, round = i / NS;
      const long long c0 = TIMES ? clock64() : 0;
      bulk::wait(&reduced[s], round & 1);
      if (TIMES) tm_red += clock64() - c0;
      const unsigned t = tile_of[s];
      if (t >= tiles) {
        if (TIMES && j == 0) {
          atomicAdd(ranges + 3, tm_pre);
          atomicAdd(ranges + 4, tm_red);
          atomicAdd(ranges + 5, tm_tiles);
        }
        break;
      }
      int4* stage = stage_data + size_t(s) * kStageVecs;
      int4 x[V];
      unsigned rank[V];
#pragma unroll
      for (unsigned u = 0; u < V; ++u) {
        x[u] = bulk::staged_int4<false>(stage, 0, u * T + j);
        const int32_t c = keep(x[u].x) + keep(x[u].y) + keep(x[u].z) + keep(x[u].w);
        const int32_t incl = scan::warp_scan_inclusive(c);
        rank[u] = chunk_offset[s][u * W + w] + static_cast<unsigned>(incl - c);
      }
      asm volatile("bar.sync 2, %0;" ::"n"(T) : "memory");
      int32_t* compacted = reinterpret_cast<int32_t*>(stage);
#pragma unroll
      for (unsigned u = 0; u < V; ++u) {
        unsigned r = rank[u];
        if (keep(x[u].x)) compacted[r++] = x[u].x;
        if (keep(x[u].y)) compacted[r++] = x[u].y;
        if (keep(x[u].z)) compacted[r++] = x[u].z;
        if (keep(x[u].w)) compacted[r++] = x[u].w;
      }
      if (MODE == Mode::kAtomic && j == 0)
        tile_offset[s] =
            static_cast<unsigned>(atomicAdd(ranges, (unsigned long long)tile_count[s]));
      asm volatile("bar.sync 2, %0;" ::"n"(T) : "memory");
      const long long c2 = TIMES ? clock64() : 0;
      bulk::wait(&prefixed[s], round & 1);
      if (TIMES) {
        tm_pre += clock64() - c2;
        ++tm_tiles;
      }
      const unsigned total = tile_count[s], offset = tile_offset[s];
      int32_t* dst = out + offset;
      if (STCS) {
        for (unsigned k = j; k < total; k += T) __stcs(dst + k, compacted[k]);  // v07's
      } else {
        const unsigned mis = unsigned(reinterpret_cast<uintptr_t>(dst) / 4) & 3u;
        const unsigned head = min((4u - mis) & 3u, total);
        const unsigned body = (total - head) / 4;
        const unsigned tail = head + 4 * body;
        if (j < head) dst[j] = compacted[j];
        if (j < total - tail) dst[tail + j] = compacted[tail + j];
        int4* dst4 = reinterpret_cast<int4*>(dst + head);
        const int32_t* run = compacted + head;
        for (unsigned k = j; k < body; k += T)
          dst4[k] = make_int4(run[4 * k], run[4 * k + 1], run[4 * k + 2], run[4 * k + 3]);
      }
      bulk::fence_proxy_async_shared();
      if (MODE != Mode::kAtomic && j == 0 && t == tiles - 1)
        *count = static_cast<unsigned long long>(offset) + total;
      bulk::arrive(&empty[s]);
    }
  }
}

// kSequencer: counter is the header of `seq` (claim counter, epoch), its statuses and prefixes
// after it; the other modes pass null for both.
template <Mode MODE, bool STCS, unsigned SW = 16, unsigned NAP = 0, unsigned NS = v06::kStages,
          unsigned PUB = 0, bool STATS = false, unsigned WQ = 1, unsigned GS = 1, unsigned DLY = 0,
          unsigned LA = 1, bool TIMES = false, unsigned START = 0>
cudaError_t launch_probe(const int32_t* in, int32_t* out, unsigned long long* count, size_t n,
                         unsigned* counter, unsigned long long* ranges, const unsigned* oracle,
                         cudaStream_t stream, lb::Status* status = nullptr,
                         lb::Status* prefix = nullptr) {
  constexpr size_t kSmem = NS * size_t(v06::stage_vecs<true>) * sizeof(int4);
  auto kernel = probe_kernel<MODE, STCS, SW, NAP, NS, PUB, STATS, WQ, GS, DLY, LA, TIMES, START>;
  const cudaError_t e =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem));
  if (e != cudaSuccess) return e;
  static const size_t resident =
      resident_grid(reinterpret_cast<const void*>(kernel), kThreads<MODE, WQ, LA>, kSmem);
  const size_t tiles = ceil_div(n, v06::kTile);
  kernel<<<static_cast<unsigned>(std::min(tiles, resident)), kThreads<MODE, WQ, LA>, kSmem,
           stream>>>(in, out, count, n, static_cast<unsigned>(tiles), counter, ranges, oracle,
                     status, prefix);
  return cudaGetLastError();
}

// Adds the sum and the xor of v[0, n) (each value times an odd constant, for the xor) to sums[0]
// and sums[1] (grid-stride): an order-free digest of the unordered cases' kept values.
__global__ void digest_kernel(const int32_t* v, size_t n, unsigned long long* sums) {
  unsigned long long a = 0, x = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    a += static_cast<unsigned>(v[i]);
    x ^= static_cast<unsigned long long>(static_cast<unsigned>(v[i])) * 0x9e3779b97f4a7c15ull;
  }
  atomicAdd(sums, a);
  atomicXor(sums + 1, x);
}
void digest(const int32_t* v, size_t n, unsigned long long* sums, unsigned long long host[2]) {
  cudaMemset(sums, 0, 16);
  digest_kernel<<<264, 256>>>(v, n, sums);
  cudaMemcpy(host, sums, 16, cudaMemcpyDefault);
}

}  // namespace

int main(int argc, char** argv) {
  // `seq`: the sequencer forms beside CUB, v09, the oracle and v07, instead of the first run's
  // list; `stages`: v09's look-ahead and the oracle on six and on seven stages
  const std::string arg = argc > 1 ? argv[1] : "";
  // `prepub`: v09's look-ahead on statuses published before the launch, written again or not at
  // all; `grouped`: the look-ahead that reads one word a whole group of 32 tiles
  // `wide`: one block an SM, v06's squads twice as wide, twelve stages (half the look-aheads)
  const bool seq = arg == "seq", stages = arg == "stages", prepub = arg == "prepub",
             grouped = arg == "grouped", wide = arg == "wide", spread = arg == "spread",
             gprepub = arg == "gprepub", lat = arg == "lat", lat2 = arg == "lat2",
             batch = arg == "batch", paired = arg == "paired", rewind = arg == "rewind",
             lat3 = arg == "lat3", paired2 = arg == "paired2", lat4 = arg == "lat4",
             fused = arg == "fused";
  if (argc > 2 ||
      (argc > 1 && !seq && !stages && !prepub && !grouped && !wide && !spread && !gprepub && !lat &&
       !lat2 && !batch && !paired && !rewind && !lat3 && !paired2 && !lat4 && !fused)) {
    printf(
        "usage: %s [seq | stages | prepub | grouped | wide | spread | gprepub | lat | lat2 | "
        "batch | paired | rewind | lat3 | paired2 | lat4 | fused]\n",
        argv[0]);
    return 2;
  }
  const size_t max_n = size_t(1) << 28, max_tiles = max_n / v06::kTile;
  int32_t *in, *out, *want;
  unsigned long long *count, *want_count, *scratch, *ranges, *sums;
  unsigned *counter, *oracle;
  void *ws, *ws_v09, *ws_v10, *ws_b[3], *ws_seq, *ws_pre, *ws_grp, *ws_g4, *ws_g16, *ws_gp;
  if (cudaMalloc(&in, max_n * 4) || cudaMalloc(&out, max_n * 4) || cudaMalloc(&want, max_n * 4) ||
      cudaMalloc(&count, 8) || cudaMalloc(&want_count, 8) || cudaMalloc(&scratch, 8) ||
      cudaMalloc(&counter, 16) || cudaMalloc(&ranges, 128) || cudaMalloc(&sums, 16) ||
      cudaMalloc(&oracle, max_tiles * 4) || cudaMalloc(&ws, 64 << 20) ||
      cudaMalloc(&ws_v09, 64 << 20) || cudaMalloc(&ws_seq, kSeqBytes) ||
      cudaMalloc(&ws_pre, kSeqBytes) || cudaMalloc(&ws_grp, kSeqBytes) ||
      cudaMalloc(&ws_g4, kSeqBytes) || cudaMalloc(&ws_g16, kSeqBytes) ||
      cudaMalloc(&ws_gp, kSeqBytes) || cudaMalloc(&ws_v10, v10::workspace_bytes(max_n)) ||
      cudaMalloc(&ws_b[0], v10::workspace_bytes(max_n)) ||
      cudaMalloc(&ws_b[1], v10::workspace_bytes(max_n)) ||
      cudaMalloc(&ws_b[2], v10::workspace_bytes(max_n))) {
    printf("cudaMalloc failed\n");
    return 1;
  }
  cudaMemset(counter, 0, 16);       // once: the last claim sets the claim counter back
  cudaMemset(ws_v09, 0, 64 << 20);  // once: v09 never clears it
  cudaMemset(ws_v10, 0, v10::workspace_bytes(max_n));                  // once: nor does v10
  for (void* w : ws_b) cudaMemset(w, 0, v10::workspace_bytes(max_n));  // `batch`'s
  cudaMemset(ws_seq, 0, kSeqBytes);  // once: nor do the sequencer forms
  cudaMemset(ws_pre, 0, kSeqBytes);  // once: `prepub`'s statuses, filled for each input
  unsigned* const pre_header = static_cast<unsigned*>(ws_pre);
  cudaMemset(ws_grp, 0, kSeqBytes);  // once: `grouped`'s header, statuses and group sums
  unsigned* const grp_header = static_cast<unsigned*>(ws_grp);
  cudaMemset(ws_g4, 0, kSeqBytes);  // once: `spread`'s, at strides 4 and 16
  cudaMemset(ws_g16, 0, kSeqBytes);
  cudaMemset(ws_gp, 0, kSeqBytes);  // once: `gprepub`'s, filled for each input
  unsigned* const gp_header = static_cast<unsigned*>(ws_gp);
  unsigned* const seq_header = static_cast<unsigned*>(ws_seq);
  const bool grouped_like = grouped || spread || gprepub || lat || lat2 || batch || paired ||
                            rewind || lat3 || paired2 || lat4 ||
                            fused;  // the epoch control: grouped, tail 2
  const bool gp_setup = gprepub || lat || lat2 || lat3 || lat4;  // ws_gp filled for each input
  unsigned* const tagged_header = grouped_like ? grp_header : seq_header;  // the control's epoch
  cudaStream_t st;
  cudaStreamCreate(&st);
  probe_timing::Timer timer(st);
  size_t cub_bytes = 0;
  cub::DeviceSelect::If(nullptr, cub_bytes, in, want, want_count, int64_t(max_n), KeepPositive{});
  void* cub_tmp;
  cudaMalloc(&cub_tmp, cub_bytes);

  struct Case {
    const char* name;
    bool ordered;  // else the count alone is checked
    std::function<cudaError_t(size_t)> run;
    std::function<void(size_t)> before;  // enqueued before the L2 flush, outside the timing
    const unsigned long long* total;     // where the launch leaves the number kept
  };
  auto nothing = [](size_t) {};
  auto clear_ranges = [&](size_t) { cudaMemsetAsync(ranges, 0, 8, st); };
  auto clear_v07 = [&](size_t) {
    cudaMemsetAsync(count, 0, 8, st);
    cudaMemsetAsync(ws, 0, v07::workspace_bytes(0), st);
  };
  // The sequencer forms: windows of SW x 32 statuses; the look-ahead's poll of its tile's prefix
  // NAP ns apart.
  auto seq_case = [&](auto run_seq, const char* name) {
    return Case{name, true, run_seq, nothing, count};
  };
  const std::vector<Case> seq_cases = {
      {"cub DeviceSelect::If", true,
       [&](size_t n) {
         size_t b = cub_bytes;
         return cub::DeviceSelect::If(cub_tmp, b, in, out, count, int64_t(n), KeepPositive{}, st);
       },
       nothing, count},
      {"v09 shipped", true, [&](size_t n) { return v09::launch(in, out, count, n, ws_v09, st); },
       nothing, count},
      {"oracle, 16 B stores", true,
       [&](size_t n) {
         return launch_probe<Mode::kOracle, false>(in, out, count, n, counter, ranges, oracle, st);
       },
       nothing, count},
      {"v07 shipped", false, [&](size_t n) { return v07::launch(in, out, count, n, ws, st); },
       nothing, count},
      seq_case(
          [&](size_t n) {
            return launch_probe<Mode::kSequencer, false, 16, 0>(
                in, out, count, n, seq_header, ranges, oracle, st, seq_status(ws_seq),
                seq_prefix(ws_seq));
          },
          "seq, w16, polls back to back"),
      seq_case(
          [&](size_t n) {
            return launch_probe<Mode::kSequencer, false, 8, 0>(
                in, out, count, n, seq_header, ranges, oracle, st, seq_status(ws_seq),
                seq_prefix(ws_seq));
          },
          "seq, w8, polls back to back"),
      seq_case(
          [&](size_t n) {
            return launch_probe<Mode::kSequencer, false, 16, 100>(
                in, out, count, n, seq_header, ranges, oracle, st, seq_status(ws_seq),
                seq_prefix(ws_seq));
          },
          "seq, w16, polls 100 ns apart"),
  };
  const std::vector<Case> first_cases = {
      {"cub DeviceSelect::If", true,
       [&](size_t n) {
         size_t b = cub_bytes;
         return cub::DeviceSelect::If(cub_tmp, b, in, out, count, int64_t(n), KeepPositive{}, st);
       },
       nothing, count},
      {"v09 shipped", true, [&](size_t n) { return v09::launch(in, out, count, n, ws_v09, st); },
       nothing, count},
      {"oracle, 16 B stores", true,
       [&](size_t n) {
         return launch_probe<Mode::kOracle, false>(in, out, count, n, counter, ranges, oracle, st);
       },
       nothing, count},
      {"oracle, 4 B stores", true,
       [&](size_t n) {
         return launch_probe<Mode::kOracle, true>(in, out, count, n, counter, ranges, oracle, st);
       },
       nothing, count},
      {"atomic, 16 B stores", false,
       [&](size_t n) {
         return launch_probe<Mode::kAtomic, false>(in, out, count, n, counter, ranges, oracle, st);
       },
       clear_ranges, ranges},
      {"atomic, 4 B stores", false,
       [&](size_t n) {
         return launch_probe<Mode::kAtomic, true>(in, out, count, n, counter, ranges, oracle, st);
       },
       clear_ranges, ranges},
      {"v07 shipped", false, [&](size_t n) { return v07::launch(in, out, count, n, ws, st); },
       nothing, count},
      {"v07 cleared before", false,
       [&](size_t n) {
         return v07::launch_kernel<true>(in, out, count, n, ceil_div(n, v07::kTile), ws, st);
       },
       clear_v07, count},
  };
  const std::vector<Case> stage_cases = {
      seq_cases[0],
      seq_cases[1],
      seq_case(
          [&](size_t n) {
            return launch_probe<Mode::kLookahead, false, 16, 0, 6>(
                in, out, count, n, seq_header, ranges, oracle, st, seq_status(ws_seq));
          },
          "v09's look-ahead, 6 stages"),
      seq_case(
          [&](size_t n) {
            return launch_probe<Mode::kLookahead, false, 16, 0, 7>(
                in, out, count, n, seq_header, ranges, oracle, st, seq_status(ws_seq));
          },
          "v09's look-ahead, 7 stages"),
      seq_case(
          [&](size_t n) {
            return launch_probe<Mode::kOracle, false, 16, 0, 6>(in, out, count, n, counter, ranges,
                                                                oracle, st);
          },
          "oracle, 6 stages"),
      seq_case(
          [&](size_t n) {
            return launch_probe<Mode::kOracle, false, 16, 0, 7>(in, out, count, n, counter, ranges,
                                                                oracle, st);
          },
          "oracle, 7 stages"),
      seq_cases[3],
  };
  const std::vector<Case> prepub_cases = {
      seq_cases[0],
      seq_cases[1],
      stage_cases[2],
      seq_case(
          [&](size_t n) {
            return launch_probe<Mode::kLookahead, false, 16, 0, 6, 1>(
                in, out, count, n, pre_header, ranges, oracle, st, seq_status(ws_pre));
          },
          "published before, no writes"),
      seq_case(
          [&](size_t n) {
            return launch_probe<Mode::kLookahead, false, 16, 0, 6, 2>(
                in, out, count, n, pre_header, ranges, oracle, st, seq_status(ws_pre));
          },
          "published before, rewritten"),
      stage_cases[4],
      seq_cases[3],
  };
  auto grouped_launch = [&](auto kt) {
    return [&, kt](size_t n) {
      return launch_probe<Mode::kGrouped, false, decltype(kt)::value, 0, 6>(
          in, out, count, n, grp_header, ranges, oracle, st, seq_status(ws_grp),
          seq_prefix(ws_grp));
    };
  };
  const std::vector<Case> grouped_cases = {
      seq_cases[0],
      seq_cases[1],
      stage_cases[2],
      seq_case(grouped_launch(std::integral_constant<unsigned, 1>{}),
               "groups of 32, the last group's statuses"),
      seq_case(grouped_launch(std::integral_constant<unsigned, 2>{}),
               "groups of 32, the last 2 groups' statuses"),
      seq_case(grouped_launch(std::integral_constant<unsigned, 4>{}),
               "groups of 32, the last 4 groups' statuses"),
      stage_cases[4],
      seq_cases[3],
  };
  // `spread`: the group words GS words apart, on the workspace w of that stride
  auto spread_launch = [&](auto kt, auto gs, void* w) {
    return [&, w](size_t n) {
      return launch_probe<Mode::kGrouped, false, decltype(kt)::value, 0, 6, 0, false, 1,
                          decltype(gs)::value>(in, out, count, n, static_cast<unsigned*>(w), ranges,
                                               oracle, st, seq_status(w), seq_prefix(w));
    };
  };
  using U1 = std::integral_constant<unsigned, 1>;
  using U2 = std::integral_constant<unsigned, 2>;
  using U4 = std::integral_constant<unsigned, 4>;
  using U16 = std::integral_constant<unsigned, 16>;
  struct SpreadForm {
    const char* name;
    std::function<cudaError_t(size_t)> launch;
    void* w;
    unsigned gs;
  };
  const SpreadForm spread_forms[] = {
      {"tail 1, words 4 apart", spread_launch(U1{}, U4{}, ws_g4), ws_g4, 4},
      {"tail 1, words 16 apart", spread_launch(U1{}, U16{}, ws_g16), ws_g16, 16},
      {"tail 2, words 16 apart", spread_launch(U2{}, U16{}, ws_g16), ws_g16, 16}};
  const std::vector<Case> spread_cases = {
      seq_cases[0],
      seq_cases[1],
      stage_cases[2],
      grouped_cases[3],
      seq_case(spread_forms[0].launch, "groups of 32, tail 1, words 4 apart"),
      seq_case(spread_forms[1].launch, "groups of 32, tail 1, words 16 apart"),
      seq_case(spread_forms[2].launch, "groups of 32, tail 2, words 16 apart"),
      stage_cases[4],
      seq_cases[3],
  };
  // `gprepub`: v10's look-ahead (tail 1, words 4 apart) on ws_gp, PUB 0 (the fill), 1 or 2
  auto gp_launch = [&](auto pub) {
    return [&](size_t n) {
      return launch_probe<Mode::kGrouped, false, 1, 0, 6, decltype(pub)::value, false, 1, 4>(
          in, out, count, n, gp_header, ranges, oracle, st, seq_status(ws_gp), seq_prefix(ws_gp));
    };
  };
  const std::vector<Case> gprepub_cases = {
      seq_cases[0],
      seq_cases[1],
      prepub_cases[3],
      spread_cases[4],
      seq_case(gp_launch(std::integral_constant<unsigned, 1>{}),
               "v10's look-ahead, published before, no writes"),
      seq_case(gp_launch(std::integral_constant<unsigned, 2>{}),
               "v10's look-ahead, published before, statuses rewritten"),
      stage_cases[4],
      seq_cases[3],
  };
  // `lat`: v10's look-ahead live (on ws_g4) and on statuses published before (ws_gp), each with one
  // and with two look-ahead warps; the oracle with a spin of DLY cycles before each offset, and
  // with two look-ahead warps. TIMED: the same forms with TIMES (outside the timing).
  using U0 = std::integral_constant<unsigned, 0>;
  // `lat2` (after `lat`'s first run): START 1, each look-ahead waiting for its tile's data
  using S0 = std::integral_constant<unsigned, 0>;
  using S1 = std::integral_constant<unsigned, 1>;
  auto live_launch = [&](auto la, auto times, auto start) {
    return [&](size_t n) {
      return launch_probe<Mode::kGrouped, false, 1, 0, 6, 0, false, 1, 4, 0, decltype(la)::value,
                          decltype(times)::value, decltype(start)::value>(
          in, out, count, n, static_cast<unsigned*>(ws_g4), ranges, oracle, st, seq_status(ws_g4),
          seq_prefix(ws_g4));
    };
  };
  auto pub_launch = [&](auto la, auto times) {
    return [&](size_t n) {
      return launch_probe<Mode::kGrouped, false, 1, 0, 6, 1, false, 1, 4, 0, decltype(la)::value,
                          decltype(times)::value>(in, out, count, n, gp_header, ranges, oracle, st,
                                                  seq_status(ws_gp), seq_prefix(ws_gp));
    };
  };
  auto oracle_launch = [&](auto dly, auto la, auto times) {
    return [&](size_t n) {
      return launch_probe<Mode::kOracle, false, 16, 0, 6, 0, false, 1, 1, decltype(dly)::value,
                          decltype(la)::value, decltype(times)::value>(in, out, count, n, counter,
                                                                       ranges, oracle, st);
    };
  };
  using Timed = std::integral_constant<bool, true>;
  using Untimed = std::integral_constant<bool, false>;
  using D1000 = std::integral_constant<unsigned, 1000>;
  using D2000 = std::integral_constant<unsigned, 2000>;
  const std::vector<Case> lat_cases = {
      seq_cases[0],
      {"v10 shipped", true, [&](size_t n) { return v10::launch(in, out, count, n, ws_v10, st); },
       nothing, count},
      seq_case(live_launch(U1{}, Untimed{}, S0{}), "v10's look-ahead, live"),
      seq_case(live_launch(U2{}, Untimed{}, S0{}), "v10's look-ahead, live, 2 look-aheads"),
      seq_case(pub_launch(U1{}, Untimed{}), "v10's look-ahead, published before"),
      seq_case(pub_launch(U2{}, Untimed{}), "v10's look-ahead, published before, 2 look-aheads"),
      seq_case(oracle_launch(U0{}, U1{}, Untimed{}), "oracle"),
      seq_case(oracle_launch(D1000{}, U1{}, Untimed{}), "oracle, 1000 cycles more"),
      seq_case(oracle_launch(D2000{}, U1{}, Untimed{}), "oracle, 2000 cycles more"),
      seq_case(oracle_launch(U0{}, U2{}, Untimed{}), "oracle, 2 look-aheads"),
  };
  const std::vector<Case> lat_timed = {
      seq_case(live_launch(U1{}, Timed{}, S0{}), "v10's look-ahead, live"),
      seq_case(live_launch(U2{}, Timed{}, S0{}), "v10's look-ahead, live, 2 look-aheads"),
      seq_case(pub_launch(U1{}, Timed{}), "v10's look-ahead, published before"),
      seq_case(pub_launch(U2{}, Timed{}), "v10's look-ahead, published before, 2 look-aheads"),
      seq_case(oracle_launch(U0{}, U1{}, Timed{}), "oracle"),
      seq_case(oracle_launch(D1000{}, U1{}, Timed{}), "oracle, 1000 cycles more"),
      seq_case(oracle_launch(D2000{}, U1{}, Timed{}), "oracle, 2000 cycles more"),
      seq_case(oracle_launch(U0{}, U2{}, Timed{}), "oracle, 2 look-aheads"),
  };
  using U3 = std::integral_constant<unsigned, 3>;
  const std::vector<Case> lat2_cases = {
      seq_cases[0],
      lat_cases[1],
      lat_cases[2],
      lat_cases[3],
      seq_case(live_launch(U2{}, Untimed{}, S1{}), "live, 2 look-aheads, after the data"),
      seq_case(live_launch(U3{}, Untimed{}, S0{}), "live, 3 look-aheads"),
      seq_case(live_launch(U3{}, Untimed{}, S1{}), "live, 3 look-aheads, after the data"),
      lat_cases[6],
  };
  const std::vector<Case> lat2_timed = {
      lat_timed[0],
      lat_timed[1],
      seq_case(live_launch(U2{}, Timed{}, S1{}), "live, 2 look-aheads, after the data"),
      seq_case(live_launch(U3{}, Timed{}, S0{}), "live, 3 look-aheads"),
      seq_case(live_launch(U3{}, Timed{}, S1{}), "live, 3 look-aheads, after the data"),
      lat_timed[4],
  };
  // `batch` (session 30): copy_if/lab/batched_lookahead.cuh, at most K claims a pass (v10's kernel
  // and workspace; K = 1 is v10's look-ahead walked by the batched code), each on a workspace of
  // its own. It was registered as copy_if v11 when call 3 ran, whose output names these forms
  // "v11's look-ahead"
  auto batch_launch = [&](auto k) {
    return [&](size_t n) {
      return v10::launch_with<lab_batched::BatchedLookAhead<decltype(k)::value>>(
          in, out, count, n, ws_b[decltype(k)::value - 1], st);
    };
  };
  const std::vector<Case> batch_cases = {
      seq_cases[0],
      lat_cases[1],
      seq_case(batch_launch(U1{}), "batched look-ahead, 1 claim a pass"),
      seq_case(batch_launch(U2{}), "batched look-ahead, 2 claims a pass"),
      seq_case(batch_launch(U3{}), "batched look-ahead, 3 claims a pass"),
      lat_cases[6],
  };
  // `paired` (session 30): copy_if/lab/paired_claims.cuh (two tiles a claim) beside v10 and the
  // oracle; registered as copy_if v11 when call 4 ran, whose output names it "v11 shipped"
  const std::vector<Case> paired_cases = {
      seq_cases[0],
      lat_cases[1],
      {"paired claims", true,
       [&](size_t n) { return lab_paired::launch(in, out, count, n, ws_b[0], st); }, nothing,
       count},
      lat_cases[6],
  };
  // `rewind` (session 30): copy_if/lab/group_word_head.cuh (the look-ahead takes its last tile's
  // group from the group's word: two loads a pass) beside v10 and the oracle; registered as copy_if
  // v11 when call 5 ran, whose output names it "v11 shipped"
  const std::vector<Case> rewind_cases = {
      seq_cases[0],
      lat_cases[1],
      {"group word head", true,
       [&](size_t n) { return lab_rewind::launch(in, out, count, n, ws_b[1], st); }, nothing,
       count},
      lat_cases[6],
  };
  // `lat3` (session 30, after `lat2`: look-aheads that read at once, or once their tile's data is
  // in, find the tiles below theirs unpublished and poll again): 2 or 3 look-ahead warps, each
  // waiting DLY cycles after its claim was drawn before its first read
  auto late_launch = [&](auto la, auto dly, auto times) {
    return [&](size_t n) {
      return launch_probe<Mode::kGrouped, false, 1, 0, 6, 0, false, 1, 4, decltype(dly)::value,
                          decltype(la)::value, decltype(times)::value, 2>(
          in, out, count, n, static_cast<unsigned*>(ws_g4), ranges, oracle, st, seq_status(ws_g4),
          seq_prefix(ws_g4));
    };
  };
  using D4000 = std::integral_constant<unsigned, 4000>;
  using D6000 = std::integral_constant<unsigned, 6000>;
  using D8000 = std::integral_constant<unsigned, 8000>;
  const std::vector<Case> lat3_cases = {
      seq_cases[0],
      lat_cases[1],
      lat_cases[2],
      seq_case(late_launch(U2{}, D4000{}, Untimed{}), "live, 2 look-aheads, 4000 cycles late"),
      seq_case(late_launch(U2{}, D6000{}, Untimed{}), "live, 2 look-aheads, 6000 cycles late"),
      seq_case(late_launch(U3{}, D6000{}, Untimed{}), "live, 3 look-aheads, 6000 cycles late"),
      seq_case(late_launch(U3{}, D8000{}, Untimed{}), "live, 3 look-aheads, 8000 cycles late"),
      lat_cases[6],
  };
  const std::vector<Case> lat3_timed = {
      lat_timed[0],
      seq_case(late_launch(U2{}, D4000{}, Timed{}), "live, 2 look-aheads, 4000 cycles late"),
      seq_case(late_launch(U2{}, D6000{}, Timed{}), "live, 2 look-aheads, 6000 cycles late"),
      seq_case(late_launch(U3{}, D6000{}, Timed{}), "live, 3 look-aheads, 6000 cycles late"),
      seq_case(late_launch(U3{}, D8000{}, Timed{}), "live, 3 look-aheads, 8000 cycles late"),
      lat_timed[4],
  };
  // `paired2` (session 30, after `paired`): two tiles a claim, the second loaded when the next
  // stage frees (copy_if/lab/paired_stagewise.cuh), beside v10, `paired`'s form and the oracle
  const std::vector<Case> paired2_cases = {
      seq_cases[0],
      lat_cases[1],
      paired_cases[2],
      {"paired claims, stage by stage", true,
       [&](size_t n) { return lab_paired2::launch(in, out, count, n, ws_b[2], st); }, nothing,
       count},
      lat_cases[6],
  };
  // `lat4` (session 30, after `lat`): a pass's time split into its loads (from their issue until
  // all are back) and the rest (the ballots and sums that use them, to the next pass or the
  // offset's hand-over), for v10's look-ahead live and published before; the oracle's load alone
  const std::vector<Case> lat4_cases = {seq_cases[0], lat_cases[1], lat_cases[2], lat_cases[4],
                                        lat_cases[6]};
  const std::vector<Case> lat4_timed = {lat_timed[0], lat_timed[2], lat_timed[4]};
  // `fused` (session 30, after `lat4`: about 30% of a pass is work after its loads):
  // copy_if/lab/one_reduction.cuh (v10 whose look-ahead sums a pass with one warp reduction) beside
  // v10 and the oracle; registered as copy_if v11 when call 9 ran, whose output names it "v11
  // shipped"
  const std::vector<Case> fused_cases = {
      seq_cases[0],
      lat_cases[1],
      {"one reduction", true,
       [&](size_t n) { return lab_fused::launch(in, out, count, n, ws_b[0], st); }, nothing, count},
      lat_cases[6],
  };
  const std::vector<Case> wide_cases = {
      seq_cases[0],
      seq_cases[1],
      stage_cases[2],
      seq_case(
          [&](size_t n) {
            return launch_probe<Mode::kLookahead, false, 16, 0, 12, 0, false, 2>(
                in, out, count, n, seq_header, ranges, oracle, st, seq_status(ws_seq));
          },
          "v09's look-ahead, 1 block an SM, 12 stages"),
      seq_case(
          [&](size_t n) {
            return launch_probe<Mode::kGrouped, false, 2, 0, 12, 0, false, 2>(
                in, out, count, n, grp_header, ranges, oracle, st, seq_status(ws_grp),
                seq_prefix(ws_grp));
          },
          "grouped (tail 2), 1 block an SM, 12 stages"),
      stage_cases[4],
      seq_case(
          [&](size_t n) {
            return launch_probe<Mode::kOracle, false, 16, 0, 12, 0, false, 2>(
                in, out, count, n, counter, ranges, oracle, st);
          },
          "oracle, 1 block an SM, 12 stages"),
      seq_cases[3],
  };
  const std::vector<Case>& cases = seq       ? seq_cases
                                   : stages  ? stage_cases
                                   : prepub  ? prepub_cases
                                   : grouped ? grouped_cases
                                   : wide    ? wide_cases
                                   : spread  ? spread_cases
                                   : gprepub ? gprepub_cases
                                   : lat     ? lat_cases
                                   : lat2    ? lat2_cases
                                   : batch   ? batch_cases
                                   : paired  ? paired_cases
                                   : rewind  ? rewind_cases
                                   : lat3    ? lat3_cases
                                   : paired2 ? paired2_cases
                                   : lat4    ? lat4_cases
                                   : fused   ? fused_cases
                                             : first_cases;
  // The tagged form the control runs (the epoch set back by one), and its warm-up launch on an
  // input with nothing kept, so that the first input's control finds statuses under its tag.
  const std::function<cudaError_t(size_t)> tagged = [&](size_t n) {
    if (grouped_like) return grouped_launch(std::integral_constant<unsigned, 2>{})(n);
    if (wide)
      return launch_probe<Mode::kLookahead, false, 16, 0, 12, 0, false, 2>(
          in, out, count, n, seq_header, ranges, oracle, st, seq_status(ws_seq));
    return seq      ? launch_probe<Mode::kSequencer, false>(in, out, count, n, seq_header, ranges,
                                                       oracle, st, seq_status(ws_seq),
                                                       seq_prefix(ws_seq))
           : stages ? launch_probe<Mode::kLookahead, false, 16, 0, 7>(
                          in, out, count, n, seq_header, ranges, oracle, st, seq_status(ws_seq))
                    : launch_probe<Mode::kLookahead, false, 16, 0, 6>(
                          in, out, count, n, seq_header, ranges, oracle, st, seq_status(ws_seq));
  };
  if (stages) {  // two blocks an SM on seven stages?
    const std::pair<const char*, const void*> kernels[] = {
        {"v09's look-ahead, 7 stages",
         reinterpret_cast<const void*>(probe_kernel<Mode::kLookahead, false, 16, 0, 7>)},
        {"oracle, 7 stages",
         reinterpret_cast<const void*>(probe_kernel<Mode::kOracle, false, 16, 0, 7>)}};
    for (const auto& [name, k] : kernels) {
      const int smem = int(7 * size_t(v06::stage_vecs<true>) * sizeof(int4));
      int blocks = 0;
      cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k, v06::kBlockThreads, smem);
      printf("%s: %d blocks an SM (%d bytes of stages)\n", name, blocks, smem);
    }
  }
  if (lat || lat2 || lat3 || lat4) {  // two blocks an SM, with more look-ahead warps or TIMES?
    using Live2 = decltype(probe_kernel<Mode::kGrouped, false, 1, 0, 6, 0, false, 1, 4, 0, 2>);
    const std::pair<const char*, std::pair<Live2*, unsigned>> kernels[] = {
        {"v10's look-ahead, live, 2 look-aheads",
         {probe_kernel<Mode::kGrouped, false, 1, 0, 6, 0, false, 1, 4, 0, 2>,
          kThreads<Mode::kGrouped, 1, 2>}},
        {"v10's look-ahead, live, TIMES",
         {probe_kernel<Mode::kGrouped, false, 1, 0, 6, 0, false, 1, 4, 0, 1, true>,
          kThreads<Mode::kGrouped, 1, 1>}},
        {"v10's look-ahead, live, 2 look-aheads, TIMES",
         {probe_kernel<Mode::kGrouped, false, 1, 0, 6, 0, false, 1, 4, 0, 2, true>,
          kThreads<Mode::kGrouped, 1, 2>}},
        {"oracle, TIMES",
         {probe_kernel<Mode::kOracle, false, 16, 0, 6, 0, false, 1, 1, 0, 1, true>,
          kThreads<Mode::kOracle, 1, 1>}},
        {"v10's look-ahead, live, 3 look-aheads, TIMES",
         {probe_kernel<Mode::kGrouped, false, 1, 0, 6, 0, false, 1, 4, 0, 3, true>,
          kThreads<Mode::kGrouped, 1, 3>}},
        {"v10's look-ahead, live, 3 look-aheads, after the data",
         {probe_kernel<Mode::kGrouped, false, 1, 0, 6, 0, false, 1, 4, 0, 3, false, 1>,
          kThreads<Mode::kGrouped, 1, 3>}}};
    for (const auto& [name, kt] : kernels) {
      const int smem = int(6 * size_t(v06::stage_vecs<true>) * sizeof(int4));
      int blocks = 0;
      const void* k = reinterpret_cast<const void*>(kt.first);
      cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
      const cudaError_t oe =
          cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k, int(kt.second), smem);
      printf("%s: %d blocks an SM (must be 2; %u threads; %s)\n", name, blocks, kt.second,
             cudaGetErrorString(oe));
    }
  }
  if (wide) {  // one block an SM on twelve stages?
    auto k = probe_kernel<Mode::kLookahead, false, 16, 0, 12, 0, false, 2>;
    const int smem = int(12 * size_t(v06::stage_vecs<true>) * sizeof(int4));
    int blocks = 0;
    const cudaError_t ae =
        cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k, kThreads<Mode::kLookahead, 2>, smem);
    printf(
        "1 block an SM, 12 stages: %d blocks an SM (must be 1; %d threads, %d bytes of stages; "
        "%s)\n",
        blocks, kThreads<Mode::kLookahead, 2>, smem, cudaGetErrorString(ae));
  }
  if (seq || stages || prepub || grouped_like || wide) {
    cudaMemset(in, 0, max_n * 4);
    const cudaError_t e = tagged(max_n);
    printf("tagged warm-up launch: %s, %s\n", cudaGetErrorString(e),
           cudaGetErrorString(cudaStreamSynchronize(st)));
  }
  struct Input {
    int lg;
    unsigned per100;   // kept per hundred
    size_t extra = 0;  // n = 2^lg + extra
  };
  std::vector<Input> inputs = {{28, 1}, {28, 50}, {28, 99}, {26, 50}, {24, 50}};
  // `grouped`: also a tile count that is no multiple of 32 and a partial last tile (4,100 tiles)
  if (grouped_like) inputs.push_back({24, 50, 3 * v06::kTile + 100});
  for (const Input& input : inputs) {
    const size_t n = (size_t(1) << input.lg) + input.extra, tiles = ceil_div(n, v06::kTile);
    const std::string label =
        "2^" + std::to_string(input.lg) + (input.extra ? "+" + std::to_string(input.extra) : "");
    std::vector<int32_t> h(n);
    uint32_t x = 12345 + input.per100 + 7 * input.lg + uint32_t(input.extra);
    for (auto& v : h) {
      x = x * 1664525u + 1013904223u;
      const uint32_t y = x >> 2;
      v = (x % 100) < input.per100 ? int32_t(1 + y % (1u << 30)) : -int32_t(y % (1u << 30));
    }
    // The oracle: exclusive prefix sums of the per-tile counts.
    std::vector<unsigned> pre(tiles);
    unsigned run = 0;
    for (size_t t = 0; t < tiles; ++t) {
      pre[t] = run;
      for (size_t k = t * v06::kTile; k < std::min(n, (t + 1) * v06::kTile); ++k) run += h[k] > 0;
    }
    cudaMemcpy(oracle, pre.data(), tiles * 4, cudaMemcpyDefault);
    cudaMemcpy(in, h.data(), n * 4, cudaMemcpyDefault);
    size_t b = cub_bytes;
    cub::DeviceSelect::If(cub_tmp, b, in, want, want_count, int64_t(n), KeepPositive{}, st);
    cudaStreamSynchronize(st);
    unsigned long long kept = 0;
    cudaMemcpy(&kept, want_count, 8, cudaMemcpyDefault);
    unsigned long long want_digest[2];
    digest(want, kept, sums, want_digest);
    printf("n = %s, keep%u: %llu kept (the oracle's total: %u, %s); us: median of 31 launches\n",
           label.c_str(), input.per100, kept, run, run == kept ? "equal" : "DIFFERENT");
    {  // the control: tile 1's offset one too large
      const unsigned bad1 = pre[1] + 1;
      cudaMemcpy(oracle + 1, &bad1, 4, cudaMemcpyDefault);
      const cudaError_t e =
          launch_probe<Mode::kOracle, false>(in, out, count, n, counter, ranges, oracle, st);
      const cudaError_t sync = cudaStreamSynchronize(st);
      const unsigned long long bad = probe_timing::mismatches(out, want, kept, scratch, st);
      printf(
          "control: tile 1's offset one too large -> mismatches %llu (must be > 0; tile 1 keeps "
          "%u), %s, %s\n",
          bad, pre[2] - pre[1], cudaGetErrorString(e), cudaGetErrorString(sync));
      if (wide) {  // the same control for the wide oracle
        const cudaError_t we = launch_probe<Mode::kOracle, false, 16, 0, 12, 0, false, 2>(
            in, out, count, n, counter, ranges, oracle, st);
        const cudaError_t ws2 = cudaStreamSynchronize(st);
        printf(
            "wide control: tile 1's offset one too large -> mismatches %llu (must be > 0), %s, "
            "%s\n",
            probe_timing::mismatches(out, want, kept, scratch, st), cudaGetErrorString(we),
            cudaGetErrorString(ws2));
      }
      cudaMemcpy(oracle + 1, &pre[1], 4, cudaMemcpyDefault);
    }
    if (gp_setup) {  // this input's statuses and group words in ws_gp under a fresh epoch e (one
      // past the last input's: its fill found array e mod 2 cleared by the last input's fill, as
      // far as that array was written), then the epoch set back to e
      unsigned e = 0;
      cudaMemcpy(&e, gp_header + 1, 4, cudaMemcpyDefault);
      e = (e + 1) & 0x7fffffffu;
      cudaMemcpy(gp_header + 1, &e, 4, cudaMemcpyDefault);
      const cudaError_t fill = gp_launch(std::integral_constant<unsigned, 0>{})(n);
      const cudaError_t sync = cudaStreamSynchronize(st);
      const unsigned long long bad_fill = probe_timing::mismatches(out, want, kept, scratch, st);
      cudaMemcpy(gp_header + 1, &e, 4, cudaMemcpyDefault);
      // the control: group 0's word (array e & 1, words 4 apart) one too large, then as it was
      lb::Status* g0 = seq_prefix(ws_gp) + (e & 1) * kMaxGroups * 4;
      lb::Status word = 0;
      cudaMemcpy(&word, g0, 8, cudaMemcpyDefault);
      const lb::Status wrong = word + 1;
      cudaMemcpy(g0, &wrong, 8, cudaMemcpyDefault);
      const cudaError_t ce = gp_launch(std::integral_constant<unsigned, 1>{})(n);
      const cudaError_t csync = cudaStreamSynchronize(st);
      const unsigned long long bad = probe_timing::mismatches(out, want, kept, scratch, st);
      if (lat || lat2 || lat3 || lat4) {  // the same control for two look-aheads
        const cudaError_t ce2 = pub_launch(U2{}, Untimed{})(n);
        const cudaError_t cs2 = cudaStreamSynchronize(st);
        printf(
            "lat control: group 0's word one too large, 2 look-aheads -> mismatches %llu (must be "
            "> 0), %s, %s\n",
            probe_timing::mismatches(out, want, kept, scratch, st), cudaGetErrorString(ce2),
            cudaGetErrorString(cs2));
      }
      cudaMemcpy(g0, &word, 8, cudaMemcpyDefault);
      unsigned after[2] = {1, 1};
      cudaMemcpy(after, gp_header, 8, cudaMemcpyDefault);
      printf(
          "gprepub: filled under epoch %u (%s, %s, mismatches %llu; group 0's word 0x%llx); "
          "control: group 0's word one too large -> mismatches %llu (must be > 0), %s, %s; header: "
          "counter %u (must be 0), epoch %u (must be %u)\n",
          e, cudaGetErrorString(fill), cudaGetErrorString(sync), bad_fill, word, bad,
          cudaGetErrorString(ce), cudaGetErrorString(csync), after[0], after[1], e);
    }
    if (prepub ||
        gprepub) {  // this input's statuses in ws_pre, under a fresh epoch its header names
      // (one past the last input's: the first run took the same epoch for every input, so from the
      // second input on the fill found the last input's statuses under its tag and its own output
      // mismatched; the statuses it left, each tile's own count, and the timed rounds were right)
      unsigned e = 0;
      cudaMemcpy(&e, pre_header + 1, 4, cudaMemcpyDefault);
      e = (e + 1) & 0x7fffffffu;
      cudaMemcpy(pre_header + 1, &e, 4, cudaMemcpyDefault);
      const cudaError_t fill = launch_probe<Mode::kLookahead, false, 16, 0, 6>(
          in, out, count, n, pre_header, ranges, oracle, st, seq_status(ws_pre));
      const cudaError_t sync = cudaStreamSynchronize(st);
      const unsigned long long bad_fill = probe_timing::mismatches(out, want, kept, scratch, st);
      cudaMemcpy(pre_header + 1, &e, 4, cudaMemcpyDefault);
      // the control: tile 1's published count one too large, then as it was
      lb::Status* s1 = seq_status(ws_pre) + 1;
      lb::Status word = 0;
      cudaMemcpy(&word, s1, 8, cudaMemcpyDefault);
      const lb::Status wrong = word + 1;
      cudaMemcpy(s1, &wrong, 8, cudaMemcpyDefault);
      const cudaError_t ce = launch_probe<Mode::kLookahead, false, 16, 0, 6, 1>(
          in, out, count, n, pre_header, ranges, oracle, st, seq_status(ws_pre));
      const cudaError_t csync = cudaStreamSynchronize(st);
      const unsigned long long bad = probe_timing::mismatches(out, want, kept, scratch, st);
      cudaMemcpy(s1, &word, 8, cudaMemcpyDefault);
      unsigned after[2] = {1, 1};
      cudaMemcpy(after, pre_header, 8, cudaMemcpyDefault);
      printf(
          "prepub: filled under epoch %u (%s, %s, mismatches %llu); control: tile 1's count one "
          "too large -> mismatches %llu (must be > 0), %s, %s; header: counter %u (must be 0), "
          "epoch %u (must be %u)\n",
          e, cudaGetErrorString(fill), cudaGetErrorString(sync), bad_fill, bad,
          cudaGetErrorString(ce), cudaGetErrorString(csync), after[0], after[1], e);
    }
    // the tagged form's control: the epoch set back by one, so that the previous input's statuses
    // (and prefixes, or group sums) carry its tag
    if (seq || stages || prepub || grouped_like || wide) {
      unsigned epoch = 0;
      cudaMemcpy(&epoch, tagged_header + 1, 4, cudaMemcpyDefault);
      const unsigned back = (epoch - 1) & 0x7fffffffu;
      cudaMemcpy(tagged_header + 1, &back, 4, cudaMemcpyDefault);
      const cudaError_t e = tagged(n);
      const cudaError_t sync = cudaStreamSynchronize(st);
      const unsigned long long bad = probe_timing::mismatches(out, want, kept, scratch, st);
      unsigned after[2] = {1, 1};
      cudaMemcpy(after, tagged_header, 8, cudaMemcpyDefault);
      printf(
          "%s control: epoch %u set back to %u -> mismatches %llu (must be > 0), %s, %s; "
          "header after: counter %u (must be 0), epoch %u (must be %u)\n",
          seq            ? "sequencer"
          : stages       ? "7-stage look-ahead"
          : grouped_like ? "grouped look-ahead"
          : wide         ? "one-block-an-SM look-ahead"
                         : "look-ahead",
          epoch, back, bad, cudaGetErrorString(e), cudaGetErrorString(sync), after[0], after[1],
          epoch);
    }
    std::vector<std::vector<float>> us(cases.size());
    for (int round = 0; round < 3; ++round)
      for (size_t c = 0; c < cases.size(); ++c) {
        cudaMemsetAsync(out, 0, n * 4, st);
        cudaMemsetAsync(count, 0xff, 8, st);
        cudaError_t err = cudaSuccess;
        const float t = timer.median_us(
            [&] {
              const cudaError_t e = cases[c].run(n);
              if (e != cudaSuccess) err = e;
            },
            [&] { cases[c].before(n); });
        cudaStreamSynchronize(st);
        unsigned long long got = 0;
        cudaMemcpy(&got, cases[c].total, 8, cudaMemcpyDefault);
        unsigned long long bad = 0;
        if (cases[c].ordered) {
          bad = probe_timing::mismatches(out, want, kept, scratch, st);
        } else {  // the kept values' sum and xor
          unsigned long long d[2];
          digest(out, kept, sums, d);
          bad = (d[0] != want_digest[0]) + (d[1] != want_digest[1]);
        }
        if (err == cudaSuccess) err = cudaGetLastError();
        us[c].push_back(t);
        printf("round %d  %-24s %8.2f us  count %s  mismatches %llu%s  %s\n", round, cases[c].name,
               t, got == kept ? "ok" : "WRONG", bad, cases[c].ordered ? "" : " (of the digest's 2)",
               cudaGetErrorString(err));
      }
    unsigned claim = 1, v09_claim = 1;
    cudaMemcpy(&claim, counter, 4, cudaMemcpyDefault);
    cudaMemcpy(&v09_claim, ws_v09, 4, cudaMemcpyDefault);
    if (grouped) {  // the group words are used: each word of this launch's array preset to 1 (a
                    // sum one too large once its 32 arrivals are in) must give mismatches, for each
                    // tail; the launch after each clears the array again
      const std::pair<const char*, std::function<cudaError_t(size_t)>> forms[] = {
          {"1", grouped_launch(std::integral_constant<unsigned, 1>{})},
          {"2", grouped_launch(std::integral_constant<unsigned, 2>{})},
          {"4", grouped_launch(std::integral_constant<unsigned, 4>{})}};
      for (const auto& [tail, launch] : forms) {
        unsigned e = 0;
        cudaMemcpy(&e, grp_header + 1, 4, cudaMemcpyDefault);
        const std::vector<unsigned long long> ones(kMaxGroups, 1);
        cudaMemcpy(seq_prefix(ws_grp) + (e & 1) * kMaxGroups, ones.data(), kMaxGroups * 8,
                   cudaMemcpyDefault);
        const cudaError_t ge = launch(n);
        const cudaError_t gs = cudaStreamSynchronize(st);
        const unsigned long long bad = probe_timing::mismatches(out, want, kept, scratch, st);
        printf(
            "group-word control (tail %s): every group word preset to 1 -> mismatches %llu (must "
            "be > "
            "0), %s, %s\n",
            tail, bad, cudaGetErrorString(ge), cudaGetErrorString(gs));
        launch(n);  // a clean launch: the preset array cleared by the one before
        printf("clean launch after it: mismatches %llu, %s\n",
               probe_timing::mismatches(out, want, kept, scratch, st),
               cudaGetErrorString(cudaStreamSynchronize(st)));
      }
      // What each look-ahead did, per claim: one counted launch of each tail, outside the timing
      auto counted_launch = [&](auto kt) {
        cudaMemset(ranges, 0, 64);
        const cudaError_t ce =
            launch_probe<Mode::kGrouped, false, decltype(kt)::value, 0, 6, 0, true>(
                in, out, count, n, grp_header, ranges, oracle, st, seq_status(ws_grp),
                seq_prefix(ws_grp));
        const cudaError_t cs = cudaStreamSynchronize(st);
        unsigned long long c[5] = {};
        cudaMemcpy(c, ranges, sizeof c, cudaMemcpyDefault);
        const double k = c[0] ? double(c[0]) : 1.0;
        printf(
            "grouped, tail %u, per claim: %.2f passes, %.2f ended short, %.2f group words, %.2f "
            "statuses (%llu claims; mismatches %llu; %s, %s)\n",
            unsigned(decltype(kt)::value), c[1] / k, c[2] / k, c[3] / k, c[4] / k, c[0],
            probe_timing::mismatches(out, want, kept, scratch, st), cudaGetErrorString(ce),
            cudaGetErrorString(cs));
      };
      counted_launch(std::integral_constant<unsigned, 1>{});
      counted_launch(std::integral_constant<unsigned, 2>{});
      counted_launch(std::integral_constant<unsigned, 4>{});
    }
    unsigned seq_words[2] = {1, 0};
    cudaMemcpy(seq_words, tagged_header, 8, cudaMemcpyDefault);
    unsigned pre_words[2] = {1, 0};
    cudaMemcpy(pre_words, pre_header, 8, cudaMemcpyDefault);
    printf("claim counters after the rounds: probe %u, v09 %u, tagged forms %u (must be 0)%s\n",
           claim, v09_claim, seq_words[0],
           seq || stages || prepub || grouped_like || wide ? "" : " (none ran)");
    if (prepub)
      printf("prepub header after the rounds: counter %u (must be 0), epoch %u (unchanged)\n",
             pre_words[0], pre_words[1]);
    if (spread) {  // each form with its launch's array preset to 1 must give mismatches
      for (const SpreadForm& f : spread_forms) {
        unsigned e = 0;
        cudaMemcpy(&e, static_cast<unsigned*>(f.w) + 1, 4, cudaMemcpyDefault);
        const std::vector<unsigned long long> ones(kMaxGroups * f.gs, 1);
        cudaMemcpy(seq_prefix(f.w) + (e & 1) * kMaxGroups * f.gs, ones.data(), ones.size() * 8,
                   cudaMemcpyDefault);
        const cudaError_t ge = f.launch(n);
        const cudaError_t gs = cudaStreamSynchronize(st);
        const unsigned long long bad = probe_timing::mismatches(out, want, kept, scratch, st);
        printf(
            "group-word control (%s): every word preset to 1 -> mismatches %llu (must be > 0), "
            "%s, %s\n",
            f.name, bad, cudaGetErrorString(ge), cudaGetErrorString(gs));
        f.launch(n);  // a clean launch: the preset array cleared by the one before
        unsigned words[2] = {1, 0};
        const cudaError_t cs = cudaStreamSynchronize(st);
        cudaMemcpy(words, f.w, 8, cudaMemcpyDefault);
        printf("clean launch after it: mismatches %llu, %s; counter %u (must be 0)\n",
               probe_timing::mismatches(out, want, kept, scratch, st), cudaGetErrorString(cs),
               words[0]);
      }
    }
    if (lat || lat2 || lat3 || lat4) {  // where the time goes: a launch of each form with TIMES
      for (const Case& c : lat ? lat_timed : lat2 ? lat2_timed : lat3 ? lat3_timed : lat4_timed) {
        cudaMemset(ranges, 0, 128);
        const cudaError_t le = c.run(n);
        const cudaError_t ls = cudaStreamSynchronize(st);
        unsigned long long r[14] = {};
        cudaMemcpy(r, ranges, sizeof r, cudaMemcpyDefault);
        const double ghz = r[11] ? double(r[10]) / double(r[11]) : 1.0;  // cycles a ns
        const double claims = r[0] ? double(r[0]) : 1.0, stored = r[5] ? double(r[5]) : 1.0;
        printf(
            "times %-50s per tile, ns: look-ahead %.1f, its wait for a claim %.1f, passes %.2f; "
            "store's wait for the offset %.1f, for the reduce %.1f; producer's wait for a stage "
            "%.1f, claim %.1f; reduce's wait for data %.1f (claims %llu, tiles stored %llu, clock "
            "%.3f GHz, block 0's producer %.1f us; mismatches %llu; %s, %s)\n",
            c.name, r[1] / claims / ghz, r[9] / claims / ghz, r[2] / claims, r[3] / stored / ghz,
            r[4] / stored / ghz, r[6] / stored / ghz, r[7] / stored / ghz, r[8] / stored / ghz,
            r[0], r[5], ghz, r[11] / 1e3, probe_timing::mismatches(out, want, kept, scratch, st),
            cudaGetErrorString(le), cudaGetErrorString(ls));
        if (lat4) {  // per pass (the oracle: per claim, its one load)
          const double passes = r[2] ? double(r[2]) : claims;
          printf("split %-48s per %s, ns: loads %.1f, the rest %.1f\n", c.name,
                 r[2] ? "pass" : "claim", r[12] / passes / ghz, r[13] / passes / ghz);
        }
      }
    }
    if (wide) {
      unsigned grp_words[2] = {1, 0};
      cudaMemcpy(grp_words, grp_header, 8, cudaMemcpyDefault);
      printf("wide grouped header after the rounds: counter %u (must be 0)\n", grp_words[0]);
    }
    printf("summary %s keep%u (median of the three rounds; bytes: n reads + kept writes)\n",
           label.c_str(), input.per100);
    for (size_t c = 0; c < cases.size(); ++c) {
      std::sort(us[c].begin(), us[c].end());
      const float m = us[c][1];
      printf("  %-24s %8.2f us  %7.1f GB/s\n", cases[c].name, m, (4.0 * n + 4.0 * kept) / m / 1e3);
    }
  }
  return 0;
}
