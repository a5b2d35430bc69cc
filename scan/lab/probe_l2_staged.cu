// scan/lab/probe_l2_staged.cu — a persistent scan that stages its tiles in the L2 cache instead of
// shared memory: each tile is read twice, once to count it and once, some steps later and from
// the L2, to scan it. Not part of the binary.
// Why: v15 (TMA loads into shared-memory stages, warp-specialized) stops at about 94% of
// cudaMemcpy's speed at 2^28 on the H200; its own pipeline with the scan taken out copies at about
// 90%, and a flat grid of one int4 a thread at 100% (scan/lab/LAB_NOTES.md). A persistent scan that
// moves its tiles through registers with one tile of slack is far slower
// (probe_persistent_regs.cu): a tile's aggregate must be published well before the tiles after it
// are scanned. Here the slack is the L2 (60 MB on the H200): a block claims a tile (an atomic
// counter, in start order), loads it, adds it up and publishes its aggregate at once, and scans it
// D steps later, reading it again, now from the L2, with its prefix from v15's incremental
// look-ahead (lookback::advance_to over the aggregates, which by then are all published, so it
// never waits in the steady state). Each step of a block loads a new tile and an old one together:
// the DRAM sees one read and one write of every byte, as a copy does, if the second reads hit.
// BS threads a block, V int4 a thread (a tile of 4 BS V elements), D steps between a tile's count
// and its scan, as many blocks as fit an SM. Two barriers a step.
// Forward progress: a claimed tile is counted and published in the step after its claim, which
// waits only on tiles claimed before it; so by induction on the claim order every wait ends.
// "plain": plain stores; "stcs": __stcs. The second read is __ldcs (the line is dead after it).
// "piped": the loads one step ahead (piped_kernel, below).
// Timed by scan/lab/shape_harness.cuh as the benchmark times (common/probe_timer.cuh: L2 flushed,
// stream held), the status memset inside the timed interval as the shipped rungs have it, three
// interleaved rounds of 31-launch medians, beside cudaMemcpy and v15 as shipped; every scan's
// output compared with CUB's. A control (a reference of an input one larger in its first element)
// shows the check failing. Aligned input, n a multiple of every tile here. At 2^28 and 2^26.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_l2_staged.cu common/device.cu -o p && ./p
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

__device__ __forceinline__ int32_t warp_sum(int32_t v) { return __reduce_add_sync(0xffffffffu, v); }

template <unsigned BS, unsigned V, unsigned D, bool kStream>
__global__ void __launch_bounds__(BS)
    l2stage_kernel(const int4* __restrict__ in, int4* __restrict__ out, unsigned tiles,
                   unsigned* counter, lookback::Status* status) {
  constexpr unsigned NW = BS / 32, R = D + 2;
  static_assert(NW * V <= 32, "one warp scans the (load, warp) totals");
  __shared__ unsigned ring[R];         // ring[s % R]: the tile counted at step s (claimed at s - 1)
  __shared__ int32_t ntot[NW];         // the counted tile's warp sums
  __shared__ int32_t ttot[2][V * NW];  // the scanned tile's (load, warp) totals, then offsets
  __shared__ int32_t tprefix[2];
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  size_t counted = 0;  // warp 0's look-ahead: tiles [0, counted) add up to `sum`
  int32_t sum = 0;
  if (threadIdx.x == 0) ring[0] = atomicAdd(counter, 1u);
  __syncthreads();
  for (unsigned s = 0;; ++s) {
    const unsigned n = ring[s % R];
    const unsigned t = s >= D ? ring[(s - D) % R] : tiles;
    if (s >= D && t >= tiles) break;  // claims increase: every later ring entry is past the end
    const unsigned p = s & 1;
    if (threadIdx.x == 0) ring[(s + 1) % R] = n < tiles ? atomicAdd(counter, 1u) : tiles;
    int4 a[V], x[V];
    if (n < tiles) {
      const int4* src = in + size_t(n) * (BS * V);
#pragma unroll
      for (unsigned u = 0; u < V; ++u) a[u] = src[u * BS + threadIdx.x];
    }
    if (t < tiles) {
      const int4* src = in + size_t(t) * (BS * V);
#pragma unroll
      for (unsigned u = 0; u < V; ++u) x[u] = __ldcs(src + u * BS + threadIdx.x);
    }
    int32_t incl[V], own[V];
    if (n < tiles) {
      int32_t ns = 0;
#pragma unroll
      for (unsigned u = 0; u < V; ++u) ns += a[u].x + a[u].y + a[u].z + a[u].w;
      ns = warp_sum(ns);
      if (lane == 0) ntot[warp] = ns;
    }
    if (t < tiles) {
#pragma unroll
      for (unsigned u = 0; u < V; ++u) {
        own[u] = x[u].x + x[u].y + x[u].z + x[u].w;
        incl[u] = warp_scan_inclusive(own[u]);
        if (lane == 31) ttot[p][u * NW + warp] = incl[u];
      }
    }
    __syncthreads();
    if (warp == 0) {
      if (n < tiles) {
        const int32_t tile_sum = warp_sum(lane < NW ? ntot[lane] : 0);
        if (lane == 0) lookback::publish(status + n, lookback::kAggregate, tile_sum);
      }
      if (t < tiles) {
        const int32_t v = lane < V * NW ? ttot[p][lane] : 0;
        const int32_t v_incl = warp_scan_inclusive(v);
        if (lane < V * NW) ttot[p][lane] = v_incl - v;
        lookback::advance_to<8>(status, t, counted, sum);
        if (lane == 0) tprefix[p] = sum;
      }
    }
    __syncthreads();
    if (t < tiles) {
      int4* dst = out + size_t(t) * (BS * V);
      const int32_t base = tprefix[p];
#pragma unroll
      for (unsigned u = 0; u < V; ++u) {
        int4 z;
        z.x = base + ttot[p][u * NW + warp] + incl[u] - own[u] + x[u].x;
        z.y = z.x + x[u].y;
        z.z = z.y + x[u].z;
        z.w = z.z + x[u].w;
        if constexpr (kStream)
          __stcs(dst + u * BS + threadIdx.x, z);
        else
          dst[u * BS + threadIdx.x] = z;
      }
    }
  }
}

// The same scan with the loads one step ahead: step s counts the tile loaded at step s - 1 and
// scans the one re-read at step s - 1, while it issues the loads of step s + 1 (the tile claimed at
// s - 1 from the DRAM, the one counted D - 1 steps before from the L2). The claims run two steps
// ahead. WIN x 32 statuses a look-ahead round trip.
template <unsigned BS, unsigned V, unsigned D, unsigned WIN>
struct Piped {
  static constexpr unsigned NW = BS / 32, R = D + 3;
  struct Smem {
    unsigned ring[R];  // ring[k % R]: the tile counted at step k (claimed at step k - 2)
    int32_t ntot[NW];
    int32_t ttot[2][V * NW];
    int32_t tprefix[2];
  };
  // Step s with a (the tile n(s), loaded), x (the tile t(s), re-read), and the next step's
  // buffers; false once the block has nothing left.
  static __device__ __forceinline__ bool step(const int4* __restrict__ in, int4* __restrict__ out,
                                              unsigned tiles, unsigned* counter,
                                              lookback::Status* status, Smem& sm, unsigned s,
                                              const int4 (&a)[V], const int4 (&x)[V], int4 (&a2)[V],
                                              int4 (&x2)[V], size_t& counted, int32_t& sum) {
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const unsigned n = sm.ring[s % R], n2 = sm.ring[(s + 1) % R];
    const unsigned t = s >= D ? sm.ring[(s - D) % R] : tiles;
    const unsigned t2 = s + 1 >= D ? sm.ring[(s + 1 - D) % R] : tiles;
    if (s >= D && t >= tiles) return false;
    const unsigned p = s & 1;
    if (threadIdx.x == 0) sm.ring[(s + 2) % R] = n2 < tiles ? atomicAdd(counter, 1u) : tiles;
    if (n2 < tiles) {
      const int4* src = in + size_t(n2) * (BS * V);
#pragma unroll
      for (unsigned u = 0; u < V; ++u) a2[u] = src[u * BS + threadIdx.x];
    }
    if (t2 < tiles) {
      const int4* src = in + size_t(t2) * (BS * V);
#pragma unroll
      for (unsigned u = 0; u < V; ++u) x2[u] = __ldcs(src + u * BS + threadIdx.x);
    }
    int32_t incl[V], own[V];
    if (n < tiles) {
      int32_t ns = 0;
#pragma unroll
      for (unsigned u = 0; u < V; ++u) ns += a[u].x + a[u].y + a[u].z + a[u].w;
      ns = warp_sum(ns);
      if (lane == 0) sm.ntot[warp] = ns;
    }
    if (t < tiles) {
#pragma unroll
      for (unsigned u = 0; u < V; ++u) {
        own[u] = x[u].x + x[u].y + x[u].z + x[u].w;
        incl[u] = warp_scan_inclusive(own[u]);
        if (lane == 31) sm.ttot[p][u * NW + warp] = incl[u];
      }
    }
    __syncthreads();
    if (warp == 0) {
      if (n < tiles) {
        const int32_t tile_sum = warp_sum(lane < NW ? sm.ntot[lane] : 0);
        if (lane == 0) lookback::publish(status + n, lookback::kAggregate, tile_sum);
      }
      if (t < tiles) {
        const int32_t v = lane < V * NW ? sm.ttot[p][lane] : 0;
        const int32_t v_incl = warp_scan_inclusive(v);
        if (lane < V * NW) sm.ttot[p][lane] = v_incl - v;
        lookback::advance_to<WIN>(status, t, counted, sum);
        if (lane == 0) sm.tprefix[p] = sum;
      }
    }
    __syncthreads();
    if (t < tiles) {
      int4* dst = out + size_t(t) * (BS * V);
      const int32_t base = sm.tprefix[p];
#pragma unroll
      for (unsigned u = 0; u < V; ++u) {
        int4 z;
        z.x = base + sm.ttot[p][u * NW + warp] + incl[u] - own[u] + x[u].x;
        z.y = z.x + x[u].y;
        z.z = z.y + x[u].z;
        z.w = z.z + x[u].w;
        __stcs(dst + u * BS + threadIdx.x, z);
      }
    }
    return true;
  }
};

template <unsigned BS, unsigned V, unsigned D, unsigned WIN>
__global__ void __launch_bounds__(BS)
    piped_kernel(const int4* __restrict__ in, int4* __restrict__ out, unsigned tiles,
                 unsigned* counter, lookback::Status* status) {
  using P = Piped<BS, V, D, WIN>;
  static_assert(P::NW * V <= 32, "one warp scans the (load, warp) totals");
  __shared__ typename P::Smem sm;
  size_t counted = 0;
  int32_t sum = 0;
  if (threadIdx.x == 0) {
    sm.ring[0] = atomicAdd(counter, 1u);
    sm.ring[1] = atomicAdd(counter, 1u);
  }
  __syncthreads();
  int4 a0[V], x0[V], a1[V], x1[V];
  if (sm.ring[0] < tiles) {
    const int4* src = in + size_t(sm.ring[0]) * (BS * V);
#pragma unroll
    for (unsigned u = 0; u < V; ++u) a0[u] = src[u * BS + threadIdx.x];
  }
  for (unsigned s = 0;; s += 2) {
    if (!P::step(in, out, tiles, counter, status, sm, s, a0, x0, a1, x1, counted, sum)) break;
    if (!P::step(in, out, tiles, counter, status, sm, s + 1, a1, x1, a0, x0, counted, sum)) break;
  }
}

template <unsigned BS, unsigned V, unsigned D, bool kStream>
Shape make_shape() {
  int per_sm = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, l2stage_kernel<BS, V, D, kStream>, BS, 0);
  const unsigned blocks = unsigned(per_sm) * unsigned(current_sm_count());
  char name[96];
  snprintf(name, sizeof name, "%u x %u (%u KB) D %u, %d/SM (%.0f MB) %s", BS, V, BS * V * 16 / 1024,
           D, per_sm, double(blocks) * D * BS * V * 16 / 1e6, kStream ? "stcs" : "plain");
  return {name, 4 * BS * V,
          [blocks](const int32_t* in, int32_t* out, size_t n, void* ws, cudaStream_t st) {
            const unsigned tiles = unsigned(n / (4 * BS * V));
            cudaMemsetAsync(ws, 0, lookback::workspace_bytes(tiles), st);
            l2stage_kernel<BS, V, D, kStream><<<std::min(blocks, tiles), BS, 0, st>>>(
                reinterpret_cast<const int4*>(in), reinterpret_cast<int4*>(out), tiles,
                lookback::tile_counter(ws), lookback::tile_status(ws));
          }};
}

template <unsigned BS, unsigned V, unsigned D, unsigned WIN>
Shape make_piped() {
  int per_sm = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, piped_kernel<BS, V, D, WIN>, BS, 0);
  const unsigned blocks = unsigned(per_sm) * unsigned(current_sm_count());
  char name[96];
  snprintf(name, sizeof name, "piped %u x %u (%u KB) D %u win %u, %d/SM", BS, V, BS * V * 16 / 1024,
           D, WIN, per_sm);
  return {name, 4 * BS * V,
          [blocks](const int32_t* in, int32_t* out, size_t n, void* ws, cudaStream_t st) {
            const unsigned tiles = unsigned(n / (4 * BS * V));
            cudaMemsetAsync(ws, 0, lookback::workspace_bytes(tiles), st);
            piped_kernel<BS, V, D, WIN><<<std::min(blocks, tiles), BS, 0, st>>>(
                reinterpret_cast<const int4*>(in), reinterpret_cast<int4*>(out), tiles,
                lookback::tile_counter(ws), lookback::tile_status(ws));
          }};
}

}  // namespace

int main() {
  std::vector<Shape> shapes = {make_shape<256, 4, 2, true>(), make_piped<256, 4, 3, 8>(),
                               make_piped<256, 4, 3, 16>(),   make_piped<256, 4, 5, 16>(),
                               make_piped<256, 2, 4, 16>(),   make_piped<256, 2, 8, 16>(),
                               make_piped<128, 4, 4, 16>(),   make_piped<128, 4, 8, 16>(),
                               make_piped<512, 2, 3, 16>(),   make_piped<256, 1, 8, 16>()};
  return probe::run_shapes(shapes, 44);
}
