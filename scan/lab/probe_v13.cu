// scan/lab/probe_v13.cu — a standalone probe used to choose v13's configuration.
// Not part of the binary. Times v13 and v14 variants (threads x int4 per thread, plain or
// streaming stores), CUB's InclusiveSum and a 1 GiB device-to-device copy at n = 2^28, L2 flushed
// (read of 2 x L2) before every launch, median of 40 launches; checks each result's last element.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v13.cu common/device.cu -o probe &&
//   ./probe
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "common/device.h"
#include "scan/v13_vectorized_lookback.cuh"
#include "scan/v14_bulk_staged.cuh"

using namespace ladder;
using namespace ladder::scan;

struct Env {
  int32_t *in, *out;
  void* ws;
  L2Flusher* flusher;  // the harness's own flush (common/device.h)
  cudaEvent_t a, b;
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
  int32_t last = 0;
  cudaMemcpy(&last, e.out + n - 1, 4, cudaMemcpyDefault);
  printf("%-36s %8.2f us  %7.1f GB/s  last=%d (want %zu)  %s\n", name, us, 8.0 * n / us / 1e3, last,
         n, cudaGetErrorString(cudaGetLastError()));
}

template <unsigned BS, unsigned VECS, bool STREAM>
void probe(Env& e, size_t n, const char* name) {
  const size_t tiles = ceil_div(n, size_t(BS) * VECS * 4);
  const float us = median_us(e, [&] {
    cudaMemsetAsync(e.ws, 0, lookback::workspace_bytes(tiles));
    v13::single_pass_kernel<true, BS, VECS, STREAM><<<unsigned(tiles), BS>>>(
        e.in, e.out, n, lookback::tile_counter(e.ws), lookback::tile_status(e.ws));
  });
  report(e, n, name, us);
}

template <unsigned BS, unsigned VECS, bool STREAM>
void probe14(Env& e, size_t n, const char* name) {
  const size_t tiles = ceil_div(n, size_t(BS) * VECS * 4);
  cudaMemset(e.out, 0, n * 4);
  const float us = median_us(e, [&] {
    cudaMemsetAsync(e.ws, 0, lookback::workspace_bytes(tiles));
    v14::launch_shape<true, BS, VECS, STREAM>(e.in, e.out, n, e.ws, tiles, nullptr);
  });
  report(e, n, name, us);
}

int main() {
  Env e{};
  const size_t n = size_t(1) << 28;
  cudaMalloc(&e.in, n * 4);
  cudaMalloc(&e.out, n * 4);
  std::vector<int32_t> h(n, 1);
  cudaMemcpy(e.in, h.data(), n * 4, cudaMemcpyDefault);
  cudaMalloc(&e.ws, 64 << 20);
  L2Flusher flusher(query_device(0).l2_bytes);
  e.flusher = &flusher;
  cudaEventCreate(&e.a);
  cudaEventCreate(&e.b);
  for (int rep = 0; rep < 2; ++rep) {
    float us = median_us(e, [&] { cudaMemcpyAsync(e.out, e.in, n * 4, cudaMemcpyDefault); });
    printf("%-36s %8.2f us  %7.1f GB/s\n", "cudaMemcpy 1 GiB (the ceiling)", us,
           8.0 * n / us / 1e3);
    size_t tb = 0;
    cub::DeviceScan::InclusiveSum(nullptr, tb, e.in, e.out, int(n));
    us = median_us(e, [&] { cub::DeviceScan::InclusiveSum(e.ws, tb, e.in, e.out, int(n)); });
    report(e, n, "cub InclusiveSum", us);
    probe<256, 4, true>(e, n, "v13 256x4 stcs");
    probe<128, 8, true>(e, n, "v13 128x8 stcs");
    probe<64, 16, false>(e, n, "v13 64x16 plain");
    probe<64, 16, true>(e, n, "v13 64x16 stcs (shipped)");
    probe<32, 32, false>(e, n, "v13 32x32 plain");
    probe<32, 32, true>(e, n, "v13 32x32 stcs");
    probe14<64, 16, true>(e, n, "v14 64x16 (16 KB) stcs");
    probe14<128, 8, true>(e, n, "v14 128x8 (16 KB) stcs");
    probe14<128, 16, true>(e, n, "v14 128x16 (32 KB) stcs (shipped)");
    probe14<128, 16, false>(e, n, "v14 128x16 (32 KB) plain");
    probe14<256, 8, true>(e, n, "v14 256x8 (32 KB) stcs");
    probe14<256, 16, true>(e, n, "v14 256x16 (64 KB) stcs");
    probe14<128, 32, true>(e, n, "v14 128x32 (64 KB) stcs");
    probe14<512, 8, true>(e, n, "v14 512x8 (64 KB) stcs");
  }
}
