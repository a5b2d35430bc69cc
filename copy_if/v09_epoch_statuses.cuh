// copy_if/v09_epoch_statuses.cuh — copy_if v09: v08 with no status clear where it runs v06's
// pipeline. The statuses carry the launch's epoch, and the launch leaves its counter as the next
// launch needs it (scan v18's form).
// Technique: every launch of the pipeline publishes its tiles' counts under a flag that names the
// launch (2^31 + epoch) and counts only statuses that carry that flag, so counts left by an
// earlier launch read as unpublished and need no clearing. The block that draws the launch's last
// tile claim sets the claim counter back to zero and advances the epoch, which live in a 16-byte
// header of v09's own, ahead of the workspace of v08's other paths.
// Changes from v08: no cudaMemsetAsync before v06's pipeline. v08 cleared the counter
// and one status word per tile on every call: a second operation on the stream, inside the timed
// interval, that cost v06 3.3 to 4.5 µs from 2^24 to 2^28 on the H200 (copy_if/lab/LAB_NOTES.md).
// With no clear to pay, the pipeline overtakes v05 (after v05's clearing kernel) from fewer tiles
// per SM: v09 runs it from ten v06 tiles per SM on, where v08 waits for sixteen (measured on the
// H200). The other paths (one block; v05 between one and ten tiles per SM) are v08's, on the
// workspace after the header.
// Remains (bottleneck): v06's look-ahead, its status reads (with each tile's offset known before
// the launch, the same ordered pipeline is faster than v07 at 2^28: copy_if/lab/LAB_NOTES.md,
// "Oracle offsets"), and v05's clear in its band. The workspace must be zero when first used and
// then written only by this function, one call at a time in stream order; a launch that did not
// complete leaves it to be zeroed again. The epoch has 31 bits: a status 2^31 launches old, in a
// tile not published since, would pass for new.
// Source: scan v18 and what it cites: Merrill & Garland 2016 (single pass, tile aggregates);
// Mellor-Crummey & Scott 1991 (sense reversal: a flag that changes meaning with each episode
// instead of being reset); CUTLASS's serial split-K GEMM, whose final block resets the semaphore
// for the next grid (cutlass/gemm/kernel/gemm.h). The pipeline is v06's, with the changes above.
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
#include "copy_if/v08_size_dispatch.cuh"     // the dispatch
#include "scan/lookback.cuh"                 // Status words, publish, advance_to, layout
#include "scan/warp_scan.cuh"                // warp_scan_inclusive

namespace ladder::copy_if::v09 {

inline constexpr VersionDoc kDoc = {
    9, "v09_epoch_statuses",
    "v08 with no status clear before v06's pipeline: statuses tagged with the launch's epoch",
    /*technique*/
    "v08's dispatch, and v06's pipeline with nothing cleared between calls. Each launch of the "
    "pipeline publishes its tiles' counts under a flag that names the launch (2^31 plus an "
    "epoch read from the workspace), and its look-ahead counts only statuses that carry that "
    "flag: an earlier launch's statuses read as unpublished. The block that draws the launch's "
    "last tile claim (each block draws exactly one claim past the last tile, so the last of all "
    "is number tiles + blocks - 1) sets the claim counter back to zero and advances the epoch. "
    "Keeps the input order.",
    /*changes*/
    "v08 cleared the claim counter and one status word per tile with a memset before every "
    "launch of v06's pipeline: a second operation on the stream, inside the timed interval (3.3 "
    "to 4.5 microseconds from 2^24 to 2^28 on the H200). v09 drops it. The counter and the "
    "epoch move to a 16-byte header of their own, ahead of the workspace of v08's other paths: "
    "v05 leaves its own claim counter at the number of its tiles, which would start the "
    "pipeline's claims past zero, and its clears would set the epoch back and let stale counts "
    "pass for new ones. With no clear to pay, the pipeline overtakes v05 (after v05's clearing "
    "kernel) from fewer tiles per SM: v09 runs it from ten v06 tiles per SM, where v08 waits for "
    "sixteen (on the H200, v05's path was ahead at 9.0 tiles per SM and the pipeline from 9.7).",
    /*remains*/
    "v06's look-ahead, its status reads (with each tile's offset known before the launch, the "
    "same ordered pipeline is faster than v07 at 2^28); v05's clear in its band. The workspace "
    "must be zero when first used and written only by this function between calls (the harness "
    "zeroes it once), one call at a time in stream order; after a launch that did not complete it "
    "must be zeroed again. The epoch has 31 bits: a status 2^31 launches old, in a tile not "
    "published since, would pass for new.",
    /*source*/
    "Scan v18: Merrill & Garland, Single-pass Parallel Prefix Scan with Decoupled Look-back "
    "(2016), the tile statuses; Mellor-Crummey & Scott, Algorithms for Scalable Synchronization "
    "on Shared-Memory Multiprocessors (1991), sense reversal; CUTLASS's serial split-K GEMM, "
    "whose final block resets the semaphore for the next grid (cutlass/gemm/kernel/gemm.h); "
    "v06's pipeline (NVIDIA/cccl PR #6811)"};

inline constexpr size_t kMaxN = v08::kMaxN;

// Where v09 runs its pipeline above v05's band: from kPipelineFromTilesPerSm v06 tiles per SM
// (v08: v08::kMiddleToTilesPerSm, 16). On the H200 (copy_if/lab/LAB_NOTES.md, "v09's bound"), at
// 50% kept, v08's v05 path was ahead at 4,194,304 elements (7.76 tiles per SM) and at 4,861,953
// (9.0), the epoch pipeline from 5,242,880 (9.70) to 8,388,608 (15.5); v05's time takes a step
// between 9.0 and 9.70. Ten is the first whole number above the pipeline's first measured lead.
inline constexpr size_t kPipelineFromTilesPerSm = 10;

// The path above the one-block threshold on this device: this file's pipeline where sm_90 code
// runs and each SM gets at least kPipelineFromTilesPerSm v06 tiles, or fewer than
// v08::kMiddleFromTilesPerSm (where v08 runs v06); else v08's v05 paths.
inline bool above_uses_pipeline(size_t n) {
  if (!current_device_runs_sm90_code()) return false;
  const size_t tiles = ceil_div(n, v06::kTile);
  const size_t sms = static_cast<size_t>(current_sm_count());
  return tiles < v08::kMiddleFromTilesPerSm * sms || tiles >= kPipelineFromTilesPerSm * sms;
}

// The largest n of each path but the last, on this device (the tests run both sides of each):
// v08's, with its last bound at kPipelineFromTilesPerSm.
inline std::vector<size_t> dispatch_bounds() {
  std::vector<size_t> bounds = {v08::kSingleBlockMax};
  if (current_device_runs_sm90_code()) {
    const size_t sms = static_cast<size_t>(current_sm_count());
    bounds.push_back((v08::kMiddleFromTilesPerSm * sms - 1) * v06::kTile);
    bounds.push_back((v08::kPdlFromTilesPerSm * sms - 1) * v05::kTile);
    bounds.push_back((kPipelineFromTilesPerSm * sms - 1) * v06::kTile);
  }
  return bounds;
}

// Workspace: kHeaderBytes of v09's own (the pipeline's claim counter, then its epoch, as unsigned
// words), then v08's workspace, which v08's v05 paths clear and use as their own (their claim
// counter included: left at their tile count, it would start the pipeline's claims past zero).
inline constexpr size_t kHeaderBytes = 16;
inline size_t workspace_bytes(size_t n) {
  return n <= v08::kSingleBlockMax ? 0 : kHeaderBytes + v08::workspace_bytes(n);
}

// v06's specialized_kernel (v06::specialized_kernel: shapes, roles, barriers, forward progress),
// with statuses that name their launch instead of a cleared workspace. counter[0] is the claim
// counter and counter[1] the launch's epoch e (below 2^31), in v09's own header (kHeaderBytes);
// `status` the statuses of lookback's layout on the workspace after that header (v08's part). The
// changes from v06:
//   every thread reads e before the block barrier, so before its block's first claim;
//   reduce:     the tile's count is published under the flag lookback::kTagBit | e;
//   look-ahead: only statuses that carry that flag count (lookback::TaggedWith); any other, left by
//               an earlier launch or by v05's paths (whose flags lack kTagBit), reads as
//               unpublished;
//   producer:   the block that draws claim tiles + gridDim.x - 1 (every block draws exactly one
//               claim past the last tile, so that is the launch's last) sets counter[0] to 0 and
//               counter[1] to e + 1 (mod 2^31) for the next launch.
// Plain loads and stores: the argument rests on the block barrier, on the claims' order and on
// launches on one workspace being stream-ordered, never overlapped; not on the memory model's
// acquire and release.
template <bool ALIGNED>
__global__ void __launch_bounds__(v06::kBlockThreads, 1)
    epoch_kernel(const int32_t* __restrict__ in, int32_t* __restrict__ out,
                 unsigned long long* count, size_t n, unsigned tiles, unsigned* counter,
                 scan::lookback::Status* status) {
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
    // ---- Look-ahead: the running count of every tile before the block's next one ----
    size_t counted = 0;
    unsigned sum = 0;
    for (unsigned i = 0;; ++i) {
      const unsigned s = i % NS, round = i / NS;
      bulk::wait(&claimed[s], round & 1);
      const size_t t = tile_of[s];
      if (t >= tiles) break;
      lb::advance_to<v06::kWindow>(status, t, counted, sum, lb::TaggedWith{flag});
      if (lane == 0) {
        tile_offset[s] = sum;
        bulk::arrive(&prefixed[s]);
      }
    }
  } else if (warp < W) {
    // ---- Reduce: count per chunk, scan the chunk counts, publish the tile's count ----
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

// Launches epoch_kernel<ALIGNED> on one resident wave of blocks (at most one per tile), on v09's
// header and the statuses of lookback's layout after it. Nothing is cleared.
template <bool ALIGNED>
cudaError_t launch_pipeline(const int32_t* in, int32_t* out, unsigned long long* count, size_t n,
                            void* ws, cudaStream_t stream) {
  constexpr size_t kSmem = v06::kStages * size_t(v06::stage_vecs<ALIGNED>) * sizeof(int4);
  auto kernel = epoch_kernel<ALIGNED>;
  const cudaError_t e =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem));
  if (e != cudaSuccess) return e;
  static const size_t resident =  // once: the occupancy query is too slow for a timed launch
      resident_grid(reinterpret_cast<const void*>(kernel), v06::kBlockThreads, kSmem);
  const size_t tiles = ceil_div(n, v06::kTile);
  void* rest = static_cast<char*>(ws) + kHeaderBytes;
  kernel<<<static_cast<unsigned>(std::min(tiles, resident)), v06::kBlockThreads, kSmem, stream>>>(
      in, out, count, n, static_cast<unsigned>(tiles), static_cast<unsigned*>(ws),
      scan::lookback::tile_status(rest));
  return cudaGetLastError();
}

// The copy_if launcher contract (copy_if/copy_if.h); n <= kMaxN. ws: workspace_bytes(n) bytes,
// zero before this function's first call on it and written by nothing else since (one call at a
// time, in stream order: launches on one workspace must not overlap; after a launch that did not
// complete, zero it again). This file's pipeline where above_uses_pipeline(n); v08's paths
// elsewhere (one block, or v05: v08::above_uses_v06 is false there), on the workspace after the
// header. Errors: the attribute's or the
// launch's or, on the other paths, v08's.
inline cudaError_t launch(const int32_t* in, int32_t* out, unsigned long long* count, size_t n,
                          void* ws, cudaStream_t stream) {
  if (n <= v08::kSingleBlockMax) return v08::launch(in, out, count, n, ws, stream);
  if (!above_uses_pipeline(n))
    return v08::launch(in, out, count, n, static_cast<char*>(ws) + kHeaderBytes, stream);
  if (reinterpret_cast<uintptr_t>(in) % 16 == 0)
    return launch_pipeline<true>(in, out, count, n, ws, stream);
  return launch_pipeline<false>(in, out, count, n, ws, stream);
}

}  // namespace ladder::copy_if::v09
