// sort/v11_merge_small.cuh — sort v11: small inputs sorted by comparisons, not digits: one block
// sorts each warp's keys with a bitonic network in registers, then merges the warps' runs by
// merge path in shared memory; v10 above.
// Technique: up to 16,384 keys, one block of 32 to 1,024 threads holding ITEMS keys each (4 up to
// 2,048 keys, 8 up to 8,192, 16 above). (1) A strided, coalesced load (a sort does not care which
// thread holds which key). (2) Each warp sorts its 32 x ITEMS keys with a bitonic network: the
// comparators between keys of one thread are a min and a max in registers, the others one warp
// shuffle (__shfl_xor_sync) and one min or max; written in the "flip" form (the first stage of
// each merge compares position p with p ^ (k - 1)) every comparator is ascending, so no stage
// selects a direction. (3) log2(warps) rounds merge the sorted runs pairwise: each thread finds
// where its ITEMS outputs begin with a merge-path binary search and merges ITEMS keys; two
// shared buffers, one barrier a round. (4) Each thread stores its ITEMS consecutive outputs.
// Changes from v10: below 16,384 keys no digits at all. v07's one-block radix sort spends eight
// ballots and a block scan on every key in each of four passes, and from about 3,000 keys CUB's
// single tile was faster; between 6,145 and 16,384 keys v10 ran the whole one-sweep machinery
// (a histogram, four passes, their look-back) for a few tiles.
// Remains (bottleneck): one SM, whose time follows the merge rounds: each thread's merge is a
// chain of dependent shared-memory loads (the binary search, then ITEMS steps), so a round costs
// about that chain's latency, and a block of 16,384 keys runs five of them. Above 16,384 keys,
// and where a GPU cannot give one block the shared memory (merge_fits), v10.
// Pairs are not here: a stable comparison sort must compare (key, input index), 64 bits, and that
// measured slower than v07's radix block at 4,096 pairs.
// Source: merge path (O. Green, R. McColl and D. A. Bader, "GPU Merge Path: A GPU Merging
// Algorithm", ICS 2012) as in CUB's BlockMergeSort and DeviceMergeSort; bitonic sorting networks
// (K. E. Batcher, "Sorting networks and their applications", 1968), here held in registers and
// exchanged through warp shuffles.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/device.h"
#include "common/registry.h"
#include "sort/v10_narrow_status.cuh"

namespace ladder::sort::v11 {

inline constexpr VersionDoc kDoc = {
    11, "v11_merge_small", "Small inputs by a one-block merge sort (warp bitonic + merge path)",
    /*technique*/
    "Up to 16,384 keys one block of up to 1,024 threads holds 4, 8 or 16 keys per thread: each "
    "warp sorts its keys with a bitonic network in registers (in-thread comparators as min/max, "
    "the others through warp shuffles; the 'flip' form, every comparator ascending), then the "
    "block merges the warps' sorted runs pairwise in shared memory, each thread finding its "
    "slice by a merge-path binary search and merging it serially, one barrier a round. Above "
    "16,384 keys (or where the GPU gives a block less shared memory than the merge needs), v10.",
    /*changes*/
    "v07's one-block radix sort ranks every key with eight ballots in each of four passes, "
    "slower than CUB's single tile from about 3,000 keys; between 6,145 and 16,384 keys v10 ran "
    "its histogram and four one-sweep passes for a handful of tiles. A comparison sort in one "
    "block needs neither.",
    /*remains*/
    "One SM: each merge round is a chain of dependent shared-memory loads per thread (search, "
    "then one load per output), five rounds at 16,384 keys. Pairs stay on v07/v10: a stable "
    "comparison sort compares 64-bit (key, index) values, which measured slower.",
    /*source*/
    "Merge path (Green, McColl & Bader, \"GPU Merge Path\", ICS 2012) as in CUB's "
    "BlockMergeSort; bitonic sorting networks (Batcher, \"Sorting networks and their "
    "applications\", 1968) in registers and warp shuffles"};

inline constexpr size_t kMaxN = v10::kMaxN;
inline constexpr size_t kMergeMax = 16384;  // 1,024 threads x 16 keys

// One comparator: a gets the smaller, b the larger.
template <typename T>
__device__ __forceinline__ void cas(T& a, T& b) {
  const T lo = min(a, b), hi = max(a, b);
  a = lo;
  b = hi;
}

// Sorts the warp's 32 x ITEMS keys ascending, in registers: key i of lane l is position
// l x ITEMS + i. Bitonic sort in the "flip" form: for each merge size kk, position p is first
// compared with p ^ (kk - 1), then with p ^ j for j = kk/4 ... 1, the lower position keeping the
// smaller key. Positions in one thread (distance < ITEMS) are swapped in registers; otherwise the
// partner is lane ^ (distance / ITEMS), reached with one shuffle per key. ITEMS: a power of 2.
// T: any type with min, max and __shfl_xor_sync (uint32_t here; the probe also sorts 64-bit
// (key, index) values with it).
template <unsigned ITEMS, typename T>
__device__ __forceinline__ void warp_bitonic_sort(T (&k)[ITEMS], unsigned lane) {
  static_assert((ITEMS & (ITEMS - 1)) == 0, "ITEMS must be a power of 2");
#pragma unroll
  for (unsigned kk = 2; kk <= 32 * ITEMS; kk *= 2) {
    if (kk <= ITEMS) {
#pragma unroll
      for (unsigned i = 0; i < ITEMS; ++i)
        if ((i ^ (kk - 1)) > i) cas(k[i], k[i ^ (kk - 1)]);
    } else {
      // p ^ (kk - 1) = (lane ^ (kk/ITEMS - 1)) x ITEMS + (ITEMS - 1 - i): send the mirrored key.
      const unsigned lx = kk / ITEMS - 1;
      const bool lower = (lane & (kk / ITEMS / 2)) == 0;
      T r[ITEMS];
#pragma unroll
      for (unsigned i = 0; i < ITEMS; ++i)
        r[i] = __shfl_xor_sync(0xffffffffu, k[ITEMS - 1 - i], lx);
#pragma unroll
      for (unsigned i = 0; i < ITEMS; ++i) k[i] = lower ? min(k[i], r[i]) : max(k[i], r[i]);
    }
#pragma unroll
    for (unsigned j = kk / 4; j > 0; j /= 2) {
      if (j >= ITEMS) {
        const unsigned lx = j / ITEMS;
        const bool lower = (lane & lx) == 0;
#pragma unroll
        for (unsigned i = 0; i < ITEMS; ++i) {
          const T r = __shfl_xor_sync(0xffffffffu, k[i], lx);
          k[i] = lower ? min(k[i], r) : max(k[i], r);
        }
      } else {
#pragma unroll
        for (unsigned i = 0; i < ITEMS; ++i)
          if ((i & j) == 0) cas(k[i], k[i | j]);
      }
    }
  }
}

// Sorts keys_in[0, n) into keys_out, n <= blockDim.x x ITEMS; one block (the grid), blockDim.x a
// multiple of 32, at most 1,024. Slots past n hold 0xFFFFFFFF, which sorts last and is never
// stored (indistinguishable from a real 0xFFFFFFFF key, which is fine for keys alone). Dynamic
// shared memory: merge_smem(blockDim.x, ITEMS) bytes. keys_in and keys_out may have any
// alignment; an output aligned to 16 bytes is stored four keys at a time.
template <unsigned ITEMS, bool PAD = (ITEMS >= 16)>
__global__ void __launch_bounds__(1024)
    merge_sort_kernel(const uint32_t* __restrict__ keys_in, uint32_t* __restrict__ keys_out,
                      unsigned n) {
  extern __shared__ __align__(16) uint32_t merge_buf[];
  const unsigned threads = blockDim.x, tid = threadIdx.x, lane = tid % 32;
  const unsigned total = threads * ITEMS;  // slots, a multiple of a warp's run
  constexpr uint32_t kPad = 0xffffffffu;
  // PAD: slot s lives at word s + s / 32. A thread writes ITEMS consecutive slots, so unpadded
  // the warp's stores land ITEMS words apart, in 32 / ITEMS banks, and the merge's reads, about
  // ITEMS / 2 slots apart per lane on sorted input, collide the same way; one word per 32 skews
  // them over all 32 banks. It pays at 16 keys a thread (a third less time at 16,384 sorted keys
  // on the H100); at 4 and 8 the index arithmetic on every access costs more than the conflicts,
  // so those shapes go unpadded (sort/lab/LAB_NOTES.md).
  const auto at = [](unsigned s) { return PAD ? s + s / 32 : s; };
  const unsigned stride = at(total);

  uint32_t k[ITEMS];
#pragma unroll
  for (unsigned i = 0; i < ITEMS; ++i) {
    const unsigned g = i * threads + tid;
    k[i] = g < n ? keys_in[g] : kPad;
  }
  warp_bitonic_sort<ITEMS>(k, lane);

  // Runs of w sorted slots, merged pairwise: the pair at `base` is A = [base, base + a_len) and
  // B = [base + a_len, base + a_len + b_len) (the last pair may be short, or have no B). Each
  // thread produces slots [tid x ITEMS, + ITEMS), inside one pair since 2w > ITEMS.
  unsigned cur = 0;
#pragma unroll 1
  for (unsigned w = 32 * ITEMS; w < total; w *= 2) {
    uint32_t* buf = merge_buf + cur * stride;
#pragma unroll
    for (unsigned i = 0; i < ITEMS; ++i) buf[at(tid * ITEMS + i)] = k[i];
    __syncthreads();
    const unsigned start = tid * ITEMS, base = start & ~(2 * w - 1), diag = start - base;
    const unsigned a_len = min(w, total - base), b_len = min(w, total - base - a_len);
    const unsigned b0 = base + a_len;  // A = slots [base, b0), B = [b0, b0 + b_len)
    // Merge path: the number of A's keys among the pair's first `diag` outputs, equal keys
    // taken from A first.
    unsigned lo = diag > b_len ? diag - b_len : 0, hi = min(diag, a_len);
    while (lo < hi) {
      const unsigned mid = (lo + hi) / 2;
      if (buf[at(base + mid)] <= buf[at(b0 + diag - 1 - mid)])
        lo = mid + 1;
      else
        hi = mid;
    }
    unsigned ai = lo, bi = diag - lo;
    uint32_t ka = ai < a_len ? buf[at(base + ai)] : kPad, kb = bi < b_len ? buf[at(b0 + bi)] : kPad;
#pragma unroll
    for (unsigned i = 0; i < ITEMS; ++i) {
      const bool take_a = ai < a_len && (bi >= b_len || ka <= kb);
      k[i] = take_a ? ka : kb;
      if (take_a) {
        ++ai;
        ka = ai < a_len ? buf[at(base + ai)] : kPad;
      } else {
        ++bi;
        kb = bi < b_len ? buf[at(b0 + bi)] : kPad;
      }
    }
    cur ^= 1;  // the next round writes the other buffer: no second barrier
  }

  const unsigned g0 = tid * ITEMS;
  if (ITEMS % 4 == 0 && reinterpret_cast<uintptr_t>(keys_out) % 16 == 0 && g0 + ITEMS <= n) {
#pragma unroll
    for (unsigned i = 0; i < ITEMS; i += 4)
      *reinterpret_cast<uint4*>(keys_out + g0 + i) = make_uint4(k[i], k[i + 1], k[i + 2], k[i + 3]);
  } else {
#pragma unroll
    for (unsigned i = 0; i < ITEMS; ++i)
      if (g0 + i < n) keys_out[g0 + i] = k[i];
  }
}

// Dynamic shared memory of merge_sort_kernel<ITEMS> with `threads` threads: two buffers of the
// block's slots, each with one padding word per 32.
constexpr size_t merge_smem(unsigned threads, unsigned items) {
  return 2 * (size_t(threads) * items + size_t(threads) * items / 32) * 4;
}

// One block of `threads` (a multiple of 32, 32 to 1,024) x ITEMS slots; n <= threads x ITEMS.
template <unsigned ITEMS, bool PAD = (ITEMS >= 16)>
cudaError_t launch_merge(const uint32_t* in, uint32_t* out, size_t n, unsigned threads,
                         cudaStream_t stream) {
  const auto kernel = merge_sort_kernel<ITEMS, PAD>;
  // The largest block's bytes may pass the default 48 KB: opt in once per process, as far as the
  // GPU allows (merge_fits keeps larger blocks away).
  static const cudaError_t set =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                           int(std::min(merge_smem(1024, ITEMS), current_smem_per_block_optin())));
  if (set != cudaSuccess) return set;
  kernel<<<1, threads, merge_smem(threads, ITEMS), stream>>>(in, out, static_cast<unsigned>(n));
  return cudaGetLastError();
}

// The keys per thread for n keys (n <= kMergeMax): 4 up to 2,048 keys, 8 up to 8,192, 16 above
// (1,024 threads hold 16,384); the threads are then the fewest whole warps that hold n. From
// the probe on both GPUs: 4 and 8 keys tie up to about 3,000 keys, 512 x 8 beats 1,024 x 4 at
// 4,096 keys, and 1,024 x 8 beats 512 x 16 at 8,192 (sort/lab/LAB_NOTES.md).
inline unsigned merge_items(size_t n) { return n <= 2048 ? 4 : n <= 8192 ? 8 : 16; }
inline unsigned merge_threads(size_t n, unsigned items) {
  return static_cast<unsigned>((n + 32 * items - 1) / (32 * items) * 32);
}

// Whether this GPU gives one block the shared memory the merge needs for n keys (16,384 keys
// take 132 KB, padding included: an sm_86, sm_89 or sm_120 block can have at most 99 KB). Where it
// does not, v10 sorts them.
inline bool merge_fits(size_t n) {
  const unsigned items = merge_items(n);
  return merge_smem(merge_threads(n, items), items) <= current_smem_per_block_optin();
}

// The sort launcher contract (sort/sort.h). ws: v10's workspace_bytes(n) (unused up to
// kMergeMax keys).
inline cudaError_t launch(const uint32_t* in, uint32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  if (n > kMergeMax || !merge_fits(n)) return v10::launch(in, out, n, ws, stream);
  const unsigned items = merge_items(n), threads = merge_threads(n, items);
  if (items == 4) return launch_merge<4>(in, out, n, threads, stream);
  if (items == 8) return launch_merge<8>(in, out, n, threads, stream);
  return launch_merge<16>(in, out, n, threads, stream);
}

inline size_t workspace_bytes(size_t n) { return v10::workspace_bytes(n); }

// Every boundary of the dispatch: the keys-per-thread steps, the merge's limit, then v10's
// switch to 64-bit look-back words.
inline std::vector<size_t> dispatch_bounds() {
  return {32 * 4, 512 * 4, 1024 * 8, kMergeMax, v10::kNarrowMax};
}

}  // namespace ladder::sort::v11
