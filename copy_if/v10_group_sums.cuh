// copy_if/v10_group_sums.cuh — copy_if v10: v09 with a second level of sums for its look-ahead.
// Each group of 32 tiles adds its count into one word, so the look-ahead reads one word for each
// whole group behind its tile and single statuses only near its ends.
// Technique: a two-level decoupled look-ahead. Each tile still publishes its count (v09's epoch
// status) and, with one atomic add that returns nothing, adds 2^32 + its count into its group's
// word: 32 arrivals make the word's high half 32 and its low half the group's count. The
// look-ahead advances its running count from its last tile to its new one over single statuses
// for the partial group where it starts, over one word for each group whose 32 arrivals are in,
// and over single statuses for the group that holds its tile, or for a group found incomplete.
// The group words are not tagged with the epoch: launch e adds into array e mod 2, and its last
// claimer clears the other array, which the launch before used and the next will.
// Changes from v09: the reduce's atomic add, the grouped look-ahead, the clear at the last claim,
// and a workspace with two group arrays between v09's header and v08's part. v09's look-ahead reads
// about 17 lines of statuses a claim (its tile lies about 264 tiles past its last); v10's reads
// about 7 group words and 32 statuses. Each group word has a 32-byte sector of its own: adjacent
// words, 16 to a line, would put every reduce's atomic on the one or two lines that every
// look-ahead polls, and were slower than v09 at half kept (copy_if/lab/LAB_NOTES.md, "Group sums").
// Remains (bottleneck): at 2^28 and half kept or more, the number of statuses read no longer binds
// and v10 runs as v09 does. With each tile's offset known before the launch the same pipeline is
// faster at 2^28 by about 5% at half kept, 3 to 4% at 1% and 99% (the lab notes, "Oracle
// offsets" and "Group sums: v10"). With statuses and group words published before the launch
// (nothing written during it, no waits) v10's look-ahead matches it at 2^28 and 99% kept and at
// 2^24, so there the price is what the launch writes on lines that others poll (at 2^24 partly the
// group atomics or the waits); at 2^28 it recovers a third of the gap at half kept and none at
// 1%. The rest is in the look-ahead warp: it serves the block's claims one at a time and is busy
// 95 to 98% of the time at 2^28 (timed with clock reads, at 1.04 to 1.09 passes a claim at half
// kept; a lab copy of it with a counter instead makes 1.6 to 1.7 there, so part of that time is
// polling for tiles below its own not yet published); at half kept a claim takes it about 1.5 µs,
// about as long as the oracle's launch spends on each claim of a block, and a busy-wait in the
// oracle's look-ahead slows the oracle at 1% and half kept (the lab notes, "The look-ahead's pace"
// and "Counted passes; overlapping, polling less, publishing first"). Live at 2^28, more
// look-ahead warps, batched reads, two tiles a claim and the next claim's first pass overlapped
// with this claim's work were slower; one reduction a pass, publishing each count before the chunk
// scan, and a look-ahead that polls less were level at half kept. In the middle band: v05's clear
// and its idle waits. The workspace contract is v09's (zero when first used, one call at a time,
// 31-bit epoch). Source: v09 and what it cites (Merrill & Garland 2016, decoupled look-back); the
// two levels are those of a reduce-then-scan over groups of tiles (Merrill & Grimshaw, Parallel
// Scan for Stream Architectures, 2009), here kept up to date by atomics inside the single pass.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/bulk_copy.cuh"  // cp.async.bulk, mbarrier init / arrive / wait
#include "common/device.h"
#include "common/registry.h"
#include "copy_if/copy_if.h"
#include "copy_if/v06_warp_specialized.cuh"  // the shape
#include "copy_if/v08_size_dispatch.cuh"     // the other paths
#include "copy_if/v09_epoch_statuses.cuh"    // the bound, the header
#include "scan/lookback.cuh"                 // Status words, publish, peek, layout
#include "scan/warp_scan.cuh"                // warp_scan_inclusive

namespace ladder::copy_if::v10 {

inline constexpr VersionDoc kDoc = {
    10, "v10_group_sums",
    "v09 with a second level of sums: one word a group of 32 tiles for the look-ahead",
    /*technique*/
    "v09's pipeline and epoch statuses, and a two-level look-ahead. Each tile publishes its "
    "count as v09 does and also adds 2^32 plus its count into its group's word (32 tiles a "
    "group) with one atomic add that returns nothing. The look-ahead advances its running count "
    "over single statuses for the partial group where it starts, over one word for each group "
    "whose 32 arrivals are in, and over single statuses for its own tile's group or a group "
    "found incomplete. Launch e adds into group array e mod 2; its last claimer clears the "
    "other array, which the launch before used and the next will. Keeps the input order.",
    /*changes*/
    "v09's look-ahead reads every status from its last tile to its new one: about 264 statuses, "
    "17 lines, a claim at 2^28. v10's reads about 7 group words and 32 statuses. The reduce adds "
    "an atomic a tile, the last claimer a clear, and the workspace two group arrays between v09's "
    "header and v08's part. Each group word has a 32-byte sector of its own: with 16 words to a "
    "line, every reduce's atomic would land on the lines that every look-ahead polls.",
    /*remains*/
    "At 2^28 with half the elements kept or more, the number of statuses read no longer binds, "
    "and v10 runs as v09. With each tile's offset known before the launch the same pipeline is "
    "faster at 2^28 (about 5% at half kept, 3 to 4% at 1% and 99%): at 99% kept the writes a "
    "tile makes on lines that others poll; at half kept partly those, partly the look-ahead "
    "warp's own time; at 1% kept its time: one warp serves the block's claims one at a time and "
    "is busy almost all the time (partly polling for tiles not yet published), and a busy-wait "
    "in the oracle's look-ahead slows the oracle. "
    "In the middle band, v05's clear and idle waits. The workspace contract is v09's (zero when "
    "first used, one call at a time, 31-bit epoch).",
    /*source*/
    "v09 and its sources: Merrill & Garland, Single-pass Parallel Prefix Scan with Decoupled "
    "Look-back (2016); two levels of sums as in Merrill & Grimshaw, Parallel Scan for Stream "
    "Architectures (2009), reduce-then-scan over groups of tiles, here kept by atomics inside "
    "the single pass"};

inline constexpr size_t kMaxN = v09::kMaxN;

// Tiles a group (one lane of the look-ahead warp a tile of a group: kGroup <= 32), and the group
// words' stride in 8-byte words: one 32-byte sector each.
inline constexpr unsigned kGroup = 32;
inline constexpr size_t kGroupStride = 4;
// The group arrays' capacity, whatever n: the layout cannot depend on n, because one workspace
// serves calls of every size up to its own (copy_if/copy_if.h) and each launch's array must hold
// only what the clear left.
inline constexpr size_t kMaxTiles = (kMaxN + v06::kTile - 1) / v06::kTile;
inline constexpr size_t kMaxGroups = (kMaxTiles + kGroup - 1) / kGroup;
inline constexpr size_t kGroupArrayWords = kMaxGroups * kGroupStride;

// Workspace: v09's 16-byte header (the pipeline's claim counter, its epoch, then the number of
// groups last written into group array 0 and into array 1: what the next clear of each covers),
// the two group arrays (8-byte words, kGroupStride apart), then v08's workspace, which v08's v05
// paths clear and use as their own and the pipeline's statuses use as lookback's layout.
inline constexpr size_t kHeaderBytes = v09::kHeaderBytes;
inline constexpr size_t kGroupBytes = 2 * kGroupArrayWords * sizeof(scan::lookback::Status);
inline size_t workspace_bytes(size_t n) {
  return n <= v08::kSingleBlockMax ? 0 : kHeaderBytes + kGroupBytes + v08::workspace_bytes(n);
}

// v09's path bounds, not measured again for v10 (its pipeline is no slower than v09's at 2^24 on
// the H200: the lab notes, "Group sums").
inline bool above_uses_pipeline(size_t n) { return v09::above_uses_pipeline(n); }
inline std::vector<size_t> dispatch_bounds() { return v09::dispatch_bounds(); }

// The look-ahead's running count, in two levels. On entry `sum` holds the counts of tiles
// [0, counted); on return, of tiles [0, tile), and counted == tile. status: this launch's tile
// statuses (flag `flag` when published); groups: this launch's group array (the word of group g at
// groups[g * kGroupStride]: high half the arrivals, low half their counts' sum). Each pass issues
// all its loads before it uses any: at most 32 head statuses (from `counted` to the next group
// boundary, or a whole group where the last pass found one incomplete), 32 group words (whole
// groups), and 32 tail statuses (from the start of `tile`'s group to `tile`). Any load not ready
// ends the pass where it stands; the next pass starts there, reading that group's statuses. All
// 32 lanes call it with the same arguments; every lane gets the sum. It waits only on tiles below
// `tile` (v06's forward-progress argument holds).
__device__ __forceinline__ void advance_grouped(const scan::lookback::Status* status,
                                                const scan::lookback::Status* groups, size_t tile,
                                                size_t& counted, unsigned& sum, uint32_t flag) {
  namespace lb = scan::lookback;
  constexpr size_t G = kGroup;
  const unsigned lane = threadIdx.x % 32;
  bool stuck = false;  // the last pass ended in a group: read that group's statuses next
  while (counted < tile) {
    const size_t up = (counted + G - 1) / G * G;  // the next group boundary
    const size_t head_end = min(tile, stuck ? (up == counted ? counted + G : up) : up);
    size_t tail_start = max(head_end, tile / G * G);  // the start of tile's group
    size_t n_groups = (tail_start - head_end) / G;
    size_t tail_end = tile;
    if (n_groups > 32) {  // the rest in later passes; no tail in this one
      n_groups = 32;
      tail_start = tail_end = head_end + 32 * G;
    }
    const unsigned n_head = unsigned(head_end - counted), n_tail = unsigned(tail_end - tail_start);
    const lb::Status head = lane < n_head ? lb::peek(status + counted + lane) : 0;
    const lb::Status group =
        lane < n_groups ? lb::peek(groups + (head_end / G + lane) * kGroupStride) : 0;
    const lb::Status tail = lane < n_tail ? lb::peek(status + tail_start + lane) : 0;
    stuck = true;  // unless every load of the pass counts
    // the head: the run of published statuses from `counted`
    unsigned ok = __ballot_sync(0xffffffffu, lane < n_head && uint32_t(head >> 32) == flag);
    unsigned run = min(n_head, ~ok ? unsigned(__ffs(~ok)) - 1 : 32u);
    sum += __reduce_add_sync(0xffffffffu, lane < run ? uint32_t(head) : 0u);
    counted += run;
    if (run < n_head) continue;
    // the whole groups: the run of words with all their arrivals in
    ok = __ballot_sync(0xffffffffu, lane < n_groups && uint32_t(group >> 32) == G);
    run = min(unsigned(n_groups), ~ok ? unsigned(__ffs(~ok)) - 1 : 32u);
    sum += __reduce_add_sync(0xffffffffu, lane < run ? uint32_t(group) : 0u);
    counted += size_t(run) * G;
    if (run < n_groups) continue;
    // the tail: the run of published statuses in tile's group
    ok = __ballot_sync(0xffffffffu, lane < n_tail && uint32_t(tail >> 32) == flag);
    run = min(n_tail, ~ok ? unsigned(__ffs(~ok)) - 1 : 32u);
    sum += __reduce_add_sync(0xffffffffu, lane < run ? uint32_t(tail) : 0u);
    counted += run;
    stuck = run < n_tail;
  }
}

// v10's look-ahead warp: for each of the block's claims in turn (claim i in stage i mod NS), wait
// for it, advance the running count to its tile with advance_grouped, and hand the offset to the
// compact-store warps (tile_offset, then an arrival on prefixed). Ends at the first claim past the
// last tile. A look-ahead policy of group_kernel (copy_if/lab/batched_lookahead.cuh,
// group_word_head.cuh, one_reduction.cuh and pipelined_lookahead.cuh have others): run() and
// kMinBlocks, the blocks an SM that group_kernel's __launch_bounds__ asks the compiler to fit.
// run() is also given the reduce barriers and the tiles' counts in shared memory, which a policy
// may wait on and read (this one does neither).
struct GroupedLookAhead {
  static constexpr unsigned kMinBlocks = 1;  // __launch_bounds__'s blocks an SM (two fit anyway)
  template <unsigned NS>
  __device__ __forceinline__ static void run(unsigned long long* claimed,
                                             unsigned long long* prefixed, const unsigned* tile_of,
                                             unsigned* tile_offset, unsigned tiles,
                                             const scan::lookback::Status* status,
                                             const scan::lookback::Status* groups, uint32_t flag,
                                             unsigned long long* /*reduced*/,
                                             const unsigned* /*tile_count*/) {
    const unsigned lane = threadIdx.x % 32;
    size_t counted = 0;
    unsigned sum = 0;
    for (unsigned i = 0;; ++i) {
      const unsigned s = i % NS, round = i / NS;
      bulk::wait(&claimed[s], round & 1);
      const size_t t = tile_of[s];
      if (t >= tiles) break;
      advance_grouped(status, groups, t, counted, sum, flag);
      if (lane == 0) {
        tile_offset[s] = sum;
        bulk::arrive(&prefixed[s]);
      }
    }
  }
};

// v09's epoch_kernel (v06's roles, barriers and forward progress; v09's epoch statuses and last
// claim), with group sums; LookAhead is the look-ahead warp's policy. counter: the 16-byte header
// (claim counter, epoch e, then the groups last written into array 0 and array 1); groups: the two
// group arrays (kGroupArrayWords each); status: the statuses of lookback's layout after them. The
// changes from v09:
//   reduce:     after publishing the tile's status, one atomic add (no return) of 2^32 + the count
//               into the tile's group word in array e mod 2;
//   look-ahead: advance_grouped instead of lookback::advance_to;
//   producer:   the block that draws the launch's last claim also zeroes array (e + 1) mod 2 as far
//               as the header says the launch before wrote it, and notes this launch's extent.
// The arrays need no tag: a launch's array was zeroed by the launch before it (stream order), and
// the same launch adds into nothing else. Plain stores for the clear and the header, as v09's:
// launches on one workspace are stream-ordered, never overlapped.
template <bool ALIGNED, class LookAhead = GroupedLookAhead>
__global__ void __launch_bounds__(v06::kBlockThreads, LookAhead::kMinBlocks)
    group_kernel(const int32_t* __restrict__ in, int32_t* __restrict__ out,
                 unsigned long long* count, size_t n, unsigned tiles, unsigned* counter,
                 scan::lookback::Status* groups, scan::lookback::Status* status) {
  using v06::kTile;
  constexpr unsigned W = v06::kWarps, V = v06::kVectors, NS = v06::kStages, T = W * 32;
  constexpr unsigned kChunks = V * W;  // 128-element chunks: (load u, warp w) at u * W + w
  static_assert(kChunks == 32, "one lane of reduce warp 0 per chunk");
  namespace lb = scan::lookback;
  constexpr unsigned kStageVecs = v06::stage_vecs<ALIGNED>;
  extern __shared__ __align__(bulk::kStageAlign) int4 stage_data[];
  __shared__ alignas(8) unsigned long long full[NS], claimed[NS], reduced[NS], prefixed[NS],
      empty[NS];
  __shared__ unsigned tile_of[NS];
  __shared__ unsigned chunk_offset[NS][kChunks];  // kept elements in the tile before the chunk
  __shared__ unsigned tile_count[NS], tile_offset[NS];

  const KeepPositive keep;
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const unsigned shift = ALIGNED ? 0 : bulk::shift_of(in);
  const uint32_t epoch = counter[1];          // every thread, before the barrier and any claim
  const uint32_t flag = lb::kTagBit | epoch;  // this launch's statuses
  lb::Status* const my_groups = groups + (epoch & 1) * kGroupArrayWords;  // this launch's sums
  if (threadIdx.x == 0) {
    for (unsigned s = 0; s < NS; ++s) {
      bulk::barrier_init(&full[s], 32);
      bulk::barrier_init(&claimed[s], 1);
      bulk::barrier_init(&reduced[s], 32);
      bulk::barrier_init(&prefixed[s], 1);
      bulk::barrier_init(&empty[s], T);
    }
  }
  __syncthreads();  // the only block-wide barrier

  if (warp == 2 * W) {
    // ---- Producer: take a stage, then claim a tile, then load it ----
    for (unsigned i = 0;; ++i) {
      const unsigned s = i % NS, round = i / NS;
      if (round > 0) bulk::wait(&empty[s], (round - 1) & 1);
      unsigned t = 0;
      if (lane == 0) t = atomicAdd(counter, 1u);
      if (lane == 0 && t == tiles + gridDim.x - 1) {  // the launch's last claim
        counter[0] = 0;
        counter[1] = (epoch + 1) & ~lb::kTagBit;
      }
      t = __shfl_sync(0xffffffffu, t, 0);
      if (lane == 0) {
        tile_of[s] = t;
        bulk::arrive(&claimed[s]);
      }
      if (t >= tiles) {
        bulk::arrive(&full[s]);
        if (t == tiles + gridDim.x - 1) {
          // The launch's last claim: the other group array, which the launch before wrote and
          // the next one will add into, cleared as far as that launch wrote it; this launch's
          // extent noted for the clear after it.
          const unsigned other = (epoch + 1) & 1;
          const unsigned used = counter[2 + other];
          for (size_t g = lane; g < used; g += 32)
            groups[other * kGroupArrayWords + g * kGroupStride] = 0;
          __syncwarp();
          if (lane == 0) {
            counter[2 + other] = 0;
            counter[2 + (epoch & 1)] = (tiles + kGroup - 1) / kGroup;
          }
        }
        break;
      }
      const size_t base = size_t(t) * kTile;
      int4* dst = stage_data + size_t(s) * kStageVecs;
      const bool bulk_path = ALIGNED ? base + kTile <= n : t > 0 && base + kTile + 4 - shift <= n;
      if (LADDER_HAS_BULK_COPY && bulk_path) {
        if (lane == 0)
          bulk::load(dst, in + base - shift, unsigned(v06::copy_vecs<ALIGNED> * sizeof(int4)),
                     &full[s]);
        else
          bulk::arrive(&full[s]);
      } else {
        int32_t* d = reinterpret_cast<int32_t*>(dst) + shift;
        for (size_t k = lane; k < kTile; k += 32) d[k] = base + k < n ? in[base + k] : 0;
        bulk::fence_proxy_async_shared();  // before a later bulk copy into this stage
        bulk::arrive(&full[s]);
      }
    }
  } else if (warp == 2 * W + 1) {
    // ---- Look-ahead: the running count of every tile before the block's next one, in two
    // levels ----
    LookAhead::template run<NS>(claimed, prefixed, tile_of, tile_offset, tiles, status, my_groups,
                                flag, reduced, tile_count);
  } else if (warp < W) {
    // ---- Reduce: count per chunk, scan the chunk counts, publish the tile's count and add it
    // into its group's word ----
    for (unsigned i = 0;; ++i) {
      const unsigned s = i % NS, round = i / NS;
      bulk::wait(&full[s], round & 1);
      const unsigned t = tile_of[s];
      if (t >= tiles) {
        if (warp == 0) bulk::arrive(&reduced[s]);
        break;
      }
      const int4* src = stage_data + size_t(s) * kStageVecs;
#pragma unroll
      for (unsigned u = 0; u < V; ++u) {
        const int4 x = bulk::staged_chunk_words<!ALIGNED>(src, shift, u * T + threadIdx.x, lane);
        const unsigned c =
            __reduce_add_sync(0xffffffffu, unsigned(keep(x.x)) + keep(x.y) + keep(x.z) + keep(x.w));
        if (lane == 0) chunk_offset[s][u * W + warp] = c;
      }
      asm volatile("bar.sync 1, %0;" ::"n"(T) : "memory");  // the reduce squad only
      if (warp == 0) {
        const int32_t mine = static_cast<int32_t>(chunk_offset[s][lane]);
        const int32_t incl = scan::warp_scan_inclusive(mine);
        chunk_offset[s][lane] = static_cast<unsigned>(incl - mine);
        const unsigned total = static_cast<unsigned>(__shfl_sync(0xffffffffu, incl, 31));
        if (lane == 0) {
          tile_count[s] = total;
          lb::publish<unsigned>(status + t, flag, total);
          atomicAdd(my_groups + t / kGroup * kGroupStride, (1ull << 32) | total);  // no return
        }
        __syncwarp();
        bulk::arrive(&reduced[s]);
      }
    }
  } else {
    // ---- Compact-store (v06's) ----
    const unsigned j = threadIdx.x - T, w = warp - W;
    for (unsigned i = 0;; ++i) {
      const unsigned s = i % NS, round = i / NS;
      bulk::wait(&reduced[s], round & 1);
      const unsigned t = tile_of[s];
      if (t >= tiles) break;
      int4* stage = stage_data + size_t(s) * kStageVecs;
      int4 x[V];
      unsigned rank[V];
#pragma unroll
      for (unsigned u = 0; u < V; ++u) {
        x[u] = bulk::staged_int4<!ALIGNED>(stage, shift, u * T + j);
        const int32_t c = keep(x[u].x) + keep(x[u].y) + keep(x[u].z) + keep(x[u].w);
        const int32_t incl = scan::warp_scan_inclusive(c);
        rank[u] = chunk_offset[s][u * W + w] + static_cast<unsigned>(incl - c);
      }
      asm volatile("bar.sync 2, %0;" ::"n"(T) : "memory");  // every read of the stage is done
      int32_t* compacted = reinterpret_cast<int32_t*>(stage);
#pragma unroll
      for (unsigned u = 0; u < V; ++u) {
        unsigned r = rank[u];
        if (keep(x[u].x)) compacted[r++] = x[u].x;
        if (keep(x[u].y)) compacted[r++] = x[u].y;
        if (keep(x[u].z)) compacted[r++] = x[u].z;
        if (keep(x[u].w)) compacted[r++] = x[u].w;
      }
      asm volatile("bar.sync 2, %0;" ::"n"(T) : "memory");  // the compacted run is complete
      bulk::wait(&prefixed[s], round & 1);
      const unsigned total = tile_count[s], offset = tile_offset[s];
      int32_t* dst = out + offset;
      const unsigned mis = unsigned(reinterpret_cast<uintptr_t>(dst) / 4) & 3u;
      const unsigned head = min((4u - mis) & 3u, total);
      const unsigned body = (total - head) / 4;  // whole int4
      const unsigned tail = head + 4 * body;     // first element after them
      if (j < head) dst[j] = compacted[j];
      if (j < total - tail) dst[tail + j] = compacted[tail + j];
      int4* dst4 = reinterpret_cast<int4*>(dst + head);
      const int32_t* run = compacted + head;
      for (unsigned k = j; k < body; k += T)
        dst4[k] = make_int4(run[4 * k], run[4 * k + 1], run[4 * k + 2], run[4 * k + 3]);
      bulk::fence_proxy_async_shared();  // as v06: the next bulk copy overwrites the stage
      if (j == 0 && t == tiles - 1) *count = static_cast<unsigned long long>(offset) + total;
      bulk::arrive(&empty[s]);
    }
  }
}

// Launches group_kernel<ALIGNED, LookAhead> on one resident wave of blocks (at most one per tile),
// on the header, the group arrays and the statuses of lookback's layout after them. Nothing is
// cleared before the launch.
template <bool ALIGNED, class LookAhead = GroupedLookAhead>
cudaError_t launch_pipeline(const int32_t* in, int32_t* out, unsigned long long* count, size_t n,
                            void* ws, cudaStream_t stream) {
  constexpr size_t kSmem = v06::kStages * size_t(v06::stage_vecs<ALIGNED>) * sizeof(int4);
  auto kernel = group_kernel<ALIGNED, LookAhead>;
  const cudaError_t e =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem));
  if (e != cudaSuccess) return e;
  static const size_t resident =  // once: the occupancy query is too slow for a timed launch
      resident_grid(reinterpret_cast<const void*>(kernel), v06::kBlockThreads, kSmem);
  const size_t tiles = ceil_div(n, v06::kTile);
  char* const groups = static_cast<char*>(ws) + kHeaderBytes;
  void* const rest = groups + kGroupBytes;
  kernel<<<static_cast<unsigned>(std::min(tiles, resident)), v06::kBlockThreads, kSmem, stream>>>(
      in, out, count, n, static_cast<unsigned>(tiles), static_cast<unsigned*>(ws),
      reinterpret_cast<scan::lookback::Status*>(groups), scan::lookback::tile_status(rest));
  return cudaGetLastError();
}

// The copy_if launcher contract (copy_if/copy_if.h); n <= kMaxN. ws: workspace_bytes(n) bytes,
// zero before this function's first call on it and written by nothing else since (one call at a
// time, in stream order: launches on one workspace must not overlap; after a launch that did not
// complete, zero it again). This file's pipeline where above_uses_pipeline(n); v08's paths
// elsewhere (one block, or v05), on the workspace after the group arrays. Errors: the attribute's
// or the launch's or, on the other paths, v08's. launch_with<LookAhead> runs the pipeline with that
// look-ahead policy (the lab's look-aheads run this way).
template <class LookAhead>
inline cudaError_t launch_with(const int32_t* in, int32_t* out, unsigned long long* count, size_t n,
                               void* ws, cudaStream_t stream) {
  if (n <= v08::kSingleBlockMax) return v08::launch(in, out, count, n, ws, stream);
  if (!above_uses_pipeline(n))
    return v08::launch(in, out, count, n, static_cast<char*>(ws) + kHeaderBytes + kGroupBytes,
                       stream);
  if (reinterpret_cast<uintptr_t>(in) % 16 == 0)
    return launch_pipeline<true, LookAhead>(in, out, count, n, ws, stream);
  return launch_pipeline<false, LookAhead>(in, out, count, n, ws, stream);
}
inline cudaError_t launch(const int32_t* in, int32_t* out, unsigned long long* count, size_t n,
                          void* ws, cudaStream_t stream) {
  return launch_with<GroupedLookAhead>(in, out, count, n, ws, stream);
}

}  // namespace ladder::copy_if::v10
