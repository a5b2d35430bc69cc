// sort/lab/probe_cluster.cu — a standalone probe: a small-input radix sort spread over a
// thread block cluster (Hopper's distributed shared memory) instead of one block. v07 sorts up
// to 6,144 keys in one block on one SM, and its time grows with the block's slots because that
// one SM is busy issuing the ballot ranking (probe_small.cu, probe_rank.cu); at 4,096 keys it
// stays about 1.05-1.10x CUB's single tile. Here CLUSTER blocks of THREADS x ITEMS slots each
// hold consecutive slices of the keys; every pass each block ranks its own keys as v07 does
// (ballot match, warp-private counters), publishes its 256 digit counts in its shared memory,
// and after a cluster barrier reads every block's counts (ld.shared::cluster) to place each key
// globally: digit start + the earlier blocks' count of the digit + the key's rank in its block.
// Each key is then written straight into the shared memory of the block that owns its new slot
// (st.shared::cluster), and a second cluster barrier ends the pass. Four 8-bit passes, a pass
// whose digit is the same for every slot skipped (as v07). Slot order (block, warp, item, lane)
// is input order, so every pass is stable.
// Timed as the benchmark times (blocking kernel, L2 flushed, median of 31), against CUB's
// SortKeys and v07's one-block shapes; every output is compared with CUB's after a run into a
// poisoned buffer. Not part of the binary.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. sort/lab/probe_cluster.cu common/device.cu \
//     -o probe_cluster && ./probe_cluster
#include <cooperative_groups.h>
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
using namespace ladder::sort;
using namespace ladder::sort::tuning;
namespace cg = cooperative_groups;

__global__ void fill(uint32_t* k, size_t n, uint32_t mask) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    k[i] = mix((i + 1) * 0x9e3779b97f4a7c15ull) & mask;
}

// Sorts keys_in[0, n) into keys_out, n <= CLUSTER * THREADS * ITEMS, one cluster of CLUSTER
// blocks (the grid). Block r owns global slots [r S, (r + 1) S), S = THREADS x ITEMS; within a
// block, item j of lane l of warp w is slot (w ITEMS + j) 32 + l (v07's layout). Slots past n
// hold 0xFFFFFFFF and sort last (stably: after a real 0xFFFFFFFF).
template <unsigned CLUSTER, unsigned THREADS, unsigned ITEMS>
__global__ void __cluster_dims__(CLUSTER, 1, 1) __launch_bounds__(THREADS)
    cluster_sort_kernel(const uint32_t* __restrict__ keys_in, uint32_t* __restrict__ keys_out,
                        unsigned n) {
  static_assert(THREADS == 256, "one thread per digit value");
  constexpr unsigned kWarps = THREADS / 32, kSlots = THREADS * ITEMS, kDigits = 256;
  __shared__ uint32_t sk[kSlots];                  // this block's slice, written by every block
  __shared__ unsigned warp_hist[kWarps][kDigits];  // per warp: count, then global start
  __shared__ unsigned block_count[kDigits];        // this block's count of each digit (read by all)
  __shared__ unsigned warp_sums[kWarps];
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned r = cluster.block_rank();
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32, d = threadIdx.x;

  uint32_t key[ITEMS];
  const unsigned first = warp * ITEMS * 32 + lane;
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) {
    const unsigned g = r * kSlots + first + j * 32;
    key[j] = g < n ? __ldg(keys_in + g) : 0xFFFFFFFFu;
  }

  for (unsigned pass = 0; pass < v06::kPasses; ++pass) {
    for (unsigned i = lane; i < kDigits; i += 32) warp_hist[warp][i] = 0;
    __syncwarp();
    unsigned rank[ITEMS];
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j) {  // v07's ranking within the warp
      const unsigned dj = v06::digit_at(key[j], pass);
      const unsigned peers = v06::match_digit(dj);
      const unsigned upto = __popc(peers & v06::lanemask_le());
      const unsigned leader = 31 - __clz(peers);
      const unsigned old = v06::leader_fetch_add(&warp_hist[warp][dj], upto, lane == leader);
      rank[j] = __shfl_sync(0xffffffffu, old, leader) + upto - 1;
    }
    __syncthreads();
    unsigned count = 0;  // thread d: the block's count of digit d; warps' counts -> offsets
#pragma unroll
    for (unsigned w = 0; w < kWarps; ++w) {
      const unsigned c = warp_hist[w][d];
      warp_hist[w][d] = count;
      count += c;
    }
    block_count[d] = count;
    cluster.sync();  // every block's counts are published; no block reads its slice any more
    unsigned total = 0, before = 0;
#pragma unroll
    for (unsigned q = 0; q < CLUSTER; ++q) {
      const unsigned c = *cluster.map_shared_rank(&block_count[d], q);
      total += c;
      before += q < r ? c : 0;
    }
    const bool skip = __syncthreads_or(total == CLUSTER * kSlots);  // one digit holds every slot
    const unsigned incl =
        static_cast<unsigned>(scan::warp_scan_inclusive(static_cast<int32_t>(total)));
    if (lane == 31) warp_sums[warp] = incl;
    __syncthreads();
    if (warp == 0) {
      const unsigned w = lane < kWarps ? warp_sums[lane] : 0;
      const unsigned wi = static_cast<unsigned>(scan::warp_scan_inclusive(static_cast<int32_t>(w)));
      if (lane < kWarps) warp_sums[lane] = wi;
    }
    __syncthreads();
    const unsigned start = incl - total + (warp ? warp_sums[warp - 1] : 0) + before;
#pragma unroll
    for (unsigned w = 0; w < kWarps; ++w) warp_hist[w][d] += start;
    __syncthreads();
    if (!skip) {
#pragma unroll
      for (unsigned j = 0; j < ITEMS; ++j) {
        const unsigned pos = rank[j] + warp_hist[warp][v06::digit_at(key[j], pass)];
        *cluster.map_shared_rank(&sk[pos % kSlots], pos / kSlots) = key[j];
      }
    }
    cluster.sync();  // every key is in its new slot (and every block is done with the counts)
    if (!skip) {
#pragma unroll
      for (unsigned j = 0; j < ITEMS; ++j) key[j] = sk[first + j * 32];
    }
  }
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) {
    const unsigned g = r * kSlots + first + j * 32;
    if (g < n) keys_out[g] = key[j];
  }
}

uint32_t *kin, *kout, *kwant;
unsigned long long* bad;
void* cub_ws;
size_t cub_ws_bytes = size_t(64) << 20;
cudaStream_t stream;
probe_timing::Timer* timer;

template <typename F>
float median_us(F&& run) {
  return timer->median_us(run, 31);
}

unsigned long long mismatches(size_t n) {
  return probe_timing::mismatches(kout, kwant, n, bad, stream);
}

template <typename Launch>
void report(const char* what, size_t n, float cub_us, Launch launch) {
  cudaError_t err = cudaSuccess;
  auto run = [&] {
    const cudaError_t e = launch();
    if (e != cudaSuccess) err = e;
  };
  const float us = median_us(run);
  cudaMemsetAsync(kout, 0xa5, n * 4, stream);
  run();
  const unsigned long long b = mismatches(n);
  printf("  n=%6zu  %-22s %6.2f us  %.3fx cub  mismatches %llu  %s\n", n, what, us, us / cub_us, b,
         cudaGetErrorString(err));
}

template <unsigned C, unsigned I>
void cluster_shape(size_t n, float cub_us) {
  if (n > size_t(C) * 256 * I || n * 2 <= size_t(C) * 256 * I) return;
  char name[64];
  snprintf(name, sizeof name, "cluster %u x 256x%u", C, I);
  report(name, n, cub_us, [&] {
    cluster_sort_kernel<C, 256, I><<<C, 256, 0, stream>>>(kin, kout, static_cast<unsigned>(n));
    return cudaGetLastError();
  });
}

template <unsigned T, unsigned I>
void one_block(size_t n, float cub_us) {
  if (n > size_t(T) * I) return;
  char name[64];
  snprintf(name, sizeof name, "v07 one block %ux%u", T, I);
  report(name, n, cub_us, [&] {
    return v07::launch_one_block<T, I, false>(kin, nullptr, kout, nullptr, n, stream);
  });
}

int main() {
  const size_t cap = 1 << 15;
  for (uint32_t** p : {&kin, &kout, &kwant}) cudaMalloc(p, cap * 4);
  cudaMalloc(&bad, 8);
  cudaMalloc(&cub_ws, cub_ws_bytes);
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  probe_timing::Timer t(stream);
  timer = &t;
  printf("%s\n", query_device(0).name.c_str());
  // Uniform keys, then keys whose bytes take 4 values each (many equal digits and whole keys).
  for (uint32_t mask : {0xffffffffu, 0x03030303u}) {
    printf("input: keys & 0x%08x\n", mask);
    fill<<<64, 256>>>(kin, cap, mask);
    for (size_t n : {1024, 2048, 3000, 4096, 6144, 8192, 12288, 16384, 32768}) {
      cub::DeviceRadixSort::SortKeys(cub_ws, cub_ws_bytes, kin, kwant, n, 0, 32, stream);
      const float cub_us = median_us([&] {
        cub::DeviceRadixSort::SortKeys(cub_ws, cub_ws_bytes, kin, kout, n, 0, 32, stream);
      });
      printf("n=%6zu  cub %6.2f us\n", n, cub_us);
      one_block<256, 4>(n, cub_us);
      one_block<512, 4>(n, cub_us);
      one_block<512, 8>(n, cub_us);
      one_block<512, 12>(n, cub_us);
      cluster_shape<2, 2>(n, cub_us);
      cluster_shape<2, 4>(n, cub_us);
      cluster_shape<2, 8>(n, cub_us);
      cluster_shape<4, 1>(n, cub_us);
      cluster_shape<4, 2>(n, cub_us);
      cluster_shape<4, 4>(n, cub_us);
      cluster_shape<4, 8>(n, cub_us);
      cluster_shape<8, 1>(n, cub_us);
      cluster_shape<8, 2>(n, cub_us);
      cluster_shape<8, 4>(n, cub_us);
      cluster_shape<8, 8>(n, cub_us);
    }
  }
  return 0;
}
