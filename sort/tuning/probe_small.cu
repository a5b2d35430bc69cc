// sort/tuning/probe_small.cu — a standalone probe for sort v07's one-block path: which block
// shape (threads x keys per thread) sorts n keys fastest, against CUB's SortKeys / SortPairs
// (its single-tile kernel up to 4,864 keys on sm_90), for n from 1,024 to 6,144. Each sort is
// timed as the benchmark times it: the stream held by a blocking kernel while the start event,
// the launch and the stop event are enqueued, L2 flushed before, median of 31. Not part of the
// binary. Every output is compared with CUB's on the device.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. sort/tuning/probe_small.cu common/device.cu \
//     -o probe_small && ./probe_small
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "common/device.h"
#include "sort/tuning/probe_common.cuh"
#include "sort/v07_small_n_dispatch.cuh"

using namespace ladder;
using namespace ladder::sort::tuning;
using namespace ladder::sort;

__global__ void fill(uint32_t* k, uint32_t* v, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    k[i] = mix((i + 1) * 0x9e3779b97f4a7c15ull);
    v[i] = static_cast<uint32_t>(i);
  }
}

uint32_t *kin, *vin, *kout, *vout, *kwant, *vwant;
unsigned long long* bad;
void* cub_ws;
size_t cub_ws_bytes = size_t(64) << 20;
cudaStream_t stream;
L2Flusher* flusher;
StreamBlocker* blocker;
cudaEvent_t ev_a, ev_b;

template <typename F>
float median_us(F&& run) {
  run();  // loaded and warm
  std::vector<float> t;
  for (int r = 0; r < 31; ++r) {
    flusher->flush(stream);
    blocker->block(stream);
    cudaEventRecord(ev_a, stream);
    run();
    cudaEventRecord(ev_b, stream);
    blocker->release();
    cudaEventSynchronize(ev_b);
    float ms = 0;
    cudaEventElapsedTime(&ms, ev_a, ev_b);
    t.push_back(ms * 1000);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

unsigned long long mismatches(const uint32_t* got, const uint32_t* want, size_t n) {
  cudaMemset(bad, 0, 8);
  count_mismatches<<<64, 256>>>(got, want, n, bad);
  unsigned long long c = 0;
  cudaMemcpy(&c, bad, 8, cudaMemcpyDefault);
  return c;
}

template <unsigned T, unsigned I, bool PAIRS>
void shape(size_t n, float cub_us) {
  if (n > size_t(T) * I) return;
  cudaError_t err = cudaSuccess;
  const float us = median_us([&] {
    const cudaError_t e =
        v07::launch_one_block<T, I, PAIRS>(kin, vin, kout, PAIRS ? vout : nullptr, n, stream);
    if (e != cudaSuccess) err = e;
  });
  cudaMemset(kout, 0xa5, n * 4);  // the run that is checked starts from garbage
  cudaMemset(vout, 0xa5, n * 4);
  const cudaError_t e =
      v07::launch_one_block<T, I, PAIRS>(kin, vin, kout, PAIRS ? vout : nullptr, n, stream);
  if (e != cudaSuccess) err = e;
  cudaStreamSynchronize(stream);
  const unsigned long long b =
      mismatches(kout, kwant, n) + (PAIRS ? mismatches(vout, vwant, n) : 0);
  printf("  %s n=%5zu  %4ux%-2u %6.2f us  %.3fx cub  mismatches %llu  %s\n",
         PAIRS ? "pairs" : "keys ", n, T, I, us, us / cub_us, b, cudaGetErrorString(err));
}

template <bool PAIRS>
void sizes() {
  for (size_t n : {1024, 1536, 2048, 2560, 3072, 4096, 4864, 5120, 6144}) {
    float cub_us;
    if (PAIRS) {
      cub::DeviceRadixSort::SortPairs(cub_ws, cub_ws_bytes, kin, kwant, vin, vwant, n, 0, 32,
                                      stream);
      cub_us = median_us([&] {
        cub::DeviceRadixSort::SortPairs(cub_ws, cub_ws_bytes, kin, kout, vin, vout, n, 0, 32,
                                        stream);
      });
    } else {
      cub::DeviceRadixSort::SortKeys(cub_ws, cub_ws_bytes, kin, kwant, n, 0, 32, stream);
      cub_us = median_us([&] {
        cub::DeviceRadixSort::SortKeys(cub_ws, cub_ws_bytes, kin, kout, n, 0, 32, stream);
      });
    }
    printf("%s n=%5zu  cub %6.2f us\n", PAIRS ? "pairs" : "keys ", n, cub_us);
    shape<256, 4, PAIRS>(n, cub_us);
    shape<256, 8, PAIRS>(n, cub_us);
    shape<256, 12, PAIRS>(n, cub_us);
    shape<256, 16, PAIRS>(n, cub_us);
    shape<256, 24, PAIRS>(n, cub_us);
    shape<512, 2, PAIRS>(n, cub_us);
    shape<512, 4, PAIRS>(n, cub_us);
    shape<512, 6, PAIRS>(n, cub_us);
    shape<512, 8, PAIRS>(n, cub_us);
    shape<512, 10, PAIRS>(n, cub_us);
    shape<512, 12, PAIRS>(n, cub_us);
    shape<1024, 1, PAIRS>(n, cub_us);
    shape<1024, 2, PAIRS>(n, cub_us);
    shape<1024, 3, PAIRS>(n, cub_us);
    shape<1024, 4, PAIRS>(n, cub_us);
    shape<1024, 5, PAIRS>(n, cub_us);
    shape<1024, 6, PAIRS>(n, cub_us);
  }
}

int main() {
  const size_t cap = 8192;
  for (uint32_t** p : {&kin, &vin, &kout, &vout, &kwant, &vwant}) cudaMalloc(p, cap * 4);
  cudaMalloc(&bad, 8);
  cudaMalloc(&cub_ws, cub_ws_bytes);
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  cudaEventCreate(&ev_a);
  cudaEventCreate(&ev_b);
  L2Flusher f(query_device(0).l2_bytes);
  flusher = &f;
  StreamBlocker sb;
  blocker = &sb;
  fill<<<8, 256>>>(kin, vin, cap);
  cudaDeviceSynchronize();
  printf("%s\n", query_device(0).name.c_str());
  sizes<false>();
  sizes<true>();
  return 0;
}
