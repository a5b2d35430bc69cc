// scan/lab/shape_harness.cuh — what the scan probes that time a list of kernel shapes share
// (probe_persistent_regs.cu, probe_l2_staged.cu). Not part of the binary.
// run_shapes times, at 2^28 and then 2^26 int32 elements (aligned; n a multiple of every shape's
// tile), cudaMemcpy of the same bytes, v15 as shipped and each shape, in three interleaved rounds
// of 31-launch medians timed as the benchmark times (common/probe_timer.cuh: L2 flushed, stream
// held). Every scan's output is compared with CUB's InclusiveSum, the copy's with its input. A
// control per size runs the first shape against the reference of an input one larger in its first
// element, which must mismatch in every element. Prints each round's lines, then a summary: the
// median of the rounds, and per cent of cudaMemcpy's speed. Returns 1 if memory runs out.
#pragma once

#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "common/device.h"
#include "common/probe_timer.cuh"
#include "scan/v15_warp_specialized.cuh"

namespace ladder::scan::probe {

// A shape under test: its label, its tile in elements, and a launcher that clears its workspace
// (ws: 64 MB, inside the timed interval, as the shipped rungs do) and runs the scan in[0, n) ->
// out[0, n) on stream st.
struct Shape {
  std::string name;
  unsigned tile_elems;
  std::function<void(const int32_t*, int32_t*, size_t, void*, cudaStream_t)> launch;
};

// width: the column of the labels in the printed lines.
inline int run_shapes(const std::vector<Shape>& shapes, int width) {
  const size_t max_n = size_t(1) << 28;
  int32_t *in, *out, *want, *wrong;
  unsigned long long* scratch;
  void* ws;
  if (shapes.empty() || cudaMalloc(&in, max_n * 4) || cudaMalloc(&out, max_n * 4) ||
      cudaMalloc(&want, max_n * 4) || cudaMalloc(&wrong, max_n * 4) || cudaMalloc(&scratch, 8) ||
      cudaMalloc(&ws, 64 << 20)) {
    printf("no shapes, or cudaMalloc failed\n");
    return 1;
  }
  cudaStream_t st;
  cudaStreamCreate(&st);
  probe_timing::Timer timer(st);
  size_t cub_bytes = 0;
  cub::DeviceScan::InclusiveSum(nullptr, cub_bytes, in, out, int(max_n));
  void* cub_tmp;
  if (cudaMalloc(&cub_tmp, cub_bytes)) {
    printf("cudaMalloc failed\n");
    return 1;
  }
  printf("device: %s, %d SMs\n", query_device(0).name.c_str(), current_sm_count());
  struct Case {
    std::string name;
    bool checked;
    std::function<void(size_t)> run;
  };
  std::vector<Case> cases = {
      {"cudaMemcpy", false,
       [&](size_t n) { cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDefault, st); }},
      {"v15 shipped", true, [&](size_t n) { v15::launch(in, out, n, ws, st); }},
  };
  for (const Shape& s : shapes)
    cases.push_back({s.name, true, [&, s](size_t n) { s.launch(in, out, n, ws, st); }});
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
    // The control: a reference of an input one larger in its first element.
    const int32_t first = h[0] + 1;
    cudaMemcpy(in, &first, 4, cudaMemcpyDefault);
    b = cub_bytes;
    cub::DeviceScan::InclusiveSum(cub_tmp, b, in, wrong, int(n), st);
    cudaMemcpy(in, &h[0], 4, cudaMemcpyDefault);
    shapes[0].launch(in, out, n, ws, st);
    printf("n = 2^%d; control: %s against a wrong reference -> mismatches %llu (must be %zu)\n", lg,
           shapes[0].name.c_str(), probe_timing::mismatches(out, wrong, n, scratch, st), n);
    std::vector<std::vector<float>> us(cases.size());
    for (int round = 0; round < 3; ++round) {
      for (size_t c = 0; c < cases.size(); ++c) {
        cudaMemsetAsync(out, 0, n * 4, st);
        const float t = timer.median_us([&] { cases[c].run(n); });
        const cudaError_t err = cudaGetLastError();
        const unsigned long long bad =
            probe_timing::mismatches(out, cases[c].checked ? want : in, n, scratch, st);
        us[c].push_back(t);
        printf("round %d  %-*s %8.2f us  mismatches %llu  %s\n", round, width,
               cases[c].name.c_str(), t, bad, cudaGetErrorString(err));
      }
    }
    printf("summary 2^%d (median of the three rounds; per cent of cudaMemcpy's speed)\n", lg);
    std::vector<float> med(cases.size());
    for (size_t c = 0; c < cases.size(); ++c) {
      std::sort(us[c].begin(), us[c].end());
      med[c] = us[c][1];
    }
    for (size_t c = 0; c < cases.size(); ++c)
      printf("  %-*s %8.2f us  %6.1f%%\n", width, cases[c].name.c_str(), med[c],
             100.0 * med[0] / med[c]);
  }
  return 0;
}

}  // namespace ladder::scan::probe
