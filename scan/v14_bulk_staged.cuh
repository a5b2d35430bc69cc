// scan/v14_bulk_staged.cuh — scan v14: single pass, tiles staged in shared memory by bulk copy.
// Technique: one cp.async.bulk (TMA, 1-D) per tile into shared memory, look-back as in v12/v13.
// The tile's buffer starts on a 128-byte boundary, where the bulk copy runs at full speed
// (common/bulk_copy.cuh; 16 bytes off, where the static shared memory ends, it ran slower).
// Changes from v13: the tile lives in shared memory, not registers, during the look-back.
// Remains (bottleneck): the look-back chain's latency, now covered by shared memory per SM:
// while a block waits for its prefix, it has no load in flight.
// Source: Merrill & Garland (2016), decoupled look-back; PTX ISA, cp.async.bulk and mbarrier;
// CUB's DeviceTransform bulk-copy path (the staging idea).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "common/bulk_copy.cuh"  // cp.async.bulk + mbarrier
#include "common/device.h"
#include "common/registry.h"
#include "scan/lookback.cuh"            // tile status, look-back
#include "scan/v09_ptx_predicated.cuh"  // scan_warp

namespace ladder::scan::v14 {

inline constexpr VersionDoc kDoc = {
    14, "v14_bulk_staged", "Single pass, tiles staged in shared memory by the TMA's bulk copy",
    /*technique*/
    "Thread 0 draws the tile, then one cp.async.bulk moves the whole tile from global to shared "
    "memory (into a buffer declared 128-byte aligned, where the copy runs at full speed), "
    "completing on an mbarrier. Each thread scans its int4s out of shared memory, "
    "writes them back with the warp's exclusive part added, and the block looks back as in "
    "v13; the final pass adds the tile's and the (load, warp) prefix and stores to global.",
    /*changes*/
    "v13 kept 64 items per thread in registers through the look-back: 96 registers a thread, "
    "10 blocks per SM (Nsight Compute: 30% occupancy, stalls on memory and on the look-back "
    "barrier). Here the tile waits in shared memory and a thread needs few registers, so "
    "shared memory sets the tiles in flight per SM, and one instruction loads a tile.",
    /*remains*/
    "The look-back chain and the tile's two passes over shared memory; tiles in flight per "
    "SM are bounded by shared memory: 228 KB per SM on Hopper, three 64 KB tiles; 164 KB on "
    "A100 and 100 KB on Ada and consumer Blackwell (one or two tiles), though every GPU from "
    "sm_80 on allows a 64 KB block, so the rung runs everywhere the suite builds for.",
    /*source*/
    "Merrill & Garland, Single-pass Parallel Prefix Scan with Decoupled Look-back (2016); PTX "
    "ISA cp.async.bulk and mbarrier; "
    "CUB's DeviceTransform bulk-copy path (the staging idea)"};

// The shipped shape, the fastest of eight timed on the H200 (scan/lab/LAB_NOTES.md).
inline constexpr unsigned kThreads = 512;
inline constexpr unsigned kVectors = 8;  // int4 per thread: 64 KB tiles
inline constexpr unsigned kTile = kThreads * kVectors * 4;
inline constexpr bool kStreamingStores = true;

// One block per tile, tiles in start order (the counter at counter[0]). Dynamic shared memory:
// BS * VECS * 16 bytes. ALIGNED: `in` is 16-byte aligned, so full tiles take the bulk copy; the
// last, partial tile (and every tile when !ALIGNED) is loaded element by element by its threads
// into the same layout. `out` is 16-byte aligned (the launcher contract). The (load, warp)
// partials: (BS / 32) * VECS of them, a multiple of 32.
template <bool ALIGNED, unsigned BS = kThreads, unsigned VECS = kVectors,
          bool STREAM = kStreamingStores>
__global__ void __launch_bounds__(BS)
    staged_kernel(const int32_t* __restrict__ in, int32_t* __restrict__ out, size_t n,
                  unsigned* counter, lookback::Status* status) {
  constexpr unsigned kWarps = BS / 32, kParts = kWarps * VECS, kPerLane = kParts / 32;
  static_assert(kParts % 32 == 0, "warp 0 scans the partials, kPerLane per lane");
  constexpr size_t kTileElems = size_t(BS) * VECS * 4;
  // BS * VECS int4: int4 u of thread t at [u * BS + t]; on a 128-byte boundary, where bulk copies
  // run at full speed (common/bulk_copy.cuh)
  extern __shared__ __align__(bulk::kStageAlign) int4 staged[];
  __shared__ alignas(8) unsigned long long bar;
  __shared__ int32_t partial[kParts];  // (load u, warp w) at [u * kWarps + w], tile order
  __shared__ int32_t tile_prefix;
  __shared__ unsigned tile_slot;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;

  if (threadIdx.x == 0) {
    const unsigned t = atomicAdd(counter, 1u);
    tile_slot = t;
    if (LADDER_HAS_BULK_COPY && ALIGNED && size_t(t) * kTileElems + kTileElems <= n) {
      bulk::barrier_init(&bar);
      bulk::load(staged, in + size_t(t) * kTileElems, kTileElems * sizeof(int32_t), &bar);
    }
  }
  __syncthreads();  // the tile number, and the barrier's initialisation
  const size_t tile = tile_slot;
  const size_t base = tile * kTileElems;
  const bool bulk_path = LADDER_HAS_BULK_COPY && ALIGNED && base + kTileElems <= n;
  if (bulk_path) bulk::wait(&bar, 0);

    // Pass 1: scan inside each int4, then across the warp; write back with the warp's exclusive
    // part added. Each thread touches only its own slots, so no barrier is needed in between.
#pragma unroll 4
  for (unsigned u = 0; u < VECS; ++u) {
    int4 x;
    if (bulk_path) {
      x = staged[u * BS + threadIdx.x];
    } else {
      const size_t i = base + 4 * (size_t(u) * BS + threadIdx.x);
      x.x = i + 0 < n ? in[i + 0] : 0;
      x.y = i + 1 < n ? in[i + 1] : 0;
      x.z = i + 2 < n ? in[i + 2] : 0;
      x.w = i + 3 < n ? in[i + 3] : 0;
    }
    x.y += x.x;
    x.z += x.y;
    x.w += x.z;
    const int32_t incl = v09::scan_warp(x.w);
    if (lane == 31) partial[u * kWarps + warp] = incl;
    const int32_t excl = incl - x.w;
    x.x += excl;
    x.y += excl;
    x.z += excl;
    x.w += excl;
    staged[u * BS + threadIdx.x] = x;
  }
  __syncthreads();
  // Block level: warp 0 scans the partials (kPerLane consecutive ones per lane), looks back.
  if (warp == 0) {
    int32_t v[kPerLane], sum = 0;
#pragma unroll
    for (unsigned k = 0; k < kPerLane; ++k) sum += v[k] = partial[lane * kPerLane + k];
    const int32_t incl = v09::scan_warp(sum);
    int32_t run = incl - sum;
#pragma unroll
    for (unsigned k = 0; k < kPerLane; ++k) {
      partial[lane * kPerLane + k] = run;
      run += v[k];
    }
    const int32_t tile_sum = __shfl_sync(0xffffffffu, incl, 31);
    const int32_t prefix = lookback::publish_and_look_back(status, tile, tile_sum);
    if (lane == 0) tile_prefix = prefix;
  }
  __syncthreads();
  // Pass 2: add the tile's prefix and the (load, warp) prefix; store.
#pragma unroll 4
  for (unsigned u = 0; u < VECS; ++u) {
    int4 x = staged[u * BS + threadIdx.x];
    const int32_t add = tile_prefix + partial[u * kWarps + warp];
    x.x += add;
    x.y += add;
    x.z += add;
    x.w += add;
    if (base + kTileElems <= n) {
      int4* dst = reinterpret_cast<int4*>(out + base) + u * BS + threadIdx.x;
      if constexpr (STREAM)
        __stcs(dst, x);
      else
        *dst = x;
    } else {
      const size_t i = base + 4 * (size_t(u) * BS + threadIdx.x);
      if (i + 0 < n) out[i + 0] = x.x;
      if (i + 1 < n) out[i + 1] = x.y;
      if (i + 2 < n) out[i + 2] = x.z;
      if (i + 3 < n) out[i + 3] = x.w;
    }
  }
}

// Launches staged_kernel<ALIGNED, BS, VECS, STREAM> over `tiles` tiles, raising the kernel's
// dynamic shared-memory limit first where the tile needs more than 48 KB.
template <bool ALIGNED, unsigned BS, unsigned VECS, bool STREAM>
cudaError_t launch_shape(const int32_t* in, int32_t* out, size_t n, void* ws, size_t tiles,
                         cudaStream_t stream) {
  constexpr size_t kSmem = size_t(BS) * VECS * 16;
  auto kernel = staged_kernel<ALIGNED, BS, VECS, STREAM>;
  if constexpr (kSmem > 48 * 1024) {
    const cudaError_t e =
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem));
    if (e != cudaSuccess) return e;
  }
  kernel<<<static_cast<unsigned>(tiles), BS, kSmem, stream>>>(
      in, out, n, lookback::tile_counter(ws), lookback::tile_status(ws));
  return cudaGetLastError();
}

inline size_t workspace_bytes(size_t n) { return lookback::workspace_bytes(ceil_div(n, kTile)); }

// in: n int32 (any alignment); out: n int32, 16-byte aligned; ws: workspace_bytes(n) bytes,
// zeroed here. n < 2^32 tiles (n up to 2^43 elements).
inline cudaError_t launch(const int32_t* in, int32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  const size_t tiles = ceil_div(n, kTile);
  const cudaError_t e = cudaMemsetAsync(ws, 0, workspace_bytes(n), stream);
  if (e != cudaSuccess) return e;
  if (reinterpret_cast<uintptr_t>(in) % 16 == 0)
    return launch_shape<true, kThreads, kVectors, kStreamingStores>(in, out, n, ws, tiles, stream);
  return launch_shape<false, kThreads, kVectors, kStreamingStores>(in, out, n, ws, tiles, stream);
}

}  // namespace ladder::scan::v14
