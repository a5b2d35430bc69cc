// sort/lab/probe_small.cu — a standalone probe for sort v07's one-block path: which block
// shape (threads x keys per thread) sorts n keys fastest, against CUB's SortKeys / SortPairs
// (its single-tile kernel up to 4,864 keys on sm_90), for n from 1,024 to 6,144; and a candidate
// one-block kernel that ranks with per-thread digit counters instead of ballots (CUB's
// BlockRadixRank idea), at 4-, 5- and 6-bit digits. Each sort is timed as the benchmark times
// it: the stream held by a blocking kernel while the start event, the launch and the stop event
// are enqueued, L2 flushed before, median of 31. Not part of the binary. Every output is
// compared with CUB's on the device after a run into a poisoned buffer, and launch errors are
// printed.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. sort/lab/probe_small.cu common/device.cu \
//     -o probe_small && ./probe_small
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
probe_timing::Timer* timer;

template <typename F>
float median_us(F&& run) {
  return timer->median_us(run, 31);
}

unsigned long long mismatches(const uint32_t* got, const uint32_t* want, size_t n) {
  return probe_timing::mismatches(got, want, n, bad, stream);
}

// ---- A candidate for the one-block path: ranking by counters instead of ballots ----------------
// CUB's single-tile kernel ranks with per-thread digit counters (BlockRadixRank): each thread
// counts its own keys' digits into its own column of a digit-major counter array, one exclusive
// scan over the whole array gives every (digit, thread) its first position, and a key's rank is
// that plus how many earlier keys of the same thread had its digit. No votes, no atomics: a few
// shared-memory operations a key and pass, for more passes (BITS-bit digits) and a scan of
// 2^BITS x T counters per pass. Keys are held blocked (thread t: slots t*ITEMS ... t*ITEMS +
// ITEMS - 1) so that (thread, item) order is input order and the sort is stable. Shared arrays
// carry one pad word per 32 (pad()), which keeps the raking scan and the blocked reloads free of
// bank conflicts. Slots past n hold 0xFFFFFFFF and are never stored.
__host__ __device__ constexpr unsigned pad(unsigned i) { return i + i / 32; }

template <unsigned T, unsigned ITEMS, unsigned BITS, bool PAIRS>
constexpr size_t counter_sort_smem() {
  return size_t(pad((1u << BITS) * T)) * 4 + size_t(pad(T * ITEMS)) * 4 +
         (PAIRS ? size_t(pad(T * ITEMS)) * 2 : 0);
}

template <unsigned T, unsigned ITEMS, unsigned BITS, bool PAIRS>
__global__ void __launch_bounds__(T)
    counter_sort_kernel(const uint32_t* __restrict__ keys_in,
                        const uint32_t* __restrict__ values_in, uint32_t* __restrict__ keys_out,
                        uint32_t* __restrict__ values_out, unsigned n) {
  constexpr unsigned kDigits = 1u << BITS, kPasses = (32 + BITS - 1) / BITS;
  constexpr unsigned kSlots = T * ITEMS, kCounters = kDigits * T, kSeg = kCounters / T;
  constexpr unsigned kWarps = T / 32;
  extern __shared__ __align__(16) unsigned char smem[];
  unsigned* cnt = reinterpret_cast<unsigned*>(smem);
  uint32_t* sk = cnt + pad(kCounters);
  [[maybe_unused]] uint16_t* si = reinterpret_cast<uint16_t*>(sk + pad(kSlots));
  __shared__ unsigned warp_sums[kWarps];
  const unsigned t = threadIdx.x, lane = t % 32, warp = t / 32;

  for (unsigned i = t; i < kSlots; i += T) {  // coalesced in, then read back blocked
    sk[pad(i)] = i < n ? __ldg(keys_in + i) : 0xFFFFFFFFu;
    if constexpr (PAIRS) si[pad(i)] = static_cast<uint16_t>(i);
  }
  __syncthreads();
  uint32_t key[ITEMS];
  [[maybe_unused]] uint16_t idx[ITEMS];
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) {
    key[j] = sk[pad(t * ITEMS + j)];
    if constexpr (PAIRS) idx[j] = si[pad(t * ITEMS + j)];
  }

  for (unsigned pass = 0; pass < kPasses; ++pass) {
    const unsigned shift = pass * BITS;
    // Count this thread's keys into its own column (no other thread touches it until the
    // barrier): local[j] = earlier keys of this thread with key j's digit.
#pragma unroll
    for (unsigned d = 0; d < kDigits; ++d) cnt[pad(d * T + t)] = 0;
    unsigned local[ITEMS];
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j) {
      unsigned* c = cnt + pad(((key[j] >> shift) & (kDigits - 1)) * T + t);
      local[j] = *c;
      *c = local[j] + 1;
    }
    __syncthreads();
    // Exclusive scan of all counters in digit-major order: each thread rakes kSeg consecutive
    // counters, the block scans the threads' sums, each thread writes its prefixes back.
    unsigned seg[kSeg], sum = 0;
#pragma unroll
    for (unsigned i = 0; i < kSeg; ++i) {
      seg[i] = cnt[pad(t * kSeg + i)];
      sum += seg[i];
    }
    const unsigned incl =
        static_cast<unsigned>(scan::warp_scan_inclusive(static_cast<int32_t>(sum)));
    if (lane == 31) warp_sums[warp] = incl;
    __syncthreads();
    if (warp == 0) {
      const unsigned w = lane < kWarps ? warp_sums[lane] : 0;
      const unsigned wi = static_cast<unsigned>(scan::warp_scan_inclusive(static_cast<int32_t>(w)));
      if (lane < kWarps) warp_sums[lane] = wi;
    }
    __syncthreads();
    unsigned run = incl - sum + (warp ? warp_sums[warp - 1] : 0);
#pragma unroll
    for (unsigned i = 0; i < kSeg; ++i) {
      cnt[pad(t * kSeg + i)] = run;
      run += seg[i];
    }
    __syncthreads();
    // Scatter by rank into shared memory, then read back blocked for the next pass.
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j) {
      const unsigned rank = cnt[pad(((key[j] >> shift) & (kDigits - 1)) * T + t)] + local[j];
      sk[pad(rank)] = key[j];
      if constexpr (PAIRS) si[pad(rank)] = idx[j];
    }
    __syncthreads();
    if (pass + 1 < kPasses) {
#pragma unroll
      for (unsigned j = 0; j < ITEMS; ++j) {
        key[j] = sk[pad(t * ITEMS + j)];
        if constexpr (PAIRS) idx[j] = si[pad(t * ITEMS + j)];
      }
    }
  }
  for (unsigned i = t; i < n; i += T) {  // coalesced out
    keys_out[i] = sk[pad(i)];
    if constexpr (PAIRS) values_out[i] = __ldg(values_in + si[pad(i)]);
  }
}

template <unsigned T, unsigned ITEMS, unsigned BITS, bool PAIRS>
cudaError_t launch_counter_sort(const uint32_t* keys_in, const uint32_t* values_in,
                                uint32_t* keys_out, uint32_t* values_out, size_t n,
                                cudaStream_t s) {
  constexpr size_t kSmem = counter_sort_smem<T, ITEMS, BITS, PAIRS>();
  const auto kernel = counter_sort_kernel<T, ITEMS, BITS, PAIRS>;
  static const cudaError_t set =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem));
  if (set != cudaSuccess) return set;
  kernel<<<1, T, kSmem, s>>>(keys_in, values_in, keys_out, values_out, static_cast<unsigned>(n));
  return cudaGetLastError();
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

template <unsigned T, unsigned I, unsigned BITS, bool PAIRS>
void counter_shape(size_t n, float cub_us) {
  if (n > size_t(T) * I) return;
  cudaError_t err = cudaSuccess;
  const float us = median_us([&] {
    const cudaError_t e =
        launch_counter_sort<T, I, BITS, PAIRS>(kin, vin, kout, PAIRS ? vout : nullptr, n, stream);
    if (e != cudaSuccess) err = e;
  });
  cudaMemset(kout, 0xa5, n * 4);  // the run that is checked starts from garbage
  cudaMemset(vout, 0xa5, n * 4);
  const cudaError_t e =
      launch_counter_sort<T, I, BITS, PAIRS>(kin, vin, kout, PAIRS ? vout : nullptr, n, stream);
  if (e != cudaSuccess) err = e;
  cudaStreamSynchronize(stream);
  const unsigned long long b =
      mismatches(kout, kwant, n) + (PAIRS ? mismatches(vout, vwant, n) : 0);
  printf("  %s n=%5zu  %4ux%-2u counters, %u-bit digits %6.2f us  %.3fx cub  mismatches %llu  %s\n",
         PAIRS ? "pairs" : "keys ", n, T, I, BITS, us, us / cub_us, b, cudaGetErrorString(err));
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
    counter_shape<256, 4, 4, PAIRS>(n, cub_us);
    counter_shape<256, 8, 4, PAIRS>(n, cub_us);
    counter_shape<256, 16, 4, PAIRS>(n, cub_us);
    counter_shape<256, 24, 4, PAIRS>(n, cub_us);
    counter_shape<256, 24, 6, PAIRS>(n, cub_us);
    counter_shape<256, 24, 5, PAIRS>(n, cub_us);
    counter_shape<512, 4, 4, PAIRS>(n, cub_us);
    counter_shape<512, 8, 4, PAIRS>(n, cub_us);
    counter_shape<512, 12, 4, PAIRS>(n, cub_us);
    counter_shape<512, 8, 5, PAIRS>(n, cub_us);
    counter_shape<512, 12, 5, PAIRS>(n, cub_us);
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
  fill<<<8, 256>>>(kin, vin, cap);
  cudaDeviceSynchronize();
  printf("%s\n", query_device(0).name.c_str());
  sizes<false>();
  sizes<true>();
  return 0;
}
