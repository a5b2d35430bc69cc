// scan/v17_aged_lookahead.cuh — scan v17: v16's dispatch, and above it v15's pipeline with
// quarter-tile copies and a look-ahead that reads the statuses below its tile only two
// microseconds after its own tile's aggregate is published.
// Technique: the producer loads each tile as four quarter-tile bulk copies, at most four in flight
// a block (a sliding window); the look-ahead of a tile reads the statuses below it only from two
// microseconds after the tile's own aggregate was published. The tiles just below were claimed
// just before it, so by then most of the lines it reads are no longer being stored to.
// Changes from v16: only the large-n path (v15's) changes. On the H200, polling a status line
// right after a store to it slows the data path far more than the same poll two microseconds after
// the store (the lab notes: one load a group of 16 tiles cost 3.3 points of the copy ceiling, and
// about a quarter of that two microseconds later); v15's look-ahead read each tile's statuses as
// they were published. On quarter-tile copies (a 16 KB window a block, fewer bytes in flight than
// v15's whole tiles) that look-ahead cost about two and a half points, so the quarter tiles scanned
// no faster than whole tiles; aged, it costs about one, and the quarter tiles pay.
// Remains (bottleneck): at 2^28 on the H200 about three per cent short of the copy ceiling in the
// benchmark: about two lost by the pipeline even without a look-ahead, about one still by the
// look-ahead. At 2^24 and 2^26 further short, where the pipeline loses more even without a
// look-ahead. Every call also clears the workspace with a memset before the pipeline's launch
// (0.5% to 0.8% of v15's time at 2^28 on the H200; the lab notes, "What v15's status words
// cost"; v18 drops it). The age is a constant timed on the H200 only.
// Source: Merrill & Garland 2016 (single pass, tile aggregates); CCCL's "warpspeed" scan (NVIDIA/
// cccl PR #6811: warp specialization, staged TMA loads, decoupled look-ahead); the age and the
// quarter tiles measured here (scan/lab/LAB_NOTES.md, "A look-ahead that waits for its statuses
// to age").
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/bulk_copy.cuh"  // cp.async.bulk, mbarrier init / arrive / wait
#include "common/device.h"
#include "common/globaltimer.cuh"  // globaltimer_ns
#include "common/registry.h"
#include "scan/lookback.cuh"              // Status words, publish / peek, workspace layout
#include "scan/v15_warp_specialized.cuh"  // the shape, stage layout, the reduce and scan-store work
#include "scan/v16_size_dispatch.cuh"     // the dispatch below the pipeline

namespace ladder::scan::v17 {

inline constexpr VersionDoc kDoc = {
    17, "v17_aged_lookahead",
    "v16's dispatch; above it, quarter-tile copies and a look-ahead that reads aged statuses",
    /*technique*/
    "v16's dispatch by size, and for large n v15's warp-specialized pipeline with two changes. "
    "The producer loads each tile as four quarter-tile bulk copies, each on its own mbarrier, "
    "and issues a quarter only once the quarter four back has landed: at most four in flight a "
    "block. The look-ahead of a tile reads the statuses below it only from two microseconds after "
    "the tile's own aggregate was published (%globaltimer); the tiles just below were claimed "
    "just before it, so by then most of those lines are no longer being stored to.",
    /*changes*/
    "On the H200, polling a status line right after a store to it slows the data path far more "
    "than the same poll two microseconds after the store (the lab notes; the mechanism is not "
    "known). v15's look-ahead read each tile's statuses as they were published. On quarter-tile "
    "copies (a sliding window of four a block: fewer bytes in flight than whole tiles, as the "
    "flat copy prefers) it cost about two and a half points of the copy ceiling, so they scanned "
    "no faster than whole tiles; aged, about one, and the quarter tiles pay. Each tile holds its "
    "stage up "
    "to two microseconds longer; at 2^28 that costs less than the polls it spares (four "
    "microseconds was slower again).",
    /*remains*/
    "At 2^28 on the H200 about three per cent short of the copy ceiling: about two lost by the "
    "pipeline even without a look-ahead, about one still by the look-ahead. At 2^24 and 2^26 "
    "further short, where the pipeline loses more even without a look-ahead. Every call also "
    "clears the workspace with a memset before the pipeline's launch (v18 drops it). The age is a "
    "constant chosen on the H200 (ages from 250 ns to 6 us were timed); other GPUs may want "
    "another.",
    /*source*/
    "Merrill & Garland, Single-pass Parallel Prefix Scan with Decoupled Look-back (2016), the "
    "tile aggregates; NVIDIA/cccl PR #6811, the warp-specialized 'warpspeed' scan with decoupled "
    "look-ahead; PTX ISA mbarrier, cp.async.bulk and %globaltimer; the age measured in "
    "scan/lab/LAB_NOTES.md"};

// The shape is v15's (4-warp squads, 16 KB tiles, six stages, windows of 8 x 32 statuses), with:
inline constexpr unsigned kInFlight = 4;  // quarter-tile bulk copies in flight a block
inline constexpr unsigned kAgeNs = 2000;  // a status is read no earlier than this after the
                                          // reading tile's own aggregate is published (ns)

// v15's specialized_kernel with quarter-tile copies and an aged look-ahead. W, V, NS, WIN, ALIGNED,
// shapes, preconditions, workspace and shared memory as v15's (v15::specialized_kernel). Q: quarter
// copies in flight a block (at least 1). AGE: ns.
//
// The pipeline, per stage s (round r of the ring uses each barrier's phase r):
//   producer:   wait empty[s] (r > 0); claim tile t; tile_of[s] = t; arrive claimed[s];
//               for each quarter q: wait until the quarter Q back has landed, then bulk-copy
//               quarter q onto piece[s][q]; all 32 lanes arrive on full[s]  (t >= tiles: arrive
//               full[s], stop). A tile copied element by element arrives on every piece[s][q].
//   reduce:     wait full[s] and piece[s][0..3]; sum the chunks; scan the chunk sums; publish the
//               tile's aggregate; published_at[s] = %globaltimer; arrive reduced[s]
//   look-ahead: wait claimed[s], then reduced[s]; wait until published_at[s] + AGE; add the
//               aggregates of every tile before t not yet counted; tile_prefix[s]; arrive
//               prefixed[s]
//   scan-store: as v15's.
//
// Forward progress as v15's: a claimed tile's aggregate waits only on its own copies (the window
// waits only on this block's own earlier quarters), and the look-ahead's extra waits are on its
// own tile's aggregate and on the clock. The look-ahead's wait on reduced[s] cannot miss its phase:
// the stage is not freed before this warp hands over the tile's prefix.
template <unsigned W, unsigned V, unsigned NS, unsigned WIN, unsigned Q, unsigned AGE, bool ALIGNED>
__global__ void __launch_bounds__(v15::kBlockThreads<W>, 1)
    aged_kernel(const int32_t* __restrict__ in, int32_t* __restrict__ out, size_t n, unsigned tiles,
                unsigned* counter, lookback::Status* status) {
  constexpr unsigned T = W * 32;     // threads per squad
  constexpr unsigned kVecs = T * V;  // int4 per tile
  constexpr size_t kTileElems = size_t(kVecs) * 4;
  static_assert(kVecs % 4 == 0, "quarter tiles of whole int4");
  constexpr unsigned kQuarterVecs = kVecs / 4;
  constexpr unsigned kChunks = V * W;  // 128-element chunks: (load u, warp w) at u * W + w
  static_assert(Q >= 1 && Q <= 4 * (NS - 1),
                "a window the ring holds: quarter g - Q's stage is not yet reused");
  constexpr unsigned kStageVecs = v15::stage_vecs<W, V, ALIGNED>;
  extern __shared__ __align__(bulk::kStageAlign) int4 stage_data[];
  __shared__ alignas(8) unsigned long long full[NS], piece[NS][4], claimed[NS], reduced[NS],
      prefixed[NS], empty[NS];
  __shared__ unsigned long long published_at[NS];  // %globaltimer when the aggregate was published
  __shared__ unsigned tile_of[NS];
  __shared__ int32_t chunk_prefix[NS][kChunks];
  __shared__ int32_t tile_prefix[NS];

  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const unsigned shift = ALIGNED ? 0 : bulk::shift_of(in);
  if (threadIdx.x == 0) {
    for (unsigned s = 0; s < NS; ++s) {
      bulk::barrier_init(&full[s], 32);                                      // every producer lane
      for (unsigned q = 0; q < 4; ++q) bulk::barrier_init(&piece[s][q], 1);  // lane 0's, + bytes
      bulk::barrier_init(&claimed[s], 1);
      bulk::barrier_init(&reduced[s], 32);  // every lane of reduce warp 0
      bulk::barrier_init(&prefixed[s], 1);
      bulk::barrier_init(&empty[s], T);  // every scan-store thread
    }
  }
  __syncthreads();  // the only block-wide barrier

  if (warp == 2 * W) {
    // ---- Producer ----
    for (unsigned i = 0;; ++i) {
      const unsigned s = i % NS, round = i / NS;
      if (round > 0) bulk::wait(&empty[s], (round - 1) & 1);
      unsigned t = 0;
      if (lane == 0) t = atomicAdd(counter, 1u);
      t = __shfl_sync(0xffffffffu, t, 0);
      if (lane == 0) {
        tile_of[s] = t;
        bulk::arrive(&claimed[s]);
      }
      if (t >= tiles) {
        bulk::arrive(&full[s]);
        break;
      }
      const size_t base = size_t(t) * kTileElems;
      int4* dst = stage_data + size_t(s) * kStageVecs;
      const bool bulk_path =
          ALIGNED ? base + kTileElems <= n : t > 0 && base + kTileElems + 4 - shift <= n;
      if (LADDER_HAS_BULK_COPY && bulk_path) {
        for (unsigned q = 0; q < 4; ++q) {
          const unsigned g = 4 * i + q;  // this block's quarters, in order
          if (g >= Q) {  // the window: quarter g - Q has landed (its stage is not yet reused)
            const unsigned h = g - Q;
            bulk::wait(&piece[(h / 4) % NS][h % 4], ((h / 4) / NS) & 1);
          }
          // The copied range as v15's, in four parts; the last one int4 longer when shifted.
          if (lane == 0)
            bulk::load(dst + q * kQuarterVecs, in + base - shift + q * (kTileElems / 4),
                       unsigned((kQuarterVecs + (q == 3 && !ALIGNED ? 1 : 0)) * sizeof(int4)),
                       &piece[s][q]);
        }
        bulk::arrive(&full[s]);
      } else {
        // As v15's: each lane's arrival on full[s] releases its own stores; the quarters' barriers
        // complete with lane 0's plain arrivals (the consumers wait on full[s] too).
        int32_t* d = reinterpret_cast<int32_t*>(dst) + shift;
        for (size_t k = lane; k < kTileElems; k += 32) d[k] = base + k < n ? in[base + k] : 0;
        bulk::fence_proxy_async_shared();
        bulk::arrive(&full[s]);
        if (lane == 0)
          for (unsigned q = 0; q < 4; ++q) bulk::arrive(&piece[s][q]);
      }
    }
  } else if (warp == 2 * W + 1) {
    // ---- Look-ahead ----
    size_t counted = 0;  // aggregates of tiles [0, counted) are in `sum`
    int32_t sum = 0;
    for (unsigned i = 0;; ++i) {
      const unsigned s = i % NS, round = i / NS;
      bulk::wait(&claimed[s], round & 1);
      const size_t t = tile_of[s];
      if (t >= tiles) break;
      bulk::wait(&reduced[s], round & 1);  // the tile's own aggregate is published
      const unsigned long long ready = published_at[s] + AGE;
      while (globaltimer_ns() < ready) __nanosleep(100);
      lookback::advance_to<WIN>(status, t, counted, sum);
      if (lane == 0) {
        tile_prefix[s] = sum;
        bulk::arrive(&prefixed[s]);
      }
    }
  } else if (warp < W) {
    // ---- Reduce ----
    for (unsigned i = 0;; ++i) {
      const unsigned s = i % NS, round = i / NS;
      bulk::wait(&full[s], round & 1);
      const unsigned t = tile_of[s];
      if (t >= tiles) {
        if (warp == 0) bulk::arrive(&reduced[s]);
        break;
      }
      for (unsigned q = 0; q < 4; ++q) bulk::wait(&piece[s][q], round & 1);
      const int32_t total = v15::reduce_staged_tile<W, V, ALIGNED>(
          stage_data + size_t(s) * kStageVecs, shift, chunk_prefix[s], threadIdx.x);
      if (warp == 0) {
        if (lane == 0) {
          lookback::publish(status + t, lookback::kAggregate, total);
          published_at[s] = globaltimer_ns();
        }
        __syncwarp();
        bulk::arrive(&reduced[s]);
      }
    }
  } else {
    // ---- Scan-store (v15's) ----
    const unsigned j = threadIdx.x - T;
    for (unsigned i = 0;; ++i) {
      const unsigned s = i % NS, round = i / NS;
      bulk::wait(&reduced[s], round & 1);
      const unsigned t = tile_of[s];
      if (t >= tiles) break;
      bulk::wait(&prefixed[s], round & 1);
      v15::scan_store_staged_tile<W, V, ALIGNED>(stage_data + size_t(s) * kStageVecs, shift,
                                                 chunk_prefix[s], tile_prefix[s], out, n,
                                                 size_t(t) * kTileElems, j);
      bulk::arrive(&empty[s]);
    }
  }
}

// Launches aged_kernel in v15's shape (v15::launch_persistent). ws: v15::workspace_bytes(n) bytes,
// zeroed there.
template <bool ALIGNED>
cudaError_t launch_pipeline(const int32_t* in, int32_t* out, size_t n, void* ws,
                            cudaStream_t stream) {
  using namespace v15;
  return launch_persistent<
      aged_kernel<kWarps, kVectors, kStages, kWindow, kInFlight, kAgeNs, ALIGNED>,
      kBlockThreads<kWarps>, kTile,
      kStages * size_t(stage_vecs<kWarps, kVectors, ALIGNED>) * sizeof(int4)>(in, out, n, ws,
                                                                              stream);
}

inline size_t workspace_bytes(size_t n) { return v16::workspace_bytes(n); }

// in: n int32 (any alignment); out: n int32, 16-byte aligned; ws: workspace_bytes(n) bytes.
// v16's paths, but this file's pipeline where v16 runs v15's (v16::path_for). Errors: the
// launch's or the memset's.
inline cudaError_t launch(const int32_t* in, int32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  if (v16::path_for(n) != v16::Path::kV15) return v16::launch(in, out, n, ws, stream);
  if (reinterpret_cast<uintptr_t>(in) % 16 == 0)
    return launch_pipeline<true>(in, out, n, ws, stream);
  return launch_pipeline<false>(in, out, n, ws, stream);
}

}  // namespace ladder::scan::v17
