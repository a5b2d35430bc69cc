// sort/lab/probe_breakdown.cu — a standalone probe: one CUB SortKeys, one sort v09 and one sort
// v10 at n = 2^28 keys on each input (uniform, sorted, few: 16 distinct values), meant to run under
// Nsight Compute so that each kernel of the three sorts gets its own duration and DRAM bytes (ncu
// flushes the caches before each kernel). Not part of the binary. Each output is compared with
// CUB's on the device; a mismatch is printed.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. sort/lab/probe_breakdown.cu common/device.cu \
//     -o probe_bd && ncu --clock-control none --metrics gpu__time_duration.sum,\
//     dram__bytes_read.sum,dram__bytes_write.sum --csv ./probe_bd
#include <cub/device/device_radix_sort.cuh>

#include <cstdio>

#include "common/device.h"
#include "sort/lab/probe_common.cuh"
#include "sort/v10_narrow_status.cuh"

using namespace ladder;
using namespace ladder::sort::tuning;

// kind 0: uniform; 1: sorted (0, 1, 2, ...); 2: few (each key one of 16 values).
__global__ void fill(uint32_t* k, size_t n, int kind) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    const uint32_t r = mix((i + 1) * 0x9e3779b97f4a7c15ull);
    k[i] = kind == 0 ? r : kind == 1 ? uint32_t(i) : mix((r % 16 + 7) * 0x9e3779b97f4a7c15ull);
  }
}

int main() {
  const size_t n = size_t(1) << 28;
  uint32_t *in, *out, *want;
  unsigned long long* bad;
  cudaMalloc(&in, n * 4);
  cudaMalloc(&out, n * 4);
  cudaMalloc(&want, n * 4);
  cudaMalloc(&bad, 8);
  size_t cub_bytes = 0;
  cub::DeviceRadixSort::SortKeys(nullptr, cub_bytes, in, want, n);
  const size_t ws_bytes = std::max(cub_bytes, sort::v09::workspace_bytes(n));
  void* ws;
  cudaMalloc(&ws, ws_bytes);
  const char* names[3] = {"uniform", "sorted", "few"};
  for (int kind = 0; kind < 3; ++kind) {
    fill<<<1024, 256>>>(in, n, kind);
    cub::DeviceRadixSort::SortKeys(ws, cub_bytes, in, want, n);
    for (int v = 9; v <= 10; ++v) {
      cudaMemset(out, 0xa5, n * 4);
      if (v == 9)
        sort::v09::launch(in, out, n, ws, nullptr);
      else
        sort::v10::launch(in, out, n, ws, nullptr);
      cudaMemset(bad, 0, 8);
      count_mismatches<<<1024, 256>>>(out, want, n, bad);
      unsigned long long b = 0;
      cudaMemcpy(&b, bad, 8, cudaMemcpyDefault);
      printf("%s: v%02d mismatches %llu (%s)\n", names[kind], v, b,
             cudaGetErrorString(cudaGetLastError()));
    }
  }
  return 0;
}
