// sort/v07_small_n_dispatch.cuh — sort v07: a one-block radix sort in shared memory for small
// inputs, v06's one-sweep passes above.
// Technique: size dispatch. Up to 6,144 keys, one 256-thread block runs all four 8-bit passes in
// shared memory, ranking with v06's ballot match; above that, v06.
// Changes from v06: below the threshold, one launch and no global passes: v06 pays a status
// memset, a histogram launch and four pass launches however few keys there are.
// Remains (bottleneck): one SM and four ranking rounds below the threshold; v06's above it.
// Source: CUB's single-tile radix sort (dispatch_radix_sort.cuh, DeviceRadixSortSingleTileKernel).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "common/device.h"
#include "common/registry.h"
#include "sort/radix_rank.cuh"  // block_exclusive_scan
#include "sort/v06_onesweep_ballot.cuh"

namespace ladder::sort::v07 {

inline constexpr VersionDoc kDoc = {
    7, "v07_small_n_dispatch", "One-block radix sort in shared memory for small n, v06 above",
    /*technique*/
    "Up to 6,144 keys one 256-thread block sorts everything in shared memory: four 8-bit "
    "passes, each ranking the keys with v06's ballot match and warp-private counters, a "
    "block scan of the 256 digit counts, and a scatter within shared memory. A pass whose digit "
    "is the same for every key (padding included) is skipped. Pairs carry a 16-bit input index "
    "and gather their values at the end. Above the threshold, v06.",
    /*changes*/
    "v06 on 1,024 keys still cleared its status words, ran its histogram and four one-sweep "
    "launches, several times the time of CUB's single-tile kernel (the chapter's sweep). Here a "
    "small input takes one launch and never goes back to DRAM between passes.",
    /*remains*/
    "Below the threshold: one SM does all the work, four ranking rounds with their barriers. "
    "Above it: v06's bottleneck.",
    /*source*/
    "CUB's single-tile path (dispatch_radix_sort.cuh, DeviceRadixSortSingleTileKernel: one "
    "block, up to 4,864 keys on sm90); v06's ranking; an earlier try of this rung (2-bit digits "
    "in 1,024 threads, 16 passes) was slower, see results/README.md"};

inline constexpr unsigned kThreads = 256;  // one thread per digit value in the digit loops
inline constexpr unsigned kWarps = kThreads / 32;
inline constexpr unsigned kMaxItems = 24;  // keys per thread: 6,144 keys, 44 KB of shared memory
inline constexpr size_t kSmallMax = size_t(kThreads) * kMaxItems;
inline constexpr size_t kMaxN = v06::kMaxN;

// Sorts keys_in[0, n) into keys_out (and, with PAIRS, values_in into values_out stably by key)
// in one block of kThreads threads; n <= kThreads * ITEMS. Any alignment. Item j of lane l of
// warp w is element (w * ITEMS + j) * 32 + l (v06's tile layout). The slots past n hold
// 0xFFFFFFFF with indices past n, so they sort after every key (stably: after a real 0xFFFFFFFF
// too) and are never stored. Static shared memory: 6 * kThreads * ITEMS bytes (pairs) + 8 KB.
template <unsigned ITEMS, bool PAIRS>
__global__ void __launch_bounds__(kThreads)
    one_block_sort_kernel(const uint32_t* __restrict__ keys_in,
                          const uint32_t* __restrict__ values_in, uint32_t* __restrict__ keys_out,
                          uint32_t* __restrict__ values_out, unsigned n) {
  constexpr unsigned kSlots = kThreads * ITEMS;
  __shared__ uint32_t sk[kSlots];
  __shared__ uint16_t si[PAIRS ? kSlots : 2];
  __shared__ unsigned warp_hist[kWarps][v06::kDigits];
  __shared__ unsigned warp_sums[kWarps];
  __shared__ int skip[v06::kPasses];  // pass p moves nothing: one digit holds every slot
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (threadIdx.x < v06::kPasses) skip[threadIdx.x] = 0;

  uint32_t key[ITEMS];
  [[maybe_unused]] uint16_t idx[ITEMS];
  const unsigned first = warp * ITEMS * 32 + lane;
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) {  // coalesced per item
    const unsigned e = first + j * 32;
    key[j] = e < n ? __ldg(keys_in + e) : 0xFFFFFFFFu;
    if constexpr (PAIRS) idx[j] = static_cast<uint16_t>(e);
  }

  for (unsigned pass = 0; pass < v06::kPasses; ++pass) {
    // Rank within the warp (v06): the lanes holding the same digit, the highest of them bumps
    // the warp's counter for the digit by their number.
    for (unsigned i = lane; i < v06::kDigits; i += 32) warp_hist[warp][i] = 0;
    __syncwarp();
    unsigned rank[ITEMS];
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j) {
      const unsigned d = v06::digit_at(key[j], pass);
      const unsigned peers = v06::match_digit(d);
      const unsigned upto = __popc(peers & v06::lanemask_le());
      const unsigned leader = 31 - __clz(peers);
      const unsigned old = v06::leader_fetch_add(&warp_hist[warp][d], upto, lane == leader);
      rank[j] = __shfl_sync(0xffffffffu, old, leader) + upto - 1;
    }
    __syncthreads();
    // Thread d: digit d's count over the warps, turned into per-warp offsets, then the block's
    // start of digit d.
    const unsigned d = threadIdx.x;
    unsigned count = 0;
#pragma unroll
    for (unsigned w = 0; w < kWarps; ++w) {
      const unsigned c = warp_hist[w][d];
      warp_hist[w][d] = count;
      count += c;
    }
    if (count == kSlots) skip[pass] = 1;
    const unsigned start = radix::block_exclusive_scan(count, warp_sums);  // three barriers
#pragma unroll
    for (unsigned w = 0; w < kWarps; ++w) warp_hist[w][d] += start;
    __syncthreads();
    if (skip[pass]) continue;  // block-uniform: the order stands
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
    // The next scatter comes after the next pass's barriers: none needed here.
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

template <unsigned ITEMS, bool PAIRS>
cudaError_t launch_one_block(const uint32_t* keys_in, const uint32_t* values_in, uint32_t* keys_out,
                             uint32_t* values_out, size_t n, cudaStream_t stream) {
  one_block_sort_kernel<ITEMS, PAIRS><<<1, kThreads, 0, stream>>>(
      keys_in, values_in, keys_out, values_out, static_cast<unsigned>(n));
  return cudaGetLastError();
}

// The smallest of 4, 8, 16, 24 keys per thread whose block holds n keys; n <= kSmallMax.
template <bool PAIRS>
cudaError_t launch_small(const uint32_t* keys_in, const uint32_t* values_in, uint32_t* keys_out,
                         uint32_t* values_out, size_t n, cudaStream_t stream) {
  if (n <= kThreads * 4)
    return launch_one_block<4, PAIRS>(keys_in, values_in, keys_out, values_out, n, stream);
  if (n <= kThreads * 8)
    return launch_one_block<8, PAIRS>(keys_in, values_in, keys_out, values_out, n, stream);
  if (n <= kThreads * 16)
    return launch_one_block<16, PAIRS>(keys_in, values_in, keys_out, values_out, n, stream);
  return launch_one_block<24, PAIRS>(keys_in, values_in, keys_out, values_out, n, stream);
}

// Every boundary of the dispatch: the steps of keys per thread, and the one-block limit.
inline std::vector<size_t> dispatch_bounds() {
  return {kThreads * 4, kThreads * 8, kThreads * 16, kSmallMax};
}

inline size_t workspace_bytes(size_t n) { return v06::workspace_bytes(n); }
inline size_t workspace_bytes_pairs(size_t n) { return v06::workspace_bytes_pairs(n); }

// The sort launcher contract (sort/sort.h). ws: workspace_bytes(n) (unused below the threshold).
inline cudaError_t launch(const uint32_t* in, uint32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  if (n > kSmallMax) return v06::launch(in, out, n, ws, stream);
  return launch_small<false>(in, nullptr, out, nullptr, n, stream);
}

inline cudaError_t launch_pairs(const uint32_t* keys_in, const uint32_t* values_in,
                                uint32_t* keys_out, uint32_t* values_out, size_t n, void* ws,
                                cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  if (n > kSmallMax)
    return v06::launch_pairs(keys_in, values_in, keys_out, values_out, n, ws, stream);
  return launch_small<true>(keys_in, values_in, keys_out, values_out, n, stream);
}

}  // namespace ladder::sort::v07
