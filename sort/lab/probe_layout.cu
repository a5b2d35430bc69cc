// sort/lab/probe_layout.cu — a standalone probe: does where the output and the workspace lie
// in memory change the time of a sort? At n = 2^28 uniform keys (drawn on the device) it times
// sort v09 and CUB's SortKeys as whole sorts (L2 flushed before each, median of 9) with the
// output and the workspace carved from one pool (and sort v10, its 32-bit look-back words, beside
// v09) at several offsets, and with buffers from
// separate cudaMalloc calls (as the benchmark's Runner has them). Not part of the binary. Every
// output is compared with CUB's on the device.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. sort/lab/probe_layout.cu common/device.cu \
//     -o probe_layout && ./probe_layout
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "common/device.h"
#include "sort/lab/probe_common.cuh"
#include "sort/v09_striped_histogram.cuh"
#include "sort/v10_narrow_status.cuh"

using namespace ladder;
using namespace ladder::sort::tuning;

__global__ void fill(uint32_t* k, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    k[i] = mix((i + 1) * 0x9e3779b97f4a7c15ull);
}

const size_t n = size_t(1) << 28;
uint32_t *in, *want;
unsigned long long* bad;
size_t cub_bytes;
L2Flusher* flusher;
cudaEvent_t a, b;

template <typename F>
float median_us(F&& run) {
  std::vector<float> t;
  for (int r = 0; r < 9; ++r) {
    flusher->flush(nullptr);
    cudaEventRecord(a);
    run();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms * 1000);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

unsigned long long mismatches(const uint32_t* out) {
  cudaMemset(bad, 0, 8);
  count_mismatches<<<1024, 256>>>(out, want, n, bad);
  unsigned long long c = 0;
  cudaMemcpy(&c, bad, 8, cudaMemcpyDefault);
  return c;
}

void layout(const char* name, uint32_t* out, void* ws) {
  const float v09 = median_us([&] { sort::v09::launch(in, out, n, ws, nullptr); });
  const unsigned long long bad_v09 = mismatches(out);
  const float v10 = median_us([&] { sort::v10::launch(in, out, n, ws, nullptr); });
  const unsigned long long bad_v10 = mismatches(out);
  const float cub = median_us([&] { cub::DeviceRadixSort::SortKeys(ws, cub_bytes, in, out, n); });
  const unsigned long long bad_cub = mismatches(out);
  printf(
      "%-44s out %% 1GiB = %4zu MiB  v09 %7.1f  v10 %7.1f  cub %7.1f us  v09 %.3fx  v10 %.3fx"
      "  mismatches %llu %llu %llu  %s\n",
      name, (reinterpret_cast<size_t>(out) % (size_t(1) << 30)) >> 20, v09, v10, cub, v09 / cub,
      v10 / cub, bad_v09, bad_v10, bad_cub, cudaGetErrorString(cudaGetLastError()));
}

int main() {
  cudaMalloc(&in, n * 4);
  cudaMalloc(&want, n * 4);
  cudaMalloc(&bad, 8);
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  L2Flusher f(query_device(0).l2_bytes);
  flusher = &f;
  fill<<<1024, 256>>>(in, n);
  cub::DeviceRadixSort::SortKeys(nullptr, cub_bytes, in, want, n);
  const size_t ws_bytes = std::max(cub_bytes, sort::v09::workspace_bytes(n));
  {
    void* tmp;
    cudaMalloc(&tmp, cub_bytes);
    cub::DeviceRadixSort::SortKeys(tmp, cub_bytes, in, want, n);
    cudaFree(tmp);
  }
  printf("workspace %zu bytes (v09 %zu, cub %zu)\n", ws_bytes, sort::v09::workspace_bytes(n),
         cub_bytes);
  for (int rep = 0; rep < 3; ++rep) {  // separate allocations, as the benchmark's Runner has them
    uint32_t* out;
    void* ws;
    cudaMalloc(&out, n * 4);
    cudaMalloc(&ws, ws_bytes);
    cudaMemset(ws, 0, ws_bytes);
    layout("separate cudaMalloc", out, ws);
    cudaFree(ws);
    cudaFree(out);
  }
  char* pool;
  const size_t mib = size_t(1) << 20, pool_bytes = n * 4 + ws_bytes + 1024 * mib;
  cudaMalloc(&pool, pool_bytes);
  cudaMemset(pool, 0, pool_bytes);
  for (size_t out_off : {size_t(0), 2 * mib, 64 * mib, 512 * mib}) {
    for (size_t gap : {size_t(0), 2 * mib, 32 * mib, 256 * mib}) {
      char label[64];
      snprintf(label, sizeof label, "pool: out at +%zu MiB, ws %zu MiB after it", out_off / mib,
               gap / mib);
      uint32_t* out = reinterpret_cast<uint32_t*>(pool + out_off);
      void* ws = pool + out_off + n * 4 + gap;
      if (out_off + n * 4 + gap + ws_bytes > pool_bytes) continue;
      cudaMemset(ws, 0, ws_bytes);
      layout(label, out, ws);
    }
  }
  return 0;
}
