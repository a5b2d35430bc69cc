// copy_if/v05_single_pass.cuh — copy_if v05: order kept in one pass, decoupled look-back.
// Technique: count per tile, look back over the tiles' counts, compact through shared memory.
// Changes from v04: one pass at the minimal traffic; flags and positions never leave the SM,
// only one 8-byte status word per tile crosses L2.
// Remains (bottleneck): the look-back chain's latency, as in scan v13: a block that waits for
// its offset has no load in flight.
// Source: D. Merrill, M. Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back"
// (NVIDIA technical report NVR-2016-002, 2016); CUB's DeviceSelect (compaction through shared
// memory); scan v13 (the tile layout).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/device.h"
#include "common/load.cuh"  // load_once
#include "common/registry.h"
#include "copy_if/copy_if.h"
#include "scan/lookback.cuh"   // tile status, look-back, tile counter
#include "scan/warp_scan.cuh"  // warp_scan_inclusive (scan v09's PTX)

namespace ladder::copy_if::v05 {

inline constexpr VersionDoc kDoc = {
    5, "v05_single_pass", "Order kept in one pass: tile counts, decoupled look-back, int4 loads",
    /*technique*/
    "Each block loads a 4096-element tile (128 threads x 8 int4) and counts its kept "
    "elements per int4. A warp scan of the counts per load, then one warp scan of the 32 "
    "(load, warp) totals, gives every kept element its rank in the tile. The kept elements "
    "are compacted into shared memory at their ranks, warp 0 looks back over the earlier "
    "tiles' counts (scan/lookback.cuh, unsigned 32-bit) for the tile's output offset, and "
    "the block copies its compacted run to global memory with coalesced stores. The last "
    "tile writes the count.",
    /*changes*/
    "v04's three passes and 24 bytes per element become one pass at the minimal traffic: "
    "read x once, write the kept values once. The flags and positions never leave the SM; "
    "only one 8-byte status word per tile crosses L2.",
    /*remains*/
    "As scan v13: each tile's loads, scan and look-back form one chain of latency, and the "
    "tiles in flight per SM have to cover it.",
    /*source*/
    "D. Merrill, M. Garland, Single-pass Parallel Prefix Scan with Decoupled Look-back "
    "(NVIDIA NVR-2016-002, 2016); CUB's DeviceSelect (compaction through shared memory); "
    "scan v13 (the tile layout)"};

inline constexpr unsigned kThreads = 128;
inline constexpr unsigned kVectors = 8;  // int4 per thread
inline constexpr size_t kTile = size_t(kThreads) * kVectors * 4;
// Counts travel as unsigned 32-bit sums: exact while the total kept is below 2^32.
inline constexpr size_t kMaxN = 0xffffffffu;

// One tile per block, tiles in start order. ALIGNED: `in` is 16-byte aligned (int4 loads for
// full tiles); otherwise, and for the last partial tile, element loads into the same layout
// (element k of load u of thread t is base + 4 (u kThreads + t) + k; missing elements read 0,
// which is dropped). PDL: launched as the dependent of a grid that clears the workspace
// (programmatic dependent launch, sm_90; copy_if/lab/LAB_NOTES.md): wait for that grid
// (griddepcontrol.wait) before the first workspace access: launch_pdl() below, which copy_if
// v08 uses in its middle band; launch() runs PDL = false.
template <bool ALIGNED, bool PDL = false>
__global__ void __launch_bounds__(kThreads)
    single_pass_kernel(const int32_t* __restrict__ in, int32_t* __restrict__ out,
                       unsigned long long* count, size_t n, unsigned* counter,
                       scan::lookback::Status* status) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if constexpr (PDL) asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
  constexpr unsigned kWarps = kThreads / 32;
  static_assert(kWarps * kVectors == 32, "one warp scans the (load, warp) totals");
  __shared__ int32_t compacted[kTile];
  __shared__ unsigned partial[32];  // (load u, warp w) at [u * kWarps + w], tile order
  __shared__ unsigned tile_count, tile_offset;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const size_t tile = scan::lookback::next_tile(counter);
  const size_t base = tile * kTile;

  int4 x[kVectors];
  if (ALIGNED && base + kTile <= n) {
    const int4* src = reinterpret_cast<const int4*>(in + base);
#pragma unroll
    for (unsigned u = 0; u < kVectors; ++u) x[u] = load_once(src + u * kThreads + threadIdx.x);
  } else {
#pragma unroll
    for (unsigned u = 0; u < kVectors; ++u) {
      const size_t i = base + 4 * (size_t(u) * kThreads + threadIdx.x);
      x[u].x = i + 0 < n ? in[i + 0] : 0;
      x[u].y = i + 1 < n ? in[i + 1] : 0;
      x[u].z = i + 2 < n ? in[i + 2] : 0;
      x[u].w = i + 3 < n ? in[i + 3] : 0;
    }
  }

  // Ranks: kept elements before this thread's int4 within its (load, warp) row.
  const KeepPositive keep;
  unsigned rank[kVectors];
#pragma unroll
  for (unsigned u = 0; u < kVectors; ++u) {
    const int32_t c = keep(x[u].x) + keep(x[u].y) + keep(x[u].z) + keep(x[u].w);
    const int32_t incl = scan::warp_scan_inclusive(c);
    if (lane == 31) partial[u * kWarps + warp] = static_cast<unsigned>(incl);
    rank[u] = static_cast<unsigned>(incl - c);
  }
  __syncthreads();
  if (warp == 0) {  // the 32 row totals, in tile order, to exclusive row offsets
    const int32_t mine = static_cast<int32_t>(partial[lane]);
    const int32_t incl = scan::warp_scan_inclusive(mine);
    partial[lane] = static_cast<unsigned>(incl - mine);
    if (lane == 31) tile_count = static_cast<unsigned>(incl);
  }
  __syncthreads();
  // Compact into shared memory at the ranks; then warp 0 looks back while the rest wait.
#pragma unroll
  for (unsigned u = 0; u < kVectors; ++u) {
    unsigned r = partial[u * kWarps + warp] + rank[u];
    if (keep(x[u].x)) compacted[r++] = x[u].x;
    if (keep(x[u].y)) compacted[r++] = x[u].y;
    if (keep(x[u].z)) compacted[r++] = x[u].z;
    if (keep(x[u].w)) compacted[r++] = x[u].w;
  }
  if (warp == 0) {
    const unsigned offset =
        scan::lookback::publish_and_look_back<unsigned>(status, tile, tile_count);
    if (lane == 0) tile_offset = offset;
  }
  __syncthreads();
  const unsigned total = tile_count;
  int32_t* dst = out + tile_offset;
  for (unsigned i = threadIdx.x; i < total; i += kThreads) dst[i] = compacted[i];
  if (threadIdx.x == 0 && base + kTile >= n)  // the last tile knows the whole count
    *count = static_cast<unsigned long long>(tile_offset) + total;
}

inline size_t workspace_bytes(size_t n) {
  return scan::lookback::workspace_bytes(ceil_div(n, kTile));
}

// As launch(), with the workspace cleared by a kernel (scan::lookback::clear_for_dependent_kernel)
// instead of a memset, and the pass launched as its programmatic dependent (sm_90 only: the
// caller checks current_device_runs_sm90_code()). The pass's launch and block start-up overlap
// the clear; copy_if/lab/LAB_NOTES.md has the measurements (H100, 2^15 ... 2^23 elements).
// Errors: the launches'.
inline cudaError_t launch_pdl(const int32_t* in, int32_t* out, unsigned long long* count, size_t n,
                              void* ws, cudaStream_t stream) {
  if (n == 0) return cudaMemsetAsync(count, 0, sizeof(*count), stream);
  const size_t tiles = ceil_div(n, kTile);
  const size_t words = workspace_bytes(n) / sizeof(unsigned long long);  // 16 + 8 per tile bytes
  constexpr unsigned kClearThreads = 256;
  const size_t clear_blocks =
      std::min(ceil_div(words, size_t(kClearThreads)), static_cast<size_t>(current_sm_count()));
  scan::lookback::clear_for_dependent_kernel<unsigned long long>
      <<<static_cast<unsigned>(clear_blocks), kClearThreads, 0, stream>>>(
          static_cast<unsigned long long*>(ws), words);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return e;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(static_cast<unsigned>(tiles));
  cfg.blockDim = dim3(kThreads);
  cfg.stream = stream;
  cudaLaunchAttribute attr[1] = {};
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  const bool aligned = reinterpret_cast<uintptr_t>(in) % 16 == 0;
  auto kernel = aligned ? single_pass_kernel<true, true> : single_pass_kernel<false, true>;
  return cudaLaunchKernelEx(&cfg, kernel, in, out, count, n, scan::lookback::tile_counter(ws),
                            scan::lookback::tile_status(ws));
}

inline cudaError_t launch(const int32_t* in, int32_t* out, unsigned long long* count, size_t n,
                          void* ws, cudaStream_t stream) {
  if (n == 0) return cudaMemsetAsync(count, 0, sizeof(*count), stream);
  const size_t tiles = ceil_div(n, kTile);
  const cudaError_t e = cudaMemsetAsync(ws, 0, workspace_bytes(n), stream);
  if (e != cudaSuccess) return e;
  const bool aligned = reinterpret_cast<uintptr_t>(in) % 16 == 0;
  auto kernel = aligned ? single_pass_kernel<true> : single_pass_kernel<false>;
  kernel<<<static_cast<unsigned>(tiles), kThreads, 0, stream>>>(
      in, out, count, n, scan::lookback::tile_counter(ws), scan::lookback::tile_status(ws));
  return cudaGetLastError();
}

}  // namespace ladder::copy_if::v05
