// sort/lab/probe_bucket_bits.cu — a standalone probe of sort v16's bucket pass: how many of a
// bucket's 16 low bits its first, atomic round should take. v16's bucket_sort_kernel sorted each
// bucket in two rounds of 8 bits (until 00329fa, which chose its split from this probe): the first
// ranks a key by one shared atomicAdd on its digit's counter (unstable, which keys allow), the
// second by v06's ballots (stable), eight votes a key. The atomic's cost a key does not grow with
// its digit's bits; the ballots' does, one vote a bit, and so do their per-warp counters. Here the
// first round takes LOW bits (8 to 13; 2^LOW counters, scanned a few a thread) and the second the
// other 16 - LOW (16 - LOW votes a key, 2^(16-LOW) counters a warp). The input is what the bucket
// pass sees: uniform keys (a hash of the index) grouped by their top 16 bits in input order (CUB's
// SortKeys on bits 16-31), the buckets' starts and sizes counted here. Each variant, and v16's
// kernel itself, sorts a copy in place, timed as the benchmark times (common/probe_timer.cuh:
// blocking kernel, L2 flushed, median of 15; the copy outside the timed interval), in v16's shape
// for n; every output is compared with CUB's SortKeys of the same keys. Not part of the binary.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. --expt-relaxed-constexpr \
//     sort/lab/probe_bucket_bits.cu common/device.cu -o probe_bucket_bits && ./probe_bucket_bits
// Arguments: sizes in keys (default 2^27, 2^28, 2^29, 2^30 - 1). PROBE_ONCE=1 in the environment
// runs each variant once, untimed, for Nsight Compute; PROBE_SET=2 or 3 picks a later set of
// variants (run_shape says which); PROBE_SET=4, v16's split with and without the pads' atomics
// (SKIP 1) and with warps that hold no key sitting out (SKIP 2); PROBE_SET=5, SKIP 1 with and
// without the order check ended after a warp's first 32 slots (EARLY).
// Sizes whose shape is the 16-bit one (1,024 x 34, from about 1.09e9 keys, e.g. 2147483648) run
// run_shape16's set: v16's kernel against 10, 11 and 12 bits in the atomic round (run on
// 2026-11-29, when v16's was 8 + 8: 12 bits won), the packed kernel (keys and ranks two to a
// register) at SKIP 0, 1 and 2 (v16's kernel since 7197c25 is SKIP 2's), then the same buckets on
// thread block clusters of two 1,024 x 17 blocks and of four 512 x 17 (bucket_cluster_kernel; run
// on 2026-11-29 at 2^31: 1.5 and 6.2 times v16's kernel's time then, every output right; it calls
// v16::bucket_in_order, whose check since 2aac335 stops at a warp's first row when that row is out
// of order, so a run now checks less than that one did). sort_bucket and bucket_packed16_kernel
// turn their second round's counters into starts with v16::warp_counts_to_starts (since 2aac335;
// the runs recorded before it inlined the same loops). Runs and results: sort/lab/LAB_NOTES.md.
#include <cuda_pipeline.h>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

#include "common/device.h"
#include "common/probe_timer.cuh"
#include "sort/lab/probe_common.cuh"
#include "sort/v16_top_digits_first.cuh"

using namespace ladder;
using namespace ladder::sort;
using namespace ladder::sort::tuning;

namespace {

__global__ void fill_keys(uint32_t* k, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    k[i] = mix((i + 1) * 0x9e3779b97f4a7c15ull);
}
__global__ void count_top16(const uint32_t* k, size_t n, unsigned* hist) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    atomicAdd(&hist[k[i] >> 16], 1u);
}

// The lanes whose bits [FROM, FROM + COUNT) of `label` equal this lane's.
template <unsigned FROM, unsigned COUNT>
__device__ __forceinline__ unsigned match_bits(unsigned label) {
  if constexpr (COUNT == 0)
    return 0xffffffffu;
  else
    return v06::ballot_of_bit<FROM>(label) & match_bits<FROM + 1, COUNT - 1>(label);
}

// The shared memory a block of THREADS x ITEMS slots needs past its slots: the warps' counters of
// the ballot round, the atomic round's counters (padded), the scan's per-warp sums; in words.
template <unsigned THREADS, unsigned LOW>
constexpr unsigned tail_words() {
  constexpr unsigned kLow = 1u << LOW, kHigh = 1u << (16 - LOW);
  return THREADS / 32 * kHigh + kLow + kLow / 16 + THREADS / 32;
}

// Sorts the bucket whose n keys (n >= 2; the slots past n hold pad) this block holds in key[]
// (v06's tile layout: key j of lane l of warp w is slot (w * ITEMS + j) * 32 + l) by its low 16
// bits, and stores it to keys[0, n): v16's bucket_sort_kernel with its first (atomic, unstable)
// round on bits 0 .. LOW-1 and its second (ballots, stable) on bits LOW .. 15. sk: THREADS * ITEMS
// words of shared memory no thread reads any more; tail: tail_words<THREADS, LOW>() words. A bucket
// in order is stored by no one (it is in place already). Ends with every thread past its last
// access to sk and tail only after a barrier the caller provides.
template <unsigned THREADS, unsigned ITEMS, unsigned LOW, bool PLAIN, unsigned SKIP = 0,
          bool EARLY = false>
__device__ __forceinline__ void sort_bucket(uint32_t (&key)[ITEMS], uint32_t* sk, unsigned* tail,
                                            unsigned n, uint32_t* keys) {
  constexpr unsigned kWarps = THREADS / 32;
  constexpr unsigned kLow = 1u << LOW, kHighBits = 16 - LOW, kHigh = 1u << kHighBits;
  constexpr unsigned kPer = kLow >= THREADS ? kLow / THREADS : 1, kOwners = kLow / kPer;
  auto warp_hist = reinterpret_cast<unsigned(*)[kHigh]>(tail);  // kWarps x kHigh
  unsigned* cnt = tail + kWarps * kHigh;                        // kLow + kLow / 16
  unsigned* warp_sums = cnt + kLow + kLow / 16;                 // kWarps
  const auto pad = [](unsigned c) { return c + (c >> 4); };
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32, t = threadIdx.x;
  const unsigned first = warp * ITEMS * 32 + lane;
  const bool live = SKIP < 2 || warp * ITEMS * 32 < n;  // SKIP = 2: a warp with no key sits out
  {
    bool ordered = true;
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j) {
      const uint32_t next_lane = __shfl_down_sync(0xffffffffu, key[j], 1);
      const uint32_t next_item = __shfl_sync(0xffffffffu, key[j + 1 < ITEMS ? j + 1 : j], 0);
      const uint32_t next = lane < 31 ? next_lane : (j + 1 < ITEMS ? next_item : key[j]);
      ordered &= key[j] <= next;
      // EARLY: a warp whose first 32 slots are out of order (any unsorted input) stops checking.
      if constexpr (EARLY) {
        if (j == 0 && !__all_sync(0xffffffffu, ordered)) break;
      }
    }
    if (lane == 0) sk[warp] = key[0];
    __syncthreads();
    if (lane == 31 && warp + 1 < kWarps) ordered &= key[ITEMS - 1] <= sk[warp + 1];
    if (__syncthreads_and(ordered)) return;
  }
  unsigned rank[ITEMS];
  // Round 0, bits 0 .. LOW-1: a shared atomic a key.
  for (unsigned i = t; i < kLow + kLow / 16; i += THREADS) cnt[i] = 0;
  __syncthreads();
  // SKIP: the slots past n (pad, all of one value) take no atomic (on one counter they would
  // wait on each other); the real keys' ranks fill [0, n) and a pad stays in its own slot.
  if (live) {
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j)
      rank[j] = !SKIP || first + j * 32 < n ? atomicAdd(&cnt[pad(key[j] & (kLow - 1))], 1u) : 0u;
  }
  __syncthreads();
  {
    // A thread's kPer counters are held in registers up to 8 of them, else read twice.
    constexpr unsigned kHeld = kPer <= 8 ? kPer : 1;
    unsigned local[kHeld], sum = 0;
    if (t < kOwners) {
#pragma unroll
      for (unsigned i = 0; i < kPer; ++i) {
        const unsigned c = cnt[pad(t * kPer + i)];
        if (kPer <= 8) local[i % kHeld] = c;
        sum += c;
      }
    }
    unsigned s = v16::bucket_digit_scan<kWarps>(sum, warp_sums);
    if (t < kOwners) {
#pragma unroll
      for (unsigned i = 0; i < kPer; ++i) {
        const unsigned c = kPer <= 8 ? local[i % kHeld] : cnt[pad(t * kPer + i)];
        cnt[pad(t * kPer + i)] = s;
        s += c;
      }
    }
  }
  __syncthreads();
  if (live) {
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j) {
      const unsigned e = first + j * 32;
      sk[SKIP && e >= n ? e : rank[j] + cnt[pad(key[j] & (kLow - 1))]] = key[j];
    }
  }
  __syncthreads();
  // Round 1, bits LOW .. 15: ballots, stable.
  for (unsigned i = lane; i < kHigh; i += 32) warp_hist[warp][i] = 0;
  __syncwarp();
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) key[j] = live ? sk[first + j * 32] : 0u;
  if (live) {
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j) {
      const unsigned dd = (key[j] >> LOW) & (kHigh - 1);
      const unsigned peers = match_bits<LOW, kHighBits>(key[j]);
      const unsigned upto = __popc(peers & v06::lanemask_le());
      if constexpr (PLAIN) {
        // The counters are the warp's own: a load by every lane and a store by the digit's last
        // lane, no atomic and no shuffle.
        const unsigned old = warp_hist[warp][dd];
        if ((peers >> lane) == 1u) warp_hist[warp][dd] = old + upto;
        __syncwarp();
        rank[j] = old + upto - 1;
      } else {
        const unsigned leader = 31 - __clz(peers);
        const unsigned old = v06::leader_fetch_add(&warp_hist[warp][dd], upto, lane == leader);
        rank[j] = __shfl_sync(0xffffffffu, old, leader) + upto - 1;
      }
    }
  }
  __syncthreads();
  v16::warp_counts_to_starts<kWarps, kHigh>(warp_hist, warp_sums);
  if (live) {
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j)
      sk[rank[j] + warp_hist[warp][(key[j] >> LOW) & (kHigh - 1)]] = key[j];
  }
  __syncthreads();
  for (unsigned e = t; e < n; e += THREADS) keys[e] = sk[e];
}

// One block a bucket, as v16's bucket_sort_kernel.
template <unsigned THREADS, unsigned ITEMS, unsigned MIN_BLOCKS, unsigned LOW, bool PLAIN,
          unsigned SKIP = 0, bool EARLY = false>
__global__ void __launch_bounds__(THREADS, arch::min_blocks(THREADS, MIN_BLOCKS))
    bucket_wide_kernel(uint32_t* data, const unsigned* start16, const unsigned* hist) {
  constexpr unsigned kSlots = THREADS * ITEMS;
  extern __shared__ uint32_t smem[];
  const unsigned g = blockIdx.x;
  const unsigned n = hist[g];
  if (n <= 1) return;
  uint32_t* keys = data + start16[g];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const uint32_t padkey = (g << 16) | 0xffffu;
  uint32_t key[ITEMS];
  const unsigned first = warp * ITEMS * 32 + lane;
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) {
    const unsigned e = first + j * 32;
    key[j] = e < n ? keys[e] : padkey;
  }
  sort_bucket<THREADS, ITEMS, LOW, PLAIN, SKIP, EARLY>(key, smem, smem + kSlots, n, keys);
}

// Persistent blocks, each sorting buckets blockIdx.x, + gridDim.x, ...: while it sorts one bucket
// in one buffer of shared memory, the next bucket's keys arrive in the other (cp.async, 4 bytes a
// key, exact bounds), so the bucket's DRAM latency is hidden behind the sort before it. The
// block's buckets' sizes and starts are read once into shared memory (meta: 2 words a bucket, at
// most kMaxPerBlock buckets, so gridDim.x >= kBins / kMaxPerBlock).
inline constexpr unsigned kMaxPerBlock = 512;
template <unsigned THREADS, unsigned ITEMS, unsigned MIN_BLOCKS, unsigned LOW, bool PLAIN>
__global__ void __launch_bounds__(THREADS, arch::min_blocks(THREADS, MIN_BLOCKS))
    bucket_pipelined_kernel(uint32_t* data, const unsigned* start16, const unsigned* hist) {
  constexpr unsigned kSlots = THREADS * ITEMS;
  extern __shared__ uint32_t smem[];
  unsigned* tail = smem + 2 * kSlots;
  unsigned* meta = tail + tail_words<THREADS, LOW>();
  const unsigned t = threadIdx.x, lane = t % 32, warp = t / 32;
  const unsigned first = warp * ITEMS * 32 + lane;
  const unsigned mine = (v16::kBins - blockIdx.x + gridDim.x - 1) / gridDim.x;
  for (unsigned k = t; k < mine; k += THREADS) {
    const unsigned g = blockIdx.x + k * gridDim.x;
    meta[2 * k] = hist[g];
    meta[2 * k + 1] = start16[g];
  }
  __syncthreads();
  const auto issue = [&](unsigned k) {
    if (k < mine) {
      const unsigned n = meta[2 * k];
      const uint32_t* src = data + meta[2 * k + 1];
      uint32_t* dst = smem + (k & 1) * kSlots;
      if (n > 1) {
#pragma unroll 2
        for (unsigned j = 0; j < ITEMS; ++j) {
          const unsigned e = first + j * 32;
          if (e < n) __pipeline_memcpy_async(dst + e, src + e, 4);
        }
      }
    }
    __pipeline_commit();
  };
  issue(0);
  for (unsigned k = 0; k < mine; ++k) {
    issue(k + 1);
    __pipeline_wait_prior(1);
    __syncthreads();
    const unsigned n = meta[2 * k];
    if (n > 1) {
      uint32_t* cur = smem + (k & 1) * kSlots;
      const uint32_t padkey = ((blockIdx.x + k * gridDim.x) << 16) | 0xffffu;
      uint32_t key[ITEMS];
#pragma unroll
      for (unsigned j = 0; j < ITEMS; ++j) {
        const unsigned e = first + j * 32;
        key[j] = e < n ? cur[e] : padkey;
      }
      __syncthreads();
      sort_bucket<THREADS, ITEMS, LOW, PLAIN>(key, cur, tail, n, data + meta[2 * k + 1]);
    }
    __syncthreads();
  }
  __pipeline_wait_prior(0);
}

// The 16-bit bucket pass (v16's bucket_sort16_kernel: 1,024 x 34, from about 1.09e9 keys, low 16
// bits two bytes a slot, no key held in registers) with its first, atomic round on the low LOW bits
// (2^LOW counters, kLow / THREADS a thread to scan) and its second, stable round (v06's ballots,
// warp-private counters) on the other 16 - LOW (v16's was 8 + 8 until 17cd80b). Shared memory:
// bucket16_split_words<THREADS, ITEMS, LOW>() words.
template <unsigned THREADS, unsigned ITEMS, unsigned LOW>
constexpr unsigned bucket16_split_words() {
  constexpr unsigned kLow = 1u << LOW, kHigh = 1u << (16 - LOW);
  return THREADS * ITEMS + THREADS / 32 * kHigh + kLow + kLow / 16 + THREADS / 32;
}
template <unsigned THREADS, unsigned ITEMS, unsigned LOW>
__global__ void __launch_bounds__(THREADS, 1)
    bucket16_split_kernel(uint32_t* data, const unsigned* start16, const unsigned* hist) {
  static_assert(ITEMS % 2 == 0, "whole words of slots");
  constexpr unsigned kWarps = THREADS / 32, kSlots = THREADS * ITEMS;
  constexpr unsigned kLow = 1u << LOW, kHighBits = 16 - LOW, kHigh = 1u << kHighBits;
  constexpr unsigned kPer = kLow / THREADS;
  static_assert(kPer >= 1 && kPer <= 8 && kHigh <= THREADS,
                "a thread's counters; a digit a thread");
  extern __shared__ uint32_t smem[];
  uint16_t* sk0 = reinterpret_cast<uint16_t*>(smem);
  uint16_t* sk1 = sk0 + kSlots;
  auto warp_hist = reinterpret_cast<unsigned(*)[kHigh]>(smem + kSlots);  // kWarps x kHigh
  unsigned* cnt = smem + kSlots + kWarps * kHigh;                        // kLow + kLow / 16
  unsigned* warp_sums = cnt + kLow + kLow / 16;                          // kWarps
  const auto pad = [](unsigned c) { return c + c / 16; };
  const unsigned g = blockIdx.x;
  const unsigned n = hist[g];
  if (n <= 1) return;
  uint32_t* keys = data + start16[g];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32, t = threadIdx.x;
  constexpr unsigned kBatch = ITEMS / 2;
#pragma unroll
  for (unsigned h = 0; h < 2; ++h) {
    uint32_t k[kBatch];
#pragma unroll
    for (unsigned j = 0; j < kBatch; ++j) {
      const unsigned e = (h * kBatch + j) * THREADS + t;
      k[j] = e < n ? keys[e] : 0u;
    }
#pragma unroll
    for (unsigned j = 0; j < kBatch; ++j) {
      const unsigned e = (h * kBatch + j) * THREADS + t;
      if (e < n) sk1[e] = static_cast<uint16_t>(k[j]);
    }
  }
  for (unsigned i = t; i < kLow + kLow / 16; i += THREADS) cnt[i] = 0;
  __syncthreads();
  {
    bool ordered = true;
#pragma unroll 4
    for (unsigned e = t; e + 1 < n; e += THREADS) ordered &= sk1[e] <= sk1[e + 1];
    if (__syncthreads_and(ordered)) return;
  }
  // Round 0, bits 0 .. LOW-1: count, scan (kPer counters a thread), then a shared atomic a key on
  // its value's running start gives its slot in sk0.
#pragma unroll 4
  for (unsigned e = t; e < n; e += THREADS) atomicAdd(&cnt[pad(sk1[e] & (kLow - 1))], 1u);
  __syncthreads();
  {
    unsigned held[kPer], sum = 0;
#pragma unroll
    for (unsigned i = 0; i < kPer; ++i) sum += held[i] = cnt[pad(t * kPer + i)];
    unsigned start = v16::bucket_digit_scan<kWarps>(sum, warp_sums);
#pragma unroll
    for (unsigned i = 0; i < kPer; ++i) {
      cnt[pad(t * kPer + i)] = start;
      start += held[i];
    }
  }
  __syncthreads();
#pragma unroll 4
  for (unsigned e = t; e < n; e += THREADS) {
    const unsigned k = sk1[e];
    sk0[atomicAdd(&cnt[pad(k & (kLow - 1))], 1u)] = static_cast<uint16_t>(k);
  }
  // Round 1, bits LOW .. 15, stable: as v16's pass 1, warp w ranking `per` groups of 32 slots from
  // group w * per in order; the slots past n read 0xffff, whose digit kHigh - 1 puts them last.
  for (unsigned i = lane; i < kHigh; i += 32) warp_hist[warp][i] = 0;
  __syncthreads();
  const unsigned per = (n + 32 * kWarps - 1) / (32 * kWarps);
  const unsigned first = warp * per * 32 + lane;
  const unsigned end = (n + 31) / 32 * 32;
  const unsigned mine = first < end ? std::min(per, (end - first + 31) / 32) : 0u;
#pragma unroll 4
  for (unsigned j = 0; j < mine; ++j) {
    const unsigned sl = first + j * 32;
    atomicAdd(&warp_hist[warp][(sl < n ? sk0[sl] : 0xffffu) >> LOW], 1u);
  }
  __syncthreads();
  unsigned count = 0;
  if (t < kHigh) {
    for (unsigned w = 0; w < kWarps; ++w) {
      const unsigned c = warp_hist[w][t];
      warp_hist[w][t] = count;
      count += c;
    }
  }
  const unsigned start1 = v16::bucket_digit_scan<kWarps>(count, warp_sums);
  if (t < kHigh) {
    for (unsigned w = 0; w < kWarps; ++w) warp_hist[w][t] += start1;
  }
  __syncthreads();
#pragma unroll 4
  for (unsigned j = 0; j < mine; ++j) {
    const unsigned sl = first + j * 32;
    const unsigned k = sl < n ? sk0[sl] : 0xffffu;
    const unsigned dd = k >> LOW;
    const unsigned peers = v16::match_field<LOW, kHighBits>(k);
    const unsigned upto = __popc(peers & v06::lanemask_le());
    const unsigned leader = 31 - __clz(peers);
    const unsigned old = v06::leader_fetch_add(&warp_hist[warp][dd], upto, lane == leader);
    sk1[__shfl_sync(0xffffffffu, old, leader) + upto - 1] = static_cast<uint16_t>(k);
  }
  __syncthreads();
  const uint32_t top = g << 16;
  for (unsigned e = t; e < n; e += THREADS) keys[e] = top | sk1[e];
}

// The 16-bit shape's buckets (up to 34,816 keys, from about 1.09e9 keys) on a thread block
// cluster of CLUSTER blocks of THREADS x ITEMS slots (CLUSTER x THREADS x ITEMS = 34,816), keys and
// ranks held in registers as bucket_sort_kernel holds them, instead of one 1,024 x 34 block
// sorting 16-bit halves out of shared memory (bucket_sort16_kernel). Block q of cluster g owns
// slots [q S, (q + 1) S) of bucket g (S = THREADS x ITEMS; v06's layout inside a block), so slot
// order is (block, warp, item, lane). Each round places a key through every block's counts, read
// from their shared memory (ld.shared::cluster) after a cluster barrier, and stores it into the
// shared memory of the block that owns its new slot (st.shared::cluster, the owners' base
// addresses formed once by mapa). Round 0: the low LOW bits, a shared atomic a key on the block's
// own counter (not stable); a digit's start is its start over the cluster plus the earlier blocks'
// counts of it. Round 1: the other 16 - LOW bits, v06's ballots and per-warp plain counters,
// stable; the same starts. The cluster barrier is probe_common.cuh's cluster_sync (six a bucket
// that is not in order). A bucket in order is left. Written 2026-11-29 (eighth session); not yet
// run.
// Shared memory of bucket_cluster_kernel, in words: the slots, the per-warp counters of round 1,
// round 0's counts and starts (padded), the scan's sums, round 1's counts, three edge words.
template <unsigned THREADS, unsigned ITEMS, unsigned LOW>
constexpr unsigned bucket_cluster_words() {
  constexpr unsigned kLow = 1u << LOW, kHigh = 1u << (16 - LOW);
  return THREADS * ITEMS + THREADS / 32 * kHigh + 2 * (kLow + kLow / 16) + THREADS / 32 + kHigh + 3;
}
template <unsigned CLUSTER, unsigned THREADS, unsigned ITEMS, unsigned LOW>
__global__ void __cluster_dims__(CLUSTER, 1, 1) __launch_bounds__(THREADS, 1024 / THREADS)
    bucket_cluster_kernel(uint32_t* data, const unsigned* start16, const unsigned* hist) {
  constexpr unsigned kWarps = THREADS / 32, kSlots = THREADS * ITEMS;
  constexpr unsigned kLow = 1u << LOW, kHighBits = 16 - LOW, kHigh = 1u << kHighBits;
  constexpr unsigned kPadded = kLow + kLow / 16, kPer = kLow / THREADS;
  static_assert(CLUSTER * kSlots == 1024 * 34, "the 16-bit shape's slots");
  static_assert(kPer >= 1 && kLow % THREADS == 0 && kHigh <= 32,
                "whole counters a thread in round 0; round 1's digits in one warp");
  extern __shared__ uint32_t smem[];
  uint32_t* sk = smem;                                                   // kSlots
  auto warp_hist = reinterpret_cast<unsigned(*)[kHigh]>(smem + kSlots);  // kWarps x kHigh
  unsigned* cnt = smem + kSlots + kWarps * kHigh;  // kPadded: round 0's counts (read by all)
  unsigned* base = cnt + kPadded;                  // kPadded: round 0's starts, this block's
  unsigned* warp_sums = base + kPadded;            // kWarps
  unsigned* tot = warp_sums + kWarps;              // kHigh: round 1's counts (read by all)
  unsigned* edge = tot + kHigh;  // in order, first slot's key, last slot's key (read by all)
  const auto padded = [](unsigned c) { return c + c / 16; };
  const unsigned r = ctarank();
  const unsigned g = blockIdx.x / CLUSTER;
  const unsigned n = hist[g];
  if (n <= 1) return;  // the whole cluster, before any access to another block
  uint32_t* keys = data + start16[g];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32, t = threadIdx.x;
  const uint32_t pad = (g << 16) | 0xffffu;
  unsigned sk_at[CLUSTER];  // each block's slots, as st.shared::cluster addresses
#pragma unroll
  for (unsigned q = 0; q < CLUSTER; ++q) sk_at[q] = remote(smem_addr(sk), q);
  const auto place = [&](unsigned pos, uint32_t k) {  // slot pos of the cluster's 34,816
    const unsigned q = pos / kSlots, local = pos - q * kSlots;
    if (q == r)
      sk[local] = k;
    else
      st_cluster(sk_at[q] + 4 * local, k);
  };
  uint32_t key[ITEMS];
  const unsigned first = warp * ITEMS * 32 + lane;
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) {
    const unsigned e = r * kSlots + first + j * 32;
    key[j] = e < n ? keys[e] : pad;
  }
  {  // In order already? Each block its own slots, then each block's last slot against the next's
     // first. Every thread reads every block's edge words (the same answer everywhere).
    const bool mine = v16::bucket_in_order<THREADS, ITEMS>(key, warp_sums);
    if (t == 0) {
      edge[0] = mine;
      edge[1] = key[0];
    }
    if (t == THREADS - 1) edge[2] = key[ITEMS - 1];
    cluster_sync();
    bool ordered = true;
    uint32_t last = 0;
#pragma unroll
    for (unsigned q = 0; q < CLUSTER; ++q) {
      const unsigned e = remote(smem_addr(edge), q);
      ordered &= ld_cluster(e) != 0 && (q == 0 || last <= ld_cluster(e + 4));
      last = ld_cluster(e + 8);
    }
    cluster_sync();  // every block has read the others' edge words (in every bucket: moving
                     // it into the early exit made the 512 x 17 form spill 8 bytes)
    if (ordered) return;
  }
  // Round 0, bits 0 .. LOW - 1.
  for (unsigned i = t; i < kPadded; i += THREADS) cnt[i] = 0;
  __syncthreads();
  unsigned rank[ITEMS];
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) rank[j] = atomicAdd(&cnt[padded(key[j] & (kLow - 1))], 1u);
  cluster_sync();  // every block's counts are complete
  {
    // The cluster's count of each of the thread's kPer values and the earlier blocks' count,
    // held in registers across the scan (1,024 threads: 4 values), or, with more values a thread
    // (512 threads: 8), the cluster's count parked in `base` and the earlier blocks' read again
    // after the scan: each form is the one that ptxas compiled without a spill at 64 registers.
    if constexpr (kPer <= 4) {
      unsigned total[kPer], before[kPer], sum = 0;
#pragma unroll
      for (unsigned i = 0; i < kPer; ++i) total[i] = before[i] = 0;
#pragma unroll
      for (unsigned q = 0; q < CLUSTER; ++q) {
        const unsigned at = remote(smem_addr(cnt), q);
#pragma unroll
        for (unsigned i = 0; i < kPer; ++i) {
          const unsigned c = ld_cluster(at + 4 * padded(t * kPer + i));
          total[i] += c;
          before[i] += q < r ? c : 0u;
        }
      }
#pragma unroll
      for (unsigned i = 0; i < kPer; ++i) sum += total[i];
      unsigned start = v16::bucket_digit_scan<kWarps>(sum, warp_sums);
#pragma unroll
      for (unsigned i = 0; i < kPer; ++i) {
        base[padded(t * kPer + i)] = start + before[i];
        start += total[i];
      }
    } else {
      unsigned sum = 0;
#pragma unroll
      for (unsigned i = 0; i < kPer; ++i) {
        unsigned total = 0;
#pragma unroll
        for (unsigned q = 0; q < CLUSTER; ++q)
          total += ld_cluster(remote(smem_addr(cnt), q) + 4 * padded(t * kPer + i));
        base[padded(t * kPer + i)] = total;
        sum += total;
      }
      unsigned start = v16::bucket_digit_scan<kWarps>(sum, warp_sums);
#pragma unroll
      for (unsigned i = 0; i < kPer; ++i) {
        unsigned before = 0;
#pragma unroll
        for (unsigned q = 0; q < CLUSTER; ++q)
          if (q < r) before += ld_cluster(remote(smem_addr(cnt), q) + 4 * padded(t * kPer + i));
        const unsigned total = base[padded(t * kPer + i)];
        base[padded(t * kPer + i)] = start + before;
        start += total;
      }
    }
  }
  __syncthreads();
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) place(rank[j] + base[padded(key[j] & (kLow - 1))], key[j]);
  cluster_sync();  // every key is in its slot
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) key[j] = sk[first + j * 32];
  // Round 1, bits LOW .. 15, stable.
  if (lane < kHigh) warp_hist[warp][lane] = 0;
  __syncwarp();
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) {
    const unsigned dd = key[j] >> LOW & (kHigh - 1);
    const unsigned peers = v16::match_field<LOW, kHighBits>(key[j]);
    const unsigned upto = __popc(peers & v06::lanemask_le());
    const unsigned old = warp_hist[warp][dd];
    if ((peers >> lane) == 1u) warp_hist[warp][dd] = old + upto;  // the digit's last lane
    __syncwarp();
    rank[j] = old + upto - 1;
  }
  __syncthreads();
  if (t < kHigh) {
    unsigned count = 0;
#pragma unroll
    for (unsigned w = 0; w < kWarps; ++w) {
      const unsigned c = warp_hist[w][t];
      warp_hist[w][t] = count;
      count += c;
    }
    tot[t] = count;
  }
  cluster_sync();  // every block's counts are published, and every block has read its slots
  if (warp == 0) {
    unsigned total = 0, before = 0;
    if (lane < kHigh) {
#pragma unroll
      for (unsigned q = 0; q < CLUSTER; ++q) {
        const unsigned c = ld_cluster(remote(smem_addr(&tot[lane]), q));
        total += c;
        before += q < r ? c : 0u;
      }
    }
    const unsigned incl =
        static_cast<unsigned>(scan::warp_scan_inclusive(static_cast<int32_t>(total)));
    if (lane < kHigh) {
#pragma unroll
      for (unsigned w = 0; w < kWarps; ++w) warp_hist[w][lane] += incl - total + before;
    }
  }
  __syncthreads();
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j)
    place(rank[j] + warp_hist[warp][key[j] >> LOW & (kHigh - 1)], key[j]);
  cluster_sync();  // every key is in its slot; no block reads another's memory after this
  for (unsigned e = t; e < kSlots; e += THREADS) {
    const unsigned at = r * kSlots + e;
    if (at < n) keys[at] = sk[e];
  }
}

// The 16-bit shape with its keys and ranks in registers, two to a word (written 2026-11-29):
// bucket_sort_kernel's rounds (12 bits by a shared atomic a key, the other 4 by ballots, stable,
// plain warp counters) on the low 16 bits of 1,024 x 34 slots. A key and a rank each fit 16 bits
// (34,816 slots), so item j's key is half j % 2 of kp[j / 2] and its rank that of rp[j / 2]: 17 +
// 17 registers, as 1,024 x 17's 32-bit keys and ranks. One 2-byte buffer of slots (68 KB) instead
// of v16's two; each round's count is its rank (one atomic a key where v16's 16-bit kernel counts
// and then ranks), and the slots are read back once, in the tile layout.
// The slots past n hold the pad 0xffff. SKIP = 0: the pads are sorted with the keys (their round-0
// atomics all hit one counter). SKIP = 1: a pad takes no atomic and stays in its own slot (the
// keys' ranks fill [0, n)). SKIP = 2: as 1, and a warp with no key (its first slot >= n) sits out
// both rounds (its counters stay 0), a warp with no pad takes the unpredicated path.
template <unsigned THREADS, unsigned ITEMS>
constexpr unsigned packed16_words() {
  constexpr unsigned kLow = 1u << 12, kHigh = 16;
  return THREADS * ITEMS / 2 + THREADS / 32 * kHigh + kLow + kLow / 16 + THREADS / 32;
}
template <unsigned THREADS, unsigned ITEMS, unsigned SKIP>
__global__ void __launch_bounds__(THREADS, 1)
    bucket_packed16_kernel(uint32_t* data, const unsigned* start16, const unsigned* hist) {
  static_assert(ITEMS % 2 == 0 && THREADS == 1024, "pairs of items, 1,024 threads");
  constexpr unsigned kWarps = THREADS / 32, kSlots = THREADS * ITEMS, kWords = ITEMS / 2;
  constexpr unsigned kLowBits = 12, kLow = 1u << kLowBits, kHigh = 16, kPer = kLow / THREADS;
  extern __shared__ uint32_t smem[];
  uint16_t* sk = reinterpret_cast<uint16_t*>(smem);                          // kSlots halves
  auto warp_hist = reinterpret_cast<unsigned(*)[kHigh]>(smem + kSlots / 2);  // kWarps x kHigh
  unsigned* cnt = smem + kSlots / 2 + kWarps * kHigh;                        // kLow + kLow / 16
  unsigned* warp_sums = cnt + kLow + kLow / 16;                              // kWarps
  const auto padded = [](unsigned c) { return c + c / 16; };
  const unsigned g = blockIdx.x;
  const unsigned n = hist[g];
  if (n <= 1) return;
  uint32_t* keys = data + start16[g];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32, t = threadIdx.x;
  const unsigned first = warp * ITEMS * 32 + lane;
  const bool live = SKIP < 2 || warp * ITEMS * 32 < n;          // the warp holds a key
  const bool full = SKIP == 0 || (warp + 1) * ITEMS * 32 <= n;  // the warp holds no pad
  const auto half = [](uint32_t w, unsigned h) { return h ? w >> 16 : w & 0xffffu; };
  uint32_t kp[kWords];
#pragma unroll
  for (unsigned p = 0; p < kWords; ++p) {
    const unsigned e0 = first + 2 * p * 32, e1 = e0 + 32;
    const uint32_t a = e0 < n ? keys[e0] : 0xffffu, b = e1 < n ? keys[e1] : 0xffffu;
    kp[p] = __byte_perm(a, b, 0x5410);  // low halves: a's bits 0-15, then b's
  }
  {  // in order already?
    bool ordered = true;
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j) {
      const uint32_t k = half(kp[j / 2], j % 2);
      const uint32_t next_lane = __shfl_down_sync(0xffffffffu, k, 1);
      const uint32_t k1 = j + 1 < ITEMS ? half(kp[(j + 1) / 2], (j + 1) % 2) : k;
      const uint32_t next_item = __shfl_sync(0xffffffffu, k1, 0);
      const uint32_t next = lane < 31 ? next_lane : (j + 1 < ITEMS ? next_item : k);
      ordered &= k <= next;
    }
    if (lane == 0) smem[warp] = kp[0] & 0xffffu;
    __syncthreads();
    if (lane == 31 && warp + 1 < kWarps) ordered &= (kp[kWords - 1] >> 16) <= smem[warp + 1];
    if (__syncthreads_and(ordered)) return;
  }
  // Round 0, bits 0-11: a shared atomic a key is its rank among its value's keys.
  for (unsigned i = t; i < kLow + kLow / 16; i += THREADS) cnt[i] = 0;
  __syncthreads();
  uint32_t rp[kWords];
  if (full) {
#pragma unroll
    for (unsigned p = 0; p < kWords; ++p) {
      const unsigned r0 = atomicAdd(&cnt[padded(kp[p] & (kLow - 1))], 1u);
      const unsigned r1 = atomicAdd(&cnt[padded((kp[p] >> 16) & (kLow - 1))], 1u);
      rp[p] = r0 | r1 << 16;
    }
  } else if (live) {
#pragma unroll
    for (unsigned p = 0; p < kWords; ++p) {
      const unsigned e0 = first + 2 * p * 32, e1 = e0 + 32;
      const unsigned r0 = e0 < n ? atomicAdd(&cnt[padded(kp[p] & (kLow - 1))], 1u) : 0u;
      const unsigned r1 = e1 < n ? atomicAdd(&cnt[padded((kp[p] >> 16) & (kLow - 1))], 1u) : 0u;
      rp[p] = r0 | r1 << 16;
    }
  }
  __syncthreads();
  {
    unsigned held[kPer], sum = 0;
#pragma unroll
    for (unsigned i = 0; i < kPer; ++i) sum += held[i] = cnt[padded(t * kPer + i)];
    unsigned start = v16::bucket_digit_scan<kWarps>(sum, warp_sums);
#pragma unroll
    for (unsigned i = 0; i < kPer; ++i) {
      cnt[padded(t * kPer + i)] = start;
      start += held[i];
    }
  }
  __syncthreads();
  // The keys' counter addresses are recomputed, not held from the atomics (34 of them would not
  // fit beside the keys and ranks): the empty asm hides that kp is unchanged.
#pragma unroll
  for (unsigned p = 0; p < kWords; ++p) asm volatile("" : "+r"(kp[p]));
  if (full) {
#pragma unroll
    for (unsigned p = 0; p < kWords; ++p) {
      const uint32_t k0 = kp[p] & 0xffffu, k1 = kp[p] >> 16;
      sk[(rp[p] & 0xffffu) + cnt[padded(k0 & (kLow - 1))]] = static_cast<uint16_t>(k0);
      sk[(rp[p] >> 16) + cnt[padded(k1 & (kLow - 1))]] = static_cast<uint16_t>(k1);
    }
  } else if (live) {
#pragma unroll
    for (unsigned p = 0; p < kWords; ++p) {
      const uint32_t k0 = kp[p] & 0xffffu, k1 = kp[p] >> 16;
      const unsigned e0 = first + 2 * p * 32, e1 = e0 + 32;  // a pad stays in its slot
      sk[e0 >= n ? e0 : (rp[p] & 0xffffu) + cnt[padded(k0 & (kLow - 1))]] =
          static_cast<uint16_t>(k0);
      sk[e1 >= n ? e1 : (rp[p] >> 16) + cnt[padded(k1 & (kLow - 1))]] = static_cast<uint16_t>(k1);
    }
  }
  __syncthreads();
  // Round 1, bits 12-15: ballots and plain warp counters, stable.
  if (lane < kHigh) warp_hist[warp][lane] = 0;
  __syncwarp();
  if (live) {
#pragma unroll
    for (unsigned p = 0; p < kWords; ++p)
      kp[p] = uint32_t(sk[first + 2 * p * 32]) | uint32_t(sk[first + (2 * p + 1) * 32]) << 16;
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j) {
      const uint32_t k = half(kp[j / 2], j % 2);
      const unsigned dd = k >> kLowBits;
      const unsigned peers = v16::match_field<kLowBits, 4>(k);
      const unsigned upto = __popc(peers & v06::lanemask_le());
      const unsigned old = warp_hist[warp][dd];
      if ((peers >> lane) == 1u) warp_hist[warp][dd] = old + upto;  // the digit's last lane
      __syncwarp();
      const unsigned r = old + upto - 1;
      if (j % 2 == 0)
        rp[j / 2] = r;
      else
        rp[j / 2] |= r << 16;
    }
  }
  __syncthreads();
  v16::warp_counts_to_starts<kWarps, kHigh>(warp_hist, warp_sums);
  if (live) {
#pragma unroll
    for (unsigned p = 0; p < kWords; ++p) asm volatile("" : "+r"(kp[p]));
#pragma unroll
    for (unsigned p = 0; p < kWords; ++p) {
      const uint32_t k0 = kp[p] & 0xffffu, k1 = kp[p] >> 16;
      sk[(rp[p] & 0xffffu) + warp_hist[warp][k0 >> kLowBits]] = static_cast<uint16_t>(k0);
      sk[(rp[p] >> 16) + warp_hist[warp][k1 >> kLowBits]] = static_cast<uint16_t>(k1);
    }
  }
  __syncthreads();
  const uint32_t top = g << 16;
  for (unsigned e = t; e < n; e += THREADS) keys[e] = top | sk[e];
}

struct Bufs {
  uint32_t* grouped;  // the bucket pass's input
  uint32_t* work;     // sorted in place
  uint32_t* ref;      // CUB's SortKeys
  unsigned* start16;
  unsigned* hist;
  unsigned long long* scratch;
};

template <typename Launch>
void time_variant(const char* name, size_t n, const Bufs& b, probe_timing::Timer& timer,
                  Launch&& launch) {
  cudaStream_t s = timer.stream();
  const auto copy = [&] { cudaMemcpyAsync(b.work, b.grouped, n * 4, cudaMemcpyDeviceToDevice, s); };
  // PROBE_ONCE in the environment: one untimed run each (for Nsight Compute).
  const float us = std::getenv("PROBE_ONCE") ? 0.f : timer.median_us([&] { launch(s); }, copy, 15);
  copy();
  launch(s);
  cudaError_t e = cudaGetLastError();  // a launch that failed (e.g. a cluster that cannot fit)
  if (e == cudaSuccess) e = cudaStreamSynchronize(s);
  const unsigned long long bad = probe_timing::mismatches(b.work, b.ref, n, b.scratch, s);
  std::printf("n=%zu %-28s %9.1f us  differ=%llu %s\n", n, name, us, bad,
              e == cudaSuccess ? "" : cudaGetErrorString(e));
}

template <unsigned T, unsigned I, unsigned MB, unsigned LOW, bool PLAIN = false, unsigned SKIP = 0,
          bool EARLY = false>
void run_wide(size_t n, const Bufs& b, probe_timing::Timer& timer) {
  constexpr unsigned bytes = 4 * (T * I + tail_words<T, LOW>());
  const auto kernel = bucket_wide_kernel<T, I, MB, LOW, PLAIN, SKIP, EARLY>;
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes));
  const std::string name = std::to_string(T) + "x" + std::to_string(I) +
                           " low=" + std::to_string(LOW) + (PLAIN ? " plain" : "") +
                           (SKIP ? " skip=" + std::to_string(SKIP) : "") + (EARLY ? " early" : "");
  time_variant(name.c_str(), n, b, timer, [&](cudaStream_t s) {
    kernel<<<v16::kBins, T, bytes, s>>>(b.work, b.start16, b.hist);
  });
}

template <unsigned T, unsigned I, unsigned MB, unsigned LOW, bool PLAIN = false>
void run_pipe(size_t n, const Bufs& b, probe_timing::Timer& timer) {
  constexpr unsigned bytes = 4 * (2 * T * I + tail_words<T, LOW>() + 2 * kMaxPerBlock);
  const auto kernel = bucket_pipelined_kernel<T, I, MB, LOW, PLAIN>;
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes));
  int per_sm = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, T, bytes);
  const unsigned grid = std::min<unsigned>(v16::kBins, per_sm * current_sm_count());
  if (grid * kMaxPerBlock < v16::kBins) {
    std::printf("pipelined: %u blocks are too few\n", grid);
    return;
  }
  const std::string name = std::to_string(T) + "x" + std::to_string(I) +
                           " pipelined low=" + std::to_string(LOW) + (PLAIN ? " plain" : "") +
                           " (" + std::to_string(per_sm) + "/SM)";
  time_variant(name.c_str(), n, b, timer,
               [&](cudaStream_t s) { kernel<<<grid, T, bytes, s>>>(b.work, b.start16, b.hist); });
}

template <unsigned T, unsigned I, unsigned MB>
void run_shape(size_t n, const Bufs& b, probe_timing::Timer& timer) {
  {
    constexpr unsigned bytes = v16::bucket_smem_bytes(T, I);
    const auto kernel = v16::bucket_sort_kernel<T, I, MB>;
    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes));
    const std::string name = std::to_string(T) + "x" + std::to_string(I) + " v16";
    time_variant(name.c_str(), n, b, timer, [&](cudaStream_t s) {
      kernel<<<v16::kBins, T, bytes, s>>>(b.work, b.start16, b.hist);
    });
  }
  // PROBE_SET=2 in the environment: the second run's set (the first run's pipelined blocks were
  // slower everywhere; 11 and 12 bits led).
  // PROBE_SET=3: 256 x 10 (2^27) at five blocks an SM (48 registers, no spill) against six (40
  // registers; v16's kernel spilled there until 9f9dae1), 11 bits. Run 2026-11-29: five blocks an
  // SM were slower (logs/h200-grid-spill-2026-11-29/).
  // PROBE_SET=5: v16's split with the pads' atomics skipped (as v16 since 7197c25), with and
  // without the early end of the order check (EARLY).
  if (const char* set = std::getenv("PROBE_SET"); set && std::string(set) == "5") {
    constexpr unsigned kLowV16 = v16::bucket_low_bits(T, I);
    constexpr bool kPlainV16 = v16::bucket_plain_counters(T, I);
    run_wide<T, I, MB, kLowV16, kPlainV16, 1>(n, b, timer);
    run_wide<T, I, MB, kLowV16, kPlainV16, 1, true>(n, b, timer);
    return;
  }
  // PROBE_SET=4: v16's own split and counters, with and without the pads' atomics (SKIP).
  if (const char* set = std::getenv("PROBE_SET"); set && std::string(set) == "4") {
    constexpr unsigned kLowV16 = v16::bucket_low_bits(T, I);
    constexpr bool kPlainV16 = v16::bucket_plain_counters(T, I);
    run_wide<T, I, MB, kLowV16, kPlainV16>(n, b, timer);
    run_wide<T, I, MB, kLowV16, kPlainV16, 1>(n, b, timer);
    run_wide<T, I, MB, kLowV16, kPlainV16, 2>(n, b, timer);
    return;
  }
  if (const char* set = std::getenv("PROBE_SET"); set && std::string(set) == "3") {
    if constexpr (T == 256 && I == 10) {
      run_wide<T, I, 6, 11>(n, b, timer);
      run_wide<T, I, 5, 11>(n, b, timer);
      run_wide<T, I, 5, 11, true>(n, b, timer);
      run_wide<T, I, 5, 10>(n, b, timer);
    }
    return;
  }
  if (std::getenv("PROBE_SET")) {
    run_wide<T, I, MB, 10>(n, b, timer);
    run_wide<T, I, MB, 11>(n, b, timer);
    run_wide<T, I, MB, 11, true>(n, b, timer);
    run_wide<T, I, MB, 12>(n, b, timer);
    run_wide<T, I, MB, 12, true>(n, b, timer);
    run_wide<T, I, MB, 13>(n, b, timer);
    run_wide<T, I, MB, 13, true>(n, b, timer);
    return;
  }
  run_wide<T, I, MB, 8>(n, b, timer);
  run_wide<T, I, MB, 10>(n, b, timer);
  run_wide<T, I, MB, 11>(n, b, timer);
  run_wide<T, I, MB, 12>(n, b, timer);
  run_pipe<T, I, MB, 8>(n, b, timer);
  run_pipe<T, I, MB, 10>(n, b, timer);
  run_pipe<T, I, MB, 11>(n, b, timer);
  run_wide<T, I, MB, 8, true>(n, b, timer);
  run_wide<T, I, MB, 11, true>(n, b, timer);
  run_pipe<T, I, MB, 11, true>(n, b, timer);
}

// The 16-bit shape's set (1,024 x 34, from about 1.09e9 keys; whatever PROBE_SET says): v16's
// bucket_sort16_kernel (8 + 8 when this ran, 12 + 4 since 17cd80b) against its first round on 10,
// 11 and 12 bits. A bucket past the block's 34,816 slots (n above about 2.2e9, or few distinct
// keys) is refused, as v16's verdict refuses it.
void run_shape16(size_t n, const Bufs& b, probe_timing::Timer& timer) {
  {
    std::vector<unsigned> h(v16::kBins);
    cudaMemcpy(h.data(), b.hist, v16::kBins * 4, cudaMemcpyDeviceToHost);
    const unsigned most = *std::max_element(h.begin(), h.end());
    if (most > 1024u * 34u) {
      std::printf("n=%zu: a bucket of %u keys does not fit 1,024 x 34 slots\n", n, most);
      return;
    }
  }
  {
    constexpr unsigned bytes = v16::bucket16_smem_bytes(1024, 34);
    const auto kernel = v16::bucket_sort16_kernel<1024, 34>;
    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes));
    time_variant("1024x34 v16", n, b, timer, [&](cudaStream_t s) {
      kernel<<<v16::kBins, 1024, bytes, s>>>(b.work, b.start16, b.hist);
    });
  }
  const auto split = [&](auto low_c) {
    constexpr unsigned LOW = decltype(low_c)::value;
    constexpr unsigned bytes = 4 * bucket16_split_words<1024, 34, LOW>();
    const auto kernel = bucket16_split_kernel<1024, 34, LOW>;
    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes));
    const std::string name = "1024x34 low=" + std::to_string(LOW);
    time_variant(name.c_str(), n, b, timer, [&](cudaStream_t s) {
      kernel<<<v16::kBins, 1024, bytes, s>>>(b.work, b.start16, b.hist);
    });
  };
  const char* set = std::getenv("PROBE_SET");
  const bool set4 = set && std::string(set) == "4";  // v16's kernel and the packed ones only
  if (!set4) {
    split(std::integral_constant<unsigned, 10>{});
    split(std::integral_constant<unsigned, 11>{});
    split(std::integral_constant<unsigned, 12>{});
  }
  const auto packed = [&](auto skip_c) {
    constexpr unsigned SKIP = decltype(skip_c)::value;
    constexpr unsigned bytes = 4 * packed16_words<1024, 34>();
    const auto kernel = bucket_packed16_kernel<1024, 34, SKIP>;
    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes));
    const std::string name = "1024x34 packed skip=" + std::to_string(SKIP);
    time_variant(name.c_str(), n, b, timer, [&](cudaStream_t s) {
      kernel<<<v16::kBins, 1024, bytes, s>>>(b.work, b.start16, b.hist);
    });
  };
  packed(std::integral_constant<unsigned, 0>{});
  packed(std::integral_constant<unsigned, 1>{});
  packed(std::integral_constant<unsigned, 2>{});
  if (set4) return;
  // The cluster variants (run 2026-11-29 at 2^31, both slower than v16's kernel): two blocks of
  // 1,024 x 17 (one an SM), four of 512 x 17 (two an SM, 64 registers).
  const auto cluster = [&](auto c_c, auto t_c, auto i_c) {
    constexpr unsigned C = decltype(c_c)::value, T = decltype(t_c)::value, I = decltype(i_c)::value;
    constexpr unsigned bytes = 4 * bucket_cluster_words<T, I, 12>();
    const auto kernel = bucket_cluster_kernel<C, T, I, 12>;
    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes));
    {  // how many clusters the GPU holds at once (the kernel's own cluster size)
      cudaLaunchConfig_t cfg = {};
      cfg.gridDim = dim3(C * v16::kBins);
      cfg.blockDim = dim3(T);
      cfg.dynamicSmemBytes = bytes;
      int resident = 0;
      const cudaError_t e = cudaOccupancyMaxActiveClusters(&resident, kernel, &cfg);
      std::printf("cluster %u x %ux%u: %d clusters resident%s%s\n", C, T, I, resident,
                  e == cudaSuccess ? "" : ", ", e == cudaSuccess ? "" : cudaGetErrorString(e));
    }
    const std::string name =
        "cluster " + std::to_string(C) + " x " + std::to_string(T) + "x" + std::to_string(I);
    time_variant(name.c_str(), n, b, timer, [&](cudaStream_t s) {
      kernel<<<C * v16::kBins, T, bytes, s>>>(b.work, b.start16, b.hist);
    });
  };
  using U = unsigned;
  cluster(std::integral_constant<U, 2>{}, std::integral_constant<U, 1024>{},
          std::integral_constant<U, 17>{});
  cluster(std::integral_constant<U, 4>{}, std::integral_constant<U, 512>{},
          std::integral_constant<U, 17>{});
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<size_t> sizes;
  for (int a = 1; a < argc; ++a) sizes.push_back(std::strtoull(argv[a], nullptr, 0));
  if (sizes.empty())
    sizes = {size_t(1) << 27, size_t(1) << 28, size_t(1) << 29, (size_t(1) << 30) - 1};
  size_t most = 0;
  for (size_t n : sizes) most = std::max(most, n);
  if (most >= (size_t(1) << 32)) {  // the buckets' starts and sizes are 32-bit
    std::fprintf(stderr, "sizes must be below 2^32 keys\n");
    return 2;
  }
  cudaStream_t s;
  cudaStreamCreate(&s);
  probe_timing::Timer timer(s);
  Bufs b{};
  uint32_t* keys = nullptr;
  cudaMalloc(&keys, most * 4);
  cudaMalloc(&b.grouped, most * 4);
  cudaMalloc(&b.work, most * 4);
  cudaMalloc(&b.ref, most * 4);
  cudaMalloc(&b.start16, v16::kBins * 4);
  cudaMalloc(&b.hist, v16::kBins * 4);
  cudaMalloc(&b.scratch, 8);
  void* temp = nullptr;
  size_t temp_bytes = 0;
  cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, keys, b.ref, most, 0, 32, s);
  cudaMalloc(&temp, temp_bytes);
  for (size_t n : sizes) {
    fill_keys<<<1024, 256, 0, s>>>(keys, n);
    size_t tb = temp_bytes;
    cub::DeviceRadixSort::SortKeys(temp, tb, keys, b.ref, n, 0, 32, s);
    tb = temp_bytes;
    cub::DeviceRadixSort::SortKeys(temp, tb, keys, b.grouped, n, 16, 32, s);
    cudaMemsetAsync(b.hist, 0, v16::kBins * 4, s);
    count_top16<<<1024, 256, 0, s>>>(keys, n, b.hist);
    size_t sb = 0;
    cub::DeviceScan::ExclusiveSum(nullptr, sb, b.hist, b.start16, v16::kBins, s);
    if (sb > temp_bytes) {
      std::fprintf(stderr, "scan temp too large\n");
      return 1;
    }
    cub::DeviceScan::ExclusiveSum(temp, sb, b.hist, b.start16, v16::kBins, s);
    if (cudaStreamSynchronize(s) != cudaSuccess) {
      std::fprintf(stderr, "setup failed: %s\n", cudaGetErrorString(cudaGetLastError()));
      return 1;
    }
    const v16::Shape shape = v16::shape_by_size(n);
    std::printf("n=%zu shape %ux%u\n", n, shape.threads, shape.items);
    if (shape.threads == 256 && shape.items == 10)
      run_shape<256, 10, 6>(n, b, timer);
    else if (shape.threads == 256 && shape.items == 18)
      run_shape<256, 18, 4>(n, b, timer);
    else if (shape.threads == 256 && shape.items == 36)
      run_shape<256, 36, 2>(n, b, timer);
    else if (shape.threads == 1024 && shape.items == 17)
      run_shape<1024, 17, 1>(n, b, timer);
    else if (shape.threads == 1024 && shape.items == 34)
      run_shape16(n, b, timer);
    else
      std::printf("n=%zu: no variant for this shape\n", n);
    std::fflush(stdout);
  }
  return 0;
}
