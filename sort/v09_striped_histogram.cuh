// sort/v09_striped_histogram.cuh — sort v09: v08 with a histogram pass whose counters are
// striped over the lanes, so its shared atomics never meet in a bank.
// Technique: the histogram of all four digits keeps 32 copies of its 1,024 counters per block,
// copy c of counter k at k * 32 + c; lane l adds into copy l, which always lies in bank l. A warp's
// 32 atomics thus hit 32 banks whatever the digits: random digits no longer collide in a bank,
// and equal digits (sorted or low-entropy keys) no longer queue on one counter. One 1,024-thread
// block per SM holds the 128 KB of copies; the block adds its copies up at the end.
// Changes from v08: only the histogram kernel (v06's: one copy per block, several lanes to a bank
// per warp atomic on random digits, and runs of equal digits handled by a warp vote).
// Remains (bottleneck): v08's passes (the ballots of the ranking; on few distinct keys, the
// look-back of short-circuited tiles).
// Source: the histogram chapter's lane striping (histogram_u8 v05). CUB's DeviceRadixSort
// histogram can split its counters into NUM_PARTS copies chosen by lane (bins[pass][bin][part],
// agent_radix_sort_histogram.cuh), but its sm_80 and sm_90 tunings use one part, 128 threads x
// 16 keys (tuning_radix_sort.cuh, CCCL 3.0): on Hopper it pays the conflicts v09 removes.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/device.h"
#include "common/registry.h"
#include "sort/v06_onesweep_ballot.cuh"
#include "sort/v07_small_n_dispatch.cuh"
#include "sort/v08_short_circuit.cuh"

namespace ladder::sort::v09 {

inline constexpr VersionDoc kDoc = {
    9, "v09_striped_histogram", "v08 with a lane-striped histogram pass",
    /*technique*/
    "The histogram pass counts all four digits into 32 copies of its counters per block, copy c "
    "of counter k at k x 32 + c, each lane adding into its own copy, which always lies in its "
    "own shared-memory bank: a warp's atomics never wait on one another, whatever the digits. "
    "One 1,024-thread block per SM (128 KB of counters), 8 keys a thread a step with 16-byte "
    "loads; the copies are added up at the end (skewed, so the reads are conflict-free too). "
    "Where a block cannot have 128 KB of shared memory, 16 copies (64 KB); below that, v06's "
    "histogram. The passes are v08's.",
    /*changes*/
    "v08 ran v06's histogram: one copy of the counters per block, so the 32 lanes' atomics of a "
    "warp land on random banks (several lanes to a bank on average) and equal digits on one "
    "counter, which v06 worked around with a warp vote per key.",
    /*remains*/
    "v08's passes: the ballots of the ranking on uniform keys, the look-back of short-circuited "
    "tiles on few distinct keys.",
    /*source*/
    "The histogram chapter's lane striping (histogram_u8 v05); CUB's DeviceRadixSort histogram "
    "(agent_radix_sort_histogram.cuh: NUM_PARTS lane-chosen copies, one part in its sm_80 and "
    "sm_90 tunings); v08's passes"};

using v06::digit_at;
using v06::kDigits;
using v06::kPasses;
inline constexpr size_t kMaxN = v08::kMaxN;
inline constexpr unsigned kHistThreads = 1024, kHistItems = 8;

// Counts every digit of every key into hist[pass][digit] (kPasses x 256 uint32, zeroed) with
// COPIES copies of the block's counters, laid out so that copy c of counter (p, d) sits at
// ((p * 256 + d) * COPIES + c): lane l adds into copy l % COPIES, and with 32 copies each lane
// owns one shared-memory bank, so no two lanes of a warp ever wait on each other, whatever the
// digits (histogram_u8 v05's lane striping). 16 copies: lanes l and l + 16 share a copy and may
// meet in a bank. Each thread counts ITEMS consecutive keys a step (16-byte loads when the keys
// are 16-byte aligned). Dynamic shared memory: kPasses x 256 x COPIES x 4 bytes (128 KB at 32).
// Replaces v06's histogram, whose four shared atomics a key into one copy queued on bank
// conflicts (and, for sorted keys, on equal digits).
template <unsigned THREADS, unsigned ITEMS, unsigned COPIES>
__global__ void __launch_bounds__(THREADS)
    striped_histogram_kernel(const uint32_t* __restrict__ keys, size_t n, unsigned* hist) {
  static_assert(COPIES == 16 || COPIES == 32, "a copy per lane or per half-warp");
  extern __shared__ unsigned h[];  // kPasses * kDigits * COPIES
  for (unsigned i = threadIdx.x; i < kPasses * kDigits * COPIES; i += THREADS) h[i] = 0;
  __syncthreads();
  const unsigned copy = threadIdx.x % COPIES;
  const bool aligned16 = reinterpret_cast<uintptr_t>(keys) % 16 == 0;
  constexpr size_t kChunk = size_t(THREADS) * ITEMS;
  for (size_t base = blockIdx.x * kChunk; base < n; base += gridDim.x * kChunk) {
    const size_t first = base + size_t(threadIdx.x) * ITEMS;
    uint32_t key[ITEMS];
    bool valid[ITEMS];
    if (base + kChunk <= n && aligned16 && ITEMS % 4 == 0) {
      const uint4* v = reinterpret_cast<const uint4*>(keys + first);
#pragma unroll
      for (unsigned q = 0; q < ITEMS / 4; ++q) {
        const uint4 x = v[q];
        key[4 * q] = x.x;
        key[4 * q + 1] = x.y;
        key[4 * q + 2] = x.z;
        key[4 * q + 3] = x.w;
      }
#pragma unroll
      for (unsigned j = 0; j < ITEMS; ++j) valid[j] = true;
    } else {
#pragma unroll
      for (unsigned j = 0; j < ITEMS; ++j) {
        valid[j] = first + j < n;
        key[j] = valid[j] ? keys[first + j] : 0;
      }
    }
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j) {
      if (!valid[j]) continue;
#pragma unroll
      for (unsigned p = 0; p < kPasses; ++p)
        atomicAdd(&h[(p * kDigits + digit_at(key[j], p)) * COPIES + copy], 1u);
    }
  }
  __syncthreads();
  for (unsigned i = threadIdx.x; i < kPasses * kDigits; i += THREADS) {
    unsigned sum = 0;
#pragma unroll
    for (unsigned c = 0; c < COPIES; ++c) sum += h[i * COPIES + (c + i) % COPIES];  // skewed
    if (sum) atomicAdd(hist + i, sum);
  }
}

// Launches striped_histogram_kernel with COPIES copies, one resident grid of 1,024-thread blocks.
template <unsigned COPIES>
cudaError_t launch_striped(const uint32_t* keys, size_t n, unsigned* hist, cudaStream_t stream) {
  constexpr size_t kSmem = size_t(kPasses) * kDigits * COPIES * 4;
  const auto kernel = striped_histogram_kernel<kHistThreads, kHistItems, COPIES>;
  static const cudaError_t set =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem));
  if (set != cudaSuccess) return set;
  static const size_t resident = resident_grid((const void*)kernel, kHistThreads, kSmem);
  const unsigned grid = static_cast<unsigned>(
      std::clamp<size_t>(ceil_div(n, size_t(kHistThreads) * kHistItems), 1, resident));
  kernel<<<grid, kHistThreads, kSmem, stream>>>(keys, n, hist);
  return cudaGetLastError();
}

// hist (kPasses x 256 counts, zeroed) of keys[0, n): the striped histogram with as many copies
// as a block of this device may hold (32: 128 KB, else 16: 64 KB), else v06's.
inline cudaError_t striped_histogram(const uint32_t* keys, size_t n, unsigned* hist,
                                     cudaStream_t stream) {
  const size_t optin = current_smem_per_block_optin();
  if (optin >= size_t(kPasses) * kDigits * 32 * 4) return launch_striped<32>(keys, n, hist, stream);
  if (optin >= size_t(kPasses) * kDigits * 16 * 4) return launch_striped<16>(keys, n, hist, stream);
  return v08::v06_histogram(keys, n, hist, stream);
}

inline std::vector<size_t> dispatch_bounds() { return v08::dispatch_bounds(); }
inline size_t workspace_bytes(size_t n) { return v08::workspace_bytes(n); }
inline size_t workspace_bytes_pairs(size_t n) { return v08::workspace_bytes_pairs(n); }

// The sort launcher contract (sort/sort.h). ws: workspace_bytes(n) (unused below the threshold).
inline cudaError_t launch(const uint32_t* in, uint32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  if (n > v07::kSmallMax)
    return v08::launch_passes<false>(in, nullptr, out, nullptr, n, ws, stream, striped_histogram);
  return v07::launch_small<false>(in, nullptr, out, nullptr, n, stream);
}

inline cudaError_t launch_pairs(const uint32_t* keys_in, const uint32_t* values_in,
                                uint32_t* keys_out, uint32_t* values_out, size_t n, void* ws,
                                cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  if (n > v07::kSmallMax)
    return v08::launch_passes<true>(keys_in, values_in, keys_out, values_out, n, ws, stream,
                                    striped_histogram);
  return v07::launch_small<true>(keys_in, values_in, keys_out, values_out, n, stream);
}

}  // namespace ladder::sort::v09
