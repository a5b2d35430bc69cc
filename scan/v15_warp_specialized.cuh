// scan/v15_warp_specialized.cuh — scan v15: persistent, warp-specialized single pass with a
// pipeline of bulk-copy stages and an incremental look-ahead.
// Technique: each block keeps several tiles in flight; four roles run concurrently on separate
// warps and hand tiles to one another through mbarriers in shared memory. The stages start on
// 128-byte boundaries of shared memory, where the bulk copy runs at full speed.
// Changes from v14: the tile's load, its sum, its prefix and its stores no longer form one
// chain per block — a block loads and publishes later tiles while an earlier one waits.
// Remains (bottleneck): at middle sizes (2^20 to 2^22) a block gets one to four tiles: its pipeline
// fills and drains within them, and its look-ahead, reading every tile's status from tile 0, waits
// on the slowest tile below its own with no later tiles to hide that behind (v14 is faster there;
// on the H200 at 2^20 the waits alone, or the status clear alone, cost more than v15's deficit to
// v14, while at 2^22 v15 stays slower than v14 even when no tile waits). At 2^28 the look-ahead
// costs under a point (on the H200 the probe's copy of v15 runs about 0.7 points faster without it)
// and the pipeline stays a few per cent short of the copy ceiling: on the H200 it copies, without
// scanning, hardly faster than v15 scans. Loading each tile as four quarter-tile copies, at most
// four in flight a block, it copies within two per cent of the ceiling, but then scans no faster:
// the look-ahead costs it as much even when nothing waits for it. Its polling of the status
// words, every block reading every status, slows the data path; one look-ahead for the two blocks
// of a thread-block cluster halves those reads but removes only a quarter to a third of the cost
// (about half with the claims handed over once reduced; scan/lab/LAB_NOTES.md, "A data path at
// 98% of the copy" and "Sharing one look-ahead").
// Source: Merrill & Garland 2016 (single pass, tile aggregates); CCCL's "warpspeed" scan
// (NVIDIA/cccl PR #6811: warp specialization, staged TMA loads, decoupled look-ahead).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/bulk_copy.cuh"  // cp.async.bulk, mbarrier init / arrive / wait
#include "common/device.h"
#include "common/registry.h"
#include "scan/lookback.cuh"            // Status words, publish / peek, workspace layout
#include "scan/v09_ptx_predicated.cuh"  // scan_warp

namespace ladder::scan::v15 {

inline constexpr VersionDoc kDoc = {
    15, "v15_warp_specialized",
    "Persistent blocks, warp-specialized pipeline of bulk-copy stages, incremental look-ahead",
    /*technique*/
    "Persistent blocks (two per SM) run four roles on separate warps. A producer warp claims "
    "tiles in order from an atomic counter and bulk-copies each into a ring of shared-memory "
    "stages. Reduce warps sum a landed tile and publish its aggregate at once. A look-ahead "
    "warp keeps a running sum of every tile aggregate before the block's next tile, reading up "
    "to 256 statuses per L2 round trip. Scan-store warps scan the staged tile, add the prefix "
    "and store; then the stage returns to the producer. The roles hand over through mbarriers. "
    "Each stage starts on a 128-byte boundary of shared memory, where the bulk copy runs at "
    "full speed.",
    /*changes*/
    "In v14 one block did load, sum, look-back and store of one tile in sequence and then "
    "exited: while it waited for its prefix no load of its was in flight. Here the producer "
    "keeps loading later tiles and the reduce warps keep publishing their aggregates while an "
    "earlier tile waits for its prefix, so the DRAM queue never drains behind a slow tile. "
    "Tiles publish only aggregates: no inclusive-prefix status, no chain between look-backs.",
    /*remains*/
    "At middle sizes (2^20 to 2^22), a block gets one to four tiles: its pipeline fills and "
    "drains within them, and its look-ahead, reading every tile's status from tile 0, waits on "
    "the slowest tile below its own with no later tiles to hide that behind; v15 trails v14 "
    "there (on the H200 at 2^20 the waits alone, or the status clear alone, cost more than "
    "v15's deficit to v14, while at 2^22 v15 stays slower than v14 even when no tile waits). "
    "At 2^28 the look-ahead costs under a point (on the H200 the probe's copy of v15 runs "
    "about 0.7 points faster without it); the pipeline stays a few per cent short of the copy "
    "ceiling: on the H200 it copies, without scanning, hardly faster than v15 scans. Loading "
    "each tile as four quarter-tile copies, at most four in flight a block, it copies within two "
    "per cent of the ceiling but scans no faster: then the look-ahead costs it as much even when "
    "nothing waits for it. Its polling of the status words, every block reading every status, "
    "slows the data path; one look-ahead for the two blocks of a thread-block cluster halves those "
    "reads but removes only a quarter to a third of the cost (about half with the claims handed "
    "over once reduced).",
    /*source*/
    "Merrill & Garland, Single-pass Parallel Prefix Scan with Decoupled Look-back (2016), the "
    "tile aggregates; NVIDIA/cccl PR #6811, "
    "the warp-specialized 'warpspeed' scan with decoupled look-ahead; PTX ISA mbarrier and "
    "cp.async.bulk"};

// The shipped shape, the fastest of those timed at 2^28 or level with it (scan/lab/LAB_NOTES.md): 4
// reduce and 4 scan-store warps, 8 int4 per thread per tile (4096 elements, 16 KB), 6 stages (96
// KB, so two blocks and 20 warps per SM), look-ahead windows of 8 x 32 statuses. One block per SM
// with 32 KB tiles was about a fifth slower with 4-warp squads (2% with 8-warp squads); two blocks
// per SM double the squads, producers and look-ahead warps at work.
inline constexpr unsigned kWarps = 4;    // warps in each of the reduce and scan-store squads
inline constexpr unsigned kVectors = 8;  // int4 per squad thread per tile
inline constexpr unsigned kStages = 6;
inline constexpr unsigned kWindow = 8;  // look-ahead statuses per lane per round trip
inline constexpr unsigned kTile = kWarps * 32 * kVectors * 4;

// Warp roles: [0, W) reduce, [W, 2W) scan-store, 2W producer, 2W + 1 look-ahead.
template <unsigned W>
inline constexpr unsigned kBlockThreads = (2 * W + 2) * 32;

// int4 a stage's bulk copy moves: the tile, and one more where the input is unaligned (the
// shifted copy).
template <unsigned W, unsigned V, bool ALIGNED>
inline constexpr unsigned copy_vecs = W * 32 * V + (ALIGNED ? 0 : 1);
// int4 from one stage to the next: copy_vecs rounded up to 128 bytes, so that every stage starts
// on a 128-byte boundary of shared memory, where bulk copies run at full speed (the stages start
// 32 bytes past one otherwise, after the block's static shared memory; scan/lab/LAB_NOTES.md,
// "Where the stages start"; common/bulk_copy.cuh).
template <unsigned W, unsigned V, bool ALIGNED>
inline constexpr unsigned stage_vecs = bulk::stage_stride(copy_vecs<W, V, ALIGNED>);

// The reduce squad's work on one staged tile (v15 and v17): each of the W warps sums its
// 128-element chunks (load u, warp w: chunk u * W + w; `tid` = the thread's index in the squad),
// the squad meets at named barrier 1, and warp 0 scans the chunk sums into chunk_prefix (each
// chunk's exclusive prefix within the tile). Returns the tile's total in every lane of warp 0, 0
// in the other warps.
template <unsigned W, unsigned V, bool ALIGNED>
__device__ __forceinline__ int32_t reduce_staged_tile(const int4* src, unsigned shift,
                                                      int32_t* chunk_prefix, unsigned tid) {
  constexpr unsigned T = W * 32;
  constexpr unsigned kChunks = V * W;
  static_assert(kChunks % 32 == 0, "warp 0 of the reduce squad scans the chunk sums");
  constexpr unsigned kPerLane = kChunks / 32;
  const unsigned warp = tid / 32, lane = tid % 32;
#pragma unroll 8
  for (unsigned u = 0; u < V; ++u) {
    const int4 x = bulk::staged_chunk_words<!ALIGNED>(src, shift, u * T + tid, lane);
    const int32_t c = __reduce_add_sync(0xffffffffu, x.x + x.y + x.z + x.w);
    if (lane == 0) chunk_prefix[u * W + warp] = c;
  }
  asm volatile("bar.sync 1, %0;" ::"n"(T) : "memory");  // the reduce squad only
  if (warp != 0) return 0;
  int32_t v[kPerLane], mine = 0;
#pragma unroll
  for (unsigned k = 0; k < kPerLane; ++k) mine += v[k] = chunk_prefix[lane * kPerLane + k];
  const int32_t incl = v09::scan_warp(mine);
  int32_t run = incl - mine;
#pragma unroll
  for (unsigned k = 0; k < kPerLane; ++k) {
    chunk_prefix[lane * kPerLane + k] = run;
    run += v[k];
  }
  return __shfl_sync(0xffffffffu, incl, 31);
}

// The scan-store squad's work on one staged tile (v15 and v17): thread j (warp w of the squad)
// scans its int4 of each load u, adds the warp's, the chunk's and the tile's prefixes, and stores
// to out[base ...]: 16-byte stores for a whole tile, element by element (up to n) for the last.
template <unsigned W, unsigned V, bool ALIGNED>
__device__ __forceinline__ void scan_store_staged_tile(const int4* src, unsigned shift,
                                                       const int32_t* chunk_prefix, int32_t prefix,
                                                       int32_t* out, size_t n, size_t base,
                                                       unsigned j) {
  constexpr unsigned T = W * 32;
  constexpr size_t kTileElems = size_t(T) * V * 4;
  const unsigned w = j / 32;
  const bool whole = base + kTileElems <= n;
  int4* dst = reinterpret_cast<int4*>(out + base);
#pragma unroll 4
  for (unsigned u = 0; u < V; ++u) {
    int4 x = bulk::staged_int4<!ALIGNED>(src, shift, u * T + j);
    x.y += x.x;
    x.z += x.y;
    x.w += x.z;
    const int32_t incl = v09::scan_warp(x.w);
    const int32_t add = prefix + chunk_prefix[u * W + w] + (incl - x.w);
    x.x += add;
    x.y += add;
    x.z += add;
    x.w += add;
    if (whole) {
      dst[u * T + j] = x;  // plain: faster than __stcs on the H200 (the lab notes)
    } else {
      const size_t e = base + 4 * (size_t(u) * T + j);
      if (e + 0 < n) out[e + 0] = x.x;
      if (e + 1 < n) out[e + 1] = x.y;
      if (e + 2 < n) out[e + 2] = x.z;
      if (e + 3 < n) out[e + 3] = x.w;
    }
  }
}

// The persistent kernel. W: warps per squad; V: int4 per squad thread per tile (tile = W * 32 *
// V * 4 elements; V * W must be a multiple of 32); NS: stages; WIN: look-ahead statuses per
// lane. ALIGNED: `in` is 16-byte aligned, so full tiles take one bulk copy. Otherwise the copy
// starts at the 16-byte boundary below the tile and is 16 bytes longer, and the tile's
// elements sit `shift` (1 to 3) elements into a stage one int4 longer (bulk::shift_of,
// bulk::staged_int4, bulk::staged_chunk_words). Tile 0 (whose copy would start before `in`), the
// last, partial tile and any tile whose copy would run past the end are copied element by element
// by the producer warp, zero-filled, into the same layout. `out` is 16-byte aligned. `tiles` =
// ceil(n / tile) < 2^32. The workspace (counter, statuses) is zero at launch. Dynamic shared
// memory: NS * stage_vecs<W, V, ALIGNED> * 16 bytes.
//
// The pipeline, per stage s (round r of the ring uses each barrier's phase r):
//   producer:   wait empty[s] (r > 0); claim tile t, one atomic at a time (claiming a block's
//               first six in one round trip was slower at every size: the blocks that start
//               first take too much of a small input; scan/lab/LAB_NOTES.md);
//               tile_of[s] = t; arrive claimed[s];
//               bulk-copy the tile; all 32 lanes arrive on full[s]  (t >= tiles: arrive, stop)
//   reduce:     wait full[s]; sum each 128-element chunk; scan the chunk sums; publish the
//               tile's aggregate; arrive reduced[s]
//   look-ahead: wait claimed[s]; add the aggregates of every tile before t not yet counted;
//               tile_prefix[s] = that sum; arrive prefixed[s]
//   scan-store: wait reduced[s] and prefixed[s]; scan the staged tile, add prefixes, store to
//               global; arrive empty[s]
//
// Forward progress: a tile's aggregate depends only on its own bulk copy, because the producer
// takes a stage (waits on empty[s]) *before* it claims a tile, never after (in round 0 every
// stage is free). So every claimed
// tile is published without waiting on any other tile, and a look-ahead that waits on tiles
// below its own ends; nothing depends on blocks being co-resident or on launch order.
//
// PDL: launched as the programmatic dependent of a grid that clears the workspace
// (lookback::clear_for_dependent_kernel, sm_90): every thread waits for that grid
// (griddepcontrol.wait) after the barriers' set-up, before any workspace access. Only
// scan/lab/probe_v15_wait.cu launches it so (not adopted: scan/lab/LAB_NOTES.md); launch() runs
// PDL = false.
template <unsigned W, unsigned V, unsigned NS, unsigned WIN, bool ALIGNED, bool PDL = false>
__global__ void __launch_bounds__(kBlockThreads<W>, 1)
    specialized_kernel(const int32_t* __restrict__ in, int32_t* __restrict__ out, size_t n,
                       unsigned tiles, unsigned* counter, lookback::Status* status) {
  constexpr unsigned T = W * 32;     // threads per squad
  constexpr unsigned kVecs = T * V;  // int4 per tile
  constexpr size_t kTileElems = size_t(kVecs) * 4;
  constexpr unsigned kChunks = V * W;  // 128-element chunks: (load u, warp w) at u * W + w
  constexpr unsigned kStageVecs = stage_vecs<W, V, ALIGNED>;
  // NS stages of kStageVecs int4, each on a 128-byte boundary (bulk::kStageAlign); int4 u of
  // thread j at u*T + j, `shift` elements further in
  extern __shared__ __align__(bulk::kStageAlign) int4 stage_data[];
  __shared__ alignas(8) unsigned long long full[NS], claimed[NS], reduced[NS], prefixed[NS],
      empty[NS];
  __shared__ unsigned tile_of[NS];
  __shared__ int32_t chunk_prefix[NS][kChunks];
  __shared__ int32_t tile_prefix[NS];

  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const unsigned shift = ALIGNED ? 0 : bulk::shift_of(in);
  if (threadIdx.x == 0) {
    for (unsigned s = 0; s < NS; ++s) {
      bulk::barrier_init(&full[s], 32);  // every producer lane (lane 0's brings the bytes)
      bulk::barrier_init(&claimed[s], 1);
      bulk::barrier_init(&reduced[s], 32);  // every lane of reduce warp 0
      bulk::barrier_init(&prefixed[s], 1);
      bulk::barrier_init(&empty[s], T);  // every scan-store thread
    }
  }
  __syncthreads();  // the only block-wide barrier: the roles never meet again
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if constexpr (PDL) asm volatile("griddepcontrol.wait;" ::: "memory");  // the clear is done
#endif

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
      // The copied range: the tile itself, or (unaligned) from the boundary `shift` elements
      // below it, one int4 longer; it must lie inside the input.
      const bool bulk_path =
          ALIGNED ? base + kTileElems <= n : t > 0 && base + kTileElems + 4 - shift <= n;
      if (LADDER_HAS_BULK_COPY && bulk_path) {
        // Lane 0's arrival carries the byte count, so the phase also waits for the copy.
        if (lane == 0)
          bulk::load(dst, in + base - shift, unsigned(copy_vecs<W, V, ALIGNED> * sizeof(int4)),
                     &full[s]);
        else
          bulk::arrive(&full[s]);
      } else {
        // Each lane's arrival releases its own stores (one lane's would not cover the others').
        // A later round may refill this stage by bulk copy: the proxy fence orders these
        // generic stores before it (write after write across proxies).
        int32_t* d = reinterpret_cast<int32_t*>(dst) + shift;
        for (size_t k = lane; k < kTileElems; k += 32) d[k] = base + k < n ? in[base + k] : 0;
        bulk::fence_proxy_async_shared();
        bulk::arrive(&full[s]);
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
      const int32_t total = reduce_staged_tile<W, V, ALIGNED>(stage_data + size_t(s) * kStageVecs,
                                                              shift, chunk_prefix[s], threadIdx.x);
      if (warp == 0) {
        if (lane == 0) lookback::publish(status + t, lookback::kAggregate, total);
        __syncwarp();
        bulk::arrive(&reduced[s]);
      }
    }
  } else {
    // ---- Scan-store ----
    const unsigned j = threadIdx.x - T;
    for (unsigned i = 0;; ++i) {
      const unsigned s = i % NS, round = i / NS;
      bulk::wait(&reduced[s], round & 1);
      const unsigned t = tile_of[s];
      if (t >= tiles) break;
      bulk::wait(&prefixed[s], round & 1);
      scan_store_staged_tile<W, V, ALIGNED>(stage_data + size_t(s) * kStageVecs, shift,
                                            chunk_prefix[s], tile_prefix[s], out, n,
                                            size_t(t) * kTileElems, j);
      // The stage was only read: the arrival alone orders those reads before the producer's
      // next bulk copy into it (write after read across proxies; bulk::fence_proxy_async_shared).
      bulk::arrive(&empty[s]);
    }
  }
}

// Launches KERNEL, a persistent pipeline kernel with specialized_kernel's parameters (v15's, v17's
// or v18's), THREADS threads a block, on one resident wave of blocks (at most one per tile of
// TILE_ELEMS elements), after raising the kernel's dynamic shared-memory limit to SMEM bytes. The
// tile counter and the statuses are as the caller laid them out; nothing is cleared here.
template <auto KERNEL, unsigned THREADS, size_t TILE_ELEMS, size_t SMEM>
cudaError_t launch_resident(const int32_t* in, int32_t* out, size_t n, unsigned* counter,
                            lookback::Status* status, cudaStream_t stream) {
  const cudaError_t e =
      cudaFuncSetAttribute(KERNEL, cudaFuncAttributeMaxDynamicSharedMemorySize, int(SMEM));
  if (e != cudaSuccess) return e;
  static const size_t resident =  // once: the occupancy query is too slow for a timed launch
      resident_grid(reinterpret_cast<const void*>(KERNEL), THREADS, SMEM);
  const size_t tiles = ceil_div(n, TILE_ELEMS);
  const size_t grid = std::min(tiles, resident);
  KERNEL<<<static_cast<unsigned>(grid), THREADS, SMEM, stream>>>(
      in, out, n, static_cast<unsigned>(tiles), counter, status);
  return cudaGetLastError();
}

// launch_resident after zeroing the workspace (ws: lookback::workspace_bytes for those tiles;
// lookback's layout: the counter, then the statuses).
template <auto KERNEL, unsigned THREADS, size_t TILE_ELEMS, size_t SMEM>
cudaError_t launch_persistent(const int32_t* in, int32_t* out, size_t n, void* ws,
                              cudaStream_t stream) {
  const size_t tiles = ceil_div(n, TILE_ELEMS);
  const cudaError_t e = cudaMemsetAsync(ws, 0, lookback::workspace_bytes(tiles), stream);
  if (e != cudaSuccess) return e;
  return launch_resident<KERNEL, THREADS, TILE_ELEMS, SMEM>(in, out, n, lookback::tile_counter(ws),
                                                            lookback::tile_status(ws), stream);
}

// Launches specialized_kernel<W, V, NS, WIN, ALIGNED> (launch_persistent).
template <unsigned W, unsigned V, unsigned NS, unsigned WIN, bool ALIGNED>
cudaError_t launch_shape(const int32_t* in, int32_t* out, size_t n, void* ws, cudaStream_t stream) {
  return launch_persistent<specialized_kernel<W, V, NS, WIN, ALIGNED>, kBlockThreads<W>,
                           size_t(W) * 32 * V * 4,
                           NS * size_t(stage_vecs<W, V, ALIGNED>) * sizeof(int4)>(in, out, n, ws,
                                                                                  stream);
}

inline size_t workspace_bytes(size_t n) { return lookback::workspace_bytes(ceil_div(n, kTile)); }

// in: n int32 (any alignment); out: n int32, 16-byte aligned; ws: workspace_bytes(n) bytes,
// zeroed here. n < 2^32 tiles. Errors: cudaErrorNotSupported unless the GPU runs sm_90 code of this
// binary (current_device_runs_sm90_code: the pipeline needs mbarrier try_wait and bulk
// copies); else the memset's, attribute's or launch's.
inline cudaError_t launch(const int32_t* in, int32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  if (!current_device_runs_sm90_code()) return cudaErrorNotSupported;  // sm_90 code needed
  if (reinterpret_cast<uintptr_t>(in) % 16 == 0)
    return launch_shape<kWarps, kVectors, kStages, kWindow, true>(in, out, n, ws, stream);
  return launch_shape<kWarps, kVectors, kStages, kWindow, false>(in, out, n, ws, stream);
}

}  // namespace ladder::scan::v15
