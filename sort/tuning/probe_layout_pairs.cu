// sort/tuning/probe_layout_pairs.cu — probe_layout.cu for key-value pairs: does where the
// outputs and the workspace lie in memory change the time of sort_pairs v10 and of CUB's
// SortPairs? (At 2^28 pairs v10 was ahead of CUB on the H200 and behind it on the H100; for keys,
// probe_layout.cu and probe_placement.cu found v10's time moving with the placement of the
// buffers its passes scatter into, by several per cent, and CUB's hardly.) At n = 2^28 uniform
// keys with values 0, 1, 2, ... (drawn on the device) it times both as whole sorts (as the
// benchmark times, common/probe_timer.cuh, median of 9) with keys_out, values_out and the workspace
// from separate cudaMalloc calls (as the benchmark's Runner has them) and carved from one pool at
// several offsets. Every output (keys and values) is compared with CUB's on the device. Not part of
// the binary.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. sort/tuning/probe_layout_pairs.cu common/device.cu \
//     -o probe_layout_pairs && ./probe_layout_pairs
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "common/device.h"
#include "common/probe_timer.cuh"
#include "sort/tuning/probe_common.cuh"
#include "sort/v10_narrow_status.cuh"

using namespace ladder;
using namespace ladder::sort::tuning;

const size_t n = size_t(1) << 28;
uint32_t *kin, *vin, *kwant, *vwant;
unsigned long long* bad;
size_t cub_bytes;
probe_timing::Timer* timer;  // on the default stream

template <typename F>
float median_us(F&& run) {
  return timer->median_us(run, 9);
}

unsigned long long mismatches(const uint32_t* kout, const uint32_t* vout) {
  cudaMemset(bad, 0, 8);
  count_mismatches<<<1024, 256>>>(kout, kwant, n, bad);
  count_mismatches<<<1024, 256>>>(vout, vwant, n, bad);
  unsigned long long c = 0;
  cudaMemcpy(&c, bad, 8, cudaMemcpyDefault);
  return c;
}

void layout(const char* name, uint32_t* kout, uint32_t* vout, void* ws) {
  const float v10 =
      median_us([&] { sort::v10::launch_pairs(kin, vin, kout, vout, n, ws, nullptr); });
  const unsigned long long bad_v10 = mismatches(kout, vout);
  const float cub =
      median_us([&] { cub::DeviceRadixSort::SortPairs(ws, cub_bytes, kin, kout, vin, vout, n); });
  const unsigned long long bad_cub = mismatches(kout, vout);
  printf("%-52s v10 %7.1f  cub %7.1f us  v10 %.3fx  mismatches %llu %llu  %s\n", name, v10, cub,
         v10 / cub, bad_v10, bad_cub, cudaGetErrorString(cudaGetLastError()));
}

int main() {
  for (uint32_t** p : {&kin, &vin, &kwant, &vwant}) cudaMalloc(p, n * 4);
  cudaMalloc(&bad, 8);
  probe_timing::Timer t(nullptr);
  timer = &t;
  fill_pairs<<<1024, 256>>>(kin, vin, n);
  cub::DeviceRadixSort::SortPairs(nullptr, cub_bytes, kin, kwant, vin, vwant, n);
  const size_t ws_bytes = std::max(cub_bytes, sort::v10::workspace_bytes_pairs(n));
  {
    void* tmp;
    cudaMalloc(&tmp, cub_bytes);
    cub::DeviceRadixSort::SortPairs(tmp, cub_bytes, kin, kwant, vin, vwant, n);
    cudaFree(tmp);
  }
  printf("%s; workspace %zu bytes (v10 %zu, cub %zu)\n", query_device(0).name.c_str(), ws_bytes,
         sort::v10::workspace_bytes_pairs(n), cub_bytes);
  for (int rep = 0; rep < 3; ++rep) {  // separate allocations, as the benchmark's Runner has them
    uint32_t *kout, *vout;
    void* ws;
    cudaMalloc(&kout, n * 4);
    cudaMalloc(&vout, n * 4);
    cudaMalloc(&ws, ws_bytes);
    cudaMemset(ws, 0, ws_bytes);
    layout("separate cudaMalloc", kout, vout, ws);
    cudaFree(ws);
    cudaFree(vout);
    cudaFree(kout);
  }
  char* pool;
  const size_t mib = size_t(1) << 20, pool_bytes = 2 * n * 4 + ws_bytes + 1536 * mib;
  cudaMalloc(&pool, pool_bytes);
  cudaMemset(pool, 0, pool_bytes);
  // keys_out, then values_out `gap` after it, then the workspace `gap` after that.
  for (size_t first : {size_t(0), 64 * mib, 448 * mib}) {
    for (size_t gap : {size_t(0), 2 * mib, 256 * mib, 448 * mib}) {
      char label[80];
      snprintf(label, sizeof label, "pool: keys_out +%zu MiB, then gaps of %zu MiB", first / mib,
               gap / mib);
      uint32_t* kout = reinterpret_cast<uint32_t*>(pool + first);
      uint32_t* vout = reinterpret_cast<uint32_t*>(pool + first + n * 4 + gap);
      char* ws = pool + first + 2 * (n * 4 + gap);
      if (ws + ws_bytes > pool + pool_bytes) continue;
      cudaMemset(ws, 0, ws_bytes);
      layout(label, kout, vout, ws);
    }
  }
  return 0;
}
