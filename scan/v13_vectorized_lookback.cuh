// scan/v13_vectorized_lookback.cuh — scan v13: 64 items per thread, 16-byte loads, look-back.
// Technique: v12's single pass with 16 KB tiles held as int4 registers (64 threads x 16 loads).
// Changes from v12: four times the tile, a sixteenth of the threads, 16-byte loads and stores,
// and a block scan with two barriers instead of three.
// Remains (bottleneck): latency: each tile's claim, loads, scan and look-back are one chain that
// the tiles in flight per SM (10 blocks, by registers) do not cover; about level with CUB.
// Source: Merrill & Garland, Single-pass Parallel Prefix Scan with Decoupled Look-back (2016);
// CUB's BlockScan over thread-blocked items; J. Luitjens, CUDA Pro Tip: Increase Performance with
// Vectorized Memory Access (NVIDIA blog, 2013).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "common/device.h"
#include "common/load.cuh"  // load_once: 16-byte read-only load, no L1 allocation
#include "common/registry.h"
#include "scan/lookback.cuh"            // tile status, look-back, tile counter
#include "scan/v09_ptx_predicated.cuh"  // the warp scan

namespace ladder::scan::v13 {

inline constexpr VersionDoc kDoc = {
    13, "v13_vectorized_lookback", "Single pass, 4096-element tiles, 16-byte loads and stores",
    /*technique*/
    "64 threads each load 16 int4 (64 items) of a 16 KB tile, coalesced: load u of thread t "
    "holds elements 4(64u + t) .. +3. Each thread scans its int4s serially, the warps scan the "
    "int4 totals, and the 2 warps x 16 loads = 32 partial sums make one warp scan: no "
    "shared-memory transpose. Stores are evict-first (st.global.cs).",
    /*changes*/
    "v12 with four times the tile, a sixteenth of the threads, int4 loads (ld.global.nc) and "
    "stores, and a block scan of one barrier pair instead of three.",
    /*remains*/
    "Latency: each tile's claim, loads, scan and look-back form one chain, and the tiles that "
    "registers allow in flight per SM do not cover it. It runs about level with CUB (a little "
    "ahead on the H100 at 2^28, a little behind on the H200).",
    /*source*/
    "Merrill & Garland, Single-pass Parallel Prefix Scan with Decoupled Look-back (2016); CUB's "
    "BlockScan raking over thread-blocked items; Justin Luitjens, CUDA Pro Tip: Increase "
    "Performance with Vectorized Memory Access (NVIDIA Developer blog, 2013)"};

// Chosen on the H200 at 2^28 (scan/lab/LAB_NOTES.md): 64 x 16 with streaming stores was
// the fastest of 64 x 16, 128 x 8, 256 x 4 and 512 x 2, plain or streaming. Fewer threads with
// more loads each keep more bytes in flight per SM.
inline constexpr unsigned kThreads = 64;
inline constexpr unsigned kVectors = 16;                    // int4 loads per thread
inline constexpr unsigned kTile = kThreads * kVectors * 4;  // 4096 elements, 16 KB
inline constexpr bool kStreamingStores = true;              // st.global.cs: evict-first

// One block per tile, tiles in start order. ALIGNED: `in` is 16-byte aligned, so full tiles use
// int4 loads; otherwise every element is loaded alone (same layout, same result). `out` is
// always 16-byte aligned (the launcher contract). The last, partial tile takes the scalar path.
// BS threads x VECS int4 per thread (BS / 32 * VECS must be 32); STREAM: evict-first stores.
// PDL: launched as the dependent of a grid that clears the workspace (programmatic dependent
// launch, sm_90): wait for that grid (griddepcontrol.wait) before the first workspace access.
// The shipped configuration is <ALIGNED, kThreads, kVectors, kStreamingStores, false>; the others
// are for the tuning programs in scan/lab/.
template <bool ALIGNED, unsigned BS = kThreads, unsigned VECS = kVectors,
          bool STREAM = kStreamingStores, bool PDL = false>
__global__ void __launch_bounds__(BS)
    single_pass_kernel(const int32_t* __restrict__ in, int32_t* __restrict__ out, size_t n,
                       unsigned* counter, lookback::Status* status) {
  static_assert((BS / 32) * VECS == 32, "one warp scans the (load, warp) partial sums");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if constexpr (PDL) asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
  constexpr size_t kTileElems = size_t(BS) * VECS * 4;
  __shared__ int32_t partial[32];  // exclusive prefix of (load u, warp w) at [u * warps + w]
  __shared__ int32_t tile_prefix;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const size_t tile = lookback::next_tile(counter);
  const size_t base = tile * kTileElems;
  const bool full = base + kTileElems <= n;

  int4 x[VECS];
  if (ALIGNED && full) {
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

  // Thread level: inclusive scan inside each int4. Warp level: inclusive scan of the int4
  // totals, one scan per load (independent, so the compiler interleaves them); the warp's
  // exclusive part is added into the int4 at once, so no per-load partial stays live in
  // registers across the look-back (meant to free registers; the count stayed at 96).
#pragma unroll
  for (unsigned u = 0; u < VECS; ++u) {
    x[u].y += x[u].x;
    x[u].z += x[u].y;
    x[u].w += x[u].z;
    const int32_t incl = v09::scan_warp(x[u].w);
    if (lane == 31) partial[u * (BS / 32) + warp] = incl;
    const int32_t excl = incl - x[u].w;
    x[u].x += excl;
    x[u].y += excl;
    x[u].z += excl;
    x[u].w += excl;
  }
  __syncthreads();
  // Block level: warp 0 scans the 32 (load, warp) totals in tile order, then looks back.
  if (warp == 0) {
    const int32_t mine = partial[lane];
    const int32_t incl = v09::scan_warp(mine);
    partial[lane] = incl - mine;
    const int32_t tile_sum = __shfl_sync(0xffffffffu, incl, 31);
    const int32_t prefix = lookback::publish_and_look_back(status, tile, tile_sum);
    if (lane == 0) tile_prefix = prefix;
  }
  __syncthreads();
#pragma unroll
  for (unsigned u = 0; u < VECS; ++u) {
    const int32_t add = tile_prefix + partial[u * (BS / 32) + warp];
    x[u].x += add;
    x[u].y += add;
    x[u].z += add;
    x[u].w += add;
  }

  if (full) {
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
}

inline size_t workspace_bytes(size_t n) { return lookback::workspace_bytes(ceil_div(n, kTile)); }

inline cudaError_t launch(const int32_t* in, int32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  const size_t tiles = ceil_div(n, kTile);
  const cudaError_t e = cudaMemsetAsync(ws, 0, workspace_bytes(n), stream);
  if (e != cudaSuccess) return e;
  const bool aligned = reinterpret_cast<uintptr_t>(in) % 16 == 0;
  auto kernel = aligned ? single_pass_kernel<true> : single_pass_kernel<false>;
  kernel<<<static_cast<unsigned>(tiles), kThreads, 0, stream>>>(
      in, out, n, lookback::tile_counter(ws), lookback::tile_status(ws));
  return cudaGetLastError();
}

}  // namespace ladder::scan::v13
