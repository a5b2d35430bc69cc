// copy_if/v06_warp_specialized.cuh — copy_if v06: order kept, persistent warp-specialized
// pipeline (scan v15's) with compaction through the staged tile.
// Technique: a producer warp bulk-copies tiles into a ring of shared-memory stages; reduce warps
// count each tile's kept elements and publish the count; a look-ahead warp keeps the running
// count of every earlier tile; compact-store warps compact the tile in place and store it with
// 16-byte stores. The stages start on 128-byte boundaries of shared memory.
// Changes from v05: one block no longer loads, counts, waits and stores one tile in sequence —
// later tiles load and publish their counts while an earlier one waits for its offset.
// Remains (bottleneck): the look-ahead: at 2^28 its status reads (one L2 round trip a tile) and
// the order it keeps (v07, the same pipeline without it, is faster); at 2^22 also its waits for
// lower tiles, which a block with few tiles cannot hide, and the status clear, which left it
// behind CUB there before its stages were aligned (copy_if/lab/LAB_NOTES.md). Source: scan v15 and
// what it cites: D. Merrill, M. Garland, "Single-pass Parallel Prefix Scan with Decoupled
// Look-back" (NVIDIA NVR-2016-002, 2016); NVIDIA/cccl pull request 6811 (a warp-specialized scan
// with decoupled look-ahead); CUB's DeviceSelect (compaction through shared memory); CUB's
// DeviceTransform (bulk copies into 128-byte aligned shared memory).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/bulk_copy.cuh"  // cp.async.bulk, mbarrier init / arrive / wait
#include "common/device.h"
#include "common/registry.h"
#include "copy_if/copy_if.h"
#include "scan/lookback.cuh"   // Status words, publish, advance_to, workspace layout
#include "scan/warp_scan.cuh"  // warp_scan_inclusive

namespace ladder::copy_if::v06 {

inline constexpr VersionDoc kDoc = {
    6, "v06_warp_specialized",
    "Order kept: persistent warp-specialized pipeline, compaction in the staged tile",
    /*technique*/
    "Scan v15's pipeline with counts for sums. A producer warp claims tiles in order and "
    "bulk-copies each into a ring of shared-memory stages. Reduce warps count the kept "
    "elements of each 128-element chunk, scan the chunk counts and publish the tile's count. "
    "A look-ahead warp keeps the running count of every tile before the block's next one. "
    "Compact-store warps rank each kept element, write it at its rank back into the stage "
    "(after all of them have read it), and store the compacted run at the tile's offset with "
    "coalesced 16-byte stores from the destination's first 16-byte boundary. The stages start "
    "on 128-byte boundaries of shared memory, where the bulk copy runs at full speed. The last "
    "tile writes the count.",
    /*changes*/
    "v05 gave each block one tile: load, count, look back, store, exit; while a tile waited "
    "for its offset its block had no load in flight. Here each block keeps six tiles in "
    "flight and the roles overlap: counts are published as soon as a tile lands.",
    /*remains*/
    "The look-ahead warp's status reads (one L2 round trip a tile at 2^28) and the order it "
    "keeps: v07, the same pipeline without it, is faster; at middle sizes (2^22) also its waits "
    "for lower tiles, which a block with few tiles cannot hide, and the status clear.",
    /*source*/
    "Scan v15 (D. Merrill, M. Garland, Single-pass Parallel Prefix Scan with Decoupled "
    "Look-back, NVIDIA NVR-2016-002, 2016; NVIDIA/cccl pull request 6811, warp-specialized "
    "scan with decoupled look-ahead); CUB's DeviceSelect (compaction through shared memory); "
    "CUB's DeviceTransform (bulk copies into 128-byte aligned shared memory)"};

// Scan v15's shape: 4 warps per squad, 8 int4 per thread (4096-element, 16 KB tiles), 6 stages
// (96 KB: two blocks per SM); look-ahead windows of 16 x 32 statuses, one L2 round trip a tile at
// 2^28 when the statuses are published (a block's next tile lies about 264 tiles, one per block,
// past its last); 8 x 32 took two (copy_if/lab/LAB_NOTES.md).
inline constexpr unsigned kWarps = 4;
inline constexpr unsigned kVectors = 8;
inline constexpr unsigned kStages = 6;
inline constexpr unsigned kWindow = 16;
inline constexpr size_t kTile = size_t(kWarps) * 32 * kVectors * 4;
inline constexpr unsigned kBlockThreads = (2 * kWarps + 2) * 32;
// Counts travel as unsigned 32-bit sums: exact while the total kept is below 2^32.
inline constexpr size_t kMaxN = 0xffffffffu;

// int4 a stage's bulk copy moves: the tile, and one more where the input is unaligned (scan v15's
// shifted copy).
template <bool ALIGNED>
inline constexpr unsigned copy_vecs = kWarps * 32 * kVectors + (ALIGNED ? 0 : 1);
// int4 from one stage to the next: copy_vecs rounded up to 128 bytes, so that every stage starts
// on a 128-byte boundary of shared memory, where bulk copies run at full speed (64 bytes past one
// made this kernel 5% slower at 2^28 on the H200: copy_if/lab/LAB_NOTES.md; common/bulk_copy.cuh).
template <bool ALIGNED>
inline constexpr unsigned stage_vecs = bulk::stage_stride(copy_vecs<ALIGNED>);

// The persistent kernel; roles and barriers as in scan v15 (see there for the forward-progress
// argument): warps [0, W) reduce, [W, 2W) compact-store, 2W producer, 2W + 1 look-ahead.
// ALIGNED: `in` is 16-byte aligned, so full tiles take one bulk copy; otherwise full tiles take
// scan v15's shifted bulk copy (from the 16-byte boundary below the tile, one int4 longer, read
// `shift` elements in). Tile 0 of unaligned input, the last, partial tile and any tile whose
// shifted copy would run past the end are copied element by element by the producer and filled
// with 0, which is dropped. `tiles` = ceil(n / kTile).
// The workspace is zero at launch. PDL: launched as the programmatic dependent of a grid that
// clears the workspace (scan::lookback::clear_for_dependent_kernel, sm_90): every thread waits
// for that grid (griddepcontrol.wait) after the barriers' set-up, before any workspace access.
// Only copy_if/lab/probe_v06_wait.cu launches it so (not adopted: copy_if/lab/LAB_NOTES.md);
// launch() runs PDL = false.
template <bool ALIGNED, bool PDL = false>
__global__ void __launch_bounds__(kBlockThreads, 1)
    specialized_kernel(const int32_t* __restrict__ in, int32_t* __restrict__ out,
                       unsigned long long* count, size_t n, unsigned tiles, unsigned* counter,
                       scan::lookback::Status* status) {
  constexpr unsigned W = kWarps, V = kVectors, NS = kStages, T = W * 32;
  constexpr unsigned kChunks = V * W;  // 128-element chunks: (load u, warp w) at u * W + w
  static_assert(kChunks == 32, "one lane of reduce warp 0 per chunk");
  namespace lb = scan::lookback;
  constexpr unsigned kStageVecs = stage_vecs<ALIGNED>;
  // NS stages of kStageVecs int4, each on a 128-byte boundary (bulk::kStageAlign); int4 u of
  // thread j at u*T + j, `shift` elements further in
  extern __shared__ __align__(bulk::kStageAlign) int4 stage_data[];
  __shared__ alignas(8) unsigned long long full[NS], claimed[NS], reduced[NS], prefixed[NS],
      empty[NS];
  __shared__ unsigned tile_of[NS];
  __shared__ unsigned chunk_offset[NS][kChunks];  // kept elements in the tile before the chunk
  __shared__ unsigned tile_count[NS], tile_offset[NS];

  const KeepPositive keep;
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const unsigned shift = ALIGNED ? 0 : bulk::shift_of(in);
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
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if constexpr (PDL) asm volatile("griddepcontrol.wait;" ::: "memory");  // the clear is done
#endif

  if (warp == 2 * W) {
    // ---- Producer: take a stage, then claim a tile, then load it ----
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
  } else if (warp == 2 * W + 1) {
    // ---- Look-ahead: the running count of every tile before the block's next one ----
    size_t counted = 0;
    unsigned sum = 0;
    for (unsigned i = 0;; ++i) {
      const unsigned s = i % NS, round = i / NS;
      bulk::wait(&claimed[s], round & 1);
      const size_t t = tile_of[s];
      if (t >= tiles) break;
      lb::advance_to<kWindow>(status, t, counted, sum);
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
          lb::publish<unsigned>(status + t, lb::kAggregate, total);
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
      asm volatile("bar.sync 2, %0;" ::"n"(T) : "memory");  // the compacted run is complete
      bulk::wait(&prefixed[s], round & 1);
      const unsigned total = tile_count[s], offset = tile_offset[s];
      // The run's stores: 16-byte from the first 16-byte boundary of the destination, 4-byte for
      // the up to three elements before it (head) and after the last whole int4 (tail). Each
      // int4 is read from the stage as four words (the run starts at any offset).
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
      // This thread wrote the stage (the compacted run) and the producer's next bulk copy
      // overwrites it: write after write across proxies needs the proxy fence before the
      // arrival that frees the stage (bulk::fence_proxy_async_shared).
      bulk::fence_proxy_async_shared();
      if (j == 0 && t == tiles - 1) *count = static_cast<unsigned long long>(offset) + total;
      bulk::arrive(&empty[s]);
    }
  }
}

inline size_t workspace_bytes(size_t n) {
  return scan::lookback::workspace_bytes(ceil_div(n, kTile));
}

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
      in, out, count, n, static_cast<unsigned>(tiles), scan::lookback::tile_counter(ws),
      scan::lookback::tile_status(ws));
  return cudaGetLastError();
}

// The copy_if launcher contract (copy_if/copy_if.h); n <= kMaxN. Errors: cudaErrorNotSupported
// unless the GPU runs sm_90 code of this binary (current_device_runs_sm90_code); else the memsets',
// the attribute's or the launch's.
inline cudaError_t launch(const int32_t* in, int32_t* out, unsigned long long* count, size_t n,
                          void* ws, cudaStream_t stream) {
  if (n == 0) return cudaMemsetAsync(count, 0, sizeof(*count), stream);
  if (!current_device_runs_sm90_code()) return cudaErrorNotSupported;
  const size_t tiles = ceil_div(n, kTile);
  cudaError_t e = cudaMemsetAsync(ws, 0, workspace_bytes(n), stream);
  if (e != cudaSuccess) return e;
  const bool aligned = reinterpret_cast<uintptr_t>(in) % 16 == 0;
  return aligned ? launch_kernel<true>(in, out, count, n, tiles, ws, stream)
                 : launch_kernel<false>(in, out, count, n, tiles, ws, stream);
}

}  // namespace ladder::copy_if::v06
