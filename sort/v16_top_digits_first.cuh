// sort/v16_top_digits_first.cuh — sort v16: the top digits first, a hybrid radix sort. Count the
// keys by their top 16 bits, sort them by bits 24-31 and then 16-23 with v14's passes, and every
// key lies in its bucket of equal top 16 bits; one block then sorts each bucket in shared memory.
// Technique: three passes over DRAM instead of four, 28 bytes a key against v14's 36. (0) One read
// counts the top 16 bits into 65,536 bins (two 16-bit counts a shared-memory word) and scans each
// bin's start. (1) v14's pass by bits 24-31. (2) v14's pass by bits 16-23 with BucketPolicy: its
// input is grouped by the top digit, so the look-back's count of a digit's keys before a key, less
// that digit's keys under lower top digits, places the key inside its bucket. (3) One block a
// bucket (about 4,096 keys at 2^28) sorts its low 16 bits with v07's one-block sort in two rounds
// and writes it back in place, coalesced: the low 10 to 12 bits by one shared atomic a key
// (unstable: the order inside a bucket means nothing yet), the other 4 to 6 by ballots (stable).
// An atomic costs the same at any width, a ballot round one vote a bit, so the first round takes
// bits until scanning its counters costs more than the votes save (bucket_low_bits). The slots
// past a bucket's keys take no atomic, and a bucket in order is left (a warp whose first row, its
// 32 slots and the next, is out of order stops checking there). A sample of 262,144 keys,
// then the exact count, send inputs whose buckets do not fit a block (few distinct keys) to v15,
// on the GPU: a CUDA graph's switch nodes.
// Changes from v15: v15 ranked and scattered every key in four passes over DRAM; here two passes
// do, and the third sorts on the SMs with no look-back and no scattered stores.
// Remains (bottleneck): the bucket pass, bound by the SMs: it issues on about half its cycles at
// 7.8 warps a scheduler and takes about a third of the sort at 2^28 (H200; sort/lab/LAB_NOTES.md);
// from about 272M keys its larger blocks leave fewer warps an SM, and from about 563M keys one
// 1,024-thread block an SM. Few distinct keys: v15.
// Source: E. Stehle and H.-A. Jacobsen, "A Memory Bandwidth-Efficient Hybrid Radix Sort on GPUs",
// SIGMOD 2017 (MSD passes, then on-chip sorts of the buckets); A. Adinets and D. Merrill,
// "Onesweep", 2022 (the passes); v07's one-block sort; CUDA graph conditional nodes (NVIDIA,
// "Dynamic Control Flow in CUDA Graphs with Conditional Nodes", 2024). Its probe:
// sort/lab/LAB_NOTES.md.
//
// Details. Each bin's start is one thread's work (the starts kernel: 256 blocks, one a column of
// bins), and the second pass checks a key's top digit only in the few tiles that hold two top
// digits. Large inputs: from 1,073,740,801 keys the two passes run in portions of fewer than 2^30
// keys (v12's scheme, for their 30-bit look-back counts), pass 2's 256 x 256 starts shifted per
// portion by the earlier portions' counts (shift_bases_kernel); from about 1.09e9 keys the buckets
// (34,816 slots) are sorted on their low 16 bits only, each thread's 34 keys and 34 ranks held
// two to a register, in rounds of 12 and 4 bits (bucket_sort16_kernel); its warps that hold no key
// (half of them when a bucket is half full) sit the rounds out. The road runs from 2^27 keys up to
// about 2.2e9 (the most that 34,816 slots hold) where a block may have the count's 128 KB of shared
// memory (an A100 or a Hopper GPU); elsewhere, and for refused inputs, v15.
// Pairs (launch_pairs) take the same road from 2^27 to about 1.09e9 pairs where a block may have
// 172,160 bytes of shared memory (1,024 x 17 slots; a Hopper GPU), to about 563M where it may have
// less (256 x 36); there is no 16-bit bucket pass for pairs. The two passes move the values as
// v12's pairs passes do (a tile of pass 2 that straddles two top digits sends each value straight
// to its key's place), and the bucket pass (bucket_sort_pairs_kernel) sorts one word a slot, the
// key's low 16 bits above its index in the bucket, with two stable rounds of ballots, each word
// then fetching its value from shared memory: 52 bytes a pair against v12's 68. Elsewhere, and
// for refused inputs, v12. Above 2^32 - 1 pairs (v12's and v15's last n), launch_pairs sorts parts
// of at most 2^32 - 1 pairs on these roads and merges them stably (sort/merge_parts.cuh); the
// suite's sort_pairs problem stops below that, its values being 32-bit input indices.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <vector>

#include "common/arch.cuh"
#include "common/device.h"
#include "common/registry.h"
#include "scan/warp_scan.cuh"
#include "sort/graph_cache.h"
#include "sort/merge_parts.cuh"
#include "sort/radix_rank.cuh"
#include "sort/v06_onesweep_ballot.cuh"
#include "sort/v08_short_circuit.cuh"
#include "sort/v10_narrow_status.cuh"
#include "sort/v12_large_tiles.cuh"
#include "sort/v14_l2_prefetch.cuh"
#include "sort/v15_counted_ahead.cuh"

namespace ladder::sort::v16 {

inline constexpr VersionDoc kDoc = {
    16, "v16_top_digits_first",
    "Hybrid radix sort: two one-sweep passes by the top digits, then each 16-bit bucket in a block",
    /*technique*/
    "From 2^27 keys: one read counts the keys by their top 16 bits (65,536 bins, two 16-bit "
    "counts a shared-memory word); v14's pass sorts them by bits 24-31, then by bits 16-23 with "
    "each bucket's start taken from the counts; each bucket of equal top 16 bits (about 4,096 "
    "keys at 2^28; 256 to 1,024 threads a block by n) is sorted by one block in shared memory on "
    "its low 16 bits (v07's one-block "
    "sort: the low 10 to 12 bits ranked by shared atomics, the other bits by ballots; 12 + 4 "
    "bits, keys and ranks two to a register, in the largest buckets' 16-bit kernel) and "
    "written back in place, coalesced. A "
    "sample of the keys, then the exact count, send inputs whose buckets do not fit a block to "
    "v15, chosen on the GPU by a CUDA graph's switch nodes. Pairs take the same road from 2^27 to "
    "about 1.09e9 pairs on a Hopper GPU (563M with less shared memory), the bucket pass sorting a "
    "word a slot (the key's low 16 bits above its "
    "index in the bucket) with two stable ballot rounds, then fetching each value; else v12.",
    /*changes*/
    "v15 ranked and scattered every key in four passes over DRAM; here two passes do, and the "
    "third sorts each bucket on the SMs with no look-back and no scattered stores: 28 bytes a "
    "key cross DRAM instead of 36 (pairs: 52 bytes instead of v12's 68).",
    /*remains*/
    "The bucket pass, bound by the SMs (two rankings a key, issued on about half its cycles), "
    "and from about 272M to 563M keys its 256 x 36 blocks leave 16 warps an SM; from 563M keys "
    "one 1,024-thread block an SM. Inputs with few distinct keys and sizes outside [2^27, about "
    "2.2e9] (on an A100 or a Hopper GPU; every size where a block has less than 128 KB of shared "
    "memory) run v15. From 1,073,740,801 keys the two passes run in "
    "portions (v12's scheme). Pairs' bucket pass ranks with ballots in both rounds.",
    /*source*/
    "Stehle & Jacobsen, \"A Memory Bandwidth-Efficient Hybrid Radix Sort on GPUs\", SIGMOD "
    "2017; Adinets & Merrill, \"Onesweep\", 2022; v07's one-block sort; CUDA graph conditional "
    "nodes"};

using v06::kDigits;
inline constexpr size_t kMaxN = v15::kMaxN;
inline constexpr size_t kMaxNPairs = parts::kMaxN;  // pairs above kMaxN: sort/merge_parts.cuh
inline constexpr unsigned kBins = 65536;            // buckets: the keys' top 16 bits
inline constexpr unsigned kCountThreads = 1024;     // the count: one block an SM
inline constexpr unsigned kMaxCountBlocks = 256;    // at most this many counting blocks
inline constexpr unsigned kSampleThreads = 256;     // the sample: 256 blocks of 256 threads,
inline constexpr unsigned kSampleBlocks = 256;      //   four keys a thread
inline constexpr unsigned kSampleKeys = kSampleThreads * kSampleBlocks * 4;
inline constexpr unsigned kSampleRefuse = 64;  // a bin with this many sampled keys refuses
inline constexpr size_t kHybridFrom = size_t(1) << 27;
inline constexpr unsigned kWrapped = 1, kTooLarge = 2, kSkewed = 4;  // the verdict's bits

// The first n that takes the hybrid road: kHybridFrom, or the count of keys in the environment
// variable LADDER_SORT_V16_HYBRID_FROM (the tests set it to run the road at small sizes; never
// below 65,536 keys). A value that is not a decimal count is reported once and ignored.
inline size_t hybrid_from() {
  static const size_t from = [] {
    const char* e = std::getenv("LADDER_SORT_V16_HYBRID_FROM");
    if (!e) return kHybridFrom;
    char* end = nullptr;
    const unsigned long long x = std::strtoull(e, &end, 10);
    if (end != e && *end == '\0' && e[0] != '-') return std::max<size_t>(x, kBins);
    std::fprintf(stderr,
                 "sort v16: LADDER_SORT_V16_HYBRID_FROM=%s is not a count of keys; ignored\n", e);
    return kHybridFrom;
  }();
  return from;
}
// The count needs 128 KB of shared memory in one block (an A100 or a Hopper GPU gives it; GPUs of
// compute capability 8.6 and 8.9 give at most 99 KB): elsewhere v15 runs at every size.
inline bool count_fits() { return current_smem_per_block_optin() >= size_t(kBins) * 2; }

// The bucket pass's block: THREADS x ITEMS key slots. By n, the fewest slots that hold a bucket of
// uniform keys (the mean, six standard deviations and 64 more): 256 threads, 4 to 36 keys a
// thread (256 x 36 from about 272M keys), then 1,024 threads x 17 (a block may not hold more
// registers or threads; from about 563M keys), then 1,024 x 34 (from about 1.09e9 keys; its keys
// and ranks held two to a register: bucket_sort16_kernel). More threads a block for the same
// slots measured slower (sort/lab/LAB_NOTES.md).
struct Shape {
  unsigned threads, items;
  unsigned slots() const { return threads * items; }
};
inline constexpr Shape kShapes[] = {{256, 4},  {256, 10},  {256, 18},
                                    {256, 36}, {1024, 17}, {1024, 34}};
inline Shape shape_by_size(size_t n) {
  const double mean = double(n) / kBins;
  const double need = mean + 6 * std::sqrt(mean) + 64;
  for (const Shape& s : kShapes)
    if (need <= s.slots()) return s;
  return kShapes[std::size(kShapes) - 1];  // the exact count refuses a bucket that does not fit
}
// The bits of a bucket's first round in bucket_sort_kernel, by its slots: the low 10 (256 x 4),
// 11 (256 x 10) or 12 bits (from 256 x 18) are ranked by one shared atomic a key, whose cost does
// not grow with the bits; the second round ranks the other 6, 5 or 4 with one ballot a bit. More
// bits in the first round cost more counters to scan than ballots they save (13 bits measured
// slower at every shape but 1,024 x 17: sort/lab/probe_bucket_bits.cu, H200).
constexpr unsigned bucket_low_bits(unsigned threads, unsigned items) {
  return threads * items <= 1024 ? 10 : threads * items <= 2560 ? 11 : 12;
}
// Whether the second round's per-warp counters are updated by a plain load and store (from
// 9,216 slots, where that measured faster) instead of a leader's shared atomic and a shuffle.
constexpr bool bucket_plain_counters(unsigned threads, unsigned items) {
  return threads * items >= 9216;
}
// The bucket pass's shared memory, in bytes: bucket_sort_kernel's slots (4 bytes each), its
// second round's per-warp counters, its first round's counters (padded) and the scan's sums.
constexpr unsigned bucket_smem_bytes(unsigned threads, unsigned items) {
  const unsigned low = 1u << bucket_low_bits(threads, items), high = 65536u / low;
  return 4 * (threads * items + threads / 32 * high + low + low / 16 + threads / 32);
}
// The bits of bucket_sort16_kernel's first round (its second ranks the other 4 by ballots): 12,
// as bucket_sort_kernel's from 256 x 18 (at 2^31 keys the fastest of 8, 10, 11 and 12 on the H200:
// sort/lab/probe_bucket_bits.cu).
inline constexpr unsigned kBucket16Low = 12;
// bucket_sort16_kernel's shared memory, in bytes: 2 bytes a slot, the second round's per-warp
// counters, the first round's counters (padded) and the scan's sums.
constexpr unsigned bucket16_smem_bytes(unsigned threads, unsigned items) {
  const unsigned low = 1u << kBucket16Low, high = 65536u / low;
  return 4 * (threads * items / 2 + threads / 32 * high + low + low / 16 + threads / 32);
}
// The bucket pass for pairs' shared memory, in bytes (bucket_sort_pairs_kernel: a word and a value
// a slot, the warps' counters).
constexpr unsigned bucket_pairs_smem_bytes(unsigned threads, unsigned items) {
  return 4 * (2 * threads * items + threads / 32 * kDigits + threads / 32);
}
// Pairs have no 16-bit bucket pass: their largest shape is 1,024 x 17.
inline bool pairs_shape(const Shape& s) { return !(s.threads == 1024 && s.items == 34); }
// The keys' bucket pass's shared memory for shape s, in bytes.
inline unsigned keys_smem_bytes(const Shape& s) {
  return pairs_shape(s) ? bucket_smem_bytes(s.threads, s.items)
                        : bucket16_smem_bytes(s.threads, s.items);
}
// The road's last n on this device: the largest n whose bucket of uniform keys the largest shape
// that fits a block's shared memory holds (keys: 1,024 x 34, about 2.2e9 keys, where a block has
// 89,216 bytes, as every GPU whose block holds the count's 128 KB; pairs: 1,024 x 17 where a block
// has at least 172,160 bytes, else 256 x 36, about 563M), at most kMaxN. From
// 1,073,740,801 keys (pairs 1,073,735,681) the two passes run in portions of fewer than 2^30 keys
// (their 30-bit look-back counts).
inline size_t hybrid_to_for(bool pairs) {
  unsigned slots = 0;
  for (const Shape& s : kShapes) {
    const unsigned bytes = pairs ? bucket_pairs_smem_bytes(s.threads, s.items) : keys_smem_bytes(s);
    if ((!pairs || pairs_shape(s)) && bytes <= current_smem_per_block_optin())
      slots = std::max(slots, s.slots());
  }
  const auto fits = [slots](size_t n) {
    const double mean = double(n) / kBins;
    return mean + 6 * std::sqrt(mean) + 64 <= slots;
  };
  size_t lo = kHybridFrom, hi = kMaxN;  // by bisection
  while (lo < hi) {
    const size_t mid = lo + (hi - lo + 1) / 2;
    if (fits(mid))
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}
inline size_t hybrid_to() { return hybrid_to_for(false); }
inline size_t hybrid_to_pairs() { return hybrid_to_for(true); }
inline bool hybrid_runs(size_t n) { return n >= hybrid_from() && n <= hybrid_to() && count_fits(); }
inline bool hybrid_runs_pairs(size_t n) {
  return n >= hybrid_from() && n <= hybrid_to_pairs() && count_fits();
}
// shape_by_size(n), or the shape in the environment variable LADDER_SORT_V16_BUCKET, "256x36"
// (THREADSxITEMS, one of kShapes; the tests set it to run each bucket kernel at small sizes). A
// value that names no shape is reported once and ignored.
inline Shape shape_for(size_t n) {
  static const int forced = [] {
    const char* e = std::getenv("LADDER_SORT_V16_BUCKET");
    if (!e) return -1;
    unsigned t = 0, i = 0;
    char extra = 0;
    if (std::sscanf(e, "%ux%u%c", &t, &i, &extra) == 2)
      for (size_t k = 0; k < std::size(kShapes); ++k)
        if (kShapes[k].threads == t && kShapes[k].items == i) return int(k);
    std::fprintf(stderr, "sort v16: LADDER_SORT_V16_BUCKET=%s names no bucket shape; ignored\n", e);
    return -1;
  }();
  return forced >= 0 ? kShapes[forced] : shape_by_size(n);
}
// Pairs: shape_for(n), where 1,024 x 34 (forced; pairs do not reach it by size) becomes 1,024 x 17.
inline Shape shape_for_pairs(size_t n) {
  const Shape s = shape_for(n);
  return pairs_shape(s) ? s : Shape{1024, 17};
}

// Counts keys[0, n) by their top 16 bits into partial[blockIdx.x * kBins / 2 + bin / 2] (two
// 16-bit counts a word, the odd bin's high). A count that wraps sets kWrapped in *verdict (the
// counts are then not used). Any alignment: the keys before the first 16-byte boundary and after
// the last whole vector are counted one at a time by block 0. One block an SM, 128 KB dynamic
// shared memory.
__global__ void __launch_bounds__(kCountThreads, 1)
    count16_kernel(const uint32_t* __restrict__ keys, size_t n, unsigned* partial,
                   unsigned* verdict) {
  extern __shared__ unsigned h[];
  for (unsigned i = threadIdx.x; i < kBins / 2; i += kCountThreads) h[i] = 0;
  __syncthreads();
  const size_t head = std::min<size_t>(n, ((16 - reinterpret_cast<uintptr_t>(keys) % 16) % 16) / 4);
  const uint4* k4 = reinterpret_cast<const uint4*>(keys + head);
  const size_t vecs = (n - head) / 4;
  bool wrapped = false;
  const auto add = [&](unsigned bin, unsigned c) {
    const unsigned sh = (bin & 1) * 16;
    const unsigned old = atomicAdd(&h[bin >> 1], c << sh);
    wrapped |= ((old >> sh) & 0xffffu) + c > 0xffffu;
  };
  // Four keys; where every active lane's four keys share one bin (sorted input, one key value),
  // the lowest lane adds them all with one atomic instead of 128 on one address.
  const auto count4 = [&](const uint4& q) {
    const unsigned m = __activemask();
    const unsigned b0 = q.x >> 16;
    const bool same4 = (q.y >> 16) == b0 && (q.z >> 16) == b0 && (q.w >> 16) == b0;
    const unsigned first = __ffs(m) - 1;
    const unsigned lead = __shfl_sync(m, b0, first);
    if (__all_sync(m, same4 && b0 == lead)) {
      if (threadIdx.x % 32 == first) add(b0, 4 * __popc(m));
    } else {
      add(b0, 1), add(q.y >> 16, 1), add(q.z >> 16, 1), add(q.w >> 16, 1);
    }
  };
  constexpr unsigned kUnroll = 4;
  const size_t stride = size_t(gridDim.x) * kCountThreads;
  size_t v = blockIdx.x * size_t(kCountThreads) + threadIdx.x;
  for (; v + (kUnroll - 1) * stride < vecs; v += kUnroll * stride) {
    uint4 q[kUnroll];
#pragma unroll
    for (unsigned u = 0; u < kUnroll; ++u) q[u] = __ldcs(k4 + v + u * stride);
#pragma unroll
    for (unsigned u = 0; u < kUnroll; ++u) count4(q[u]);
  }
  for (; v < vecs; v += stride) count4(__ldcs(k4 + v));
  if (blockIdx.x == 0) {
    if (threadIdx.x < head) add(keys[threadIdx.x] >> 16, 1);
    const size_t tail = head + vecs * 4;
    if (tail + threadIdx.x < n) add(keys[tail + threadIdx.x] >> 16, 1);
  }
  if (__syncthreads_or(wrapped) && threadIdx.x == 0) atomicOr(verdict, kWrapped);
  for (unsigned i = threadIdx.x; i < kBins / 2; i += kCountThreads)
    partial[blockIdx.x * (kBins / 2) + i] = h[i];
}

// Block t (256 of them), thread d, bin b = t * 256 + d: hist[b], the blocks' counts summed;
// rowpre[b], the counts of bins t * 256 .. b - 1; rowsum[t]; *maxbin, the largest bin.
__global__ void __launch_bounds__(256)
    reduce16_kernel(const unsigned* partial, unsigned blocks, unsigned* hist, unsigned* rowpre,
                    unsigned* rowsum, unsigned* maxbin) {
  __shared__ unsigned warp_sums[8];
  const unsigned b = blockIdx.x * 256 + threadIdx.x;
  unsigned c = 0;
  for (unsigned k = 0; k < blocks; ++k)
    c += (partial[k * (kBins / 2) + b / 2] >> ((b & 1) * 16)) & 0xffffu;
  hist[b] = c;
  const unsigned pre = radix::block_exclusive_scan(c, warp_sums);
  rowpre[b] = pre;
  if (threadIdx.x == 255) rowsum[blockIdx.x] = pre + c;
  unsigned m = c;
  for (unsigned o = 16; o; o /= 2) m = max(m, __shfl_xor_sync(0xffffffffu, m, o));
  if (threadIdx.x % 32 == 0) atomicMax(maxbin, m);
}

// 256 blocks of 256: block d takes column d of the 256 x 256 bins (bin b = u * 256 + d, thread u),
// so that every bin is read and written once and no thread waits on another's store. bases8[u]:
// the start of top digit u (pass 1's bases; block 0 writes them); start16[b]: bin b's start;
// base16[b] = start16[b] less the keys with digit d and a top digit below u (pass 2's bases,
// BucketPolicy): the exclusive scan of the column. Then block 0 gives the verdict: kTooLarge
// where a bin exceeds `slots`; with set, the switch `road` becomes 1 (the hybrid's passes) if the
// verdict is clean, else 0.
__global__ void __launch_bounds__(256)
    starts16_kernel(const unsigned* __restrict__ hist, const unsigned* __restrict__ rowpre,
                    const unsigned* __restrict__ rowsum, const unsigned* maxbin, unsigned slots,
                    unsigned* verdict, unsigned* __restrict__ bases8,
                    unsigned* __restrict__ start16, unsigned* __restrict__ base16,
                    cudaGraphConditionalHandle road, bool set) {
  __shared__ unsigned warp_sums[8];
  const unsigned u = threadIdx.x, d = blockIdx.x, b = u * 256 + d;
  const unsigned c = hist[b], pre = rowpre[b], row = rowsum[u];
  const unsigned top_start = radix::block_exclusive_scan(row, warp_sums);
  const unsigned col = radix::block_exclusive_scan(c, warp_sums);
  const unsigned st = top_start + pre;
  start16[b] = st;
  base16[b] = st - col;
  if (d == 0) {
    bases8[u] = top_start;
    if (u == 0) {
      unsigned v = *verdict;
      if (*maxbin > slots) v |= kTooLarge;
      *verdict = v;
      if (set) cudaGraphSetConditional(road, v == 0 ? 1u : 0u);
    }
  }
}

// The sample: key floor(i * n / kSampleKeys) for i < kSampleKeys, counted by its top 16 bits into
// bins (kBins words, zeroed); a bin that reaches kSampleRefuse sets kSkewed in *verdict.
__global__ void __launch_bounds__(kSampleThreads)
    sample_kernel(const uint32_t* __restrict__ keys, size_t n, unsigned* bins, unsigned* verdict) {
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
    if (lane == unsigned(__ffs(peers) - 1)) {
      const unsigned c = __popc(peers);
      skewed |= atomicAdd(&bins[b], c) + c >= kSampleRefuse;
    }
  }
  if (__syncthreads_or(skewed) && threadIdx.x == 0) atomicOr(verdict, kSkewed);
}

// With set, the switch `road` becomes 1 (count exactly) unless the sample refused, else 0 (v15).
__global__ void road_kernel(const unsigned* verdict, cudaGraphConditionalHandle road, bool set) {
  if (set) cudaGraphSetConditional(road, *verdict == 0 ? 1u : 0u);
}

// The look-back words of passes 1 and 2: a word of flag 1 reads as unpublished in pass 3 (odd),
// which the first pass runs as (its digit is bits 24-31); pass 2 (even) then finds pass 3's flags.
__global__ void fill_status_kernel(uint4* w, size_t words4) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < words4;
       i += size_t(gridDim.x) * blockDim.x)
    w[i] = make_uint4(0x01010101u, 0x01010101u, 0x01010101u, 0x01010101u);
}

// Pass 2's starts for a later portion: base16p[u * 256 + d] = base16[u * 256 + d] + next[d] -
// base16[d], where next[d] (the previous portion's last tile wrote it) is that portion's start
// for digit d's row 0 plus its keys of digit d: every row moves by the count of digit d's keys in
// the earlier portions (modulo 2^32, as every start here). 256 blocks of 256 threads.
__global__ void __launch_bounds__(256)
    shift_bases_kernel(const unsigned* __restrict__ base16, const unsigned* __restrict__ next,
                       unsigned* __restrict__ base16p) {
  const unsigned d = threadIdx.x, b = blockIdx.x * 256 + d;
  base16p[b] = base16[b] + next[d] - base16[d];
}

// v16's change to the second pass, as its policy on Base (v06::BasePolicy says what a policy is;
// keys keep v14's prefetch, v14::Policy; pairs v12's pass, v06::BasePolicy): the input is grouped
// by the digit above this pass's (the first pass sorted by it), and `bases` holds 256 x 256 starts,
// bases[u * 256 + d] the start of the bucket (u, d) less the keys with digit d and an upper digit
// below u. A key's position is then bases[u * 256 + d] plus the keys with digit d before it in
// input order (the look-back and the tile's rank, as in every pass), which lands it inside its
// bucket. A tile takes the row of its first key's upper digit; only a tile whose last key's upper
// digit differs (it straddles two) checks each key, and a key of another upper digit adds the
// difference of the two rows' entries. Such a tile is irregular: its values (pairs) go straight
// to their keys' places (v06::rank_and_scatter).
template <typename Base>
struct BucketPolicyOn : Base {
  struct Place {
    const unsigned* bases;
    const unsigned* row;  // the tile's first key's row
    unsigned lead_up, pass;
    bool straddles;  // the same for the whole block
    __device__ __forceinline__ Place(const uint32_t* keys_in, size_t base, size_t last,
                                     unsigned pass_, const unsigned* bases_)
        : bases(bases_), pass(pass_) {
      lead_up = v06::digit_at(keys_in[base], pass + 1);
      straddles = v06::digit_at(keys_in[last], pass + 1) != lead_up;
      row = bases + lead_up * kDigits;
    }
    __device__ __forceinline__ void adjust(uint32_t k, unsigned dk, unsigned& to) const {
      if (straddles) {
        const unsigned up = v06::digit_at(k, pass + 1);
        if (up != lead_up) to += bases[up * kDigits + dk] - row[dk];
      }
    }
    __device__ __forceinline__ bool irregular() const { return straddles; }
  };
  static constexpr bool kKeysOnly = false;
};
using BucketPolicy = BucketPolicyOn<v14::Policy>;
using BucketPolicyPairs = BucketPolicyOn<v06::BasePolicy>;

// The exclusive scan of `count` over a block of WARPS warps, in thread order, two barriers: each
// thread gives its count (0 where it has none). warp_sums: WARPS words of shared memory. The
// stable rounds scan their digits' counts with it (warp_counts_to_starts: thread d gives digit
// d's), and the atomic rounds of bucket_sort_kernel and bucket_sort16_kernel their counters
// (thread t the sum of its run of them).
template <unsigned WARPS>
__device__ __forceinline__ unsigned bucket_digit_scan(unsigned count, unsigned* warp_sums) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const unsigned incl =
      static_cast<unsigned>(scan::warp_scan_inclusive(static_cast<int32_t>(count)));
  if (lane == 31) warp_sums[warp] = incl;
  __syncthreads();
  if (warp == 0) {
    const unsigned w = lane < WARPS ? warp_sums[lane] : 0;
    const unsigned wi = static_cast<unsigned>(scan::warp_scan_inclusive(static_cast<int32_t>(w)));
    if (lane < WARPS) warp_sums[lane] = wi;
  }
  __syncthreads();
  return incl - count + (warp ? warp_sums[warp - 1] : 0);
}

// A stable round's counters to starts: warp_hist[w][d] (WARPS x VALUES words of shared memory,
// warp w's count of digit d) becomes where warp w's first key of digit d goes, counted in digit
// order and, within a digit, in warp order. Thread d < VALUES owns digit d's column (a thread a
// digit: VALUES <= THREADS). warp_sums: WARPS words. Called by every thread after the counts'
// barrier; ends with a barrier.
template <unsigned WARPS, unsigned VALUES>
__device__ __forceinline__ void warp_counts_to_starts(unsigned (*warp_hist)[VALUES],
                                                      unsigned* warp_sums) {
  static_assert(VALUES <= WARPS * 32, "a thread a digit");
  const unsigned d = threadIdx.x;
  unsigned count = 0;
  if (d < VALUES) {
#pragma unroll
    for (unsigned w = 0; w < WARPS; ++w) {
      const unsigned c = warp_hist[w][d];
      warp_hist[w][d] = count;
      count += c;
    }
  }
  const unsigned start = bucket_digit_scan<WARPS>(count, warp_sums);
  if (d < VALUES) {
#pragma unroll
    for (unsigned w = 0; w < WARPS; ++w) warp_hist[w][d] += start;
  }
  __syncthreads();
}

// Whether a block's THREADS x ITEMS words (v06's tile layout: word j of lane l of warp w at slot
// (w * ITEMS + j) * 32 + l) are in order, each no larger than the next slot's; the same answer in
// every thread. scratch: THREADS / 32 words of shared memory (each warp's first word, against
// the warp before it). Two barriers. Both bucket passes leave a bucket in order as it is. A warp
// whose first row (its 32 slots of item 0, and slot 31 against slot 32) is already out of order,
// as in almost every unsorted bucket, stops checking there: one vote instead of ITEMS - 1 more
// rounds of shuffles.
template <unsigned THREADS, unsigned ITEMS>
__device__ __forceinline__ bool bucket_in_order(const uint32_t (&w)[ITEMS], uint32_t* scratch) {
  constexpr unsigned kWarps = THREADS / 32;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  bool ordered = true;
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) {
    const uint32_t next_lane = __shfl_down_sync(0xffffffffu, w[j], 1);
    const uint32_t next_item = __shfl_sync(0xffffffffu, w[j + 1 < ITEMS ? j + 1 : j], 0);
    const uint32_t next = lane < 31 ? next_lane : (j + 1 < ITEMS ? next_item : w[j]);
    ordered &= w[j] <= next;
    if (j == 0 && !__all_sync(0xffffffffu, ordered)) break;  // the warp's answer: no
  }
  if (lane == 0) scratch[warp] = w[0];  // warp w's last word against warp w + 1's first
  __syncthreads();
  if (lane == 31 && warp + 1 < kWarps) ordered &= w[ITEMS - 1] <= scratch[warp + 1];
  return __syncthreads_and(ordered);
}

// Bits [SHIFT, SHIFT + BITS) of key: for a whole byte v06's digit_at (one PRMT), else a shift and
// a mask.
template <unsigned SHIFT, unsigned BITS>
__device__ __forceinline__ unsigned field_at(uint32_t key) {
  if constexpr (BITS == 8 && SHIFT % 8 == 0)
    return v06::digit_at(key, SHIFT / 8);
  else
    return (key >> SHIFT) & ((1u << BITS) - 1);
}
// The lanes of the warp whose bits [SHIFT, SHIFT + BITS) of key equal this lane's: one ballot a
// bit, as v06's match_digit (which a whole byte uses). All 32 lanes must call it.
template <unsigned SHIFT, unsigned BITS>
__device__ __forceinline__ unsigned match_field(uint32_t key) {
  if constexpr (BITS == 8 && SHIFT % 8 == 0)
    return v06::match_digit(field_at<SHIFT, BITS>(key));
  else if constexpr (BITS == 0)
    return 0xffffffffu;
  else
    return v06::ballot_of_bit<SHIFT>(key) & match_field<SHIFT + 1, BITS - 1>(key);
}

// One stable round of a bucket pass: the block's THREADS x ITEMS words (v06's tile layout, word j
// of lane l of warp w at slot (w * ITEMS + j) * 32 + l) ranked by their bits [SHIFT, SHIFT + BITS)
// with v06's ballots and warp-private counters (warp_hist: THREADS / 32 x 2^BITS words; warp_sums:
// THREADS / 32) and stored in that order into sk (THREADS * ITEMS words). Words of equal digits
// keep their order. A warp's counter of a digit is advanced by the digit's last lane: with PLAIN,
// a load by every lane and that lane's store (the counters are the warp's own; the warp is
// converged there, after the votes over all 32 lanes, so every lane's load precedes the store,
// and the __syncwarp orders the store before the next word's loads); else the leader's shared
// atomic, its old value shuffled to the digit's lanes. Needs 2^BITS <= THREADS (a thread a
// digit). Ends with a barrier.
template <unsigned THREADS, unsigned ITEMS, unsigned SHIFT, unsigned BITS = 8, bool PLAIN = false>
__device__ __forceinline__ void bucket_stable_round(const uint32_t (&key)[ITEMS], uint32_t* sk,
                                                    unsigned* warp_hist_words,
                                                    unsigned* warp_sums) {
  constexpr unsigned kWarps = THREADS / 32, kValues = 1u << BITS;
  auto warp_hist = reinterpret_cast<unsigned(*)[kValues]>(warp_hist_words);
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  unsigned rank[ITEMS];
  // Up to 32 counters, a lane each, without a loop: with the loop, ptxas spilled 20 bytes of the
  // 256 x 10 keys' kernel at its 40-register cap (six blocks an SM), where the probe's inline copy
  // of the same rounds spilled none (sort/lab/LAB_NOTES.md); the PTX of every other kernel is
  // unchanged.
  if constexpr (kValues <= 32) {
    if (lane < kValues) warp_hist[warp][lane] = 0;
  } else {
    for (unsigned i = lane; i < kValues; i += 32) warp_hist[warp][i] = 0;
  }
  __syncwarp();
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) {
    const unsigned dd = field_at<SHIFT, BITS>(key[j]);
    const unsigned peers = match_field<SHIFT, BITS>(key[j]);
    const unsigned upto = __popc(peers & v06::lanemask_le());
    if constexpr (PLAIN) {
      const unsigned old = warp_hist[warp][dd];
      if ((peers >> lane) == 1u) warp_hist[warp][dd] = old + upto;  // the digit's last lane
      __syncwarp();
      rank[j] = old + upto - 1;
    } else {
      const unsigned leader = 31 - __clz(peers);
      const unsigned old = v06::leader_fetch_add(&warp_hist[warp][dd], upto, lane == leader);
      rank[j] = __shfl_sync(0xffffffffu, old, leader) + upto - 1;
    }
  }
  __syncthreads();
  warp_counts_to_starts<kWarps, kValues>(warp_hist, warp_sums);
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j)
    sk[rank[j] + warp_hist[warp][field_at<SHIFT, BITS>(key[j])]] = key[j];
  __syncthreads();
}

// The bucket pass. Block g sorts bucket g (the keys whose top 16 bits are g: data[start16[g],
// + hist[g]), hist[g] <= THREADS * ITEMS, which the verdict ensured) in place by its low 16 bits:
// v07's one-block sort (v06's tile layout, ITEMS keys a thread), two rounds. The first ranks by
// the low L = bucket_low_bits(THREADS, ITEMS) bits (10 to 12), one shared atomicAdd a key on its
// value's counter (2^L counters, padded: value c at c + c / 16, so that values 32 apart, as sorted
// keys give, do not share a bank; a thread scans 2^L / THREADS of them): not stable, and it need
// not be, since the keys' order inside a bucket means nothing before it. The second ranks the
// other 16 - L bits with v06's ballots, stably (bucket_stable_round). The slots past the bucket
// hold the pad g << 16 | 0xffff: the pads take no atomic in the first round and keep their slots
// [n, slots), and in the second, stable round their digit is the largest, so the keys end in
// [0, n). A bucket already in order (every key no larger than the next) is left as it is. Shared
// memory: bucket_smem_bytes.
template <unsigned THREADS, unsigned ITEMS, unsigned MIN_BLOCKS>
__global__ void __launch_bounds__(THREADS, arch::min_blocks(THREADS, MIN_BLOCKS))
    bucket_sort_kernel(uint32_t* data, const unsigned* start16, const unsigned* hist) {
  static_assert(THREADS % 256 == 0 && THREADS <= 1024,
                "whole groups of 256 threads, at most 1,024");
  constexpr unsigned kWarps = THREADS / 32, kSlots = THREADS * ITEMS;
  constexpr unsigned kLowBits = bucket_low_bits(THREADS, ITEMS), kLow = 1u << kLowBits;
  constexpr unsigned kHighBits = 16 - kLowBits, kHigh = 1u << kHighBits;
  // The scan of the first round's counters: thread t < kOwners takes kPer of them, t * kPer on,
  // held in registers.
  constexpr unsigned kPer = kLow >= THREADS ? kLow / THREADS : 1, kOwners = kLow / kPer;
  static_assert(kPer <= 16 && kHigh <= THREADS,
                "at most 16 counters a thread; a thread a digit in the second round");
  // Dynamic shared memory (bucket_smem_bytes), since the largest shapes need over 48 KB.
  extern __shared__ uint32_t smem[];
  uint32_t* sk = smem;                           // kSlots
  unsigned* warp_hist = smem + kSlots;           // kWarps x kHigh
  unsigned* cnt = warp_hist + kWarps * kHigh;    // kLow + kLow / 16
  unsigned* warp_sums = cnt + kLow + kLow / 16;  // kWarps
  const auto padded = [](unsigned c) { return c + c / 16; };
  const unsigned g = blockIdx.x;
  const unsigned n = hist[g];
  if (n <= 1) return;
  uint32_t* keys = data + start16[g];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32, t = threadIdx.x;
  const uint32_t pad = (g << 16) | 0xffffu;
  uint32_t key[ITEMS];
  const unsigned first = warp * ITEMS * 32 + lane;
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) {
    const unsigned e = first + j * 32;
    key[j] = e < n ? keys[e] : pad;
  }
  if (bucket_in_order<THREADS, ITEMS>(key, sk)) return;  // in order already
  // Round 0, the low kLowBits bits: a shared atomic a key.
  for (unsigned i = t; i < kLow + kLow / 16; i += THREADS) cnt[i] = 0;
  __syncthreads();
  // A pad takes no atomic (all of one value, the pads would queue on one counter) and keeps its
  // slot: the keys' ranks fill [0, n), the pads [n, kSlots). This thread's keys: items 0 .. mine-1.
  const unsigned mine = first < n ? (n - first + 31) / 32 : 0u;
  unsigned rank[ITEMS];
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j)
    rank[j] = j < mine ? atomicAdd(&cnt[padded(key[j] & (kLow - 1))], 1u) : 0u;
  __syncthreads();
  {
    unsigned held[kPer], sum = 0;
    if (t < kOwners) {
#pragma unroll
      for (unsigned i = 0; i < kPer; ++i) sum += held[i] = cnt[padded(t * kPer + i)];
    }
    unsigned start = bucket_digit_scan<kWarps>(sum, warp_sums);
    if (t < kOwners) {
#pragma unroll
      for (unsigned i = 0; i < kPer; ++i) {
        cnt[padded(t * kPer + i)] = start;
        start += held[i];
      }
    }
  }
  __syncthreads();
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j)
    sk[j < mine ? rank[j] + cnt[padded(key[j] & (kLow - 1))] : first + j * 32] = key[j];
  __syncthreads();
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) key[j] = sk[first + j * 32];
  // Round 1, the other bits: v06's ballots and warp-private counters, stable.
  bucket_stable_round<THREADS, ITEMS, kLowBits, kHighBits, bucket_plain_counters(THREADS, ITEMS)>(
      key, sk, warp_hist, warp_sums);
  for (unsigned e = threadIdx.x; e < n; e += THREADS) keys[e] = sk[e];
}

// The bucket pass for pairs, as bucket_sort_kernel with the values (vals, at the keys' places)
// moving with their keys, and both rounds stable: equal keys keep their values' input order. As
// v07's one-block sort carries a 16-bit input index for pairs and gathers the values at the end,
// but the index shares the key's word, whose top 16 bits are the bucket's: a slot holds the key's
// low 16 bits above its index e in the bucket (e < 2^16), (k << 16) | e. The values are loaded into
// shared memory in input order with the keys; two rounds of v06's ballots sort the words by bits
// 16-23, then 24-31 (the key's bits 0-7, then 8-15); slot i's key is then g << 16 | w >> 16 and its
// value sv[w & 0xffff]. The slots past the bucket hold 0xffffffff and end last (they start last,
// their digits are the largest, and both rounds are stable). A bucket already in order (its words
// are in order exactly when its keys are) is left as it is. Shared memory: bucket_pairs_smem_bytes.
template <unsigned THREADS, unsigned ITEMS, unsigned MIN_BLOCKS>
__global__ void __launch_bounds__(THREADS, arch::min_blocks(THREADS, MIN_BLOCKS))
    bucket_sort_pairs_kernel(uint32_t* data, uint32_t* vals, const unsigned* start16,
                             const unsigned* hist) {
  static_assert(THREADS % 256 == 0 && THREADS <= 1024, "whole groups of 256 (one a digit)");
  constexpr unsigned kWarps = THREADS / 32, kSlots = THREADS * ITEMS;
  static_assert(kSlots <= 65536, "a slot's index fits the word's low 16 bits");
  extern __shared__ uint32_t smem[];
  uint32_t* sk = smem;                                                         // kSlots words
  uint32_t* sv = smem + kSlots;                                                // kSlots values
  auto warp_hist = reinterpret_cast<unsigned(*)[kDigits]>(smem + 2 * kSlots);  // kWarps x 256
  unsigned* warp_sums = smem + 2 * kSlots + kWarps * kDigits;                  // kWarps
  const unsigned g = blockIdx.x;
  const unsigned n = hist[g];
  if (n <= 1) return;
  uint32_t* keys = data + start16[g];
  uint32_t* values = vals + start16[g];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  uint32_t word[ITEMS];
  const unsigned first = warp * ITEMS * 32 + lane;
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) {
    const unsigned e = first + j * 32;
    word[j] = e < n ? (keys[e] << 16) | e : 0xffffffffu;
    if (e < n) sv[e] = values[e];
  }
  if (bucket_in_order<THREADS, ITEMS>(word, sk)) return;  // in order already
  bucket_stable_round<THREADS, ITEMS, 16>(word, sk, warp_hist[0], warp_sums);
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) word[j] = sk[first + j * 32];
  bucket_stable_round<THREADS, ITEMS, 24>(word, sk, warp_hist[0], warp_sums);
  const uint32_t top = g << 16;
  for (unsigned e = threadIdx.x; e < n; e += THREADS) {
    const uint32_t w = sk[e];
    keys[e] = top | (w >> 16);
    values[e] = sv[w & 0xffffu];
  }
}

// The largest shape's bucket pass (1,024 threads, 34 slots a thread; from about 1.09e9 keys), as
// bucket_sort_kernel with its keys and ranks packed two to a register. Every key of bucket g has
// the top 16 bits g, so only the low 16 bits are sorted; a key's low half and its rank in the
// bucket (below 34,816) each fit 16 bits, so item j's key is half j % 2 of kp[j / 2] and its rank
// that of rp[j / 2]: 17 + 17 registers, as 1,024 x 17's 32-bit keys and ranks (34 of each would
// not fit a 1,024-thread block's 64 registers a thread). One buffer of 2-byte slots. The same
// rounds: the low kBucket16Low bits (12) by a shared atomic a key, the other 4 by ballots and plain
// warp counters, stably. The slots past n hold 0xffff and take no atomic; a warp whose slots are
// all past n (half the block when a bucket is half full, at about 1.1e9 keys) sits out both rounds,
// its counters left at 0, and a warp with no pad takes the path without per-key bounds.
// Shared memory: bucket16_smem_bytes, 89,216 bytes.
template <unsigned THREADS, unsigned ITEMS>
__global__ void __launch_bounds__(THREADS, 1)
    bucket_sort16_kernel(uint32_t* data, const unsigned* start16, const unsigned* hist) {
  static_assert(THREADS % 256 == 0 && THREADS <= 1024 && ITEMS % 2 == 0, "whole pairs of slots");
  constexpr unsigned kWarps = THREADS / 32, kSlots = THREADS * ITEMS, kWords = ITEMS / 2;
  constexpr unsigned kLowBits = kBucket16Low, kLow = 1u << kLowBits;
  constexpr unsigned kHighBits = 16 - kLowBits, kHigh = 1u << kHighBits;
  constexpr unsigned kPer = kLow / THREADS;  // round 0's counters a thread scans
  static_assert(kPer >= 1 && kLow % THREADS == 0 && kHigh <= 32 && kSlots <= 65536,
                "whole counters a thread, a lane a digit, 16-bit ranks");
  extern __shared__ uint32_t smem[];
  uint16_t* sk = reinterpret_cast<uint16_t*>(smem);                          // kSlots halves
  auto warp_hist = reinterpret_cast<unsigned(*)[kHigh]>(smem + kSlots / 2);  // kWarps x kHigh
  unsigned* cnt = smem + kSlots / 2 + kWarps * kHigh;                        // kLow + kLow / 16
  unsigned* warp_sums = cnt + kLow + kLow / 16;                              // kWarps
  const auto padded = [](unsigned c) { return c + c / 16; };  // a bank skipped every 16 counters
  const auto half = [](uint32_t w, unsigned h) { return h ? w >> 16 : w & 0xffffu; };
  const unsigned g = blockIdx.x;
  const unsigned n = hist[g];
  if (n <= 1) return;
  uint32_t* keys = data + start16[g];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32, t = threadIdx.x;
  const unsigned first = warp * ITEMS * 32 + lane;               // item j's slot: first + j * 32
  const unsigned mine = first < n ? (n - first + 31) / 32 : 0u;  // the thread's keys: items < mine
  const bool live = warp * ITEMS * 32 < n;                       // the warp holds a key
  const bool full = (warp + 1) * ITEMS * 32 <= n;                // and no pad
  uint32_t kp[kWords];
#pragma unroll
  for (unsigned p = 0; p < kWords; ++p) {
    const unsigned e0 = first + 2 * p * 32, e1 = e0 + 32;
    const uint32_t a = e0 < n ? keys[e0] : 0xffffu, b = e1 < n ? keys[e1] : 0xffffu;
    kp[p] = __byte_perm(a, b, 0x5410);  // a's bits 0-15, then b's
  }
  {  // In order already? Each key against the next slot's (their top 16 bits are equal).
    bool ordered = true;
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j) {
      const uint32_t k = half(kp[j / 2], j % 2);
      const uint32_t next_lane = __shfl_down_sync(0xffffffffu, k, 1);
      const uint32_t k1 = j + 1 < ITEMS ? half(kp[(j + 1) / 2], (j + 1) % 2) : k;
      const uint32_t next_item = __shfl_sync(0xffffffffu, k1, 0);
      const uint32_t next = lane < 31 ? next_lane : (j + 1 < ITEMS ? next_item : k);
      ordered &= k <= next;
      if (j == 0 && !__all_sync(0xffffffffu, ordered)) break;  // as bucket_in_order
    }
    if (lane == 0) smem[warp] = kp[0] & 0xffffu;  // warp w's last key against w + 1's first
    __syncthreads();
    if (lane == 31 && warp + 1 < kWarps) ordered &= (kp[kWords - 1] >> 16) <= smem[warp + 1];
    if (__syncthreads_and(ordered)) return;
  }
  // Round 0, bits 0 .. kLowBits - 1 (not stable; it need not be): a shared atomic a key is its
  // rank among the keys of its value; the scan of the counters (thread t holds t * kPer .. + kPer
  // - 1) then gives each value its start.
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
      const unsigned r0 = 2 * p < mine ? atomicAdd(&cnt[padded(kp[p] & (kLow - 1))], 1u) : 0u;
      const unsigned r1 =
          2 * p + 1 < mine ? atomicAdd(&cnt[padded((kp[p] >> 16) & (kLow - 1))], 1u) : 0u;
      rp[p] = r0 | r1 << 16;
    }
  }
  __syncthreads();
  {
    unsigned held[kPer], sum = 0;
#pragma unroll
    for (unsigned i = 0; i < kPer; ++i) sum += held[i] = cnt[padded(t * kPer + i)];
    unsigned start = bucket_digit_scan<kWarps>(sum, warp_sums);
#pragma unroll
    for (unsigned i = 0; i < kPer; ++i) {
      cnt[padded(t * kPer + i)] = start;
      start += held[i];
    }
  }
  __syncthreads();
  // The counters' addresses are computed again rather than kept from the atomics (34 of them
  // would not fit beside the keys and ranks): the empty asm hides that kp is unchanged.
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
      const unsigned e0 = first + 2 * p * 32, e1 = e0 + 32;  // a pad keeps its slot
      sk[2 * p < mine ? (rp[p] & 0xffffu) + cnt[padded(k0 & (kLow - 1))] : e0] =
          static_cast<uint16_t>(k0);
      sk[2 * p + 1 < mine ? (rp[p] >> 16) + cnt[padded(k1 & (kLow - 1))] : e1] =
          static_cast<uint16_t>(k1);
    }
  }
  __syncthreads();
  // Round 1, bits kLowBits .. 15, stable: v06's ballots and the warp's own counters (a load by
  // every lane, a store by the digit's last lane), as bucket_stable_round. The keys' slots [0, n)
  // belong to live warps; the pads of the last live warp have the largest digit and come last.
  if (lane < kHigh) warp_hist[warp][lane] = 0;
  __syncwarp();
  if (live) {
#pragma unroll
    for (unsigned p = 0; p < kWords; ++p)
      kp[p] = uint32_t(sk[first + 2 * p * 32]) | uint32_t(sk[first + (2 * p + 1) * 32]) << 16;
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j) {
      const uint32_t k = half(kp[j / 2], j % 2);
      const unsigned d = k >> kLowBits;
      const unsigned peers = match_field<kLowBits, kHighBits>(k);
      const unsigned upto = __popc(peers & v06::lanemask_le());
      const unsigned old = warp_hist[warp][d];
      if ((peers >> lane) == 1u) warp_hist[warp][d] = old + upto;  // the digit's last lane
      __syncwarp();
      const unsigned r = old + upto - 1;
      rp[j / 2] = j % 2 ? rp[j / 2] | r << 16 : r;
    }
  }
  __syncthreads();
  warp_counts_to_starts<kWarps, kHigh>(warp_hist, warp_sums);
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

// The workspace: v15's (whose key buffer and look-back words the hybrid's passes reuse), then
// the hybrid's own parts. Pairs: v12's (its key and value buffers and look-back words), then the
// same own parts.
struct Parts {
  unsigned* zeroed;  // what is zeroed per sort: the verdict, the counters, the sample's bins
  size_t zeroed_bytes;
  unsigned* verdict;  // kWrapped | kTooLarge | kSkewed
  unsigned* maxbin;
  unsigned* counters;  // the two passes' tile counters, one a portion: 2 x v08::kMaxPortions
  unsigned* check;     // v08's mode word of both passes: 0
  unsigned* sample_bins;
  unsigned *partial, *hist, *rowpre, *rowsum, *bases8, *start16, *base16;
  // Portions (from 1,073,740,801 keys): next8, next16: the 256 digit starts that portion q leaves
  // for q + 1 in pass 1 and pass 2, at q * 256 (v08::kMaxPortions - 1 of them); base16p: pass 2's
  // 256 x 256 starts for a later portion (shift_bases_kernel).
  unsigned *next8, *next16, *base16p;
  v10::NarrowStatus::Word* status;
  uint32_t* key_buf;
  uint32_t* val_buf;  // pairs only
};
inline unsigned count_blocks() {
  return std::min<unsigned>(kMaxCountBlocks, static_cast<unsigned>(current_sm_count()));
}
inline size_t own_bytes() {
  using v06::round256;
  return round256(256 + kBins * 4) + round256(size_t(kMaxCountBlocks) * kBins / 2 * 4) +
         5 * round256(kBins * 4) + 2 * round256(256 * 4) +
         2 * round256(v08::kMaxPortions * kDigits * 4);
}
inline size_t workspace_bytes(size_t n) {
  return v06::round256(v15::workspace_bytes(n)) + (n <= hybrid_to() ? own_bytes() : 0);
}
inline size_t workspace_bytes_pairs(size_t n) {
  if (parts::runs(n))
    return parts::workspace_bytes(n, true, [](size_t m) { return workspace_bytes_pairs(m); });
  return v06::round256(v12::workspace_bytes_pairs(n)) + (n <= hybrid_to_pairs() ? own_bytes() : 0);
}
// The hybrid's own parts, from p (own_bytes() of them), into r.
inline void own_parts_at(char* p, Parts& r) {
  using v06::round256;
  r.zeroed = reinterpret_cast<unsigned*>(p);
  r.zeroed_bytes = 256 + kBins * 4;
  r.verdict = r.zeroed;
  r.maxbin = r.zeroed + 1;
  r.check = r.zeroed + 4;
  r.counters = r.zeroed + 8;  // 2 x v08::kMaxPortions words, below the sample's bins
  static_assert(8 + 2 * v08::kMaxPortions <= 64, "the counters fit before sample_bins");
  r.sample_bins = r.zeroed + 64;
  p += round256(r.zeroed_bytes);
  r.partial = reinterpret_cast<unsigned*>(p);
  p += round256(size_t(kMaxCountBlocks) * kBins / 2 * 4);
  unsigned** five[] = {&r.hist, &r.rowpre, &r.start16, &r.base16, &r.base16p};
  for (unsigned** q : five) {
    *q = reinterpret_cast<unsigned*>(p);
    p += round256(kBins * 4);
  }
  r.rowsum = reinterpret_cast<unsigned*>(p);
  r.bases8 = reinterpret_cast<unsigned*>(p + round256(256 * 4));
  p += 2 * round256(256 * 4);
  r.next8 = reinterpret_cast<unsigned*>(p);
  r.next16 = reinterpret_cast<unsigned*>(p + round256(v08::kMaxPortions * kDigits * 4));
}
inline Parts parts_of(void* ws, size_t n) {
  Parts r;
  const v15::Parts w15 = v15::parts_of(ws, n);
  r.status = w15.status;
  r.key_buf = w15.key_buf;
  r.val_buf = nullptr;
  own_parts_at(static_cast<char*>(ws) + v06::round256(v15::workspace_bytes(n)), r);
  return r;
}
// Pairs: the look-back words and the key and value buffers where v12's pairs passes
// (v08::launch_passes with 256 x 40 tiles) put them.
inline Parts parts_of_pairs(void* ws, size_t n) {
  using v06::round256;
  Parts r;
  char* p = static_cast<char*>(ws);
  r.status = reinterpret_cast<v10::NarrowStatus::Word*>(p + 256 + v06::kPasses * kDigits * 4);
  char* q = p + round256(v06::zeroed_bytes<v12::kThreads, v12::kItemsPairs>(n)) +
            round256(v06::kPasses * kDigits * 4 + v06::kPasses * 4);
  r.key_buf = reinterpret_cast<uint32_t*>(q);
  r.val_buf = reinterpret_cast<uint32_t*>(q + round256(n * 4));
  own_parts_at(p + round256(v12::workspace_bytes_pairs(n)), r);
  return r;
}

// The count and the starts (stage 0), onto `stream`. road, set: starts16_kernel's switch.
inline void count_on(const uint32_t* keys_in, size_t n, const Parts& w, unsigned slots,
                     cudaGraphConditionalHandle road, bool set, cudaStream_t stream) {
  static const cudaError_t attr = cudaFuncSetAttribute(
      count16_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kBins * 2));
  (void)attr;  // a failure shows as the launch's error
  const unsigned blocks = count_blocks();
  count16_kernel<<<blocks, kCountThreads, kBins * 2, stream>>>(keys_in, n, w.partial, w.verdict);
  reduce16_kernel<<<256, 256, 0, stream>>>(w.partial, blocks, w.hist, w.rowpre, w.rowsum, w.maxbin);
  starts16_kernel<<<256, 256, 0, stream>>>(w.hist, w.rowpre, w.rowsum, w.maxbin, slots, w.verdict,
                                           w.bases8, w.start16, w.base16, road, set);
}

// The bucket pass, one block a bucket, in the given shape. vals: the pairs' values (nullptr for
// keys; pairs never take 1,024 x 34).
inline void bucket_pass_on(uint32_t* keys, uint32_t* vals, const Parts& w, Shape shape,
                           cudaStream_t stream) {
  const unsigned t = shape.threads, i = shape.items;
  if (vals) {
    const unsigned bytes = bucket_pairs_smem_bytes(t, i);
    const auto go = [&](auto kernel) {
      if (bytes > 48 * 1024)  // a failure shows as the launch's error
        (void)cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes));
      kernel<<<kBins, t, bytes, stream>>>(keys, vals, w.start16, w.hist);
    };
    if (t == 256 && i == 4)
      go(bucket_sort_pairs_kernel<256, 4, 8>);
    else if (t == 256 && i == 10)
      go(bucket_sort_pairs_kernel<256, 10, 6>);
    else if (t == 256 && i == 18)
      go(bucket_sort_pairs_kernel<256, 18, 4>);
    else if (t == 256 && i == 36)
      go(bucket_sort_pairs_kernel<256, 36, 2>);
    else
      go(bucket_sort_pairs_kernel<1024, 17, 1>);
    return;
  }
  const unsigned bytes = keys_smem_bytes(shape);
  const auto go = [&](auto kernel) {
    if (bytes > 48 * 1024)  // a failure shows as the launch's error
      (void)cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes));
    kernel<<<kBins, t, bytes, stream>>>(keys, w.start16, w.hist);
  };
  if (t == 256 && i == 4)
    go(bucket_sort_kernel<256, 4, 8>);
  else if (t == 256 && i == 10)
    go(bucket_sort_kernel<256, 10, 6>);
  else if (t == 256 && i == 18)
    go(bucket_sort_kernel<256, 18, 4>);
  else if (t == 256 && i == 36)
    go(bucket_sort_kernel<256, 36, 2>);
  else if (t == 1024 && i == 17)
    go(bucket_sort_kernel<1024, 17, 1>);
  else
    go(bucket_sort16_kernel<1024, 34>);
}

// The three passes (the count done and accepted), onto `stream`: keys_in -> key_buf -> keys_out,
// then keys_out in place; with PAIRS the values the same way, vals_in -> val_buf -> vals_out, on
// v12's pairs passes (256 x 40 tiles; v14's prefetch was slower for pairs). Without bucket_pass,
// the two passes only (sort v17 launches its bucket pass after a check).
template <bool PAIRS = false>
inline void passes_on(const uint32_t* keys_in, const uint32_t* vals_in, uint32_t* keys_out,
                      uint32_t* vals_out, size_t n, const Parts& w, Shape shape,
                      cudaStream_t stream, bool bucket_pass = true) {
  using SW = v10::NarrowStatus;
  constexpr unsigned kItems = PAIRS ? v12::kItemsPairs : v12::kItems;
  constexpr size_t kTile = size_t(v12::kThreads) * kItems;
  constexpr unsigned kOpt = PAIRS ? v06::kPackedDigits : 0;  // v12's pairs pass
  using Pass1 = std::conditional_t<PAIRS, v06::BasePolicy, v14::Policy>;
  using Pass2 = std::conditional_t<PAIRS, BucketPolicyPairs, BucketPolicy>;
  const size_t tiles = ceil_div(n, kTile);
  fill_status_kernel<<<1024, 256, 0, stream>>>(reinterpret_cast<uint4*>(w.status),
                                               tiles * kDigits / 4);
  const auto pass1 = v08::onesweep_kernel<v12::kThreads, kItems, v06::kWindow, PAIRS,
                                          v12::kMinBlocks, v08::kScWindow, SW, kOpt, Pass1>;
  const auto pass2 = v08::onesweep_kernel<v12::kThreads, kItems, v06::kWindow, PAIRS,
                                          v12::kMinBlocks, v08::kScWindow, SW, kOpt, Pass2>;
  // Portions (v08::launch_passes's scheme): from 1,073,740,801 keys each pass runs as launches over
  // runs of fewer than 2^30 keys, each looking back only within itself; portion q's last tile
  // leaves the next portion its digit starts (pass 1) or the per-digit shift of its 256 x 256
  // starts (pass 2, which shift_bases_kernel applies).
  const size_t per = v08::portion_tiles(tiles, kTile, SW::kMaxCount, sizeof(SW::Word));
  const size_t portions = ceil_div(tiles, per);
  for (unsigned pass = 0; pass < 2; ++pass) {
    for (size_t q = 0; q < portions; ++q) {
      const size_t first = q * per, count = std::min(per, tiles - first);
      unsigned* next = pass == 0 ? w.next8 : w.next16;
      const v06::Portion portion{static_cast<unsigned>(first),
                                 static_cast<unsigned>(first + count - 1),
                                 q + 1 < portions ? next + q * kDigits : nullptr, nullptr};
      unsigned* counter = w.counters + pass * v08::kMaxPortions + q;
      const unsigned grid = static_cast<unsigned>(count);
      if (pass == 0) {
        const unsigned* bases = q == 0 ? w.bases8 : w.next8 + (q - 1) * kDigits;
        pass1<<<grid, v12::kThreads, 0, stream>>>(keys_in, vals_in, w.key_buf, w.val_buf, n, 3,
                                                  counter, w.status, bases, w.check, portion);
      } else {
        if (q > 0)
          shift_bases_kernel<<<kBins / 256, 256, 0, stream>>>(
              w.base16, w.next16 + (q - 1) * kDigits, w.base16p);
        const unsigned* bases = q == 0 ? w.base16 : w.base16p;
        pass2<<<grid, v12::kThreads, 0, stream>>>(w.key_buf, w.val_buf, keys_out, vals_out, n, 2,
                                                  counter, w.status, bases, w.check, portion);
      }
    }
  }
  if (bucket_pass) bucket_pass_on(keys_out, PAIRS ? vals_out : nullptr, w, shape, stream);
}

// Captures work(cs) into g, an empty graph.
template <typename Work>
cudaError_t capture_into(cudaGraph_t g, cudaStream_t cs, Work work) {
  cudaError_t e =
      cudaStreamBeginCaptureToGraph(cs, g, nullptr, nullptr, 0, cudaStreamCaptureModeRelaxed);
  if (e != cudaSuccess) return e;
  work();
  cudaGraph_t captured = nullptr;
  const cudaError_t end = cudaStreamEndCapture(cs, &captured);
  return end != cudaSuccess ? end : cudaGetLastError();
}

// One sort's arguments: keys, or pairs where vals_in is not null.
struct Call {
  const uint32_t* keys_in;
  const uint32_t* vals_in;
  uint32_t* keys_out;
  uint32_t* vals_out;
  size_t n;
  void* ws;
  bool pairs() const { return vals_in != nullptr; }
  Parts parts() const { return pairs() ? parts_of_pairs(ws, n) : parts_of(ws, n); }
  Shape shape() const { return pairs() ? shape_for_pairs(n) : shape_for(n); }
};

// The rung below, for inputs the road refuses: v15 (keys) or v12 (pairs), launched onto stream.
inline cudaError_t fallback_on(const Call& c, cudaStream_t stream) {
  if (c.pairs())
    return v12::launch_pairs(c.keys_in, c.vals_in, c.keys_out, c.vals_out, c.n, c.ws, stream);
  return v15::launch(c.keys_in, c.keys_out, c.n, c.ws, stream);
}
// The same into g, an empty graph (a switch's body): v15's graph, or v12's launches captured.
inline cudaError_t fallback_into(cudaGraph_t g, const Call& c, cudaStream_t cs) {
  if (!c.pairs()) return v15::build_into(g, c.keys_in, c.keys_out, c.n, c.ws, cs);
  cudaError_t launched = cudaSuccess;
  const cudaError_t e = capture_into(g, cs, [&] { launched = fallback_on(c, cs); });
  return launched != cudaSuccess ? launched : e;
}

// The three passes of the road, onto stream.
inline void road_on(const Call& c, const Parts& w, Shape shape, cudaStream_t stream) {
  if (c.pairs())
    passes_on<true>(c.keys_in, c.vals_in, c.keys_out, c.vals_out, c.n, w, shape, stream);
  else
    passes_on<false>(c.keys_in, nullptr, c.keys_out, nullptr, c.n, w, shape, stream);
}

// Adds a switch after the nodes captured so far into g (their last node `last`), on handle road:
// body 0, the rung below (fallback_into); body k >= 1, filled by the k-th of bodies(body graph)
// (v16 passes one; sort v17, two).
template <typename... Bodies>
cudaError_t add_switch(cudaGraph_t g, cudaGraphNode_t last, cudaGraphConditionalHandle road,
                       const Call& c, cudaStream_t cs, Bodies... bodies) {
  cudaGraphNodeParams np = {};
  np.type = cudaGraphNodeTypeConditional;
  np.conditional.handle = road;
  np.conditional.type = cudaGraphCondTypeSwitch;
  np.conditional.size = 1 + sizeof...(Bodies);
  cudaGraphNode_t node;
  cudaError_t e = cudaGraphAddNode(&node, g, &last, nullptr, 1, &np);
  if (e == cudaSuccess) e = fallback_into(np.conditional.phGraph_out[0], c, cs);
  unsigned k = 1;
  ((e = e == cudaSuccess ? bodies(np.conditional.phGraph_out[k++]) : e), ...);
  return e;
}

// Captures work(cs) into g and returns the last node captured (nullptr on failure, with e set).
template <typename Work>
cudaGraphNode_t capture_head(cudaGraph_t g, cudaStream_t cs, Work work, cudaError_t& e) {
  e = cudaStreamBeginCaptureToGraph(cs, g, nullptr, nullptr, 0, cudaStreamCaptureModeRelaxed);
  if (e != cudaSuccess) return nullptr;
  work();
  cudaStreamCaptureStatus status;
  const cudaGraphNode_t* deps = nullptr;
  size_t ndeps = 0;
  e = cudaStreamGetCaptureInfo(cs, &status, nullptr, nullptr, &deps, nullptr, &ndeps);
  cudaGraphNode_t last = e == cudaSuccess && ndeps == 1 ? deps[0] : nullptr;
  cudaGraph_t captured = nullptr;
  const cudaError_t end = cudaStreamEndCapture(cs, &captured);
  if (e == cudaSuccess) e = end != cudaSuccess ? end : cudaGetLastError();
  if (e == cudaSuccess && !last) e = cudaErrorUnknown;
  return e == cudaSuccess ? last : nullptr;
}

// The sort (hybrid_runs(n), or hybrid_runs_pairs(n)) as a CUDA graph: the zeroing and the sample,
// then switch 1 (the sample refused: the rung below; else:) the count and the starts, then switch 2
// (a bucket too large or a count wrapped: the rung below; else:) the three passes. cs: a stream
// to capture on.
inline cudaError_t build_graph(const Call& c, cudaStream_t cs, cudaGraphExec_t* exec) {
  const Parts w = c.parts();
  const Shape shape = c.shape();
  cudaGraph_t g = nullptr;
  cudaError_t e = cudaGraphCreate(&g, 0);
  if (e != cudaSuccess) return e;
  cudaGraphConditionalHandle road1{};
  e = cudaGraphConditionalHandleCreate(&road1, g, 0, 0);
  cudaGraphNode_t last = nullptr;
  if (e == cudaSuccess)
    last = capture_head(
        g, cs,
        [&] {
          cudaMemsetAsync(w.zeroed, 0, w.zeroed_bytes, cs);
          sample_kernel<<<kSampleBlocks, kSampleThreads, 0, cs>>>(c.keys_in, c.n, w.sample_bins,
                                                                  w.verdict);
          road_kernel<<<1, 1, 0, cs>>>(w.verdict, road1, true);
        },
        e);
  if (e == cudaSuccess)
    e = add_switch(g, last, road1, c, cs, [&](cudaGraph_t body) {
      cudaGraphConditionalHandle road2{};
      cudaError_t eb = cudaGraphConditionalHandleCreate(&road2, body, 0, 0);
      if (eb != cudaSuccess) return eb;
      const cudaGraphNode_t counted = capture_head(
          body, cs, [&] { count_on(c.keys_in, c.n, w, shape.slots(), road2, true, cs); }, eb);
      if (eb != cudaSuccess) return eb;
      return add_switch(body, counted, road2, c, cs, [&](cudaGraph_t passes) {
        return capture_into(passes, cs, [&] { road_on(c, w, shape, cs); });
      });
    });
  if (e == cudaSuccess) e = cudaGraphInstantiate(exec, g, 0);
  cudaGraphDestroy(g);
  return e;
}

// A sort on the road: the graph of build_graph, launched on `stream` (built on the first call for
// its device, pointers and n, and kept in `cache`: sort/graph_cache.h). LADDER_NO_GRAPHS
// (scripts/ncu_counters.sh; Nsight Compute does not profile a conditional node's kernels): the same
// kernels with no graph, each road chosen on the host after reading the verdict back. That waits
// on the GPU: time it only with --no-blocking.
inline cudaError_t launch_road(const Call& c, GraphCache& cache, cudaStream_t stream) {
  static const bool no_graphs = std::getenv("LADDER_NO_GRAPHS") != nullptr;
  if (no_graphs) {
    const Parts w = c.parts();
    const Shape shape = c.shape();
    cudaError_t e = cudaMemsetAsync(w.zeroed, 0, w.zeroed_bytes, stream);
    if (e != cudaSuccess) return e;
    unsigned verdict = 0;
    sample_kernel<<<kSampleBlocks, kSampleThreads, 0, stream>>>(c.keys_in, c.n, w.sample_bins,
                                                                w.verdict);
    e = cudaMemcpyAsync(&verdict, w.verdict, 4, cudaMemcpyDeviceToHost, stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
    if (e != cudaSuccess) return e;
    if (verdict) return fallback_on(c, stream);
    count_on(c.keys_in, c.n, w, shape.slots(), cudaGraphConditionalHandle{}, false, stream);
    e = cudaMemcpyAsync(&verdict, w.verdict, 4, cudaMemcpyDeviceToHost, stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
    if (e != cudaSuccess) return e;
    if (verdict) return fallback_on(c, stream);
    road_on(c, w, shape, stream);
    return cudaGetLastError();
  }
  return cache.launch(
      c.keys_in, c.vals_in, c.keys_out, c.vals_out, c.ws, c.n, stream,
      [&](cudaStream_t cs, cudaGraphExec_t* exec) { return build_graph(c, cs, exec); });
}

// The sort launcher contract (sort/sort.h). ws: workspace_bytes(n) (unused up to 16,384 keys).
// Where hybrid_runs(n), the road (launch_road); elsewhere v15. Not safe to call from two host
// threads at once. Errors: those of the CUDA calls.
inline cudaError_t launch(const uint32_t* keys_in, uint32_t* keys_out, size_t n, void* ws,
                          cudaStream_t stream) {
  if (!hybrid_runs(n)) return v15::launch(keys_in, keys_out, n, ws, stream);
  static GraphCache cache;
  return launch_road(Call{keys_in, nullptr, keys_out, nullptr, n, ws}, cache, stream);
}

// The pairs launcher contract (sort/sort.h). ws: workspace_bytes_pairs(n). Where
// hybrid_runs_pairs(n), the road with the values (bucket_sort_pairs_kernel; the sample and the
// count read only the keys); elsewhere, and for inputs the road refuses, v12; above
// parts::largest() (2^32 - 1), parts sorted by this launcher and merged (sort/merge_parts.cuh).
// Stable. Not safe to call from two host threads at once. Errors: those of the CUDA calls.
inline cudaError_t launch_pairs(const uint32_t* keys_in, const uint32_t* values_in,
                                uint32_t* keys_out, uint32_t* values_out, size_t n, void* ws,
                                cudaStream_t stream) {
  if (parts::runs(n))
    return parts::launch(keys_in, values_in, keys_out, values_out, n, ws, stream,
                         [](const uint32_t* kin, const uint32_t* vin, uint32_t* kout,
                            uint32_t* vout, size_t m, void* part_ws, cudaStream_t s) {
                           return launch_pairs(kin, vin, kout, vout, m, part_ws, s);
                         });
  if (!hybrid_runs_pairs(n))
    return v12::launch_pairs(keys_in, values_in, keys_out, values_out, n, ws, stream);
  static GraphCache cache;
  return launch_road(Call{keys_in, values_in, keys_out, values_out, n, ws}, cache, stream);
}

// Every boundary of the dispatch on this device: the rung below's (v15's; pairs v12's), the last
// size before the hybrid road, its last size, the passes' last size in one portion
// (v12::kPortionKeys; pairs kPortionKeysPairs) and each bucket shape's last size; for pairs, the
// last n of the 32-bit roads (parts::largest()).
inline std::vector<size_t> dispatch_bounds_for(bool pairs) {
  std::vector<size_t> b = pairs ? v12::dispatch_bounds_pairs() : v15::dispatch_bounds();
  if (pairs) b.push_back(parts::largest());  // the last n of the pairs' 32-bit roads
  if (count_fits()) {
    b.push_back(hybrid_from() - 1);
    const size_t to = pairs ? hybrid_to_pairs() : hybrid_to();
    b.push_back(to);
    b.push_back(pairs ? v12::kPortionKeysPairs : v12::kPortionKeys);  // one portion's last n
    // Where the bucket pass's shape changes inside the road: the last n of each shape.
    for (size_t n = hybrid_from(); n < to;) {
      const unsigned slots = shape_by_size(n).slots();
      size_t lo = n, hi = to;  // the last n with this shape, by bisection
      while (lo < hi) {
        const size_t mid = lo + (hi - lo + 1) / 2;
        if (shape_by_size(mid).slots() == slots)
          lo = mid;
        else
          hi = mid - 1;
      }
      if (lo < to) b.push_back(lo);
      n = lo + 1;
    }
  }
  std::sort(b.begin(), b.end());
  b.erase(std::unique(b.begin(), b.end()), b.end());
  return b;
}
inline std::vector<size_t> dispatch_bounds() { return dispatch_bounds_for(false); }
inline std::vector<size_t> dispatch_bounds_pairs() { return dispatch_bounds_for(true); }

}  // namespace ladder::sort::v16
