// scan/v14_pipelined_lookback.cuh — scan v14: persistent blocks, the next tile's loads in flight
// during the look-back.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/device.h"
#include "common/load.cuh"  // load_once: 16-byte read-only load, no L1 allocation
#include "common/registry.h"
#include "scan/lookback.cuh"            // tile status, look-back
#include "scan/v09_ptx_predicated.cuh"  // the warp scan

namespace ladder::scan::v14 {

inline constexpr VersionDoc kDoc = {
    14, "v14_pipelined_lookback", "Persistent blocks: load tile k+1 while tile k looks back",
    /*technique*/
    "One wave of blocks, each looping over tiles it claims in start order. A block claims its "
    "next tile at the first barrier of the current one and issues that tile's loads before the "
    "current tile's look-back, so the look-back's wait overlaps memory traffic instead of "
    "idling the block.",
    /*changes*/
    "v13's one-tile blocks become persistent and software-pipelined: two tiles of registers "
    "per thread, shared state double-buffered, the grid sized to the GPU, not to n.",
    /*remains*/
    "The memory system, plus whatever part of each tile's critical path (claim, scan, "
    "look-back) the one tile of loads in flight does not cover.",
    /*source*/
    "Merrill & Garland 2016; software pipelining of loads as in CUTLASS mainloops; measured in "
    "scan/tuning/probe_v13.cu"};

inline constexpr unsigned kThreads = 128;
inline constexpr unsigned kVectors = 8;  // int4 per thread per tile
inline constexpr bool kStreamingStores = true;

template <unsigned BS, unsigned VECS, bool ALIGNED>
__device__ __forceinline__ void load_tile(int4 (&x)[VECS], const int32_t* __restrict__ in, size_t n,
                                          size_t tile) {
  constexpr size_t kTileElems = size_t(BS) * VECS * 4;
  const size_t base = tile * kTileElems;
  if (ALIGNED && base + kTileElems <= n) {
    const int4* src = reinterpret_cast<const int4*>(in + base);
#pragma unroll
    for (unsigned u = 0; u < VECS; ++u) x[u] = load_once(src + u * BS + threadIdx.x);
  } else {
#pragma unroll
    for (unsigned u = 0; u < VECS; ++u) {
      const size_t i = base + 4 * (size_t(u) * BS + threadIdx.x);
      x[u].x = i + 0 < n ? in[i + 0] : 0;
      x[u].y = i + 1 < n ? in[i + 1] : 0;
      x[u].z = i + 2 < n ? in[i + 2] : 0;
      x[u].w = i + 3 < n ? in[i + 3] : 0;
    }
  }
}

// Forward progress: tiles are claimed with an atomic counter by running blocks, and each block
// handles its tiles in increasing order (it holds at most one claimed tile beyond the one it is
// working on). Take the lowest unfinished tile: its owner has finished all its lower tiles, so it
// is working on this one, and every tile before it is finished, so its look-back ends. By
// induction every tile finishes, whatever order or residency the hardware gives the blocks.
//
// Shared state is double-buffered by iteration parity: iteration k writes buffer k & 1 before its
// first barrier, and every read of buffer k & 1 from iteration k - 2 happened before the
// barriers of iteration k - 1.
template <unsigned BS, unsigned VECS, bool STREAM, bool ALIGNED>
__global__ void __launch_bounds__(BS)
    pipelined_kernel(const int32_t* __restrict__ in, int32_t* __restrict__ out, size_t n,
                     size_t tiles, unsigned* counter, lookback::Status* status) {
  static_assert((BS / 32) * VECS == 32, "one warp scans the (load, warp) partial sums");
  constexpr unsigned kWarps = BS / 32;
  constexpr size_t kTileElems = size_t(BS) * VECS * 4;
  __shared__ int32_t partial[2][32];
  __shared__ int32_t tile_prefix[2];
  __shared__ unsigned claimed[2];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;

  if (threadIdx.x == 0) claimed[0] = atomicAdd(counter, 1u);
  __syncthreads();
  size_t tile = claimed[0];
  int4 x[VECS];
  if (tile < tiles) load_tile<BS, VECS, ALIGNED>(x, in, n, tile);

  for (unsigned it = 0; tile < tiles; ++it) {
    const unsigned b = it & 1;
    int32_t own[VECS], warp_incl[VECS];
#pragma unroll
    for (unsigned u = 0; u < VECS; ++u) {
      x[u].y += x[u].x;
      x[u].z += x[u].y;
      x[u].w += x[u].z;
      own[u] = x[u].w;
      warp_incl[u] = v09::scan_warp(own[u]);
    }
    if (lane == 31) {
#pragma unroll
      for (unsigned u = 0; u < VECS; ++u) partial[b][u * kWarps + warp] = warp_incl[u];
    }
    if (threadIdx.x == 0) claimed[b ^ 1] = atomicAdd(counter, 1u);
    __syncthreads();

    // The next tile's loads go out now, before this tile's look-back.
    const size_t next = claimed[b ^ 1];
    int4 x_next[VECS];
    if (next < tiles) load_tile<BS, VECS, ALIGNED>(x_next, in, n, next);

    if (warp == 0) {
      const int32_t mine = partial[b][lane];
      const int32_t incl = v09::scan_warp(mine);
      partial[b][lane] = incl - mine;
      const int32_t tile_sum = __shfl_sync(0xffffffffu, incl, 31);
      const int32_t prefix = lookback::publish_and_look_back(status, tile, tile_sum);
      if (lane == 0) tile_prefix[b] = prefix;
    }
    __syncthreads();

    const size_t base = tile * kTileElems;
#pragma unroll
    for (unsigned u = 0; u < VECS; ++u) {
      const int32_t add = tile_prefix[b] + partial[b][u * kWarps + warp] + warp_incl[u] - own[u];
      x[u].x += add;
      x[u].y += add;
      x[u].z += add;
      x[u].w += add;
    }
    if (base + kTileElems <= n) {
      int4* dst = reinterpret_cast<int4*>(out + base);
#pragma unroll
      for (unsigned u = 0; u < VECS; ++u) {
        if constexpr (STREAM)
          __stcs(dst + u * BS + threadIdx.x, x[u]);
        else
          dst[u * BS + threadIdx.x] = x[u];
      }
    } else {
#pragma unroll
      for (unsigned u = 0; u < VECS; ++u) {
        const size_t i = base + 4 * (size_t(u) * BS + threadIdx.x);
        if (i + 0 < n) out[i + 0] = x[u].x;
        if (i + 1 < n) out[i + 1] = x[u].y;
        if (i + 2 < n) out[i + 2] = x[u].z;
        if (i + 3 < n) out[i + 3] = x[u].w;
      }
    }
    tile = next;
#pragma unroll
    for (unsigned u = 0; u < VECS; ++u) x[u] = x_next[u];
  }
}

inline size_t tiles_for(size_t n) { return ceil_div(n, size_t(kThreads) * kVectors * 4); }

inline size_t workspace_bytes(size_t n) { return lookback::workspace_bytes(tiles_for(n)); }

template <unsigned BS, unsigned VECS, bool STREAM, bool ALIGNED>
void launch_kernel(const int32_t* in, int32_t* out, size_t n, size_t tiles, void* ws,
                   cudaStream_t stream) {
  static const size_t resident =
      resident_grid((const void*)pipelined_kernel<BS, VECS, STREAM, ALIGNED>, BS, 0);
  const size_t grid = std::min(tiles, resident);
  pipelined_kernel<BS, VECS, STREAM, ALIGNED><<<static_cast<unsigned>(grid), BS, 0, stream>>>(
      in, out, n, tiles, lookback::tile_counter(ws), lookback::tile_status(ws));
}

// Launches configuration <BS, VECS, STREAM> with a grid of one wave (the probe uses it too).
template <unsigned BS, unsigned VECS, bool STREAM>
cudaError_t launch_with(const int32_t* in, int32_t* out, size_t n, void* ws, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  const size_t tiles = ceil_div(n, size_t(BS) * VECS * 4);
  const cudaError_t e = cudaMemsetAsync(ws, 0, lookback::workspace_bytes(tiles), stream);
  if (e != cudaSuccess) return e;
  if (reinterpret_cast<uintptr_t>(in) % 16 == 0)
    launch_kernel<BS, VECS, STREAM, true>(in, out, n, tiles, ws, stream);
  else
    launch_kernel<BS, VECS, STREAM, false>(in, out, n, tiles, ws, stream);
  return cudaGetLastError();
}

inline cudaError_t launch(const int32_t* in, int32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  return launch_with<kThreads, kVectors, kStreamingStores>(in, out, n, ws, stream);
}

}  // namespace ladder::scan::v14
