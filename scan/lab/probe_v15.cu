// scan/lab/probe_v15.cu — a standalone probe used to choose v15's shape. Not part of the
// binary. Times v15 shapes (warps per squad x int4 per thread, stages, look-ahead window), v14,
// CUB's InclusiveSum and a 1 GiB device-to-device copy at n = 2^28, L2 flushed before every
// launch, median of 40 launches. Input: small signed values; every shape's whole output is
// compared with CUB's (the first mismatch is printed).
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15.cu common/device.cu -o probe15 &&
//   ./probe15          (the shape search)     ./probe15 sizes   (v15, v14 and CUB by size)
//   ./probe15 h200     (the shapes tried against the H200's copy ceiling)
//   ./probe15 once     (the copy, the shipped shape and five stages, once each: for ncu)
// The h200 mode also times v15 without its look-ahead (every tile's prefix taken as 0: wrong
// sums, timing only) when built with -DPROBE_NO_LOOKAHEAD -I<dir>, and v15 with plain stores in
// place of __stcs with -DPROBE_PLAIN_STORES; the two headers are v15's, edited and renamed
// (S=scan/v15_warp_specialized.cuh):
// clang-format off
//   sed -e 's/scan::v15 {/scan::v15_nola {/' -e '/lookback::advance_to<WIN>/d' $S > <dir>/v15_nola.cuh
//   sed -e 's/scan::v15 {/scan::v15_plain {/' -e 's/__stcs(dst + u \* T + j, x);/dst[u * T + j] = x;/' $S > <dir>/v15_plain.cuh
// clang-format on
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "common/device.h"
#include "scan/v14_bulk_staged.cuh"
#include "scan/v15_warp_specialized.cuh"
#ifdef PROBE_NO_LOOKAHEAD
#include "v15_nola.cuh"
#endif
#ifdef PROBE_PLAIN_STORES
#include "v15_plain.cuh"
#endif

using namespace ladder;
using namespace ladder::scan;

struct Env {
  int32_t *in, *out;
  void* ws;
  L2Flusher* flusher;
  cudaEvent_t a, b;
  std::vector<int32_t> want;  // CUB's output
};

template <typename F>
float median_us(Env& e, F&& launch) {
  std::vector<float> t;
  for (int i = 0; i < 41; ++i) {
    e.flusher->flush(nullptr);
    cudaEventRecord(e.a);
    launch();
    cudaEventRecord(e.b);
    cudaEventSynchronize(e.b);
    float ms;
    cudaEventElapsedTime(&ms, e.a, e.b);
    if (i) t.push_back(ms * 1e3f);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

void report(Env& e, size_t n, const char* name, float us) {
  const cudaError_t err = cudaDeviceSynchronize();
  std::vector<int32_t> got(n);
  cudaMemcpy(got.data(), e.out, n * 4, cudaMemcpyDefault);
  size_t bad = n;
  if (!e.want.empty())
    for (size_t i = 0; i < n && bad == n; ++i)
      if (got[i] != e.want[i]) bad = i;
  printf("%-40s %8.2f us  %7.1f GB/s  %s  %s\n", name, us, 8.0 * n / us / 1e3,
         bad == n ? "matches cub" : "MISMATCH", cudaGetErrorString(err));
  if (bad != n) printf("  first mismatch at %zu: got %d want %d\n", bad, got[bad], e.want[bad]);
  cudaMemset(e.out, 0, n * 4);
}

template <unsigned W, unsigned V, unsigned NS, unsigned WIN>
void probe15(Env& e, size_t n, const char* name) {
  const float us =
      median_us(e, [&] { v15::launch_shape<W, V, NS, WIN, true>(e.in, e.out, n, e.ws, nullptr); });
  report(e, n, name, us);
}

// `probe15 sizes`: v15, v14 and CUB at 2^20, 2^22, 2^24 and 2^28 (CUB's output is the reference
// at each size). At commit 3fddbc6 it also timed v15 with its first round of claims batched
// (results/logs/nvidia-h200-probe-scan-v15-sizes-3fddbc6-*.txt); that variant was slower and
// is gone.
int sizes_mode(Env& e) {
  for (int lg : {20, 22, 24, 28}) {
    const size_t n = size_t(1) << lg;
    printf("n = 2^%d\n", lg);
    e.want.clear();
    size_t tb = 0;
    cub::DeviceScan::InclusiveSum(nullptr, tb, e.in, e.out, int(n));
    float us = median_us(e, [&] { cub::DeviceScan::InclusiveSum(e.ws, tb, e.in, e.out, int(n)); });
    e.want.resize(n);
    cudaMemcpy(e.want.data(), e.out, n * 4, cudaMemcpyDefault);
    report(e, n, "  cub InclusiveSum", us);
    us = median_us(e, [&] { v14::launch(e.in, e.out, n, e.ws, nullptr); });
    report(e, n, "  v14 (shipped)", us);
    us = median_us(e, [&] { v15::launch(e.in, e.out, n, e.ws, nullptr); });
    report(e, n, "  v15 (shipped)", us);
  }
  return 0;
}

// The copy (the ceiling) and CUB's InclusiveSum at n, timed; CUB's output becomes the reference
// the shapes after it are compared with (once).
void ceiling_and_cub(Env& e, size_t n) {
  float us = median_us(e, [&] { cudaMemcpyAsync(e.out, e.in, n * 4, cudaMemcpyDefault); });
  printf("%-40s %8.2f us  %7.1f GB/s\n", "cudaMemcpy 1 GiB (the ceiling)", us, 8.0 * n / us / 1e3);
  size_t tb = 0;
  cub::DeviceScan::InclusiveSum(nullptr, tb, e.in, e.out, int(n));
  us = median_us(e, [&] { cub::DeviceScan::InclusiveSum(e.ws, tb, e.in, e.out, int(n)); });
  if (e.want.empty()) {
    e.want.resize(n);
    cudaMemcpy(e.want.data(), e.out, n * 4, cudaMemcpyDefault);
  }
  report(e, n, "cub InclusiveSum", us);
}

// `probe15 h200`: the ceiling, CUB, the shipped shape, the look-ahead window and squad shapes
// that fit two blocks per SM, and (PROBE_NO_LOOKAHEAD) the pipeline without its look-ahead.
int h200_mode(Env& e, size_t n) {
  for (int rep = 0; rep < 2; ++rep) {
    ceiling_and_cub(e, n);
    probe15<4, 8, 6, 8>(e, n, "v15 4w x 8 x 6 win 8 (shipped)");
    probe15<4, 8, 6, 16>(e, n, "v15 4w x 8 x 6 win 16");
    probe15<4, 8, 6, 32>(e, n, "v15 4w x 8 x 6 win 32");
    probe15<4, 8, 5, 16>(e, n, "v15 4w x 8 x 5 win 16");
    probe15<8, 4, 6, 8>(e, n, "v15 8w x 4 x 6 win 8");
    probe15<8, 4, 6, 16>(e, n, "v15 8w x 4 x 6 win 16");
    probe15<2, 16, 6, 16>(e, n, "v15 2w x 16 x 6 win 16");
    probe15<4, 8, 4, 16>(e, n, "v15 4w x 8 x 4 (3/SM) win 16");
    probe15<4, 8, 13, 8>(e, n, "v15 4w x 8 x 13 (1/SM) win 8");
    probe15<8, 4, 13, 8>(e, n, "v15 8w x 4 x 13 (1/SM) win 8");
    probe15<8, 4, 12, 16>(e, n, "v15 8w x 4 x 12 (1/SM) win 16");
    probe15<8, 8, 6, 16>(e, n, "v15 8w x 8 (32 KB) x 6 (1/SM) win 16");
#ifdef PROBE_PLAIN_STORES
    const float plain = median_us(
        e, [&] { v15_plain::launch_shape<4, 8, 6, 8, true>(e.in, e.out, n, e.ws, nullptr); });
    report(e, n, "v15 with plain stores 4w x 8 x 6", plain);
#endif
#ifdef PROBE_NO_LOOKAHEAD
    const float us = median_us(
        e, [&] { v15_nola::launch_shape<4, 8, 6, 8, true>(e.in, e.out, n, e.ws, nullptr); });
    cudaDeviceSynchronize();
    printf("%-40s %8.2f us  %7.1f GB/s  (timing only: no look-ahead, wrong sums)\n",
           "v15 without look-ahead 4w x 8 x 6", us, 8.0 * n / us / 1e3);
#endif
  }
  return 0;
}

int main(int argc, char** argv) {
  Env e{};
  const size_t n = size_t(1) << 28;
  cudaMalloc(&e.in, n * 4);
  cudaMalloc(&e.out, n * 4);
  std::vector<int32_t> h(n);
  uint32_t x = 12345;
  for (auto& v : h) {
    x = x * 1664525u + 1013904223u;
    v = int32_t(x >> 28) - 8;  // -8 .. 7: no int32 overflow at 2^28 elements
  }
  cudaMemcpy(e.in, h.data(), n * 4, cudaMemcpyDefault);
  cudaMalloc(&e.ws, 64 << 20);
  L2Flusher flusher(query_device(0).l2_bytes);
  e.flusher = &flusher;
  cudaEventCreate(&e.a);
  cudaEventCreate(&e.b);
  if (argc > 1 && std::string(argv[1]) == "sizes") return sizes_mode(e);
  if (argc > 1 && std::string(argv[1]) == "h200") return h200_mode(e, n);
  if (argc > 1 && std::string(argv[1]) == "once") {  // one launch of each, for a profiler
    cudaMemcpyAsync(e.out, e.in, n * 4, cudaMemcpyDefault);
    v15::launch_shape<4, 8, 6, 8, true>(e.in, e.out, n, e.ws, nullptr);
    v15::launch_shape<4, 8, 5, 8, true>(e.in, e.out, n, e.ws, nullptr);
    return cudaDeviceSynchronize() != cudaSuccess;
  }
  for (int rep = 0; rep < 2; ++rep) {
    ceiling_and_cub(e, n);
    const float us = median_us(e, [&] { v14::launch(e.in, e.out, n, e.ws, nullptr); });
    report(e, n, "v14 (shipped)", us);
    probe15<4, 16, 6, 8>(e, n, "v15 4w x 16 (32 KB) x 6 win 8");
    probe15<4, 8, 6, 8>(e, n, "v15 4w x 8 (16 KB) x 6 (2/SM) win 8");
    probe15<4, 8, 6, 4>(e, n, "v15 4w x 8 (16 KB) x 6 (2/SM) win 4");
    probe15<4, 8, 6, 16>(e, n, "v15 4w x 8 (16 KB) x 6 (2/SM) win 16");
    probe15<4, 8, 5, 8>(e, n, "v15 4w x 8 (16 KB) x 5 (2/SM) win 8");
    probe15<4, 8, 4, 8>(e, n, "v15 4w x 8 (16 KB) x 4 (3/SM) win 8");
    probe15<4, 8, 3, 8>(e, n, "v15 4w x 8 (16 KB) x 3 (4/SM) win 8");
    probe15<8, 4, 6, 8>(e, n, "v15 8w x 4 (16 KB) x 6 (2/SM) win 8");
    probe15<8, 8, 3, 8>(e, n, "v15 8w x 8 (32 KB) x 3 (2/SM) win 8");
    probe15<8, 8, 6, 8>(e, n, "v15 8w x 8 (32 KB) x 6 win 8");
    probe15<8, 4, 4, 8>(e, n, "v15 8w x 4 (16 KB) x 4 (3/SM) win 8");
    probe15<4, 16, 2, 8>(e, n, "v15 4w x 16 (32 KB) x 2 (3/SM) win 8");
  }
}
