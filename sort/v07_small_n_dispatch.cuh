// sort/v07_small_n_dispatch.cuh — sort v07: a one-block radix sort in shared memory for small
// inputs, v06's one-sweep passes above.
// Technique: LSD radix sort with 2-bit digits inside one 1024-thread block: per pass, each
// thread counts its keys' digits in four 16-bit fields of one 64-bit word, one block-wide scan
// of those words ranks every key stably, and the keys are scattered within shared memory.
// Changes from v06: below the threshold, one launch and no global passes: v06 pays a status
// memset, a histogram launch and four pass launches however few keys there are.
// Remains (bottleneck): sixteen block-wide scans (barriers) per sort below the threshold; v06's
// bottleneck above it.
// Source: CUB's single-tile radix sort (dispatch_radix_sort.cuh, DeviceRadixSortSingleTileKernel;
// BlockRadixRank's packed digit counters); Blelloch's split radix sort (1990).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "common/device.h"
#include "common/registry.h"
#include "sort/v06_onesweep_ballot.cuh"

namespace ladder::sort::v07 {

inline constexpr VersionDoc kDoc = {
    7, "v07_small_n_dispatch", "One-block radix sort in shared memory for small n, v06 above",
    /*technique*/
    "Up to 16,384 keys (fewer where shared memory is smaller) one 1024-thread block sorts "
    "everything in shared memory: LSD radix sort, 2-bit digits, 16 passes. Per pass a thread "
    "counts its keys' four digit values in four 16-bit fields of one 64-bit word; one "
    "block-wide scan of those words gives each key its stable rank, and the keys move within "
    "shared memory. A pass whose digit is the same for every key is skipped. Pairs carry a "
    "16-bit input index and gather their values at the end. Above the threshold, v06.",
    /*changes*/
    "v06 on 1,024 keys still cleared its status words, ran its histogram and four one-sweep "
    "launches: about 37 us where CUB's single-tile kernel takes about 11 (H200). Here small "
    "inputs take one launch and never touch DRAM between passes.",
    /*remains*/
    "Below the threshold: the block-wide scans, two barriers each, sixteen times, and one SM "
    "doing all the work. Above it: v06's bottleneck.",
    /*source*/
    "CUB's single-tile path (dispatch_radix_sort.cuh, DeviceRadixSortSingleTileKernel; "
    "BlockRadixRank's packed counters); Blelloch, 'Prefix sums and their applications' (1990), "
    "split-based radix sort"};

inline constexpr unsigned kThreads = 1024;
inline constexpr unsigned kMaxItems = 16;  // keys per thread at most: 16-bit fields hold 16,384
inline constexpr size_t kMaxN = v06::kMaxN;

// One word of padding per 32: a thread's ITEMS consecutive slots (blocked order, ITEMS a power
// of two up to 16) fall in distinct banks, as do a warp's 32 consecutive slots (striped).
__device__ __forceinline__ unsigned padded(unsigned i) { return i + i / 32; }
__host__ __device__ constexpr size_t padded_slots(size_t slots) { return slots + slots / 32; }

// Dynamic shared memory of the one-block sort with ITEMS keys per thread.
constexpr size_t smem_bytes(unsigned items, bool pairs) {
  return padded_slots(size_t(kThreads) * items) * (pairs ? 6 : 4);  // key, and a 16-bit index
}

__device__ __forceinline__ unsigned long long warp_scan_inclusive_u64(unsigned long long v) {
  const unsigned lane = threadIdx.x % 32;
#pragma unroll
  for (unsigned d = 1; d < 32; d *= 2) {
    const unsigned long long up = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d) v += up;
  }
  return v;
}

// Sorts keys_in[0, n) into keys_out (and, with PAIRS, values_in into values_out stably by key)
// in one block of kThreads threads. n <= kThreads * ITEMS <= 16,384. Any alignment. Dynamic
// shared memory: smem_bytes(ITEMS, PAIRS). The slots past n hold 0xFFFFFFFF with indices past
// n, so they sort after every key (stable: after a real 0xFFFFFFFF too) and are never stored.
template <unsigned ITEMS, bool PAIRS>
__global__ void __launch_bounds__(kThreads)
    one_block_sort_kernel(const uint32_t* __restrict__ keys_in,
                          const uint32_t* __restrict__ values_in, uint32_t* __restrict__ keys_out,
                          uint32_t* __restrict__ values_out, unsigned n) {
  static_assert(ITEMS >= 1 && ITEMS <= kMaxItems && (ITEMS & (ITEMS - 1)) == 0, "ITEMS: 1..16");
  constexpr unsigned kSlots = kThreads * ITEMS;
  extern __shared__ uint32_t sk[];  // padded_slots(kSlots) keys, then as many 16-bit indices
  uint16_t* si = reinterpret_cast<uint16_t*>(sk + padded_slots(kSlots));
  // Two sets, alternating by pass: a pass's writes never meet the previous pass's reads, and one
  // barrier per pass is saved.
  __shared__ unsigned long long warp_totals_by_pass[2][kThreads / 32];
  const unsigned t = threadIdx.x, lane = t % 32, warp = t / 32;

#pragma unroll
  for (unsigned u = 0; u < ITEMS; ++u) {  // striped, coalesced loads
    const unsigned i = u * kThreads + t;
    sk[padded(i)] = i < n ? __ldg(keys_in + i) : 0xFFFFFFFFu;
    if constexpr (PAIRS) si[padded(i)] = static_cast<uint16_t>(i);
  }
  __syncthreads();
  uint32_t key[ITEMS];
  [[maybe_unused]] uint16_t idx[ITEMS];
#pragma unroll
  for (unsigned k = 0; k < ITEMS; ++k) {  // blocked: thread t holds slots t*ITEMS .. +ITEMS-1
    key[k] = sk[padded(t * ITEMS + k)];
    if constexpr (PAIRS) idx[k] = si[padded(t * ITEMS + k)];
  }

  for (unsigned bit = 0; bit < 32; bit += 2) {
    unsigned long long* warp_totals = warp_totals_by_pass[(bit / 2) % 2];
    unsigned long long mine = 0;  // four 16-bit counts: this thread's keys per digit value
#pragma unroll
    for (unsigned k = 0; k < ITEMS; ++k) mine += 1ull << (16 * ((key[k] >> bit) & 3));
    const unsigned long long inclusive = warp_scan_inclusive_u64(mine);
    if (lane == 31) warp_totals[warp] = inclusive;
    __syncthreads();
    if (warp == 0) warp_totals[lane] = warp_scan_inclusive_u64(warp_totals[lane]);
    __syncthreads();
    const unsigned long long total = warp_totals[kThreads / 32 - 1];
    unsigned long long before = inclusive - mine + (warp > 0 ? warp_totals[warp - 1] : 0ull);
    const unsigned c0 = total & 0xffff, c1 = (total >> 16) & 0xffff, c2 = (total >> 32) & 0xffff;
    if (c0 == kSlots || c1 == kSlots || c2 == kSlots || (c0 | c1 | c2) == 0)
      continue;  // every key (padding included) has the same digit: the order stands
    // Where each digit value starts, in the same four fields: 0, c0, c0 + c1, c0 + c1 + c2.
    before += (unsigned long long)c0 << 16 | (unsigned long long)(c0 + c1) << 32 |
              (unsigned long long)(c0 + c1 + c2) << 48;
#pragma unroll
    for (unsigned k = 0; k < ITEMS; ++k) {  // in order within the thread: stable
      const unsigned shift = 16 * ((key[k] >> bit) & 3);
      const unsigned pos = static_cast<unsigned>(before >> shift) & 0xffff;
      before += 1ull << shift;
      sk[padded(pos)] = key[k];
      if constexpr (PAIRS) si[padded(pos)] = idx[k];
    }
    __syncthreads();
#pragma unroll
    for (unsigned k = 0; k < ITEMS; ++k) {
      key[k] = sk[padded(t * ITEMS + k)];
      if constexpr (PAIRS) idx[k] = si[padded(t * ITEMS + k)];
    }
    // The next scatter comes after the next pass's barriers: no barrier needed here.
  }

  // Shared memory holds the keys in the order of the last pass that moved them (the barrier
  // after its scatter made them visible): store them striped.
#pragma unroll
  for (unsigned u = 0; u < ITEMS; ++u) {
    const unsigned i = u * kThreads + t;
    if (i < n) {
      keys_out[i] = sk[padded(i)];
      if constexpr (PAIRS) values_out[i] = __ldg(values_in + si[padded(i)]);
    }
  }
}

// The largest n the one-block sort takes on this device: kThreads * 16 where shared memory
// allows (every GPU from sm_80 for keys; pairs need 101 KB, which sm_86, sm_89 and sm_120 just
// have), else the largest power-of-two ITEMS that fits.
inline size_t small_max(bool pairs) {
  const size_t optin = current_smem_per_block_optin();
  const size_t reserved = sizeof(unsigned long long) * (kThreads / 32);  // the static part
  for (unsigned items = kMaxItems; items >= 1; items /= 2)
    if (smem_bytes(items, pairs) + reserved <= optin) return size_t(kThreads) * items;
  return 0;
}

template <unsigned ITEMS, bool PAIRS>
cudaError_t launch_one_block(const uint32_t* keys_in, const uint32_t* values_in, uint32_t* keys_out,
                             uint32_t* values_out, size_t n, cudaStream_t stream) {
  constexpr size_t kSmem = smem_bytes(ITEMS, PAIRS);
  auto kernel = one_block_sort_kernel<ITEMS, PAIRS>;
  if constexpr (kSmem > 48 * 1024) {
    const cudaError_t e =
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem));
    if (e != cudaSuccess) return e;
  }
  kernel<<<1, kThreads, kSmem, stream>>>(keys_in, values_in, keys_out, values_out,
                                         static_cast<unsigned>(n));
  return cudaGetLastError();
}

// The smallest ITEMS (a power of two) whose block holds n keys; n <= kThreads * kMaxItems.
template <bool PAIRS>
cudaError_t launch_small(const uint32_t* keys_in, const uint32_t* values_in, uint32_t* keys_out,
                         uint32_t* values_out, size_t n, cudaStream_t stream) {
  if (n <= kThreads * 1)
    return launch_one_block<1, PAIRS>(keys_in, values_in, keys_out, values_out, n, stream);
  if (n <= kThreads * 2)
    return launch_one_block<2, PAIRS>(keys_in, values_in, keys_out, values_out, n, stream);
  if (n <= kThreads * 4)
    return launch_one_block<4, PAIRS>(keys_in, values_in, keys_out, values_out, n, stream);
  if (n <= kThreads * 8)
    return launch_one_block<8, PAIRS>(keys_in, values_in, keys_out, values_out, n, stream);
  return launch_one_block<16, PAIRS>(keys_in, values_in, keys_out, values_out, n, stream);
}

// Every boundary of the dispatch on this device: the ITEMS steps, and the one-block limit.
inline std::vector<size_t> dispatch_bounds(bool pairs) {
  std::vector<size_t> bounds;
  for (size_t items = 1; items <= kMaxItems && kThreads * items <= small_max(pairs); items *= 2)
    bounds.push_back(kThreads * items);
  return bounds;
}
inline std::vector<size_t> dispatch_bounds_keys() { return dispatch_bounds(false); }
inline std::vector<size_t> dispatch_bounds_pairs() { return dispatch_bounds(true); }

inline size_t workspace_bytes(size_t n) { return v06::workspace_bytes(n); }
inline size_t workspace_bytes_pairs(size_t n) { return v06::workspace_bytes_pairs(n); }

// The sort launcher contract (sort/sort.h). ws: workspace_bytes(n) (unused below the threshold).
inline cudaError_t launch(const uint32_t* in, uint32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  if (n > small_max(false)) return v06::launch(in, out, n, ws, stream);
  return launch_small<false>(in, nullptr, out, nullptr, n, stream);
}

inline cudaError_t launch_pairs(const uint32_t* keys_in, const uint32_t* values_in,
                                uint32_t* keys_out, uint32_t* values_out, size_t n, void* ws,
                                cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  if (n > small_max(true))
    return v06::launch_pairs(keys_in, values_in, keys_out, values_out, n, ws, stream);
  return launch_small<true>(keys_in, values_in, keys_out, values_out, n, stream);
}

}  // namespace ladder::sort::v07
