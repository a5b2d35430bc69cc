// copy_if/lab/probe_v06_window.cu — is copy_if v06 bound by its look-ahead's L2 round trips?
// Not part of the binary. v06's look-ahead warp reads kWindow x 32 tile statuses per round trip;
// at 2^28 and 50% kept a block gets a new tile about every 1.7 µs, and the warp needs a round trip
// or more for each. This probe times v06 as shipped (kWindow 8) against copies of it with wider
// windows (16, 32, 64 statuses a lane), v07 (the same pipeline without a look-ahead) and CUB's
// DeviceSelect::If, at 2^28 (keep1, keep50, keep99) and at 2^24 and 2^22 (keep50); three
// interleaved rounds of 31-launch medians, timed as the benchmark times (common/probe_timer.cuh),
// every output compared with CUB's (count and elements; v07's order is not CUB's, so its count
// alone). The wider-window headers are v06's, edited and renamed
// (S=copy_if/v06_warp_specialized.cuh; W in 16 32 64):
// clang-format off
//   sed -e "s/copy_if::v06 {/copy_if::v06_w$W {/" -e "s/kWindow = 8;/kWindow = $W;/" $S > <dir>/v06_w$W.cuh
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. -I<dir> copy_if/lab/probe_v06_window.cu common/device.cu -o p && ./p
//   (results/logs/h200-probes-32f22b4-2026-11-29/win.sh; copy_if/lab/LAB_NOTES.md reads its output)
// clang-format on
#include <cub/device/device_select.cuh>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "common/device.h"
#include "common/probe_timer.cuh"
#include "copy_if/v06_warp_specialized.cuh"
#include "copy_if/v07_pipelined_unordered.cuh"
#if __has_include("v06_w16.cuh")  // the sed copies above; without them, v06 as shipped only
#include "v06_w16.cuh"
#include "v06_w32.cuh"
#include "v06_w64.cuh"
#define PROBE_WINDOWS 1
#endif

using namespace ladder;
using namespace ladder::copy_if;

int main() {
  const size_t max_n = size_t(1) << 28;
  int32_t *in, *out, *want;
  unsigned long long *count, *want_count, *scratch;
  void* ws;
  if (cudaMalloc(&in, max_n * 4) || cudaMalloc(&out, max_n * 4) || cudaMalloc(&want, max_n * 4) ||
      cudaMalloc(&count, 8) || cudaMalloc(&want_count, 8) || cudaMalloc(&scratch, 8) ||
      cudaMalloc(&ws, 64 << 20)) {
    printf("cudaMalloc failed\n");
    return 1;
  }
  cudaStream_t st;
  cudaStreamCreate(&st);
  probe_timing::Timer timer(st);
  size_t cub_bytes = 0;
  cub::DeviceSelect::If(nullptr, cub_bytes, in, want, want_count, int64_t(max_n), KeepPositive{});
  void* cub_tmp;
  cudaMalloc(&cub_tmp, cub_bytes);

  struct Case {
    const char* name;
    bool ordered;
    std::function<cudaError_t(size_t)> run;
  };
  std::vector<Case> cases = {
      {"cub DeviceSelect::If", true,
       [&](size_t n) {
         size_t b = cub_bytes;
         return cub::DeviceSelect::If(cub_tmp, b, in, out, count, int64_t(n), KeepPositive{}, st);
       }},
      {"v07 (no look-ahead)", false,
       [&](size_t n) { return v07::launch(in, out, count, n, ws, st); }},
      {"v06 shipped (window 8)", true,
       [&](size_t n) { return v06::launch(in, out, count, n, ws, st); }},
  };
#ifdef PROBE_WINDOWS
  cases.push_back({"v06 window 16", true,
                   [&](size_t n) { return v06_w16::launch(in, out, count, n, ws, st); }});
  cases.push_back({"v06 window 32", true,
                   [&](size_t n) { return v06_w32::launch(in, out, count, n, ws, st); }});
  cases.push_back({"v06 window 64", true,
                   [&](size_t n) { return v06_w64::launch(in, out, count, n, ws, st); }});
#endif
  struct Input {
    int lg;
    unsigned per100;  // kept per hundred
  };
  const Input inputs[] = {{28, 1}, {28, 50}, {28, 99}, {24, 50}, {22, 50}};
  for (const Input& input : inputs) {
    const size_t n = size_t(1) << input.lg;
    std::vector<int32_t> h(n);
    uint32_t x = 12345 + input.per100;
    for (auto& v : h) {
      x = x * 1664525u + 1013904223u;
      const uint32_t y = x >> 2;
      v = (x % 100) < input.per100 ? int32_t(1 + y % (1u << 30)) : -int32_t(y % (1u << 30));
    }
    cudaMemcpy(in, h.data(), n * 4, cudaMemcpyDefault);
    size_t b = cub_bytes;
    cub::DeviceSelect::If(cub_tmp, b, in, want, want_count, int64_t(n), KeepPositive{}, st);
    unsigned long long kept = 0;
    cudaStreamSynchronize(st);
    cudaMemcpy(&kept, want_count, 8, cudaMemcpyDefault);
    printf("n = 2^%d, keep%u: %llu kept; us: median of 31 launches\n", input.lg, input.per100,
           kept);
    std::vector<std::vector<float>> us(cases.size());
    for (int round = 0; round < 3; ++round)
      for (size_t c = 0; c < cases.size(); ++c) {
        cudaMemsetAsync(out, 0, n * 4, st);
        cudaError_t err = cudaSuccess;
        const float t = timer.median_us([&] {
          const cudaError_t e = cases[c].run(n);
          if (e != cudaSuccess) err = e;
        });
        cudaStreamSynchronize(st);
        unsigned long long got = 0;
        cudaMemcpy(&got, count, 8, cudaMemcpyDefault);
        const unsigned long long bad =
            cases[c].ordered ? probe_timing::mismatches(out, want, kept, scratch, st) : 0;
        if (err == cudaSuccess) err = cudaGetLastError();
        us[c].push_back(t);
        printf("round %d  %-28s %8.2f us  count %s  mismatches %llu%s  %s\n", round, cases[c].name,
               t, got == kept ? "ok" : "WRONG", bad, cases[c].ordered ? "" : " (count only)",
               cudaGetErrorString(err));
      }
    printf("summary 2^%d keep%u (median of the three rounds; bytes: n reads + kept writes)\n",
           input.lg, input.per100);
    for (size_t c = 0; c < cases.size(); ++c) {
      std::sort(us[c].begin(), us[c].end());
      const float m = us[c][1];
      printf("  %-28s %8.2f us  %7.1f GB/s\n", cases[c].name, m, (4.0 * n + 4.0 * kept) / m / 1e3);
    }
  }
  return 0;
}
