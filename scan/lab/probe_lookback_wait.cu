// scan/lab/probe_lookback_wait.cu — what do v13's and v14's look-back waits cost? Not part of the
// binary. v13 and v14 are flat grids of one-tile blocks (a block a tile, tiles drawn in order):
// each block loads its tile, publishes the tile's aggregate, then looks back over the tiles below
// its own until it finds an inclusive prefix (scan::lookback::exclusive_prefix), waiting for any
// that has published nothing yet; only then does it scan and store. This probe times each of them
// as shipped (status memset inside the timed interval), with the memset before the timed interval
// ("cleared, warm"), and with every tile's inclusive prefix already published ("published, warm":
// a second workspace, filled by one untimed run on this input, of which only the 16-byte tile
// counter is cleared; a block's look-back then finds the prefix of the tile below its own at its
// first read, unless that tile's block has already overwritten it with its aggregate on the way
// to republishing the same prefix). "warm": the status words read back into L2 after the flush
// (probe_timing::touch, untimed), as a clear inside the timed interval would leave them.
// "published, warm" against "cleared, warm" is what the look-back's waits cost these flat grids;
// against cudaMemcpy, what a flat grid of one-tile blocks would reach without them. Also v15 as
// shipped. A control per size and rung: statuses published from an input one larger in its first
// element (every prefix one too large), then the run as "published": its mismatches show both
// that the check can fail and that the look-back reads the published prefixes. At 2^28, 2^26 and
// 2^24 int32 (aligned); three interleaved rounds of 31-launch medians, timed as the benchmark
// times (common/probe_timer.cuh), every output compared with CUB's (the copy's with its input).
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_lookback_wait.cu common/device.cu -o p &&
//   ./p
// (or `cmake --build <build> --target scan_probe_lookback_wait`; scan/lab/LAB_NOTES.md reads its
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
#include "scan/v13_vectorized_lookback.cuh"
#include "scan/v14_bulk_staged.cuh"
#include "scan/v15_warp_specialized.cuh"

using namespace ladder;
using namespace ladder::scan;

namespace {

// v13's and v14's launches (shipped shapes, aligned input) without their workspace clear.
cudaError_t v13_uncleared(const int32_t* in, int32_t* out, size_t n, void* ws, cudaStream_t st) {
  const size_t tiles = ceil_div(n, size_t(v13::kTile));
  v13::single_pass_kernel<true><<<static_cast<unsigned>(tiles), v13::kThreads, 0, st>>>(
      in, out, n, lookback::tile_counter(ws), lookback::tile_status(ws));
  return cudaGetLastError();
}
cudaError_t v14_uncleared(const int32_t* in, int32_t* out, size_t n, void* ws, cudaStream_t st) {
  return v14::launch_shape<true, v14::kThreads, v14::kVectors, v14::kStreamingStores>(
      in, out, n, ws, ceil_div(n, size_t(v14::kTile)), st);
}

}  // namespace

int main() {
  const size_t max_n = size_t(1) << 28;
  int32_t *in, *out, *want;
  unsigned long long *scratch, *sink;
  void *ws, *ws13, *ws14;  // ws13, ws14: the published statuses of v13's and v14's tiles
  if (cudaMalloc(&in, max_n * 4) || cudaMalloc(&out, max_n * 4) || cudaMalloc(&want, max_n * 4) ||
      cudaMalloc(&scratch, 8) || cudaMalloc(&sink, 8) || cudaMalloc(&ws, 64 << 20) ||
      cudaMalloc(&ws13, 64 << 20) || cudaMalloc(&ws14, 64 << 20)) {
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

  using Launch = cudaError_t (*)(const int32_t*, int32_t*, size_t, void*, cudaStream_t);
  struct Rung {
    const char* name;
    Launch shipped, uncleared;
    size_t (*ws_bytes)(size_t);
    void* published;
  };
  const Rung rungs[] = {{"v13", v13::launch, v13_uncleared, v13::workspace_bytes, ws13},
                        {"v14", v14::launch, v14_uncleared, v14::workspace_bytes, ws14}};

  struct Case {
    std::string name;
    bool checked;  // a scan, compared with CUB's
    std::function<cudaError_t(size_t)> run;
    std::function<void(size_t)> before;  // enqueued before the L2 flush, outside the timing
    std::function<void(size_t)> warm;    // enqueued after the flush, outside the timing
  };
  auto nothing = [](size_t) {};
  std::vector<Case> cases = {
      {"cudaMemcpy", false,
       [&](size_t n) { return cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDefault, st); }, nothing,
       nothing},
      {"v15 shipped", true, [&](size_t n) { return v15::launch(in, out, n, ws, st); }, nothing,
       nothing},
  };
  for (const Rung& r : rungs) {
    cases.push_back({std::string(r.name) + " shipped (memset)", true,
                     [&, r](size_t n) { return r.shipped(in, out, n, ws, st); }, nothing, nothing});
    cases.push_back({std::string(r.name) + " cleared, warm", true,
                     [&, r](size_t n) { return r.uncleared(in, out, n, ws, st); },
                     [&, r](size_t n) { cudaMemsetAsync(ws, 0, r.ws_bytes(n), st); },
                     [&, r](size_t n) { probe_timing::touch(ws, r.ws_bytes(n), sink, st); }});
    cases.push_back(
        {std::string(r.name) + " published, warm", true,
         [&, r](size_t n) { return r.uncleared(in, out, n, r.published, st); },
         [&, r](size_t) { cudaMemsetAsync(r.published, 0, 16, st); },
         [&, r](size_t n) { probe_timing::touch(r.published, r.ws_bytes(n), sink, st); }});
  }
  for (int lg : {28, 26, 24}) {
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
    for (const Rung& r : rungs) {
      // the control: statuses from an input one larger in its first element
      const int32_t first = h[0] + 1;
      cudaMemcpy(in, &first, 4, cudaMemcpyDefault);
      r.shipped(in, out, n, r.published, st);
      cudaStreamSynchronize(st);
      cudaMemcpy(in, &h[0], 4, cudaMemcpyDefault);
      cudaMemsetAsync(r.published, 0, 16, st);
      r.uncleared(in, out, n, r.published, st);
      printf("control %s: every published prefix one too large -> mismatches %llu (must be > 0)\n",
             r.name, probe_timing::mismatches(out, want, n, scratch, st));
      const cudaError_t fill = r.shipped(in, out, n, r.published, st);  // the right ones
      cudaStreamSynchronize(st);
      printf("%s statuses filled: %s\n", r.name, cudaGetErrorString(fill));
    }
    std::vector<std::vector<float>> us(cases.size());
    for (int round = 0; round < 3; ++round)
      for (size_t c = 0; c < cases.size(); ++c) {
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
        printf("round %d  %-28s %8.2f us  mismatches %llu  %s\n", round, cases[c].name.c_str(), t,
               bad, cudaGetErrorString(err));
      }
    printf("summary 2^%d (median of the three rounds; per cent of cudaMemcpy's speed)\n", lg);
    std::vector<float> med(cases.size());
    for (size_t c = 0; c < cases.size(); ++c) {
      std::sort(us[c].begin(), us[c].end());
      med[c] = us[c][1];
    }
    for (size_t c = 0; c < cases.size(); ++c)
      printf("  %-28s %8.2f us  %6.1f%%\n", cases[c].name.c_str(), med[c], 100.0 * med[0] / med[c]);
  }
  return 0;
}
