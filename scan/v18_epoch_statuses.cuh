// scan/v18_epoch_statuses.cuh — scan v18: v17 with no workspace clear. The statuses carry the
// launch's epoch, and the launch leaves its counter as the next launch needs it.
// Technique: every launch of the pipeline publishes its tile statuses under a flag that names the
// launch (2^31 + epoch) and counts only statuses that carry that flag, so statuses left by an
// earlier launch read as unpublished and need no clearing. The block that draws the launch's last
// tile claim sets the claim counter back to zero and advances the epoch, which live in a 16-byte
// header of v18's own, ahead of the workspace of v16's other paths.
// Changes from v17: no cudaMemsetAsync before the pipeline. v17 cleared the counter and one status
// word per tile on every call: a second operation on the stream in the timed interval, which cost
// v15 0.5% to 0.8% of its time at 2^28 on the H200 (the lab notes, "What v15's status words
// cost"). The paths below the pipeline are v17's (v16's), on the workspace after the header.
// Remains (bottleneck): the pipeline itself, about two per cent short of the copy ceiling at 2^28
// on the H200 even without a look-ahead, and about one more lost to the look-ahead. The workspace
// must be zero when it is first used and then written only by this function, one call at a time in
// stream order; a launch that did not complete leaves it to be zeroed again. The epoch has 31
// bits: a status 2^31 launches old, in a tile not published since, would pass for new.
// Source: Merrill & Garland 2016 (single pass, tile aggregates); the epoch is the sense reversal of
// Mellor-Crummey & Scott's barriers (1991): a flag that changes meaning with each episode instead
// of being reset; CUTLASS's serial split-K GEMM also leaves its workspace as the next launch needs
// it (cutlass/gemm/kernel/gemm.h: "The final threadblock resets the semaphore for subsequent
// grids"). v17's pipeline (NVIDIA/cccl PR #6811's warp-specialized scan) is unchanged.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "common/bulk_copy.cuh"  // cp.async.bulk, mbarrier init / arrive / wait
#include "common/device.h"
#include "common/globaltimer.cuh"  // globaltimer_ns
#include "common/registry.h"
#include "scan/lookback.cuh"              // Status words, workspace layout
#include "scan/v15_warp_specialized.cuh"  // the shape, launch_resident
#include "scan/v16_size_dispatch.cuh"     // the dispatch below the pipeline
#include "scan/v17_aged_lookahead.cuh"    // kInFlight, kAgeNs

namespace ladder::scan::v18 {

inline constexpr VersionDoc kDoc = {
    18, "v18_epoch_statuses",
    "v17 with no workspace clear: statuses tagged with the launch's epoch",
    /*technique*/
    "v17's dispatch and pipeline, with nothing cleared between calls. Each launch of the "
    "pipeline publishes its tiles' aggregates under a flag that names the launch (2^31 plus an "
    "epoch read from the workspace), and its look-ahead counts only statuses that carry that "
    "flag: an earlier launch's statuses read as unpublished. The block that draws the launch's "
    "last tile claim (each block draws exactly one claim past the last tile, so the last of all "
    "is number tiles + blocks - 1) sets the claim counter back to zero and advances the epoch.",
    /*changes*/
    "v17 cleared the claim counter and one status word per tile with a memset before every "
    "pipeline launch: a second operation on the stream, inside the timed interval (it cost v15 "
    "0.5% to 0.8% of its time at 2^28 on the H200). v18 drops it. The counter and the epoch "
    "move to a 16-byte header of their own, ahead of the workspace of v16's other paths, whose "
    "memsets would otherwise set the epoch back and let stale statuses pass for new ones.",
    /*remains*/
    "The pipeline itself: about two per cent short of the copy ceiling at 2^28 on the H200 even "
    "without a look-ahead, and about one more lost to the look-ahead. The workspace must be "
    "zero when first used and written only by this function between calls (the harness zeroes "
    "it once), one call at a time in stream order; after a launch that did not complete it must "
    "be zeroed again. The epoch has 31 bits: a status 2^31 launches old, in a tile not published "
    "since, would pass for new.",
    /*source*/
    "Merrill & Garland, Single-pass Parallel Prefix Scan with Decoupled Look-back (2016), the "
    "tile statuses; Mellor-Crummey & Scott, Algorithms for Scalable Synchronization on "
    "Shared-Memory Multiprocessors (1991), sense reversal: a flag whose meaning changes with "
    "each episode instead of being reset; CUTLASS's serial split-K GEMM, whose final block resets "
    "the semaphore for the next grid (cutlass/gemm/kernel/gemm.h); v17's pipeline (NVIDIA/cccl "
    "PR #6811)"};

// Workspace: kHeaderBytes of v18's own (the pipeline's claim counter, then its epoch, as unsigned
// words), then v16's workspace, which v16's other paths clear and use as their own.
inline constexpr size_t kHeaderBytes = 16;

inline size_t workspace_bytes(size_t n) {
  return n <= v16::kSingleBlockMax ? 0 : kHeaderBytes + v16::workspace_bytes(n);
}

// v17's aged_kernel (v17::aged_kernel: shapes, roles, the window of quarter copies, the aged
// look-ahead, forward progress), with statuses that name their launch instead of a cleared
// workspace. counter[0] is the claim counter and counter[1] the launch's epoch e (below 2^31), in
// v18's own header (kHeaderBytes); `status` the statuses after v16's header. The changes from v17:
//   every thread reads e before the block barrier, so before its block's first claim;
//   reduce:     the tile's aggregate is published under the flag lookback::kTagBit | e;
//   look-ahead: only statuses that carry that flag count (lookback::TaggedWith); any other, left by
//               an earlier launch or by v16's other paths (whose flags lack kTagBit), reads as
//               unpublished;
//   producer:   the block that draws claim tiles + gridDim.x - 1 (every block draws exactly one
//               claim past the last tile, so that is the launch's last) sets counter[0] to 0 and
//               counter[1] to e + 1 (mod 2^31) for the next launch.
// Plain loads and stores: the argument rests on the block barrier, on the claims' order and on
// launches on one workspace being stream-ordered, never overlapped; not on the memory model's
// acquire and release.
template <unsigned W, unsigned V, unsigned NS, unsigned WIN, unsigned Q, unsigned AGE, bool ALIGNED>
__global__ void __launch_bounds__(v15::kBlockThreads<W>, 1)
    epoch_kernel(const int32_t* __restrict__ in, int32_t* __restrict__ out, size_t n,
                 unsigned tiles, unsigned* counter, lookback::Status* status) {
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
  const uint32_t epoch = counter[1];  // every thread, before the block barrier and any claim
  const uint32_t flag = lookback::kTagBit | epoch;  // this launch's statuses
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
      if (lane == 0 && t == tiles + gridDim.x - 1) {  // the launch's last claim
        counter[0] = 0;
        counter[1] = (epoch + 1) & ~lookback::kTagBit;
      }
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
      lookback::advance_to<WIN>(status, t, counted, sum, lookback::TaggedWith{flag});
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
          lookback::publish(status + t, flag, total);
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

// Launches epoch_kernel in v15's shape (v17's quarter copies and age), on v18's header and the
// statuses of lookback's layout after it. Nothing is cleared.
template <bool ALIGNED>
cudaError_t launch_pipeline(const int32_t* in, int32_t* out, size_t n, void* ws,
                            cudaStream_t stream) {
  using namespace v15;
  void* rest = static_cast<char*>(ws) + kHeaderBytes;
  return launch_resident<
      epoch_kernel<kWarps, kVectors, kStages, kWindow, v17::kInFlight, v17::kAgeNs, ALIGNED>,
      kBlockThreads<kWarps>, kTile,
      kStages * size_t(stage_vecs<kWarps, kVectors, ALIGNED>) * sizeof(int4)>(
      in, out, n, static_cast<unsigned*>(ws), lookback::tile_status(rest), stream);
}

// in: n int32 (any alignment); out: n int32, 16-byte aligned; ws: workspace_bytes(n) bytes,
// zero before this function's first call on it and written by nothing else since (one call at a
// time, in stream order: launches on one workspace must not overlap; after a launch that did not
// complete, zero it again). v16's paths where v16 does not run v15's pipeline (v16::path_for), on
// the workspace after the header; this file's pipeline where it does. Errors: the launch's or, on
// the other paths, v16's.
inline cudaError_t launch(const int32_t* in, int32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  if (v16::path_for(n) != v16::Path::kV15)
    return v16::launch(
        in, out, n, n <= v16::kSingleBlockMax ? ws : static_cast<char*>(ws) + kHeaderBytes, stream);
  if (reinterpret_cast<uintptr_t>(in) % 16 == 0)
    return launch_pipeline<true>(in, out, n, ws, stream);
  return launch_pipeline<false>(in, out, n, ws, stream);
}

}  // namespace ladder::scan::v18
