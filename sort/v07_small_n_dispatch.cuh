// sort/v07_small_n_dispatch.cuh — sort v07: a one-block radix sort in shared memory for small
// inputs, v06's one-sweep passes above.
// Technique: size dispatch. Up to 6,144 keys, one block (256 threads up to 1,024 keys, 512 above,
// as few slots as hold n) runs all four 8-bit passes in shared memory, ranking with v06's ballot
// match; above that, v06.
// Changes from v06: below the threshold, one launch and no global passes: v06 pays a status
// memset, a histogram launch and four pass launches however few keys there are.
// Remains (bottleneck): below the threshold one SM, whose time grows with the block's slots (the
// ballot match's instructions per key: from about 3,000 keys CUB's single tile is faster);
// v06's above it.
// Source: CUB's single-tile radix sort (dispatch_radix_sort.cuh, DeviceRadixSortSingleTileKernel:
// one block, up to 4,864 keys on sm_90); v06's ranking.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "common/device.h"
#include "common/registry.h"
#include "scan/warp_scan.cuh"  // warp_scan_inclusive
#include "sort/v06_onesweep_ballot.cuh"

namespace ladder::sort::v07 {

inline constexpr VersionDoc kDoc = {
    7, "v07_small_n_dispatch", "One-block radix sort in shared memory for small n, v06 above",
    /*technique*/
    "Up to 6,144 keys one block sorts everything in shared memory (256 threads up to 1,024 "
    "keys, 512 threads above, with the fewest keys per thread that hold n): four 8-bit passes, "
    "each ranking the keys with v06's ballot match and warp-private counters, a "
    "block scan of the 256 digit counts, and a scatter within shared memory. A pass whose digit "
    "is the same for every key (padding included) is skipped. Pairs carry a 16-bit input index "
    "and gather their values at the end. Above the threshold, v06.",
    /*changes*/
    "v06 on 1,024 keys still cleared its status words, ran its histogram and four one-sweep "
    "launches, several times the time of CUB's single-tile kernel (the chapter's sweep). Here a "
    "small input takes one launch and never goes back to DRAM between passes.",
    /*remains*/
    "Below the threshold: one SM does all the work, and its time grows with the block's slots: "
    "the ballot match costs some 30 instructions a key and pass, where CUB's single-tile kernel "
    "counts 6-bit digits, so from about 3,000 keys on CUB's one block is faster. Above it: "
    "v06's bottleneck.",
    /*source*/
    "CUB's single-tile path (dispatch_radix_sort.cuh, DeviceRadixSortSingleTileKernel: one "
    "block, up to 4,864 keys on sm90); v06's ranking"};

inline constexpr unsigned kMaxSmallThreads = 1024;
inline constexpr size_t kSmallMax = 512 * 12;  // 6,144 keys: the largest one-block step
inline constexpr size_t kMaxN = v06::kMaxN;

// Dynamic shared memory of one_block_sort_kernel<THREADS, ITEMS, PAIRS>: the keys, the warps'
// digit counters and, for pairs, a 16-bit input index per key.
template <unsigned THREADS, unsigned ITEMS, bool PAIRS>
constexpr size_t one_block_smem() {
  return size_t(THREADS) * ITEMS * 4 + size_t(THREADS / 32) * v06::kDigits * 4 +
         (PAIRS ? size_t(THREADS) * ITEMS * 2 : 0);
}

// Sorts keys_in[0, n) into keys_out (and, with PAIRS, values_in into values_out stably by key)
// in one block of THREADS threads (256, 512 or 1,024); n <= THREADS * ITEMS. Any alignment.
// Item j of lane l of warp w is element (w * ITEMS + j) * 32 + l (v06's tile layout). The slots
// past n hold 0xFFFFFFFF with indices past n, so they sort after every key (stably: after a real
// 0xFFFFFFFF too) and are never stored. Dynamic shared memory: one_block_smem<...>() bytes.
// Threads 0..255 own one digit value each in the digit loops; more threads only shorten each
// warp's chain of ranking steps (ITEMS per pass), which is what a one-block sort waits on.
// EARLY_VALUES (pairs; sort v12): each thread loads its slots' values with its keys, into
// registers, and at the end they go through the key buffer, so the gather reads shared memory;
// without it the gather reads values_in, a DRAM round trip after the last pass.
template <unsigned THREADS, unsigned ITEMS, bool PAIRS, bool EARLY_VALUES = false>
__global__ void __launch_bounds__(THREADS)
    one_block_sort_kernel(const uint32_t* __restrict__ keys_in,
                          const uint32_t* __restrict__ values_in, uint32_t* __restrict__ keys_out,
                          uint32_t* __restrict__ values_out, unsigned n) {
  static_assert(THREADS % 256 == 0 && THREADS <= kMaxSmallThreads, "256, 512 or 1,024 threads");
  constexpr unsigned kWarps = THREADS / 32, kSlots = THREADS * ITEMS;
  constexpr unsigned kDigitWarps = v06::kDigits / 32;
  extern __shared__ __align__(16) unsigned char smem[];
  uint32_t* sk = reinterpret_cast<uint32_t*>(smem);
  auto warp_hist = reinterpret_cast<unsigned(*)[v06::kDigits]>(smem + size_t(kSlots) * 4);
  [[maybe_unused]] uint16_t* si =
      reinterpret_cast<uint16_t*>(smem + size_t(kSlots) * 4 + size_t(kWarps) * v06::kDigits * 4);
  __shared__ unsigned warp_sums[kDigitWarps];
  __shared__ int skip[v06::kPasses];  // pass p moves nothing: one digit holds every slot
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (threadIdx.x < v06::kPasses) skip[threadIdx.x] = 0;

  static_assert(PAIRS || !EARLY_VALUES, "values only with pairs");
  uint32_t key[ITEMS];
  [[maybe_unused]] uint16_t idx[ITEMS];
  [[maybe_unused]] uint32_t val[EARLY_VALUES ? ITEMS : 1];
  const unsigned first = warp * ITEMS * 32 + lane;
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) {  // coalesced per item
    const unsigned e = first + j * 32;
    key[j] = e < n ? __ldg(keys_in + e) : 0xFFFFFFFFu;
    if constexpr (PAIRS) idx[j] = static_cast<uint16_t>(e);
    if constexpr (EARLY_VALUES) val[j] = e < n ? __ldg(values_in + e) : 0u;
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
    // Thread d < 256: digit d's count over the warps, turned into per-warp offsets, then the
    // block's start of digit d (a scan over the first 8 warps; the others wait at the barriers).
    // The scan is v06::digit_exclusive_scan's, inline: calling it compiles to other machine code
    // here, and these shapes were measured in this form.
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

  if constexpr (EARLY_VALUES) {  // input slot e's value to sk[e], then gathered from there
    __syncthreads();             // every thread has read its keys and indices out of sk and si
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j) sk[first + j * 32] = val[j];
    __syncthreads();
  }
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) {
    const unsigned e = first + j * 32;
    if (e < n) {
      keys_out[e] = key[j];
      if constexpr (EARLY_VALUES)
        values_out[e] = sk[idx[j]];
      else if constexpr (PAIRS)
        values_out[e] = __ldg(values_in + idx[j]);
    }
  }
}

template <unsigned THREADS, unsigned ITEMS, bool PAIRS, bool EARLY_VALUES = false>
cudaError_t launch_one_block(const uint32_t* keys_in, const uint32_t* values_in, uint32_t* keys_out,
                             uint32_t* values_out, size_t n, cudaStream_t stream) {
  constexpr size_t kSmem = one_block_smem<THREADS, ITEMS, PAIRS>();
  const auto kernel = one_block_sort_kernel<THREADS, ITEMS, PAIRS, EARLY_VALUES>;
  // The dynamic bytes plus the static ones may pass the default 48 KB: opt in, once per process.
  static const cudaError_t set =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem));
  if (set != cudaSuccess) return set;
  kernel<<<1, THREADS, kSmem, stream>>>(keys_in, values_in, keys_out, values_out,
                                        static_cast<unsigned>(n));
  return cudaGetLastError();
}

// One block for n <= kSmallMax keys, with the fewest slots that hold n. The time of the one-block
// sort grows with its slots (threads x keys per thread), not with the keys per thread alone
// (timed over every shape: 256 x 12, 512 x 6 and 1,024 x 3 take the same time), so the
// steps are 512 or 1,024 slots apart; 512 threads from 1,536 keys on were a little faster than
// 256 with twice the keys each. EARLY_VALUES: see one_block_sort_kernel.
template <bool PAIRS, bool EARLY_VALUES = false>
cudaError_t launch_small(const uint32_t* keys_in, const uint32_t* values_in, uint32_t* keys_out,
                         uint32_t* values_out, size_t n, cudaStream_t stream) {
  if (n <= 256 * 4)
    return launch_one_block<256, 4, PAIRS, EARLY_VALUES>(keys_in, values_in, keys_out, values_out,
                                                         n, stream);
  if (n <= 512 * 3)
    return launch_one_block<512, 3, PAIRS, EARLY_VALUES>(keys_in, values_in, keys_out, values_out,
                                                         n, stream);
  if (n <= 512 * 4)
    return launch_one_block<512, 4, PAIRS, EARLY_VALUES>(keys_in, values_in, keys_out, values_out,
                                                         n, stream);
  if (n <= 512 * 6)
    return launch_one_block<512, 6, PAIRS, EARLY_VALUES>(keys_in, values_in, keys_out, values_out,
                                                         n, stream);
  if (n <= 512 * 8)
    return launch_one_block<512, 8, PAIRS, EARLY_VALUES>(keys_in, values_in, keys_out, values_out,
                                                         n, stream);
  if (n <= 512 * 10)
    return launch_one_block<512, 10, PAIRS, EARLY_VALUES>(keys_in, values_in, keys_out, values_out,
                                                          n, stream);
  return launch_one_block<512, 12, PAIRS, EARLY_VALUES>(keys_in, values_in, keys_out, values_out, n,
                                                        stream);
}

// Every boundary of the dispatch: the one-block steps, the last of them the one-block limit.
inline std::vector<size_t> dispatch_bounds() {
  return {256 * 4, 512 * 3, 512 * 4, 512 * 6, 512 * 8, 512 * 10, kSmallMax};
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
