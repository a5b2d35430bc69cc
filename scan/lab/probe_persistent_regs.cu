// scan/lab/probe_persistent_regs.cu — a persistent decoupled look-back scan that keeps its tiles
// in registers and loads the next tile while it scans, looks back and stores the current one.
// Not part of the binary.
// Why: on the H200 v15 (TMA loads into shared-memory stages, warp-specialized) stops at about 94%
// of cudaMemcpy's speed at 2^28, and v15's own pipeline with the scan taken out copies at about
// 90%, while a persistent copy whose blocks claim 16 KB tiles from an atomic counter and move
// them through registers reaches about 96% (scan/lab/LAB_NOTES.md, "A copy that reaches the
// ceiling"). This probe puts the scan on that copy's data path: BS threads a block, V int4 a
// thread (a tile of 4 BS V elements); a block claims tiles from an atomic counter (start order,
// so the look-back cannot deadlock: a block's two claimed tiles are processed in order, and each
// waits only on lower ones), claims one tile ahead of the one it loads, and issues the next
// tile's loads before the current tile's warp scans, block scan, look-back (warp 0,
// "back": lookback::publish_and_look_back, the decoupled look-back of v12-v14; "ahead": v15's
// incremental look-ahead (aggregates only, a running sum kept by warp 0 across the block's tiles,
// lookback::advance_to with windows of 8 x 32 statuses)) and stores. Two barriers a tile; the
// block-scan totals and the claim are double-buffered in shared memory. As many blocks as fit an SM
// (or fewer: the cap). "plain": plain loads and stores; "ldcs/stcs": streaming ones (__ldcs,
// __stcs), as v15 stores. Timed by scan/lab/shape_harness.cuh as the benchmark times
// (common/probe_timer.cuh: L2 flushed, stream held), the status memset inside the timed interval
// as the shipped rungs have it, three interleaved rounds of 31-launch medians, beside cudaMemcpy
// and v15 as shipped; every scan's output compared with CUB's. A control (the first input element
// one larger for CUB's reference only) shows the check failing. Aligned input, n a multiple of
// every tile here. At 2^28 and 2^26.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_persistent_regs.cu common/device.cu -o p
#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "common/device.h"
#include "scan/lab/shape_harness.cuh"
#include "scan/lookback.cuh"
#include "scan/warp_scan.cuh"

using namespace ladder;
using namespace ladder::scan;
using probe::Shape;

namespace {

template <bool kStream>
__device__ __forceinline__ int4 load(const int4* p) {
  if constexpr (kStream)
    return __ldcs(p);
  else
    return *p;
}
template <bool kStream>
__device__ __forceinline__ void store(int4* p, int4 v) {
  if constexpr (kStream)
    __stcs(p, v);
  else
    *p = v;
}

// One tile: x holds it (tile < tiles), y receives the next (nxt), whose loads are issued first.
// Returns the claim after nxt. p: which half of the double buffers this tile uses.
template <unsigned BS, unsigned V, bool kStream, bool kAhead>
__device__ __forceinline__ unsigned step(const int4* __restrict__ in, int4* __restrict__ out,
                                         unsigned tiles, unsigned* counter,
                                         lookback::Status* status, unsigned tile, unsigned nxt,
                                         const int4 (&x)[V], int4 (&y)[V], unsigned p,
                                         int32_t (*totals)[V * (BS / 32)], int32_t* tile_prefix,
                                         unsigned* claim, size_t& counted, int32_t& sum) {
  constexpr unsigned NW = BS / 32;
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (nxt < tiles) {
    const int4* src = in + size_t(nxt) * (BS * V);
#pragma unroll
    for (unsigned u = 0; u < V; ++u) y[u] = load<kStream>(src + u * BS + threadIdx.x);
  }
  if (threadIdx.x == 0) claim[p] = atomicAdd(counter, 1u);
  int32_t incl[V], own[V];
#pragma unroll
  for (unsigned u = 0; u < V; ++u) {
    own[u] = x[u].x + x[u].y + x[u].z + x[u].w;
    incl[u] = warp_scan_inclusive(own[u]);
    if (lane == 31) totals[p][u * NW + warp] = incl[u];
  }
  __syncthreads();
  const unsigned after = claim[p];
  if (warp == 0) {
    const int32_t t = lane < V * NW ? totals[p][lane] : 0;
    const int32_t t_incl = warp_scan_inclusive(t);
    const int32_t tile_sum = __shfl_sync(0xffffffffu, t_incl, V * NW - 1);
    if (lane < V * NW) totals[p][lane] = t_incl - t;
    int32_t prefix;
    if constexpr (kAhead) {  // v15's incremental look-ahead: aggregates only, a running sum
      if (lane == 0) lookback::publish(status + tile, lookback::kAggregate, tile_sum);
      lookback::advance_to<8>(status, tile, counted, sum);
      prefix = sum;
    } else {
      prefix = lookback::publish_and_look_back<int32_t>(status, tile, tile_sum);
    }
    if (lane == 0) tile_prefix[p] = prefix;
  }
  __syncthreads();
  int4* dst = out + size_t(tile) * (BS * V);
  const int32_t base = tile_prefix[p];
#pragma unroll
  for (unsigned u = 0; u < V; ++u) {
    int4 z;
    z.x = base + totals[p][u * NW + warp] + incl[u] - own[u] + x[u].x;
    z.y = z.x + x[u].y;
    z.z = z.y + x[u].z;
    z.w = z.z + x[u].w;
    store<kStream>(dst + u * BS + threadIdx.x, z);
  }
  return after;
}

template <unsigned BS, unsigned V, bool kStream, bool kAhead>
__global__ void __launch_bounds__(BS)
    persist_kernel(const int4* __restrict__ in, int4* __restrict__ out, unsigned tiles,
                   unsigned* counter, lookback::Status* status) {
  constexpr unsigned NW = BS / 32;
  static_assert(NW * V <= 32, "one warp scans the (load, warp) totals");
  __shared__ int32_t totals[2][V * NW];
  __shared__ int32_t tile_prefix[2];
  __shared__ unsigned claim[2];
  if (threadIdx.x == 0) {
    claim[0] = atomicAdd(counter, 1u);
    claim[1] = atomicAdd(counter, 1u);
  }
  __syncthreads();
  unsigned tile = claim[0], nxt = claim[1];
  __syncthreads();
  int4 a[V], b[V];
  size_t counted = 0;  // the look-ahead's (warp 0): tiles [0, counted) sum to `sum`
  int32_t sum = 0;
  if (tile < tiles) {
    const int4* src = in + size_t(tile) * (BS * V);
#pragma unroll
    for (unsigned u = 0; u < V; ++u) a[u] = load<kStream>(src + u * BS + threadIdx.x);
  }
  while (tile < tiles) {
    unsigned after = step<BS, V, kStream, kAhead>(in, out, tiles, counter, status, tile, nxt, a, b,
                                                  0, totals, tile_prefix, claim, counted, sum);
    tile = nxt;
    nxt = after;
    if (tile >= tiles) break;
    after = step<BS, V, kStream, kAhead>(in, out, tiles, counter, status, tile, nxt, b, a, 1,
                                         totals, tile_prefix, claim, counted, sum);
    tile = nxt;
    nxt = after;
  }
}

template <unsigned BS, unsigned V, bool kStream, bool kAhead>
Shape make_shape(unsigned cap) {
  int per_sm = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, persist_kernel<BS, V, kStream, kAhead>, BS,
                                                0);
  if (cap) per_sm = std::min<int>(per_sm, int(cap));
  const unsigned blocks = unsigned(per_sm) * unsigned(current_sm_count());
  char name[96];
  snprintf(name, sizeof name, "%s %u x %u (%u KB) %d/SM %s", kAhead ? "ahead" : "back", BS, V,
           BS * V * 16 / 1024, per_sm, kStream ? "ldcs/stcs" : "plain");
  return {name, 4 * BS * V,
          [blocks](const int32_t* in, int32_t* out, size_t n, void* ws, cudaStream_t st) {
            const unsigned tiles = unsigned(n / (4 * BS * V));
            cudaMemsetAsync(ws, 0, lookback::workspace_bytes(tiles), st);
            persist_kernel<BS, V, kStream, kAhead><<<std::min(blocks, tiles), BS, 0, st>>>(
                reinterpret_cast<const int4*>(in), reinterpret_cast<int4*>(out), tiles,
                lookback::tile_counter(ws), lookback::tile_status(ws));
          }};
}

}  // namespace

int main() {
  std::vector<Shape> shapes = {
      make_shape<256, 4, false, true>(0), make_shape<256, 4, true, true>(0),
      make_shape<128, 8, false, true>(0), make_shape<512, 2, false, true>(0),
      make_shape<256, 2, false, true>(0), make_shape<128, 4, false, true>(0),
      make_shape<256, 4, false, true>(3), make_shape<128, 8, false, true>(4),
      make_shape<256, 4, false, false>(0)};
  return probe::run_shapes(shapes, 36);
}
