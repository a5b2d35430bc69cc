// scan/lab/probe_flat_small.cu — how close can a flat grid of small one-tile blocks come to the
// copy ceiling, with and without its look-back's waits? Not part of the binary. The copy probes
// (probe_copy.cu) reach cudaMemcpy's speed on the H200 only with a flat grid of small tiles (one
// int4 a thread, 256-thread blocks: 4 KB a block, eight blocks an SM); v13 and v14, flat grids of
// 16 KB and 64 KB tiles, stop at 80-85% even when their look-back never waits
// (probe_lookback_wait.cu). This probe's kernel is a decoupled look-back scan on that copy's shape:
// BS threads a block, V int4 a thread (a tile of 4 BS V elements), every load issued before any
// arithmetic, a two-level block scan (warp scans of the thread sums, one warp over the V x BS/32
// warp totals), then scan::lookback::publish_and_look_back by warp 0, then the stores. Tiles are
// drawn in start order from an atomic counter (lookback::next_tile), so the look-back cannot
// deadlock. It is timed as "memset" (the status clear inside the timed interval, as the shipped
// rungs do), "cleared, warm" and "published, warm" (every inclusive prefix published before the
// run; see probe_v15_wait.cu for "warm"), for shapes of 4 to 16 KB tiles, beside cudaMemcpy and
// v15 as shipped. Aligned input, n a multiple of every tile here. At 2^28 and 2^26; three
// interleaved rounds of 31-launch medians, timed as the benchmark times
// (common/probe_timer.cuh), every scan's output compared with CUB's. A control per shape
// (published prefixes from an input one larger in its first element) shows the check failing.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_flat_small.cu common/device.cu -o p && ./p
// (or `cmake --build <build> --target scan_probe_flat_small`; scan/lab/LAB_NOTES.md reads its
// output).
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "common/device.h"
#include "common/probe_timer.cuh"
#include "scan/lookback.cuh"
#include "scan/v15_warp_specialized.cuh"
#include "scan/warp_scan.cuh"

using namespace ladder;
using namespace ladder::scan;

namespace {

// One tile of BS * V int4 per block; see the file's header. n is a multiple of the tile.
template <unsigned BS, unsigned V>
__global__ void __launch_bounds__(BS)
    flat_kernel(const int4* __restrict__ in, int4* __restrict__ out, unsigned* counter,
                lookback::Status* status) {
  constexpr unsigned NW = BS / 32;
  static_assert(NW * V <= 32, "one warp scans the (load, warp) totals");
  __shared__ int32_t totals[V * NW];  // (load u, warp w) at u * NW + w, then their exclusive scan
  __shared__ int32_t tile_prefix;
  const size_t tile = lookback::next_tile(counter);
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int4* src = in + tile * (BS * V);
  int4 x[V];
#pragma unroll
  for (unsigned u = 0; u < V; ++u) x[u] = src[u * BS + threadIdx.x];
  int32_t incl[V], own[V];
#pragma unroll
  for (unsigned u = 0; u < V; ++u) {
    own[u] = x[u].x + x[u].y + x[u].z + x[u].w;
    incl[u] = warp_scan_inclusive(own[u]);
    if (lane == 31) totals[u * NW + warp] = incl[u];
  }
  __syncthreads();
  if (warp == 0) {
    const int32_t t = lane < V * NW ? totals[lane] : 0;
    const int32_t t_incl = warp_scan_inclusive(t);
    const int32_t tile_sum = __shfl_sync(0xffffffffu, t_incl, V * NW - 1);
    if (lane < V * NW) totals[lane] = t_incl - t;
    const int32_t prefix = lookback::publish_and_look_back<int32_t>(status, tile, tile_sum);
    if (lane == 0) tile_prefix = prefix;
  }
  __syncthreads();
  int4* dst = out + tile * (BS * V);
#pragma unroll
  for (unsigned u = 0; u < V; ++u) {
    int4 y;
    const int32_t before = tile_prefix + totals[u * NW + warp] + incl[u] - own[u];
    y.x = before + x[u].x;
    y.y = y.x + x[u].y;
    y.z = y.y + x[u].z;
    y.w = y.z + x[u].w;
    dst[u * BS + threadIdx.x] = y;
  }
}

struct Shape {
  const char* name;
  unsigned tile_elems;
  void (*launch)(const int32_t*, int32_t*, size_t, void*, cudaStream_t);
};

template <unsigned BS, unsigned V>
void launch_flat(const int32_t* in, int32_t* out, size_t n, void* ws, cudaStream_t st) {
  const size_t tiles = n / (4 * BS * V);
  flat_kernel<BS, V><<<static_cast<unsigned>(tiles), BS, 0, st>>>(
      reinterpret_cast<const int4*>(in), reinterpret_cast<int4*>(out), lookback::tile_counter(ws),
      lookback::tile_status(ws));
}

}  // namespace

int main() {
  const size_t max_n = size_t(1) << 28;
  int32_t *in, *out, *want;
  unsigned long long *scratch, *sink;
  void *ws, *ws_published;
  if (cudaMalloc(&in, max_n * 4) || cudaMalloc(&out, max_n * 4) || cudaMalloc(&want, max_n * 4) ||
      cudaMalloc(&scratch, 8) || cudaMalloc(&sink, 8) || cudaMalloc(&ws, 64 << 20) ||
      cudaMalloc(&ws_published, 64 << 20)) {
    printf("cudaMalloc failed\n");
    return 1;
  }
  cudaStream_t st;
  cudaStreamCreate(&st);
  probe_timing::Timer timer(st);
  size_t cub_bytes = 0;
  cub::DeviceScan::InclusiveSum(nullptr, cub_bytes, in, out, int(max_n));
  void* cub_tmp;
  cudaMalloc(&cub_tmp, cub_bytes);

  const Shape shapes[] = {{"256 x 1 (4 KB)", 1024, launch_flat<256, 1>},
                          {"256 x 2 (8 KB)", 2048, launch_flat<256, 2>},
                          {"128 x 2 (4 KB)", 1024, launch_flat<128, 2>},
                          {"512 x 1 (8 KB)", 2048, launch_flat<512, 1>},
                          {"256 x 4 (16 KB)", 4096, launch_flat<256, 4>}};
  struct Case {
    std::string name;
    bool checked;
    std::function<cudaError_t(size_t)> run;
    std::function<void(size_t)> before, warm;
  };
  auto nothing = [](size_t) {};
  std::vector<Case> cases = {
      {"cudaMemcpy", false,
       [&](size_t n) { return cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDefault, st); }, nothing,
       nothing},
      {"v15 shipped", true, [&](size_t n) { return v15::launch(in, out, n, ws, st); }, nothing,
       nothing},
  };
  for (const Shape& s : shapes) {
    auto bytes = [s](size_t n) { return lookback::workspace_bytes(n / s.tile_elems); };
    cases.push_back({std::string(s.name) + " memset", true,
                     [&, s, bytes](size_t n) {
                       cudaMemsetAsync(ws, 0, bytes(n), st);
                       s.launch(in, out, n, ws, st);
                       return cudaGetLastError();
                     },
                     nothing, nothing});
    cases.push_back({std::string(s.name) + " cleared, warm", true,
                     [&, s](size_t n) {
                       s.launch(in, out, n, ws, st);
                       return cudaGetLastError();
                     },
                     [&, bytes](size_t n) { cudaMemsetAsync(ws, 0, bytes(n), st); },
                     [&, bytes](size_t n) { probe_timing::touch(ws, bytes(n), sink, st); }});
    cases.push_back(
        {std::string(s.name) + " published, warm", true,
         [&, s](size_t n) {
           s.launch(in, out, n, ws_published, st);
           return cudaGetLastError();
         },
         [&](size_t) { cudaMemsetAsync(ws_published, 0, 16, st); },
         [&, bytes](size_t n) { probe_timing::touch(ws_published, bytes(n), sink, st); }});
  }
  for (int lg : {28, 26}) {
    const size_t n = size_t(1) << lg;
    std::vector<int32_t> h(n);
    uint32_t x = 2024;
    for (auto& v : h) {
      x = x * 1664525u + 1013904223u;
      v = int32_t(x >> 24) - 128;
    }
    cudaMemcpy(in, h.data(), n * 4, cudaMemcpyDefault);
    size_t b = cub_bytes;
    cub::DeviceScan::InclusiveSum(cub_tmp, b, in, want, int(n), st);
    printf("n = 2^%d; us: median of 31 launches\n", lg);
    const size_t c0 = 2;  // then each shape's three cases: memset, cleared, published
    std::vector<std::vector<float>> us(cases.size());
    for (int round = 0; round < 3; ++round) {
      for (size_t c = 0; c < cases.size(); ++c) {
        // "published" of shape s needs that shape's prefixes: refill before its case
        if (c >= c0 && (c - c0) % 3 == 2) {
          const Shape& s = shapes[(c - c0) / 3];
          const size_t bytes = lookback::workspace_bytes(n / s.tile_elems);
          if (round == 0) {  // the control, once: prefixes from an input one larger at [0]
            const int32_t first = h[0] + 1;
            cudaMemcpy(in, &first, 4, cudaMemcpyDefault);
            cudaMemsetAsync(ws_published, 0, bytes, st);
            s.launch(in, out, n, ws_published, st);
            cudaStreamSynchronize(st);
            cudaMemcpy(in, &h[0], 4, cudaMemcpyDefault);
            cudaMemsetAsync(ws_published, 0, 16, st);
            s.launch(in, out, n, ws_published, st);
            printf(
                "control %s: every published prefix one too large -> mismatches %llu (must be "
                "> 0)\n",
                s.name, probe_timing::mismatches(out, want, n, scratch, st));
          }
          cudaMemsetAsync(ws_published, 0, bytes, st);
          s.launch(in, out, n, ws_published, st);
          cudaStreamSynchronize(st);
        }
        cudaMemsetAsync(out, 0, n * 4, st);
        cudaError_t err = cudaSuccess;
        const float t = timer.median_us_warmed(
            [&] {
              const cudaError_t e = cases[c].run(n);
              if (e != cudaSuccess) err = e;
            },
            [&] { cases[c].before(n); }, [&] { cases[c].warm(n); });
        const unsigned long long bad =
            probe_timing::mismatches(out, cases[c].checked ? want : in, n, scratch, st);
        if (err == cudaSuccess) err = cudaGetLastError();
        us[c].push_back(t);
        printf("round %d  %-32s %8.2f us  mismatches %llu  %s\n", round, cases[c].name.c_str(), t,
               bad, cudaGetErrorString(err));
      }
    }
    printf("summary 2^%d (median of the three rounds; per cent of cudaMemcpy's speed)\n", lg);
    std::vector<float> med(cases.size());
    for (size_t c = 0; c < cases.size(); ++c) {
      std::sort(us[c].begin(), us[c].end());
      med[c] = us[c][1];
    }
    for (size_t c = 0; c < cases.size(); ++c)
      printf("  %-32s %8.2f us  %6.1f%%\n", cases[c].name.c_str(), med[c], 100.0 * med[0] / med[c]);
  }
  return 0;
}
