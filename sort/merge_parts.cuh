// sort/merge_parts.cuh — the top rungs' road past 2^32 - 1 keys: sort parts, then merge them.
// Technique: every radix pass of the ladder keeps 32-bit counts, starts and positions (they cost
// shared memory and instructions in the hot loops, and 2^32 - 1 keys are 16 GB). Above that, the
// input is cut into parts of one size (the last one smaller), a multiple of kTile and at most
// 2^32 - 1 keys, each part is sorted by the rung's own 32-bit road into a buffer, and the sorted
// parts are merged in pairs with 64-bit indices, one pass over the keys a round (ceil(log2(parts))
// rounds: one for up to 2 x (2^32 - 256) keys). A merge block owns kTile consecutive outputs.
// Where its first output's diagonal crosses the merge path is found by a binary search over the
// two runs in global memory, in two levels: one search every kGroup blocks over the whole pair,
// then each block's search between its group's two. The block then loads its share of both runs
// into shared memory; each thread finds its own kItems outputs by the same search there, merges
// them sequentially, and the block stores them in order. kItems is odd (21), so a warp's lanes,
// kItems words apart in shared memory, fall on 32 different banks. Ties take the left (earlier)
// run first, so the merge is stable and pairs keep their values' input order.
// Changes (the keys' v17 and the pairs' v16 above their 32-bit roads' kMaxN): those rungs took at
// most 2^32 - 1 keys; now they take what the GPU holds. Nothing below 2^32 keys changes.
// Remains (bottleneck): the merge round is one more read and write of every key (and value), on
// top of each part's passes, and it runs short of the copy ceiling's rate (sort/lab/LAB_NOTES.md,
// "The merge round, measured and rebuilt", has the H200's figures). A road with 64-bit positions
// in the passes would not pay it.
// Source: S. Odeh, O. Green, Z. Mwassi, O. Shmueli and Y. Birk, "Merge Path - Parallel Merging
// Made Simple", IPDPS Workshops 2012; O. Green, R. McColl and D. A. Bader, "GPU Merge Path: A GPU
// Merging Algorithm", ICS 2012 (the diagonal searches, as in v03); S. Baxter, "Modern GPU"
// (NVIDIA Research, 2013; a block's share staged in shared memory).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/device.h"
#include "sort/merge_parts.h"  // the shape, the bound, the cut and the workspace

namespace ladder::sort::parts {

// The merge path of the stable merge of a[0, na) and b[0, nb): how many of its first `diag`
// outputs come from a (ties from a). Works on global or shared memory.
template <typename Index>
__device__ __forceinline__ Index merge_split(const uint32_t* a, Index na, const uint32_t* b,
                                             Index nb, Index diag) {
  Index lo = diag > nb ? diag - nb : 0, hi = diag < na ? diag : na;
  while (lo < hi) {
    const Index mid = lo + (hi - lo) / 2;
    if (a[mid] <= b[diag - 1 - mid])
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// The runs of one merge round: [lo, lo + w) and [lo + w, lo + 2w) of n keys, clipped to n, for
// every lo that is a multiple of 2w; w a multiple of kTile, so no merge block's outputs straddle
// two pairs of runs.
struct Pair {
  size_t lo, na, nb;
};
__device__ __forceinline__ Pair pair_of(size_t out, size_t n, size_t w) {
  Pair p;
  p.lo = out / (2 * w) * (2 * w);
  p.na = min(w, n - p.lo);
  p.nb = min(w, n - p.lo - p.na);
  return p;
}

// The splits come in two levels. merge_coarse_kernel: for every group of kGroup merge blocks,
// coarse[c] = how many of the keys before output c x kGroup x kTile (clipped to n) within its pair
// of runs come from the pair's left run, by a binary search over the whole pair; groups + 1
// entries. merge_split_kernel: split[b], the same for merge block b's first output (b x kTile), by
// a binary search confined between its group's two coarse splits where they lie in its pair (the
// split grows with the output within one pair). A group's fine searches then read a window of each
// run that its first searches brought into L2. One thread a split.
__global__ void __launch_bounds__(256)
    merge_coarse_kernel(const uint32_t* __restrict__ keys, size_t n, size_t w, size_t groups,
                        size_t* __restrict__ coarse) {
  const size_t c = size_t(blockIdx.x) * 256 + threadIdx.x;
  if (c > groups) return;
  const size_t out = min(c * kGroup * kTile, n);
  const Pair p = pair_of(out, n, w);
  coarse[c] = merge_split<size_t>(keys + p.lo, p.na, keys + p.lo + p.na, p.nb, out - p.lo);
}
__global__ void __launch_bounds__(256)
    merge_split_kernel(const uint32_t* __restrict__ keys, size_t n, size_t w, size_t blocks,
                       const size_t* __restrict__ coarse, size_t* __restrict__ split) {
  const size_t b = size_t(blockIdx.x) * 256 + threadIdx.x;
  if (b >= blocks) return;
  const size_t out = b * kTile;
  const Pair p = pair_of(out, n, w);
  const size_t diag = out - p.lo;
  size_t lo = diag > p.nb ? diag - p.nb : 0, hi = min(diag, p.na);
  const size_t c = b / kGroup;
  const size_t d0 = c * kGroup * kTile, d1 = min((c + 1) * kGroup * kTile, n);
  if (pair_of(d0, n, w).lo == p.lo) lo = max(lo, coarse[c]);
  if (d1 < n && pair_of(d1, n, w).lo == p.lo) hi = min(hi, coarse[c + 1]);
  const uint32_t* a = keys + p.lo;
  const uint32_t* r = keys + p.lo + p.na;
  while (lo < hi) {  // merge_split's search, from the narrowed [lo, hi)
    const size_t mid = lo + (hi - lo) / 2;
    if (a[mid] <= r[diag - 1 - mid])
      lo = mid + 1;
    else
      hi = mid;
  }
  split[b] = lo;
}

// One merge round: src's sorted runs of width w merged in pairs into dst (n keys each; with
// PAIRS, their values from vsrc into vdst). Block b writes dst[b x kTile, + kTile), clipped to its
// pair's end; split: merge_split_kernel's.
template <bool PAIRS>
__global__ void __launch_bounds__(kThreads)
    merge_kernel(const uint32_t* __restrict__ src, const uint32_t* __restrict__ vsrc,
                 uint32_t* __restrict__ dst, uint32_t* __restrict__ vdst, size_t n, size_t w,
                 const size_t* __restrict__ split) {
  __shared__ uint32_t sk[kTile];
  __shared__ uint32_t sv[PAIRS ? kTile : 1];
  const size_t first = size_t(blockIdx.x) * kTile;
  const Pair p = pair_of(first, n, w);
  const size_t end = min(first + kTile, p.lo + p.na + p.nb);
  const size_t a0 = split[blockIdx.x];
  const size_t a1 = end < p.lo + p.na + p.nb ? split[blockIdx.x + 1] : p.na;
  const size_t b0 = first - p.lo - a0;
  const unsigned la = static_cast<unsigned>(a1 - a0);
  const unsigned total = static_cast<unsigned>(end - first);  // la + lb, 1 to kTile
  // The block's share of both runs: a's into sk[0, la), b's into sk[la, total). Every load is
  // issued before the first store to shared memory, so that a thread has kItems in flight.
  uint32_t k[kItems], v[kItems];
#pragma unroll
  for (unsigned t = 0; t < kItems; ++t) {
    const unsigned x = threadIdx.x + t * kThreads;
    if (x < total) {
      const size_t from = x < la ? p.lo + a0 + x : p.lo + p.na + b0 + (x - la);
      k[t] = src[from];
      if constexpr (PAIRS) v[t] = vsrc[from];
    }
  }
#pragma unroll
  for (unsigned t = 0; t < kItems; ++t) {
    const unsigned x = threadIdx.x + t * kThreads;
    if (x < total) {
      sk[x] = k[t];
      if constexpr (PAIRS) sv[x] = v[t];
    }
  }
  __syncthreads();
  // This thread's outputs d, d + 1, ..., d + kItems - 1 of the block's: where its diagonal crosses
  // the merge path, then a sequential merge from there, the next key of each run in registers
  // (read at an index clipped to the share, and ignored once its run is spent). kItems is odd, so
  // the lanes of a warp, kItems slots apart, read and write 32 different banks.
  const unsigned d = min(threadIdx.x * kItems, total);
  unsigned i = merge_split<unsigned>(sk, la, sk + la, total - la, d);
  unsigned j = la + (d - i);
  uint32_t ak = sk[min(i, total - 1)], bk = sk[min(j, total - 1)];
#pragma unroll
  for (unsigned t = 0; t < kItems; ++t) {
    if (d + t < total) {
      const bool from_a = j >= total || (i < la && ak <= bk);
      k[t] = from_a ? ak : bk;
      if constexpr (PAIRS) v[t] = sv[from_a ? i : j];
      if (from_a)
        ak = sk[min(++i, total - 1)];
      else
        bk = sk[min(++j, total - 1)];
    }
  }
  __syncthreads();
#pragma unroll
  for (unsigned t = 0; t < kItems; ++t)
    if (d + t < total) {
      sk[d + t] = k[t];
      if constexpr (PAIRS) sv[d + t] = v[t];
    }
  __syncthreads();
#pragma unroll
  for (unsigned t = 0; t < kItems; ++t) {
    const unsigned x = threadIdx.x + t * kThreads;
    if (x < total) {
      dst[first + x] = sk[x];
      if constexpr (PAIRS) vdst[first + x] = sv[x];
    }
  }
}

// Sorts n keys (runs(n); with values_in non-null, pairs, stably) from keys_in into keys_out, onto
// stream, without waiting on the GPU. ws: workspace_bytes(n, pairs, part_ws). sort_part(kin, vin,
// kout, vout, m, ws, stream) sorts one part of m <= largest() keys (vin, vout null for keys)
// with the workspace that follows this road's own, and returns its error. Errors: sort_part's and
// those of the launches.
template <typename SortPart>
cudaError_t launch(const uint32_t* keys_in, const uint32_t* values_in, uint32_t* keys_out,
                   uint32_t* values_out, size_t n, void* ws, cudaStream_t stream,
                   SortPart sort_part) {
  const bool pairs = values_in != nullptr;
  const Plan cut = plan(n);
  char* p = static_cast<char*>(ws);
  uint32_t* keys_tmp = reinterpret_cast<uint32_t*>(p);
  p += round256(n * 4);
  uint32_t* values_tmp = pairs ? reinterpret_cast<uint32_t*>(p) : nullptr;
  if (pairs) p += round256(n * 4);
  const size_t blocks = ceil_div(n, kTile), groups = ceil_div(blocks, kGroup);
  size_t* split = reinterpret_cast<size_t*>(p);
  p += round256((blocks + 1) * 8);
  size_t* coarse = reinterpret_cast<size_t*>(p);
  void* part_ws = p + round256((groups + 1) * 8);
  // The parts land where an even number of rounds after them leaves the keys in keys_out.
  uint32_t* k = cut.rounds % 2 ? keys_tmp : keys_out;
  uint32_t* v = cut.rounds % 2 ? values_tmp : values_out;
  for (size_t at = 0; at < n; at += cut.keys) {
    const size_t m = std::min(cut.keys, n - at);
    const cudaError_t e = sort_part(keys_in + at, pairs ? values_in + at : nullptr, k + at,
                                    pairs ? v + at : nullptr, m, part_ws, stream);
    if (e != cudaSuccess) return e;
  }
  for (size_t w = cut.keys; w < n; w *= 2) {
    uint32_t* kd = k == keys_out ? keys_tmp : keys_out;
    uint32_t* vd = v == values_out ? values_tmp : values_out;
    merge_coarse_kernel<<<static_cast<unsigned>(ceil_div(groups + 1, 256)), 256, 0, stream>>>(
        k, n, w, groups, coarse);
    merge_split_kernel<<<static_cast<unsigned>(ceil_div(blocks, 256)), 256, 0, stream>>>(
        k, n, w, blocks, coarse, split);
    if (pairs)
      merge_kernel<true>
          <<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(k, v, kd, vd, n, w, split);
    else
      merge_kernel<false><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
          k, nullptr, kd, nullptr, n, w, split);
    k = kd;
    v = vd;
  }
  return cudaGetLastError();
}

}  // namespace ladder::sort::parts
