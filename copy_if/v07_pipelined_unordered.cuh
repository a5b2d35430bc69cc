// copy_if/v07_pipelined_unordered.cuh — copy_if v07: v06's pipeline with the order given up.
// Technique: the same producer / reduce / compact-store warps; each tile takes its output range
// with one atomicAdd on the count instead of waiting for the look-ahead's prefix.
// Order is lost: tiles reach the atomic in the order their compaction finishes, not in input
// order, so tile runs land in any order (each run keeps its own elements in order).
// Changes from v06: no look-ahead warp, no tile statuses; one global atomic per tile. The run's
// stores stay 4-byte __stcs: v06's 16-byte ones made this rung slower (copy_if/lab/LAB_NOTES.md).
// Remains (bottleneck): the persistent pipeline's own data movement, a point or two short of the
// copy ceiling at 50% kept. This rung measures what the order costs v06 once its look-ahead is
// hidden behind the pipeline.
// Source: v02's one atomic per block (after A. Adinetz, "CUDA Pro Tip: Optimized Filtering with
// Warp-Aggregated Atomics", NVIDIA Developer Blog, 2014) on v06's pipeline (scan v15;
// NVIDIA/cccl pull request 6811).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/bulk_copy.cuh"  // cp.async.bulk, mbarrier init / arrive / wait
#include "common/device.h"
#include "common/registry.h"
#include "copy_if/copy_if.h"
#include "scan/lookback.cuh"   // workspace layout (the tile counter)
#include "scan/warp_scan.cuh"  // warp_scan_inclusive

namespace ladder::copy_if::v07 {

inline constexpr VersionDoc kDoc = {
    7, "v07_pipelined_unordered",
    "Unordered: v06's pipeline, one global atomicAdd per tile for its output range",
    /*technique*/
    "v06's producer, reduce and compact-store warps, without the look-ahead warp. Once a "
    "tile is compacted in its stage, one thread takes the tile's output range with a single "
    "atomicAdd of the tile's count on the global count, and the squad stores the run there. "
    "Order is lost between tiles (they take ranges in the order they get there), kept within "
    "each tile's run.",
    /*changes*/
    "v06 waited for each tile's exclusive prefix from the look-ahead warp; here a tile waits "
    "for nothing but its own atomic. The tile statuses and the look-ahead warp are gone. The "
    "run's stores stay 4-byte: v06's 16-byte ones made this rung slower.",
    /*remains*/
    "The persistent pipeline's own data movement, a point or two short of the copy ceiling at "
    "50% kept. It shows what keeping the order costs v06 (the look-ahead), next to the "
    "unordered rungs v01-v03 that have no pipeline.",
    /*source*/
    "v02's one global atomic per block (after A. Adinetz, CUDA Pro Tip: Optimized Filtering "
    "with Warp-Aggregated Atomics, NVIDIA Developer Blog, 2014) on v06's pipeline (scan v15; "
    "NVIDIA/cccl pull request 6811)"};

// Scan v15's shape: 4 warps per squad, 8 int4 per thread (4096-element, 16 KB tiles), 6 stages
// (96 KB: two blocks per SM).
inline constexpr unsigned kWarps = 4;
inline constexpr unsigned kVectors = 8;
inline constexpr unsigned kStages = 6;
inline constexpr size_t kTile = size_t(kWarps) * 32 * kVectors * 4;
inline constexpr unsigned kBlockThreads = (2 * kWarps + 1) * 32;
// The per-tile counts are 32-bit (a tile holds 4096 elements); the count is 64-bit.

// int4 a stage's bulk copy moves: the tile, and one more where the input is unaligned (scan v15's
// shifted copy).
template <bool ALIGNED>
inline constexpr unsigned copy_vecs = kWarps * 32 * kVectors + (ALIGNED ? 0 : 1);
// int4 from one stage to the next: each stage on a 128-byte boundary (v06's layout).
template <bool ALIGNED>
inline constexpr unsigned stage_vecs = bulk::stage_stride(copy_vecs<ALIGNED>);

// The persistent kernel; roles and barriers as in v06, less the look-ahead warp: warps [0, W)
// reduce, [W, 2W) compact-store, 2W producer. `count` is zero at launch and is the atomic that
// hands out output ranges; when the kernel ends it holds the number kept. ALIGNED, `tiles` and
// the zeroed tile counter as in v06. No block waits on another.
template <bool ALIGNED>
__global__ void __launch_bounds__(kBlockThreads, 1)
    specialized_kernel(const int32_t* __restrict__ in, int32_t* __restrict__ out,
                       unsigned long long* count, size_t n, unsigned tiles, unsigned* counter) {
  constexpr unsigned W = kWarps, V = kVectors, NS = kStages, T = W * 32;
  constexpr unsigned kChunks = V * W;  // 128-element chunks: (load u, warp w) at u * W + w
  static_assert(kChunks == 32, "one lane of reduce warp 0 per chunk");
  constexpr unsigned kStageVecs = stage_vecs<ALIGNED>;
  // NS stages of kStageVecs int4; int4 u of thread j at u*T + j, `shift` elements further in
  extern __shared__ __align__(bulk::kStageAlign) int4 stage_data[];
  __shared__ alignas(8) unsigned long long full[NS], reduced[NS], empty[NS];
  __shared__ unsigned tile_of[NS];
  __shared__ unsigned chunk_offset[NS][kChunks];  // kept elements in the tile before the chunk
  __shared__ unsigned tile_count[NS];
  __shared__ unsigned long long tile_offset[NS];

  const KeepPositive keep;
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const unsigned shift = ALIGNED ? 0 : bulk::shift_of(in);
  if (threadIdx.x == 0) {
    for (unsigned s = 0; s < NS; ++s) {
      bulk::barrier_init(&full[s], 32);
      bulk::barrier_init(&reduced[s], 32);
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
      t = __shfl_sync(0xffffffffu, t, 0);
      if (lane == 0) tile_of[s] = t;
      if (t >= tiles) {
        bulk::arrive(&full[s]);
        break;
      }
      const size_t base = size_t(t) * kTile;
      int4* dst = stage_data + size_t(s) * kStageVecs;
      // The copied range (scan v15's): the tile, or from the 16-byte boundary `shift` elements
      // below it and one int4 longer; it must lie inside the input.
      const bool bulk_path = ALIGNED ? base + kTile <= n : t > 0 && base + kTile + 4 - shift <= n;
      if (LADDER_HAS_BULK_COPY && bulk_path) {
        if (lane == 0)
          bulk::load(dst, in + base - shift, unsigned(copy_vecs<ALIGNED> * sizeof(int4)), &full[s]);
        else
          bulk::arrive(&full[s]);
      } else {
        int32_t* d = reinterpret_cast<int32_t*>(dst) + shift;
        for (size_t k = lane; k < kTile; k += 32) d[k] = base + k < n ? in[base + k] : 0;
        bulk::fence_proxy_async_shared();  // before a later bulk copy into this stage
        bulk::arrive(&full[s]);
      }
    }
  } else if (warp < W) {
    // ---- Reduce: count per chunk, scan the chunk counts ----
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
        }
        __syncwarp();
        bulk::arrive(&reduced[s]);
      }
    }
  } else {
    // ---- Compact-store ----
    const unsigned j = threadIdx.x - T, w = warp - W;
    for (unsigned i = 0;; ++i) {
      const unsigned s = i % NS, round = i / NS;
      bulk::wait(&reduced[s], round & 1);
      const unsigned t = tile_of[s];
      if (t >= tiles) break;
      int4* stage = stage_data + size_t(s) * kStageVecs;
      // Each thread's int4s and the rank of the first kept element of each.
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
      const unsigned total = tile_count[s];
      if (j == 0) tile_offset[s] = atomicAdd(count, static_cast<unsigned long long>(total));
      asm volatile("bar.sync 2, %0;" ::"n"(T) : "memory");  // the run and its range are ready
      int32_t* dst = out + tile_offset[s];
      for (unsigned k = j; k < total; k += T) __stcs(dst + k, compacted[k]);
      // This thread wrote the stage (the compacted run) and the producer's next bulk copy
      // overwrites it: write after write across proxies needs the proxy fence before the
      // arrival that frees the stage (bulk::fence_proxy_async_shared).
      bulk::fence_proxy_async_shared();
      bulk::arrive(&empty[s]);
    }
  }
}

inline size_t workspace_bytes(size_t) { return scan::lookback::workspace_bytes(0); }

// Launches specialized_kernel<ALIGNED> on one resident wave of blocks (at most one per tile),
// after raising its dynamic shared-memory limit; each instantiation has its own stage size.
template <bool ALIGNED>
cudaError_t launch_kernel(const int32_t* in, int32_t* out, unsigned long long* count, size_t n,
                          size_t tiles, void* ws, cudaStream_t stream) {
  constexpr size_t kSmem = kStages * size_t(stage_vecs<ALIGNED>) * sizeof(int4);
  auto kernel = specialized_kernel<ALIGNED>;
  const cudaError_t e =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem));
  if (e != cudaSuccess) return e;
  static const size_t resident =  // once: the occupancy query is too slow for a timed launch
      resident_grid(reinterpret_cast<const void*>(kernel), kBlockThreads, kSmem);
  const size_t grid = std::min(tiles, resident);
  kernel<<<static_cast<unsigned>(grid), kBlockThreads, kSmem, stream>>>(
      in, out, count, n, static_cast<unsigned>(tiles), scan::lookback::tile_counter(ws));
  return cudaGetLastError();
}

// The copy_if launcher contract (copy_if/copy_if.h). Errors: cudaErrorNotSupported unless the
// GPU runs sm_90 code of this binary (current_device_runs_sm90_code); else the memsets', the
// attribute's or the launch's.
inline cudaError_t launch(const int32_t* in, int32_t* out, unsigned long long* count, size_t n,
                          void* ws, cudaStream_t stream) {
  cudaError_t e = cudaMemsetAsync(count, 0, sizeof(*count), stream);
  if (e != cudaSuccess || n == 0) return e;
  if (!current_device_runs_sm90_code()) return cudaErrorNotSupported;
  const size_t tiles = ceil_div(n, kTile);
  e = cudaMemsetAsync(ws, 0, workspace_bytes(n), stream);
  if (e != cudaSuccess) return e;
  const bool aligned = reinterpret_cast<uintptr_t>(in) % 16 == 0;
  return aligned ? launch_kernel<true>(in, out, count, n, tiles, ws, stream)
                 : launch_kernel<false>(in, out, count, n, tiles, ws, stream);
}

}  // namespace ladder::copy_if::v07
