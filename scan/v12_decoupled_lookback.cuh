// scan/v12_decoupled_lookback.cuh — scan v12: single pass with decoupled look-back.
// Technique: one kernel; each block scans a 1024-element tile, publishes its sum, and warp 0
// looks back over the predecessors' status words for the tile's prefix (scan/lookback.cuh).
// Changes from v11: the reduce pass and the part-sum scan are gone; 8 bytes per element.
// Remains (bottleneck): too little work per tile for the latency of the claim, barriers and
// look-back that each of its many tiles pays.
// Source: Merrill & Garland, Single-pass Parallel Prefix Scan with Decoupled Look-back (2016).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "common/device.h"
#include "common/registry.h"
#include "scan/lookback.cuh"            // tile status, look-back, tile counter
#include "scan/v09_ptx_predicated.cuh"  // the block scan

namespace ladder::scan::v12 {

inline constexpr VersionDoc kDoc = {
    12, "v12_decoupled_lookback", "Single pass: decoupled look-back between tiles",
    /*technique*/
    "One kernel, one read and one write per element. Each block scans its 1024-element tile, "
    "publishes the tile's sum, and warp 0 looks back over the predecessors' published sums "
    "for its tile's prefix (scan/lookback.cuh).",
    /*changes*/
    "v11's reduce pass and part-sum scan are gone: the carry travels between tiles through "
    "global status words while the data is read once.",
    /*remains*/
    "Too little work per tile: each 4 KB tile pays a look-back, a block scan with three "
    "barriers and scalar 4-byte loads, and 262 thousand tiles at 2^28 each do it.",
    /*source*/
    "Merrill & Garland, Single-pass Parallel Prefix Scan with Decoupled Look-back (2016)"};

inline constexpr unsigned kTile = 1024;  // elements per tile = threads per block

// One block per tile; tiles taken in start order (lookback::next_tile). ws: lookback layout,
// zeroed. in, out: n int32 values.
__global__ void single_pass_kernel(const int32_t* __restrict__ in, int32_t* __restrict__ out,
                                   size_t n, unsigned* counter, lookback::Status* status) {
  __shared__ int32_t tile_prefix;
  const size_t tile = lookback::next_tile(counter);
  const size_t i = tile * kTile + threadIdx.x;
  int32_t tile_sum;
  const int32_t v = v09::scan_block<kTile>(i < n ? in[i] : 0, &tile_sum);
  if (threadIdx.x < 32) {
    const int32_t prefix = lookback::publish_and_look_back(status, tile, tile_sum);
    if (threadIdx.x == 0) tile_prefix = prefix;
  }
  __syncthreads();
  if (i < n) out[i] = v + tile_prefix;
}

inline size_t workspace_bytes(size_t n) { return lookback::workspace_bytes(ceil_div(n, kTile)); }

inline cudaError_t launch(const int32_t* in, int32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  const size_t tiles = ceil_div(n, kTile);
  // The status words and the counter start at zero on every launch.
  const cudaError_t e = cudaMemsetAsync(ws, 0, workspace_bytes(n), stream);
  if (e != cudaSuccess) return e;
  single_pass_kernel<<<static_cast<unsigned>(tiles), kTile, 0, stream>>>(
      in, out, n, lookback::tile_counter(ws), lookback::tile_status(ws));
  return cudaGetLastError();
}

}  // namespace ladder::scan::v12
