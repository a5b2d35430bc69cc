// sort/v17_constant_buckets.cuh — sort v17: v16's hybrid road for few distinct keys too. A bucket
// of equal top 16 bits that holds one key value is in order once the two passes by the top digits
// have put its keys in place: it needs no bucket pass, however large it is.
// Technique: v16 sends an input whose buckets do not fit a block (its sample finds a bin with 64
// or more of 262,144 sampled keys) to v15's four passes. v17 looks at those heavy bins' sampled
// keys too (an OR of the keys and an OR of their complements a bin: both share a bit exactly when
// two keys differ). Where every heavy bin's sampled keys are equal, it takes a third road: (0) a
// count of the top 16 bits that does not wrap (each block's 16-bit shared counts are added to
// 32-bit global counts every 61,440 keys), (1, 2) v16's two passes by bits 24-31 and 16-23, then
// a check: one read of the output finds any bucket larger than the bucket pass's block that holds
// two different keys; (3) the bucket pass sorts the buckets that fit and leaves the others in
// place. A check that finds such a bucket (the sample missed it) sends the sort to v15, from the
// input. With every key in a large bucket (few distinct keys), 24 bytes a key cross DRAM instead
// of v15's 36.
// Changes from v16: the sample also records whether a heavy bin's keys are equal; skewed inputs
// whose heavy bins are constant take the third road instead of v15 (uniform inputs run v16's
// road, unchanged).
// Remains (bottleneck): on the third road the two passes (v14's kernels), 73% of its time at 2^28
// on the H200 and at about half the copy ceiling's rate (Nsight Compute, sort/lab/LAB_NOTES.md),
// then the count (one shared atomic a key on few hot counters) and the check's extra read. An
// input with one bucket (every key's top 16 bits equal) runs v15, whose passes copy
// tiles of one digit whole (v08's short circuit). Pairs run v16. Above 2^32 - 1 keys (the last n
// of the 32-bit roads) v17 sorts parts of at most 2^32 - 1 keys on these roads and merges them
// (sort/merge_parts.cuh): one more read and write of every key.
// Source: E. Stehle and H.-A. Jacobsen, "A Memory Bandwidth-Efficient Hybrid Radix Sort on GPUs",
// SIGMOD 2017 (MSD buckets, each sorted only as far as it needs); v16 (the road); CUDA graph
// conditional nodes (NVIDIA, "Dynamic Control Flow in CUDA Graphs with Conditional Nodes", 2024).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "common/device.h"
#include "common/registry.h"
#include "sort/graph_cache.h"
#include "sort/merge_parts.cuh"
#include "sort/v15_counted_ahead.cuh"
#include "sort/v16_top_digits_first.cuh"

namespace ladder::sort::v17 {

inline constexpr VersionDoc kDoc = {
    17, "v17_constant_buckets",
    "v16's hybrid road for few distinct keys: buckets that hold one key value are left in place",
    /*technique*/
    "v16's sample also records, a bin, whether its sampled keys are equal (an OR of the keys and "
    "an OR of their complements). A skewed input (a bin with 64 or more sampled keys) whose heavy "
    "bins are constant takes a third road: a count of the top 16 bits that does not wrap (16-bit "
    "shared counts added to 32-bit global ones every 61,440 keys a block), v16's two passes by "
    "the top digits, one read that checks that every bucket too large for the bucket pass holds "
    "one key value, then v16's bucket pass on the buckets that fit; the others are in order "
    "already. A check that fails sends the sort to v15, from the input.",
    /*changes*/
    "v16 sent every skewed input to v15's four passes; here one whose heavy buckets are constant "
    "takes a count, two passes and a check: 24 bytes a key cross DRAM instead of 36.",
    /*remains*/
    "The two passes and the check's extra read on the third road; inputs with one bucket and "
    "skewed inputs whose heavy buckets hold several values run v15; pairs run v16. Above 2^32 - 1 "
    "keys, parts of at most 2^32 - 1 keys sorted on these roads, then merged by merge path: one "
    "more read and write of every key.",
    /*source*/
    "Stehle & Jacobsen, \"A Memory Bandwidth-Efficient Hybrid Radix Sort on GPUs\", SIGMOD 2017; "
    "v16; CUDA graph conditional nodes"};

using v16::kBins;
using v16::kCountThreads;
using v16::kSampleBlocks;
using v16::kSampleKeys;
using v16::kSampleRefuse;
using v16::kSampleThreads;
inline constexpr size_t kMaxN = parts::kMaxN;  // above v16::kMaxN: sort/merge_parts.cuh
// The third road's count: a block counts 15 rounds of 1,024 threads x 4 keys (61,440 keys, fewer
// than a 16-bit count holds) into its shared counts, then adds them to the global ones.
inline constexpr unsigned kChunkRounds = 15;
static_assert(kChunkRounds * kCountThreads * 4 < 65536, "a chunk's count fits 16 bits");
// The road switch's cases (decide_kernel).
inline constexpr unsigned kRoadBelow = 0, kRoadHybrid = 1, kRoadConstant = 2;

// Whether the sample's check of the heavy bins runs: LADDER_SORT_V17_NO_SAMPLE_CHECK set (the
// tests set it) sends every skewed input to the third road, so that the check after the passes
// is what catches a heavy bucket with two key values.
inline bool sample_check() {
  static const bool on = std::getenv("LADDER_SORT_V17_NO_SAMPLE_CHECK") == nullptr;
  return on;
}

// v16's sample (key floor(i * n / kSampleKeys), counted by its top 16 bits into bins; a bin that
// reaches kSampleRefuse sets v16::kSkewed in *verdict), and for each bin b the OR of its sampled
// keys into ors[b] and of their complements into nors[b]: ors[b] & nors[b] is 0 exactly when the
// bin's sampled keys are all equal. A warp's lanes with one bin add once (their leader), with bit
// 0 set in both words where their keys differ. bins, ors, nors: kBins words each, zeroed.
__global__ void __launch_bounds__(kSampleThreads)
    sample_kernel(const uint32_t* __restrict__ keys, size_t n, unsigned* bins, unsigned* ors,
                  unsigned* nors, unsigned* verdict) {
  const unsigned t = blockIdx.x * kSampleThreads + threadIdx.x;
  const unsigned lane = threadIdx.x % 32;
  uint32_t k[4];
#pragma unroll
  for (unsigned j = 0; j < 4; ++j) {
    const uint64_t i = uint64_t(j) * (kSampleKeys / 4) + t;
    k[j] = keys[i * n / kSampleKeys];
  }
  bool skewed = false;
#pragma unroll
  for (unsigned j = 0; j < 4; ++j) {
    const unsigned b = k[j] >> 16;
    const unsigned peers = __match_any_sync(0xffffffffu, b);
    const unsigned same = __match_any_sync(0xffffffffu, k[j]);
    if (lane == unsigned(__ffs(peers) - 1)) {
      const unsigned c = __popc(peers);
      skewed |= atomicAdd(&bins[b], c) + c >= kSampleRefuse;
      const uint32_t differ = same == peers ? 0u : 1u;
      atomicOr(&ors[b], k[j] | differ);
      atomicOr(&nors[b], ~k[j] | differ);
    }
  }
  if (__syncthreads_or(skewed) && threadIdx.x == 0) atomicOr(verdict, v16::kSkewed);
}

// One block of 1,024 threads. The road: kRoadHybrid (v16's) where the sample did not refuse;
// kRoadConstant where it did and every bin with kSampleRefuse or more sampled keys had them all
// equal (with check false, without looking), unless every sampled key lies in one bin; else
// kRoadBelow (v15, whose passes copy tiles of one digit whole). Into *choice, and with set
// into the switch `road`.
__global__ void __launch_bounds__(1024)
    decide_kernel(const unsigned* verdict, const unsigned* __restrict__ bins,
                  const unsigned* __restrict__ ors, const unsigned* __restrict__ nors, bool check,
                  unsigned* choice, cudaGraphConditionalHandle road, bool set) {
  const bool skewed = *verdict != 0;
  bool mixed = false;
  if (skewed)
    for (unsigned b = threadIdx.x; b < kBins; b += 1024)
      mixed |=
          bins[b] == kSampleKeys || (check && bins[b] >= kSampleRefuse && (ors[b] & nors[b]) != 0);
  mixed = __syncthreads_or(mixed);
  if (threadIdx.x == 0) {
    const unsigned r = !skewed ? kRoadHybrid : mixed ? kRoadBelow : kRoadConstant;
    *choice = r;
    if (set) cudaGraphSetConditional(road, r);
  }
}

// The third road's count: keys[0, n) by their top 16 bits into hist (kBins 32-bit counts,
// zeroed), for any n up to 2^32 - 1. Each block counts chunks of 61,440 keys into its 16-bit
// shared counts (two a word, as v16::count16_kernel; a chunk cannot wrap one), then adds its
// nonzero counts to hist and zeroes them. Few distinct keys
// leave few nonzero counts a chunk. Any alignment: the keys before the first 16-byte boundary and
// after the last whole vector go straight to hist from block 0. One block an SM, 128 KB dynamic
// shared memory.
__global__ void __launch_bounds__(kCountThreads, 1)
    count32_kernel(const uint32_t* __restrict__ keys, size_t n, unsigned* __restrict__ hist) {
  extern __shared__ unsigned h[];
  for (unsigned i = threadIdx.x; i < kBins / 2; i += kCountThreads) h[i] = 0;
  __syncthreads();
  const size_t head = std::min<size_t>(n, ((16 - reinterpret_cast<uintptr_t>(keys) % 16) % 16) / 4);
  const uint4* k4 = reinterpret_cast<const uint4*>(keys + head);
  const size_t vecs = (n - head) / 4;
  // One shared atomic a key. Aggregating a warp's keys of one bin first (__match_any_sync, then
  // one atomic a bin) made the whole sort of `few` at 2^28 about 28% slower on the H200
  // (sort/lab/LAB_NOTES.md).
  const auto count1 = [&](uint32_t key) {
    const unsigned b = key >> 16;
    atomicAdd(&h[b >> 1], 1u << ((b & 1) * 16));
  };
  constexpr unsigned kBatch = 5;
  static_assert(kChunkRounds % kBatch == 0, "whole batches a chunk");
  constexpr size_t kChunk = size_t(kChunkRounds) * kCountThreads;  // vectors a chunk
  for (size_t c0 = blockIdx.x * kChunk; c0 < vecs; c0 += size_t(gridDim.x) * kChunk) {
    for (unsigned r = 0; r < kChunkRounds; r += kBatch) {
      uint4 q[kBatch];
      const size_t v0 = c0 + size_t(r) * kCountThreads + threadIdx.x;
#pragma unroll
      for (unsigned u = 0; u < kBatch; ++u)
        if (v0 + u * kCountThreads < vecs) q[u] = __ldcs(k4 + v0 + u * kCountThreads);
#pragma unroll
      for (unsigned u = 0; u < kBatch; ++u)
        if (v0 + u * kCountThreads < vecs)
          count1(q[u].x), count1(q[u].y), count1(q[u].z), count1(q[u].w);
    }
    __syncthreads();
    for (unsigned i = threadIdx.x; i < kBins / 2; i += kCountThreads) {
      const unsigned w = h[i];
      if (w) {
        h[i] = 0;
        if (w & 0xffffu) atomicAdd(&hist[2 * i], w & 0xffffu);
        if (w >> 16) atomicAdd(&hist[2 * i + 1], w >> 16);
      }
    }
    __syncthreads();
  }
  if (blockIdx.x == 0) {
    if (threadIdx.x < head) atomicAdd(&hist[keys[threadIdx.x] >> 16], 1u);
    const size_t tail = head + vecs * 4;
    if (tail + threadIdx.x < n) atomicAdd(&hist[keys[tail + threadIdx.x] >> 16], 1u);
  }
}

// What v16::reduce16_kernel gives from the blocks' 16-bit counts, from hist (the counts, summed):
// block t (256 of them), thread d, bin b = t * 256 + d: rowpre[b], the counts of bins
// t * 256 .. b - 1; rowsum[t]; *maxbin (zeroed), the largest bin.
__global__ void __launch_bounds__(256)
    rows32_kernel(const unsigned* __restrict__ hist, unsigned* rowpre, unsigned* rowsum,
                  unsigned* maxbin) {
  __shared__ unsigned warp_sums[8];
  const unsigned b = blockIdx.x * 256 + threadIdx.x;
  const unsigned c = hist[b];
  const unsigned pre = radix::block_exclusive_scan(c, warp_sums);
  rowpre[b] = pre;
  if (threadIdx.x == 255) rowsum[blockIdx.x] = pre + c;
  unsigned m = c;
  for (unsigned o = 16; o; o /= 2) m = max(m, __shfl_xor_sync(0xffffffffu, m, o));
  if (threadIdx.x % 32 == 0) atomicMax(maxbin, m);
}

// After the two passes keys[0, n) are grouped by their top 16 bits. Sets *mixed (zeroed) where a
// bucket of more than `slots` keys (hist) holds two different keys, and writes fit[b] = hist[b]
// where that is at most `slots`, else 0 (the bucket pass then leaves bucket b as it is). Each pair
// of neighbours is compared once; a thread reads a 16-byte vector, its lane below's last key by a
// shuffle. Any alignment: block 0 takes the keys before the first 16-byte boundary and after the
// last whole vector. 256 threads a block, eight blocks an SM.
__global__ void __launch_bounds__(256)
    check_kernel(const uint32_t* __restrict__ keys, size_t n, const unsigned* __restrict__ hist,
                 unsigned slots, unsigned* __restrict__ fit, unsigned* mixed) {
  const size_t stride = size_t(gridDim.x) * 256;
  for (size_t b = blockIdx.x * 256 + threadIdx.x; b < kBins; b += stride) {
    const unsigned c = hist[b];
    fit[b] = c <= slots ? c : 0u;
  }
  // a and b neighbours (a first) in one bucket too large for the bucket pass, and different
  const auto bad = [&](uint32_t a, uint32_t b) {
    return a != b && (a >> 16) == (b >> 16) && hist[b >> 16] > slots;
  };
  const size_t head = std::min<size_t>(n, ((16 - reinterpret_cast<uintptr_t>(keys) % 16) % 16) / 4);
  const uint4* k4 = reinterpret_cast<const uint4*>(keys + head);
  const size_t vecs = (n - head) / 4;
  const unsigned lane = threadIdx.x % 32;
  bool found = false;
  // Whole warps step together (the shuffle), a lane past the end holding no vector; two vectors
  // a step, `stride` apart, both loaded before either is compared (bytes in flight).
  constexpr unsigned kUnroll = 2;
  for (size_t v0 = blockIdx.x * size_t(256) + (threadIdx.x & ~31u); v0 < vecs;
       v0 += kUnroll * stride) {
    uint4 q[kUnroll];
#pragma unroll
    for (unsigned u = 0; u < kUnroll; ++u) {
      const size_t v = v0 + u * stride + lane;
      q[u] = v < vecs ? __ldcs(k4 + v) : make_uint4(0, 0, 0, 0);
    }
#pragma unroll
    for (unsigned u = 0; u < kUnroll; ++u) {
      const size_t v = v0 + u * stride + lane;
      uint32_t prev = __shfl_up_sync(0xffffffffu, q[u].w, 1);
      if (lane == 0 && v < vecs) prev = head + 4 * v > 0 ? keys[head + 4 * v - 1] : q[u].x;
      if (v < vecs)
        found |=
            bad(prev, q[u].x) || bad(q[u].x, q[u].y) || bad(q[u].y, q[u].z) || bad(q[u].z, q[u].w);
    }
  }
  if (blockIdx.x == 0) {
    const size_t tail = head + vecs * 4;
    for (size_t i = threadIdx.x; i < head; i += 256)
      if (i > 0) found |= bad(keys[i - 1], keys[i]);
    for (size_t i = tail + threadIdx.x; i < n; i += 256)
      if (i > 0) found |= bad(keys[i - 1], keys[i]);
  }
  if (__syncthreads_or(found) && threadIdx.x == 0) *mixed = 1;
}

// The workspace: v16's (v16::workspace_bytes), then v17's own parts.
struct Extra {
  unsigned* zeroed;  // zeroed per sort: ors, nors and the flags below
  size_t zeroed_bytes;
  unsigned *ors, *nors;  // the sample's ORs, kBins words each
  unsigned* choice;      // decide_kernel's road
  unsigned* refused;  // the third road's starts verdict: v16::kTooLarge where one bucket holds all
  unsigned* mixed;    // check_kernel's flag
  unsigned* hist;     // the third road's count, kBins words (zeroed on that road)
  unsigned* fit;      // the bucket pass's counts on that road, kBins words
};
inline size_t extra_bytes() {
  using v06::round256;
  return round256(256 + 2 * size_t(kBins) * 4) + 2 * round256(size_t(kBins) * 4);
}
inline size_t workspace_bytes(size_t n) {
  if (parts::runs(n))
    return parts::workspace_bytes(n, false, [](size_t m) { return workspace_bytes(m); });
  return v06::round256(v16::workspace_bytes(n)) + (n <= v16::hybrid_to() ? extra_bytes() : 0);
}
inline Extra extra_of(void* ws, size_t n) {
  using v06::round256;
  char* p = static_cast<char*>(ws) + round256(v16::workspace_bytes(n));
  Extra x;
  x.zeroed = reinterpret_cast<unsigned*>(p);
  x.zeroed_bytes = 256 + 2 * size_t(kBins) * 4;
  x.choice = x.zeroed;
  x.refused = x.zeroed + 1;
  x.mixed = x.zeroed + 2;
  x.ors = x.zeroed + 64;
  x.nors = x.ors + kBins;
  p += round256(x.zeroed_bytes);
  x.hist = reinterpret_cast<unsigned*>(p);
  x.fit = reinterpret_cast<unsigned*>(p + round256(size_t(kBins) * 4));
  return x;
}

// The head: the zeroing, the sample and the road (decide_kernel), onto stream.
inline void head_on(const v16::Call& c, const v16::Parts& w, const Extra& x,
                    cudaGraphConditionalHandle road, bool set, cudaStream_t stream) {
  cudaMemsetAsync(w.zeroed, 0, w.zeroed_bytes, stream);
  cudaMemsetAsync(x.zeroed, 0, x.zeroed_bytes, stream);
  sample_kernel<<<kSampleBlocks, kSampleThreads, 0, stream>>>(c.keys_in, c.n, w.sample_bins, x.ors,
                                                              x.nors, w.verdict);
  decide_kernel<<<1, 1024, 0, stream>>>(w.verdict, w.sample_bins, x.ors, x.nors, sample_check(),
                                        x.choice, road, set);
}

// The third road's count and starts, onto stream: with set, the switch `road` becomes 1 (go on)
// unless one bucket holds every key (then 0: v15, whose passes copy tiles of one digit whole).
inline void constant_count_on(const v16::Call& c, const v16::Parts& w, const Extra& x,
                              cudaGraphConditionalHandle road, bool set, cudaStream_t stream) {
  static const cudaError_t attr = cudaFuncSetAttribute(
      count32_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kBins * 2));
  (void)attr;  // a failure shows as the launch's error
  cudaMemsetAsync(x.hist, 0, size_t(kBins) * 4, stream);
  count32_kernel<<<v16::count_blocks(), kCountThreads, kBins * 2, stream>>>(c.keys_in, c.n, x.hist);
  rows32_kernel<<<kBins / 256, 256, 0, stream>>>(x.hist, w.rowpre, w.rowsum, w.maxbin);
  // A bin above n - 1 keys holds them all.
  v16::starts16_kernel<<<256, 256, 0, stream>>>(x.hist, w.rowpre, w.rowsum, w.maxbin,
                                                static_cast<unsigned>(c.n - 1), x.refused, w.bases8,
                                                w.start16, w.base16, road, set);
}

// The third road's two passes and the check, onto stream: with set, the switch `road` becomes 1
// (the bucket pass) where no large bucket holds two key values, else 0 (v15).
inline void constant_passes_on(const v16::Call& c, const v16::Parts& w, const Extra& x,
                               v16::Shape shape, cudaGraphConditionalHandle road, bool set,
                               cudaStream_t stream) {
  v16::passes_on<false>(c.keys_in, nullptr, c.keys_out, nullptr, c.n, w, shape, stream, false);
  check_kernel<<<8 * current_sm_count(), 256, 0, stream>>>(c.keys_out, c.n, x.hist, shape.slots(),
                                                           x.fit, x.mixed);
  v16::road_kernel<<<1, 1, 0, stream>>>(x.mixed, road, set);
}

// The bucket pass on the buckets that fit (x.fit), onto stream.
inline void constant_buckets_on(const v16::Call& c, v16::Parts w, const Extra& x, v16::Shape shape,
                                cudaStream_t stream) {
  w.hist = x.fit;
  v16::bucket_pass_on(c.keys_out, nullptr, w, shape, stream);
}

// The sort (v16::hybrid_runs(n)) as a CUDA graph: the head (zeroing, sample, road), then a switch:
// v15; v16's road (its count, then a switch: v15 or the three passes); or the third road (its
// count, then a switch: v15 or the two passes and the check, then a switch: v15 or the bucket
// pass). cs: a stream to capture on.
inline cudaError_t build_graph(const v16::Call& c, cudaStream_t cs, cudaGraphExec_t* exec) {
  const v16::Parts w = c.parts();
  const Extra x = extra_of(c.ws, c.n);
  const v16::Shape shape = c.shape();
  cudaGraph_t g = nullptr;
  cudaError_t e = cudaGraphCreate(&g, 0);
  if (e != cudaSuccess) return e;
  cudaGraphConditionalHandle road{};
  e = cudaGraphConditionalHandleCreate(&road, g, 0, 0);
  cudaGraphNode_t last = nullptr;
  if (e == cudaSuccess)
    last = v16::capture_head(
        g, cs, [&] { head_on(c, w, x, road, true, cs); }, e);
  // A body: work(road2) captured into body, then a two-way switch on road2 (v15, or next(graph)).
  const auto stage = [&](cudaGraph_t body, auto work, auto next) {
    cudaGraphConditionalHandle road2{};
    cudaError_t eb = cudaGraphConditionalHandleCreate(&road2, body, 0, 0);
    if (eb != cudaSuccess) return eb;
    const cudaGraphNode_t done = v16::capture_head(
        body, cs, [&] { work(road2); }, eb);
    if (eb != cudaSuccess) return eb;
    return v16::add_switch(body, done, road2, c, cs, next);
  };
  const auto hybrid = [&](cudaGraph_t body) {
    return stage(
        body,
        [&](cudaGraphConditionalHandle r) {
          v16::count_on(c.keys_in, c.n, w, shape.slots(), r, true, cs);
        },
        [&](cudaGraph_t passes) {
          return v16::capture_into(passes, cs, [&] { v16::road_on(c, w, shape, cs); });
        });
  };
  const auto constant = [&](cudaGraph_t body) {
    return stage(
        body, [&](cudaGraphConditionalHandle r) { constant_count_on(c, w, x, r, true, cs); },
        [&](cudaGraph_t passes) {
          return stage(
              passes,
              [&](cudaGraphConditionalHandle r) {
                constant_passes_on(c, w, x, shape, r, true, cs);
              },
              [&](cudaGraph_t buckets) {
                return v16::capture_into(buckets, cs,
                                         [&] { constant_buckets_on(c, w, x, shape, cs); });
              });
        });
  };
  if (e == cudaSuccess) e = v16::add_switch(g, last, road, c, cs, hybrid, constant);
  if (e == cudaSuccess) e = cudaGraphInstantiate(exec, g, 0);
  cudaGraphDestroy(g);
  return e;
}

// The sort launcher contract (sort/sort.h). ws: workspace_bytes(n) (unused up to 16,384 keys).
// Above parts::largest() (2^32 - 1), parts sorted by this launcher and merged
// (sort/merge_parts.cuh). Where v16::hybrid_runs(n), the graph of build_graph (built on the first
// call for its device, pointers and n, and kept: sort/graph_cache.h); elsewhere v15.
// LADDER_NO_GRAPHS: the same kernels with no graph, each road chosen on the host after reading its
// flag back (that waits on the GPU: time it only with --no-blocking). Not safe to call from two
// host threads at once. Errors: those of the CUDA calls.
inline cudaError_t launch(const uint32_t* keys_in, uint32_t* keys_out, size_t n, void* ws,
                          cudaStream_t stream) {
  if (parts::runs(n))
    return parts::launch(
        keys_in, nullptr, keys_out, nullptr, n, ws, stream,
        [](const uint32_t* in, const uint32_t*, uint32_t* out, uint32_t*, size_t m, void* part_ws,
           cudaStream_t s) { return launch(in, out, m, part_ws, s); });
  if (!v16::hybrid_runs(n)) return v15::launch(keys_in, keys_out, n, ws, stream);
  const v16::Call c{keys_in, nullptr, keys_out, nullptr, n, ws};
  static const bool no_graphs = std::getenv("LADDER_NO_GRAPHS") != nullptr;
  if (no_graphs) {
    const v16::Parts w = c.parts();
    const Extra x = extra_of(ws, n);
    const v16::Shape shape = c.shape();
    const auto read = [&](const unsigned* flag, unsigned* to) {
      cudaError_t e = cudaMemcpyAsync(to, flag, 4, cudaMemcpyDeviceToHost, stream);
      return e == cudaSuccess ? cudaStreamSynchronize(stream) : e;
    };
    const cudaGraphConditionalHandle none{};
    unsigned flag = 0;
    head_on(c, w, x, none, false, stream);
    cudaError_t e = read(x.choice, &flag);
    if (e != cudaSuccess) return e;
    if (flag == kRoadBelow) return v16::fallback_on(c, stream);
    if (flag == kRoadHybrid) {
      v16::count_on(keys_in, n, w, shape.slots(), none, false, stream);
      if ((e = read(w.verdict, &flag)) != cudaSuccess) return e;
      if (flag) return v16::fallback_on(c, stream);
      v16::road_on(c, w, shape, stream);
      return cudaGetLastError();
    }
    constant_count_on(c, w, x, none, false, stream);
    if ((e = read(x.refused, &flag)) != cudaSuccess) return e;
    if (flag) return v16::fallback_on(c, stream);
    constant_passes_on(c, w, x, shape, none, false, stream);
    if ((e = read(x.mixed, &flag)) != cudaSuccess) return e;
    if (flag) return v16::fallback_on(c, stream);
    constant_buckets_on(c, w, x, shape, stream);
    return cudaGetLastError();
  }
  static GraphCache cache;
  return cache.launch(keys_in, keys_out, ws, n, stream, [&](cudaStream_t cs, cudaGraphExec_t* ex) {
    return v17::build_graph(c, cs, ex);
  });
}

// Every boundary of the dispatch on this device: v16's, and the last n of the 32-bit roads.
inline std::vector<size_t> dispatch_bounds() {
  std::vector<size_t> b = v16::dispatch_bounds();
  b.push_back(parts::largest());
  std::sort(b.begin(), b.end());
  b.erase(std::unique(b.begin(), b.end()), b.end());
  return b;
}

}  // namespace ladder::sort::v17
