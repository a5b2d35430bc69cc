// sort/lab/probe_pairs_prefetch.cu — a standalone probe for the candidate options of sort v10's
// one-sweep passes (sort/v06_onesweep_ballot.cuh: kPrefetchValuesLanes, kPrefetchValuesBulk,
// kStreamKeys). Each pass reads a tile's values only after its keys are ranked, looked back and
// scattered, so the values' DRAM round trip comes at the end of the tile: the prefetch options
// bring them into L2 early. And the passes' once-read keys share L2 with the lines their scatter is
// still filling: kStreamKeys loads them evict-first. It times v10's sorts (v08::launch_passes with
// 32-bit look-back words and v09's histogram, as sort/v10_narrow_status and
// sort_pairs/v10_narrow_status run above 6,144 keys) with each option against CUB's SortKeys /
// SortPairs, at 2^28 and 25.6M uniform keys (values 0, 1, 2, ...). Each sort is timed as the
// benchmark times it (common/probe_timer.cuh: blocking kernel, L2 flushed, median of 11); every
// output (keys and values) is compared with CUB's after a run into poisoned buffers. Not part of
// the binary.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. sort/lab/probe_pairs_prefetch.cu common/device.cu \
//     -o probe_pairs_prefetch && ./probe_pairs_prefetch
#include <cub/device/device_radix_sort.cuh>

#include <cstdio>

#include "common/device.h"
#include "common/probe_timer.cuh"
#include "sort/lab/probe_common.cuh"
#include "sort/v10_narrow_status.cuh"

using namespace ladder;
using namespace ladder::sort;
using namespace ladder::sort::tuning;

template <unsigned OPT>
cudaError_t sort_pairs(const uint32_t* kin, const uint32_t* vin, uint32_t* kout, uint32_t* vout,
                       size_t n, void* ws, cudaStream_t s) {
  return v08::launch_passes<true, v10::NarrowStatus, OPT>(kin, vin, kout, vout, n, ws, s,
                                                          v09::striped_histogram);
}

template <unsigned OPT>
cudaError_t sort_keys(const uint32_t* kin, const uint32_t*, uint32_t* kout, uint32_t*, size_t n,
                      void* ws, cudaStream_t s) {
  return v08::launch_passes<false, v10::NarrowStatus, OPT>(kin, nullptr, kout, nullptr, n, ws, s,
                                                           v09::striped_histogram);
}

cudaError_t v10_keys(const uint32_t* kin, const uint32_t*, uint32_t* kout, uint32_t*, size_t n,
                     void* ws, cudaStream_t s) {
  return v10::launch(kin, kout, n, ws, s);
}

int main() {
  const size_t cap = size_t(1) << 28;
  uint32_t *kin, *vin, *kout, *vout, *kwant, *vwant;
  for (uint32_t** p : {&kin, &vin, &kout, &vout, &kwant, &vwant}) cudaMalloc(p, cap * 4);
  unsigned long long* bad;
  cudaMalloc(&bad, 8);
  size_t cub_bytes = 0;
  cub::DeviceRadixSort::SortPairs(nullptr, cub_bytes, kin, kout, vin, vout, cap);
  const size_t ws_bytes = std::max(cub_bytes, v10::workspace_bytes_pairs(cap));
  void* ws;
  cudaMalloc(&ws, ws_bytes);
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  probe_timing::Timer timer(stream);
  fill_pairs<<<1024, 256>>>(kin, vin, cap);
  cudaDeviceSynchronize();
  printf("%s\n", query_device(0).name.c_str());
  for (const bool pairs : {false, true}) {
    for (size_t n : {size_t(25600000), cap}) {
      auto cub_sort = [&](uint32_t* ko, uint32_t* vo) {
        size_t bb = cub_bytes;
        return pairs ? cub::DeviceRadixSort::SortPairs(ws, bb, kin, ko, vin, vo, n, 0, 32, stream)
                     : cub::DeviceRadixSort::SortKeys(ws, bb, kin, ko, n, 0, 32, stream);
      };
      cub_sort(kwant, vwant);
      const float cub_us = timer.median_us([&] { cub_sort(kout, vout); }, 11);
      printf("%s n=%9zu  cub %8.1f us\n", pairs ? "pairs" : "keys ", n, cub_us);
      auto variant = [&](const char* name, auto launch) {
        cudaError_t err = cudaSuccess;
        auto run = [&] {
          const cudaError_t e = launch(kin, vin, kout, vout, n, ws, stream);
          if (e != cudaSuccess) err = e;
        };
        const float us = timer.median_us(run, 11);
        cudaMemsetAsync(kout, 0xa5, n * 4, stream);
        cudaMemsetAsync(vout, 0xa5, n * 4, stream);
        run();
        unsigned long long wrong = probe_timing::mismatches(kout, kwant, n, bad, stream);
        if (pairs) wrong += probe_timing::mismatches(vout, vwant, n, bad, stream);
        printf("%s n=%9zu  %-40s %8.1f us  %.3fx cub  mismatches %llu  %s\n",
               pairs ? "pairs" : "keys ", n, name, us, us / cub_us, wrong, cudaGetErrorString(err));
      };
      if (pairs) {
        variant("v10 as shipped (launch_pairs)", v10::launch_pairs);
        variant("options: none", sort_pairs<0>);
        variant("options: prefetch values, per lane", sort_pairs<v06::kPrefetchValuesLanes>);
        variant("options: prefetch values, bulk", sort_pairs<v06::kPrefetchValuesBulk>);
        variant("options: stream keys", sort_pairs<v06::kStreamKeys>);
        variant("options: stream keys + bulk prefetch",
                sort_pairs<v06::kStreamKeys | v06::kPrefetchValuesBulk>);
      } else {
        variant("v10 as shipped (launch)", v10_keys);
        variant("options: none", sort_keys<0>);
        variant("options: stream keys", sort_keys<v06::kStreamKeys>);
      }
    }
  }
  return 0;
}
