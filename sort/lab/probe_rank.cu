// sort/lab/probe_rank.cu — a standalone probe for sort v07's one-block kernel: three ways to
// rank a warp's keys by one 8-bit digit, against v07's own, at the one-block shapes, against
// CUB's single tile. v07 ranks item by item: the ballot match, then the lanes' leader bumps the
// warp's counter with a shared atomic and shares the old value by a shuffle, and the next item
// waits for that (probe_small.cu: the one-block time grows by some 460 cycles per item and pass,
// more than its instructions). The candidates:
//   split:      all items' matches first, then the atomics back to back, then the shuffles;
//   split+sync: the same with __syncwarp() between the atomics (which orders them formally);
//   ballots:    no counter chain at all: a key's rank in its warp is the count of equal digits in
//               the warp's earlier items (masks from each item's 8 bit-ballots) plus the lanes
//               below it in its own item; the warp's per-digit totals go in by unordered shared
//               reductions.
// Timed as the benchmark times (blocking kernel, L2 flushed, median of 31); every output is
// compared with CUB's after a run into a poisoned buffer. Not part of the binary.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. sort/lab/probe_rank.cu common/device.cu \
//     -o probe_rank && ./probe_rank
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "common/device.h"
#include "common/probe_timer.cuh"
#include "scan/warp_scan.cuh"
#include "sort/lab/probe_common.cuh"
#include "sort/v07_small_n_dispatch.cuh"

using namespace ladder;
using namespace ladder::sort::tuning;
using namespace ladder::sort;

// Keys: uniform 32-bit, or (ties) each byte from 4 values, so that whole keys repeat (256
// distinct) and the values of pairs check that every pass is stable.
__global__ void fill(uint32_t* k, uint32_t* v, size_t n, uint32_t mask) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    k[i] = mix((i + 1) * 0x9e3779b97f4a7c15ull) & mask;
    v[i] = static_cast<uint32_t>(i);
  }
}

enum Mode { kV07 = 0, kSplit = 1, kSplitSync = 2, kBallots = 3 };
const char* kModeNames[] = {"v07", "split", "split+sync", "ballots"};

// The 8 bit-ballots of a warp's digits: b[k] = lanes whose digit has bit k set.
__device__ __forceinline__ void bit_ballots(unsigned d, unsigned (&b)[8]) {
#pragma unroll
  for (unsigned k = 0; k < 8; ++k) b[k] = __ballot_sync(0xffffffffu, (d >> k) & 1u);
}

// Lanes whose digit (as recorded in ballots b) equals d.
__device__ __forceinline__ unsigned lanes_with(const unsigned (&b)[8], unsigned d) {
  unsigned m = 0xffffffffu;
#pragma unroll
  for (unsigned k = 0; k < 8; ++k) m &= ((d >> k) & 1u) ? b[k] : ~b[k];
  return m;
}

// v07's one_block_sort_kernel with the ranking step chosen by MODE (the rest as v07).
template <unsigned THREADS, unsigned ITEMS, int MODE, bool PAIRS>
__global__ void __launch_bounds__(THREADS)
    rank_probe_kernel(const uint32_t* __restrict__ keys_in, const uint32_t* __restrict__ values_in,
                      uint32_t* __restrict__ keys_out, uint32_t* __restrict__ values_out,
                      unsigned n) {
  constexpr unsigned kWarps = THREADS / 32, kSlots = THREADS * ITEMS;
  constexpr unsigned kDigitWarps = v06::kDigits / 32;
  extern __shared__ __align__(16) unsigned char smem[];
  uint32_t* sk = reinterpret_cast<uint32_t*>(smem);
  auto warp_hist = reinterpret_cast<unsigned(*)[v06::kDigits]>(smem + size_t(kSlots) * 4);
  [[maybe_unused]] uint16_t* si =
      reinterpret_cast<uint16_t*>(smem + size_t(kSlots) * 4 + size_t(kWarps) * v06::kDigits * 4);
  __shared__ unsigned warp_sums[kDigitWarps];
  __shared__ int skip[v06::kPasses];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (threadIdx.x < v06::kPasses) skip[threadIdx.x] = 0;

  uint32_t key[ITEMS];
  [[maybe_unused]] uint16_t idx[ITEMS];
  const unsigned first = warp * ITEMS * 32 + lane;
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) {
    const unsigned e = first + j * 32;
    key[j] = e < n ? __ldg(keys_in + e) : 0xFFFFFFFFu;
    if constexpr (PAIRS) idx[j] = static_cast<uint16_t>(e);
  }

  for (unsigned pass = 0; pass < v06::kPasses; ++pass) {
    for (unsigned i = lane; i < v06::kDigits; i += 32) warp_hist[warp][i] = 0;
    __syncwarp();
    unsigned rank[ITEMS];
    if constexpr (MODE == kV07) {
#pragma unroll
      for (unsigned j = 0; j < ITEMS; ++j) {
        const unsigned d = v06::digit_at(key[j], pass);
        const unsigned peers = v06::match_digit(d);
        const unsigned upto = __popc(peers & v06::lanemask_le());
        const unsigned leader = 31 - __clz(peers);
        const unsigned old = v06::leader_fetch_add(&warp_hist[warp][d], upto, lane == leader);
        rank[j] = __shfl_sync(0xffffffffu, old, leader) + upto - 1;
      }
    } else if constexpr (MODE == kSplit || MODE == kSplitSync) {
      unsigned upto[ITEMS], leader[ITEMS], old[ITEMS];
#pragma unroll
      for (unsigned j = 0; j < ITEMS; ++j) {
        const unsigned peers = v06::match_digit(v06::digit_at(key[j], pass));
        upto[j] = __popc(peers & v06::lanemask_le());
        leader[j] = 31 - __clz(peers);
      }
#pragma unroll
      for (unsigned j = 0; j < ITEMS; ++j) {
        old[j] = v06::leader_fetch_add(&warp_hist[warp][v06::digit_at(key[j], pass)], upto[j],
                                       lane == leader[j]);
        if constexpr (MODE == kSplitSync) __syncwarp();
      }
#pragma unroll
      for (unsigned j = 0; j < ITEMS; ++j)
        rank[j] = __shfl_sync(0xffffffffu, old[j], leader[j]) + upto[j] - 1;
    } else {
      unsigned b[ITEMS][8], dig[ITEMS];
#pragma unroll
      for (unsigned j = 0; j < ITEMS; ++j) {
        dig[j] = v06::digit_at(key[j], pass);
        bit_ballots(dig[j], b[j]);
      }
#pragma unroll
      for (unsigned j = 0; j < ITEMS; ++j) {
        const unsigned peers = lanes_with(b[j], dig[j]);
        unsigned r = __popc(peers & v06::lanemask_le()) - 1;
#pragma unroll
        for (unsigned i = 0; i < j; ++i) r += __popc(lanes_with(b[i], dig[j]));
        rank[j] = r;
        if (lane == 31 - __clz(peers)) atomicAdd(&warp_hist[warp][dig[j]], __popc(peers));
      }
    }
    __syncthreads();
    const unsigned d = threadIdx.x;
    unsigned count = 0, incl = 0;
    if (d < v06::kDigits) {
#pragma unroll
      for (unsigned w = 0; w < kWarps; ++w) {
        const unsigned c = warp_hist[w][d];
        warp_hist[w][d] = count;
        count += c;
      }
      if (count == kSlots) skip[pass] = 1;
      incl = static_cast<unsigned>(scan::warp_scan_inclusive(static_cast<int32_t>(count)));
      if (lane == 31) warp_sums[warp] = incl;
    }
    __syncthreads();
    if (warp == 0) {
      const unsigned w = lane < kDigitWarps ? warp_sums[lane] : 0;
      const unsigned wi = static_cast<unsigned>(scan::warp_scan_inclusive(static_cast<int32_t>(w)));
      if (lane < kDigitWarps) warp_sums[lane] = wi;
    }
    __syncthreads();
    if (d < v06::kDigits) {
      const unsigned start = incl - count + (warp ? warp_sums[warp - 1] : 0);
#pragma unroll
      for (unsigned w = 0; w < kWarps; ++w) warp_hist[w][d] += start;
    }
    __syncthreads();
    if (skip[pass]) continue;
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j) {
      const unsigned pos = rank[j] + warp_hist[warp][v06::digit_at(key[j], pass)];
      sk[pos] = key[j];
      if constexpr (PAIRS) si[pos] = idx[j];
    }
    __syncthreads();
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j) {
      key[j] = sk[first + j * 32];
      if constexpr (PAIRS) idx[j] = si[first + j * 32];
    }
  }
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) {
    const unsigned e = first + j * 32;
    if (e < n) {
      keys_out[e] = key[j];
      if constexpr (PAIRS) values_out[e] = __ldg(values_in + idx[j]);
    }
  }
}

template <unsigned T, unsigned I, int MODE, bool PAIRS>
cudaError_t launch_probe(const uint32_t* ki, const uint32_t* vi, uint32_t* ko, uint32_t* vo,
                         size_t n, cudaStream_t s) {
  constexpr size_t kSmem = v07::one_block_smem<T, I, PAIRS>();
  const auto kernel = rank_probe_kernel<T, I, MODE, PAIRS>;
  static const cudaError_t set =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem));
  if (set != cudaSuccess) return set;
  kernel<<<1, T, kSmem, s>>>(ki, vi, ko, vo, static_cast<unsigned>(n));
  return cudaGetLastError();
}

uint32_t *kin, *vin, *kout, *vout, *kwant, *vwant;
unsigned long long* bad;
void* cub_ws;
size_t cub_ws_bytes = size_t(64) << 20;
cudaStream_t stream;
probe_timing::Timer* timer;

template <typename F>
float median_us(F&& run) {
  return timer->median_us(run, 31);
}

unsigned long long mismatches(const uint32_t* got, const uint32_t* want, size_t n) {
  return probe_timing::mismatches(got, want, n, bad, stream);
}

template <unsigned T, unsigned I, int MODE, bool PAIRS>
void shape(size_t n, float cub_us) {
  if (n > size_t(T) * I) return;
  cudaError_t err = cudaSuccess;
  auto run = [&] {
    const cudaError_t e =
        launch_probe<T, I, MODE, PAIRS>(kin, vin, kout, PAIRS ? vout : nullptr, n, stream);
    if (e != cudaSuccess) err = e;
  };
  const float us = median_us(run);
  cudaMemset(kout, 0xa5, n * 4);
  cudaMemset(vout, 0xa5, n * 4);
  run();
  cudaStreamSynchronize(stream);
  const unsigned long long b =
      mismatches(kout, kwant, n) + (PAIRS ? mismatches(vout, vwant, n) : 0);
  printf("  %s n=%5zu  %4ux%-2u %-10s %6.2f us  %.3fx cub  mismatches %llu  %s\n",
         PAIRS ? "pairs" : "keys ", n, T, I, kModeNames[MODE], us, us / cub_us, b,
         cudaGetErrorString(err));
}

template <unsigned T, unsigned I, bool PAIRS>
void modes(size_t n, float cub_us) {
  shape<T, I, kV07, PAIRS>(n, cub_us);
  shape<T, I, kSplit, PAIRS>(n, cub_us);
  shape<T, I, kSplitSync, PAIRS>(n, cub_us);
  shape<T, I, kBallots, PAIRS>(n, cub_us);
}

template <bool PAIRS>
void sizes() {
  for (size_t n : {1024, 2048, 3072, 4096, 4864, 6144}) {
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
    modes<256, 4, PAIRS>(n, cub_us);
    modes<256, 8, PAIRS>(n, cub_us);
    modes<512, 4, PAIRS>(n, cub_us);
    modes<512, 6, PAIRS>(n, cub_us);
    modes<512, 8, PAIRS>(n, cub_us);
    modes<512, 10, PAIRS>(n, cub_us);
    modes<512, 12, PAIRS>(n, cub_us);
    modes<1024, 4, PAIRS>(n, cub_us);
    modes<1024, 6, PAIRS>(n, cub_us);
  }
}

int main() {
  const size_t cap = 8192;
  for (uint32_t** p : {&kin, &vin, &kout, &vout, &kwant, &vwant}) cudaMalloc(p, cap * 4);
  cudaMalloc(&bad, 8);
  cudaMalloc(&cub_ws, cub_ws_bytes);
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  probe_timing::Timer t(stream);
  timer = &t;
  printf("%s\n", query_device(0).name.c_str());
  for (uint32_t mask : {0xffffffffu, 0x03030303u}) {
    printf("input: keys & 0x%08x\n", mask);
    fill<<<8, 256>>>(kin, vin, cap, mask);
    cudaDeviceSynchronize();
    sizes<false>();
    sizes<true>();
  }
  return 0;
}
