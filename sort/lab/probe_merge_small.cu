// sort/lab/probe_merge_small.cu — a standalone probe: a one-block *comparison* sort for small
// inputs, against v07's one-block radix sort and CUB. v07 ranks 8-bit digits with ballots, and
// from about 3,000 keys CUB's single tile (6-bit digits, counters) is faster; at 4,096 keys v07
// stays about 1.10x CUB on both Hoppers, and the radix variants tried so far (CUB-style counters,
// reordered ranking, a thread block cluster) did not close it. Here the keys are sorted without
// digits at all:
//   1. each thread takes ITEMS keys (a strided, coalesced load: the order keys arrive in does not
//      matter to a sort), and each warp sorts its 32 x ITEMS keys with a bitonic network held in
//      registers: stages whose partner is in the same thread are min/max pairs, the others a
//      warp shuffle (__shfl_xor_sync) and one min or max. The network is the "flip" form (the
//      first stage of each merge compares i with i ^ (k - 1)), so every comparator is ascending
//      and no stage needs a direction select;
//   2. the block merges the sorted warp runs pairwise through shared memory, log2(warps) rounds:
//      each thread finds where its ITEMS outputs start by a merge-path binary search (Green,
//      McColl & Bader, "GPU merge path", 2012; CUB's BlockMergeSort) and merges ITEMS keys
//      serially; two buffers, so a round needs one barrier.
// Pairs sort (key << 32 | input index) as one 64-bit value, so equal keys keep their input order
// (stable), and gather their values at the end.
// Timed as the benchmark times (blocking kernel, L2 flushed, median of 31), against CUB's
// SortKeys/SortPairs, v07's one-block shapes and v10; every output is compared with CUB's after a
// run into a poisoned buffer. Not part of the binary.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. sort/lab/probe_merge_small.cu common/device.cu \
//     -o probe_merge_small && ./probe_merge_small
#include <cub/device/device_radix_sort.cuh>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "common/device.h"
#include "common/probe_timer.cuh"
#include "sort/lab/probe_common.cuh"
#include "sort/v07_small_n_dispatch.cuh"
#include "sort/v10_narrow_status.cuh"
#include "sort/v11_merge_small.cuh"

using namespace ladder;
using namespace ladder::sort;
using namespace ladder::sort::tuning;

__global__ void iota(uint32_t* k, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    k[i] = static_cast<uint32_t>(i);
}

__global__ void fill(uint32_t* k, size_t n, uint32_t mask) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    k[i] = mix((i + 1) * 0x9e3779b97f4a7c15ull) & mask;
}

// One block sorts n <= THREADS x ITEMS keys (PAIRS: and their values). Dynamic shared memory:
// 2 x THREADS x ITEMS x sizeof(T).
template <unsigned THREADS, unsigned ITEMS, bool PAIRS>
__global__ void __launch_bounds__(THREADS)
    merge_sort_kernel(const uint32_t* __restrict__ keys_in, const uint32_t* __restrict__ values_in,
                      uint32_t* __restrict__ keys_out, uint32_t* __restrict__ values_out,
                      unsigned n) {
  using T = typename std::conditional<PAIRS, unsigned long long, uint32_t>::type;
  constexpr unsigned kN = THREADS * ITEMS, kWarpKeys = 32 * ITEMS;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  T* buf = reinterpret_cast<T*>(smem_raw);
  const unsigned tid = threadIdx.x, lane = tid % 32;
  constexpr T kPad = ~T(0);

  T k[ITEMS];
#pragma unroll
  for (unsigned i = 0; i < ITEMS; ++i) {
    const unsigned g = i * THREADS + tid;
    if constexpr (PAIRS)
      k[i] = g < n ? (T(keys_in[g]) << 32 | g) : kPad;
    else
      k[i] = g < n ? keys_in[g] : kPad;
  }
  v11::warp_bitonic_sort<ITEMS>(k, lane);  // v11's network, here also on 64-bit values

  unsigned cur = 0;
#pragma unroll 1
  for (unsigned w = kWarpKeys; w < kN; w *= 2) {
    T* b = buf + cur * kN;
#pragma unroll
    for (unsigned i = 0; i < ITEMS; ++i) b[tid * ITEMS + i] = k[i];
    __syncthreads();
    const unsigned start = tid * ITEMS, base = start & ~(2 * w - 1), diag = start - base;
    const T* A = b + base;
    const T* B = A + w;
    unsigned lo = diag > w ? diag - w : 0, hi = diag < w ? diag : w;
    while (lo < hi) {
      const unsigned mid = (lo + hi) / 2;
      if (A[mid] <= B[diag - 1 - mid])
        lo = mid + 1;
      else
        hi = mid;
    }
    unsigned ai = lo, bi = diag - lo;
    T ka = ai < w ? A[ai] : kPad, kb = bi < w ? B[bi] : kPad;
#pragma unroll
    for (unsigned i = 0; i < ITEMS; ++i) {
      const bool take_a = ai < w && (bi >= w || ka <= kb);
      k[i] = take_a ? ka : kb;
      if (take_a) {
        ++ai;
        ka = ai < w ? A[ai] : kPad;
      } else {
        ++bi;
        kb = bi < w ? B[bi] : kPad;
      }
    }
    cur ^= 1;
  }

#pragma unroll
  for (unsigned i = 0; i < ITEMS; ++i) {
    const unsigned g = tid * ITEMS + i;
    if (g < n) {
      if constexpr (PAIRS) {
        keys_out[g] = static_cast<uint32_t>(k[i] >> 32);
        values_out[g] = values_in[static_cast<uint32_t>(k[i])];
      } else {
        keys_out[g] = k[i];
      }
    }
  }
}

template <unsigned THREADS, unsigned ITEMS, bool PAIRS>
cudaError_t launch_merge(const uint32_t* ki, const uint32_t* vi, uint32_t* ko, uint32_t* vo,
                         size_t n, cudaStream_t s) {
  constexpr size_t kSmem = 2 * size_t(THREADS) * ITEMS * (PAIRS ? 8 : 4);
  const auto kernel = merge_sort_kernel<THREADS, ITEMS, PAIRS>;
  static const cudaError_t set =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem));
  if (set != cudaSuccess) return set;
  kernel<<<1, THREADS, kSmem, s>>>(ki, vi, ko, vo, static_cast<unsigned>(n));
  return cudaGetLastError();
}

uint32_t *kin, *vin, *kout, *vout, *kwant, *vwant;
unsigned long long* bad;
void* ws;
size_t ws_bytes = size_t(64) << 20;
cudaStream_t stream;
probe_timing::Timer* timer;
bool pairs_mode = false;

template <typename Launch>
void report(const char* what, size_t n, float cub_us, Launch launch) {
  cudaError_t err = cudaSuccess;
  auto run = [&] {
    const cudaError_t e = launch();
    if (e != cudaSuccess) err = e;
  };
  const float us = timer->median_us(run, 31);
  cudaMemsetAsync(kout, 0xa5, n * 4, stream);
  cudaMemsetAsync(vout, 0xa5, n * 4, stream);
  run();
  unsigned long long b = probe_timing::mismatches(kout, kwant, n, bad, stream);
  if (pairs_mode) b += probe_timing::mismatches(vout, vwant, n, bad, stream);
  printf("  n=%6zu  %-24s %7.2f us  %.3fx cub  mismatches %llu  %s\n", n, what, us, us / cub_us, b,
         cudaGetErrorString(err));
}

template <unsigned T, unsigned I, bool P>
void merge_shape(size_t n, float cub_us) {
  if (n > size_t(T) * I || n * 2 <= size_t(T) * I) return;
  if constexpr (2 * size_t(T) * I * (P ? 8 : 4) > 227 * 1024)
    return;  // two buffers must fit
  else {
    char name[64];
    snprintf(name, sizeof name, "merge %ux%u", T, I);
    report(name, n, cub_us, [&] { return launch_merge<T, I, P>(kin, vin, kout, vout, n, stream); });
  }
}

template <unsigned T, unsigned I, bool P>
void v07_shape(size_t n, float cub_us) {
  if (n > size_t(T) * I || n * 2 <= size_t(T) * I) return;
  char name[64];
  snprintf(name, sizeof name, "v07 one block %ux%u", T, I);
  report(name, n, cub_us, [&] {
    return v07::launch_one_block<T, I, P>(kin, P ? vin : nullptr, kout, P ? vout : nullptr, n,
                                          stream);
  });
}

// v11's kernel (threads any multiple of 32) with ITEMS keys per thread and the fewest warps.
template <unsigned I>
void v11_shape(size_t n, float cub_us) {
  const unsigned threads = v11::merge_threads(n, I);
  if (threads > 1024 || v11::merge_smem(threads, I) > current_smem_per_block_optin()) return;
  char name[64];
  snprintf(name, sizeof name, "v11 kernel %ux%u", threads, I);
  report(name, n, cub_us, [&] { return v11::launch_merge<I>(kin, kout, n, threads, stream); });
  snprintf(name, sizeof name, "v11 unpadded %ux%u", threads, I);
  report(name, n, cub_us,
         [&] { return v11::launch_merge<I, false>(kin, kout, n, threads, stream); });
}

void v11_keys(size_t n, float cub_us) {
  report("v11 (as registered)", n, cub_us, [&] { return v11::launch(kin, kout, n, ws, stream); });
  v11_shape<4>(n, cub_us);
  v11_shape<8>(n, cub_us);
  v11_shape<16>(n, cub_us);
}

template <bool P>
void sizes() {
  for (size_t n : {100, 512, 1024, 2048, 3000, 4096, 5000, 6144, 7000, 8192, 10000, 12288, 16384,
                   20000, 32768}) {
    if (P)
      cub::DeviceRadixSort::SortPairs(ws, ws_bytes, kin, kwant, vin, vwant, n, 0, 32, stream);
    else
      cub::DeviceRadixSort::SortKeys(ws, ws_bytes, kin, kwant, n, 0, 32, stream);
    const float cub_us = timer->median_us(
        [&] {
          if (P)
            cub::DeviceRadixSort::SortPairs(ws, ws_bytes, kin, kout, vin, vout, n, 0, 32, stream);
          else
            cub::DeviceRadixSort::SortKeys(ws, ws_bytes, kin, kout, n, 0, 32, stream);
        },
        31);
    printf("n=%6zu  cub %7.2f us\n", n, cub_us);
    report("v10 (as shipped)", n, cub_us, [&] {
      return P ? v10::launch_pairs(kin, vin, kout, vout, n, ws, stream)
               : v10::launch(kin, kout, n, ws, stream);
    });
    if (!P) v11_keys(n, cub_us);
    v07_shape<256, 4, P>(n, cub_us);
    v07_shape<512, 8, P>(n, cub_us);
    v07_shape<512, 12, P>(n, cub_us);
    merge_shape<128, 8, P>(n, cub_us);
    merge_shape<256, 4, P>(n, cub_us);
    merge_shape<256, 8, P>(n, cub_us);
    merge_shape<128, 16, P>(n, cub_us);
    merge_shape<512, 4, P>(n, cub_us);
    merge_shape<256, 16, P>(n, cub_us);
    merge_shape<512, 8, P>(n, cub_us);
    merge_shape<1024, 4, P>(n, cub_us);
    merge_shape<512, 16, P>(n, cub_us);
    merge_shape<1024, 8, P>(n, cub_us);
    merge_shape<1024, 16, P>(n, cub_us);
  }
}

int main() {
  const size_t cap = 1 << 16;
  for (uint32_t** p : {&kin, &vin, &kout, &vout, &kwant, &vwant}) cudaMalloc(p, cap * 4);
  cudaMalloc(&bad, 8);
  cudaMalloc(&ws, ws_bytes);
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  probe_timing::Timer t(stream);
  timer = &t;
  printf("%s\n", query_device(0).name.c_str());
  fill<<<64, 256>>>(vin, cap, 0xffffffffu);
  if (getenv("PROBE_KEYS_ONLY")) {  // v11's shapes on uniform, few and sorted keys only
    for (uint32_t mask : {0xffffffffu, 0x03030303u, 0u}) {
      if (mask)
        fill<<<64, 256>>>(kin, cap, mask);
      else
        iota<<<64, 256>>>(kin, cap);
      printf("keys, input: %s\n", mask ? "mask" : "sorted");
      pairs_mode = false;
      sizes<false>();
    }
    return 0;
  }
  // Uniform keys, then keys whose bytes take 4 values each (many equal keys: pairs must stay
  // stable, and CUB's output is stable).
  for (uint32_t mask : {0xffffffffu, 0x03030303u}) {
    fill<<<64, 256>>>(kin, cap, mask);
    printf("keys, input: keys & 0x%08x\n", mask);
    pairs_mode = false;
    sizes<false>();
    printf("pairs, input: keys & 0x%08x\n", mask);
    pairs_mode = true;
    sizes<true>();
  }
  return 0;
}
