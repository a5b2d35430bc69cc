// sort/lab/probe_cluster11.cu — a standalone probe toward a rung past v14 (sort/lab/LAB_NOTES.md):
// a whole LSD radix sort of 32-bit keys in three 11-bit passes (11, 11 and 10 bits), each pass a
// one-sweep pass whose tile is ranked by one block but staged and written by a thread block cluster
// of four blocks, so that each digit's run is four blocks' keys long. The memory side of such a
// pass was measured alone by probe_write_runs.cu (sort/lab/LAB_NOTES.md, "What the memory system
// alone charges for a pass's runs"); this probe adds everything else a pass does. Not part of the
// binary.
//
// Two ways to write a pass: cluster11_pass pushes each key to its place in the cluster's tile
// (below), cluster11_pull stages each block's keys at home and pulls whole runs (its comment);
// cluster11_pull also ranks with match.any.sync for every k-th key (MATCH), and both have a
// control without the look-back (it does not sort: every tile writes where the first would).
// One pass of cluster11_pass, per cluster of four blocks of 256 threads x 48 keys (a cluster tile
// of 49,152 keys):
//   1. block 0 draws the cluster's tile number from a counter (tiles in start order, as sort v05
//      draws them) and stores it into the four blocks' shared memory; each block zeroes its warps'
//      digit counters; one cluster barrier (which also guarantees every block has started);
//   2. each block loads its 12,288 keys (key j of lane l of warp w is element (w * 48 + j) * 32 + l
//      of its part) and ranks them stably within the block: eleven warp ballots a key match the
//      lanes of one digit, the highest of them adds their number to the warp's counter of the
//      digit (two 16-bit counters to a word: 8 warps x 2,048 digits in 32 KB), and the others take
//      their rank from it (sort v06's ranking at 11 bits);
//   3. each block sums its warps' counts per digit (its counts, read by the cluster) and turns them
//      into per-warp offsets; cluster barrier;
//   4. each thread reads the four blocks' counts of its eight digits over distributed shared
//      memory: the cluster tile's count of each digit, and the keys of that digit in the blocks
//      before its own; the block scans the 2,048 cluster counts; each key's place in the cluster
//      tile is start[d] + keys of d in earlier blocks + its warp's offset + its rank;
//   5. block b owns digits [512 b, 512 b + 512) for the look-back (sort v05's decoupled look-back
//      over 2,048 digits a tile, 32-bit words, sort v10's flags that alternate between passes):
//      it publishes their cluster-tile counts, stages its keys at their places (mapa and
//      st.shared::cluster: block q holds places [q x 12,288, (q + 1) x 12,288)), looks back, and
//      stores each owned digit's output offset into the four blocks' shared memory;
//   6. cluster barrier; each block writes its slice of the staged tile: D / 4 digits' runs, each
//      the four blocks' keys of that digit side by side.
// A histogram kernel counts the three digits of every key first (global atomics from shared
// counts), and one block scans each digit's 2,048 counts into its bases.
// Compared with CUB's SortKeys and sort v14 on the same keys: every output checked key by key
// against CUB's; timed as the benchmark times (L2 flushed, the stream held, median of 21); the
// passes alone, and the histogram alone, also timed. n is a whole number of cluster tiles
// (5,461 x 49,152 = 268,419,072 keys, about 2^28), so the probe has no partial tile; the keys
// are uniform. Skewed keys would load one block of a cluster with most of the look-back and, in
// cluster11_pull, most of the write-out (each block owns a quarter of the digits), as the last
// pass's 10-bit digits already do (blocks 2 and 3 own no key there).
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. --expt-relaxed-constexpr
//     sort/lab/probe_cluster11.cu common/device.cu -o probe_cluster11 && ./probe_cluster11
// With "once" it sorts once more after its checks and stops, for Nsight Compute, for example
//   ncu --clock-control none -k regex:cluster11 --metrics
//     gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum
//     ./probe_cluster11 once
//
// Source: A. Adinets and D. Merrill, "Onesweep: A Faster Least Significant Digit Radix Sort for
// GPUs", 2022 (the pass); D. Merrill and M. Garland, "Single-pass Parallel Prefix Scan with
// Decoupled Look-back", 2016; CUB's MatchAny (the ballot match); thread block clusters and
// distributed shared memory: the CUDA C++ Programming Guide and the PTX ISA (mapa,
// barrier.cluster, ld/st.shared::cluster).
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/device.h"
#include "common/probe_timer.cuh"
#include "sort/lab/probe_common.cuh"
#include "sort/v14_l2_prefetch.cuh"

using namespace ladder;
using namespace ladder::sort;
using namespace ladder::sort::tuning;

namespace {

constexpr unsigned kThreads = 256, kWarps = kThreads / 32, kItems = 48, kC = 4;
constexpr unsigned kBits = 11, kD = 1u << kBits, kPer = kD / kC;  // digits; digits a block owns
constexpr unsigned kBlockKeys = kThreads * kItems, kTileKeys = kC * kBlockKeys;  // 12,288; 49,152
constexpr unsigned kDigitsPerThread = kD / kThreads;                             // 8
constexpr unsigned kPasses = 3;  // digits at bits 0, 11 and 22 (the last one 10 bits)
static_assert(kTileKeys < 65536, "places in a cluster tile fit 16 bits");

// A timing control (it does not sort): kNoLookBack skips the look-back (each tile's offsets as
// if it were the first).
constexpr unsigned kNoLookBack = 1;

struct Smem {
  uint32_t staged[kBlockKeys];    // this block's slice of the cluster's staged tile
  uint32_t hist[kWarps][kD / 2];  // per warp, two 16-bit counters (then offsets) a word
  uint32_t cnt[kD];               // this block's count of each digit (read by the cluster)
  uint32_t ts[kD];                // cluster tile's count (low 16 bits) and start (high 16)
  uint32_t offs[kD];              // output position of cluster place p of digit d: offs[d] + p
  uint32_t warp_sums[kWarps];
  uint32_t tile;
};

// The lanes of the warp whose 11-bit digit equals this lane's: sort v06's ballot match, one vote
// per bit, over eleven bits.
using v06::ballot_of_bit;
__device__ __forceinline__ unsigned match11(unsigned d) {
  return ballot_of_bit<0>(d) & ballot_of_bit<1>(d) & ballot_of_bit<2>(d) & ballot_of_bit<3>(d) &
         ballot_of_bit<4>(d) & ballot_of_bit<5>(d) & ballot_of_bit<6>(d) & ballot_of_bit<7>(d) &
         ballot_of_bit<8>(d) & ballot_of_bit<9>(d) & ballot_of_bit<10>(d);
}

// Status words (32 bits: value << 2 | flag), sort v10's flags: pass p publishes aggregates with
// flag (p odd ? 3 : 1) and inclusive prefixes with (p odd ? 0 : 2), so a word left by the pass
// before reads as not yet published (the words are zeroed once, before pass 0).
__device__ __forceinline__ unsigned agg_flag(unsigned pass) { return pass % 2 ? 3u : 1u; }
__device__ __forceinline__ unsigned pre_flag(unsigned pass) { return pass % 2 ? 0u : 2u; }
__device__ __forceinline__ void publish(uint32_t* w, unsigned flag, unsigned value) {
  asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(w), "r"(value << 2 | flag) : "memory");
}
__device__ __forceinline__ uint32_t peek(const uint32_t* w) {
  uint32_t v;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(w) : "memory");
  return v;
}
// The keys of digit d in all cluster tiles before `tile`; publishes the inclusive prefix. Four
// words a step (sort v06's window).
__device__ unsigned look_back(uint32_t* status, unsigned tile, unsigned d, unsigned pass,
                              unsigned count) {
  constexpr int kWindow = 4;
  const unsigned agg = agg_flag(pass), pre = pre_flag(pass);
  unsigned before = 0;
  int t = static_cast<int>(tile) - 1;
  bool done = tile == 0;
  while (!done) {
    uint32_t w[kWindow];
#pragma unroll
    for (int k = 0; k < kWindow; ++k)
      w[k] = t >= k ? peek(status + size_t(t - k) * kD + d) : (0u << 2 | pre);
#pragma unroll
    for (int k = 0; k < kWindow; ++k) {
      if (done) break;
      unsigned f = w[k] & 3u;
      while (f != agg && f != pre) {
        w[k] = peek(status + size_t(t - k) * kD + d);
        f = w[k] & 3u;
      }
      before += w[k] >> 2;
      done = f == pre;
    }
    t -= kWindow;
  }
  publish(status + size_t(tile) * kD + d, pre, before + count);
  return before;
}

// One 11-bit pass (module docs above). in, out: tiles x 49,152 keys; status: tiles x 2,048 words;
// bases: this pass's 2,048 global digit starts; counter: zeroed.
template <unsigned MODE>
__global__ void __cluster_dims__(kC, 1, 1) __launch_bounds__(kThreads, 2)
    cluster11_pass(const uint32_t* __restrict__ in, uint32_t* __restrict__ out, unsigned pass,
                   uint32_t* status, const uint32_t* __restrict__ bases, unsigned* counter) {
  extern __shared__ __align__(16) unsigned char raw[];
  Smem& sm = *reinterpret_cast<Smem*>(raw);
  const unsigned b = ctarank(), lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const unsigned shift = pass * kBits;

  // 1. The tile, and zeroed counters. A block's shared memory may be written by another only
  // once the block has started: the first barrier phase says so (arrived at the start, waited
  // on after the zeroing); the second makes the tile number visible.
  asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
  for (unsigned i = threadIdx.x; i < kWarps * kD / 2; i += kThreads) (&sm.hist[0][0])[i] = 0;
  asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
  if (b == 0 && threadIdx.x == 0) {
    const unsigned t = atomicAdd(counter, 1u);
#pragma unroll
    for (unsigned q = 0; q < kC; ++q) st_cluster(remote(smem_addr(&sm.tile), q), t);
  }
  cluster_sync();
  const unsigned tile = sm.tile;

  // 2. Load and rank within the block.
  const uint32_t* src = in + size_t(tile) * kTileKeys + b * kBlockKeys;
  uint32_t key[kItems];
#pragma unroll
  for (unsigned j = 0; j < kItems; ++j) key[j] = src[(warp * kItems + j) * 32 + lane];
  unsigned rank2[kItems / 2];  // two 16-bit ranks a register
  unsigned lanemask_le;
  asm("mov.u32 %0, %%lanemask_le;" : "=r"(lanemask_le));
#pragma unroll
  for (unsigned j = 0; j < kItems; ++j) {
    const unsigned d = (key[j] >> shift) & (kD - 1);
    const unsigned peers = match11(d);
    const unsigned upto = __popc(peers & lanemask_le);
    const unsigned leader = 31 - __clz(peers);
    const unsigned half = 16 * (d & 1);
    unsigned old = 0;
    if (lane == leader) old = atomicAdd(&sm.hist[warp][d / 2], upto << half);
    old = (__shfl_sync(0xffffffffu, old, leader) >> half) & 0xffffu;
    const unsigned r = old + upto - 1;
    if (j % 2 == 0)
      rank2[j / 2] = r;
    else
      rank2[j / 2] |= r << 16;
  }
  __syncthreads();

  // 3. This block's count of each of the thread's eight digits; the warps' counts become offsets.
  const unsigned d0 = threadIdx.x * kDigitsPerThread;
  unsigned mine[kDigitsPerThread] = {};
#pragma unroll
  for (unsigned w = 0; w < kWarps; ++w) {
#pragma unroll
    for (unsigned k = 0; k < kDigitsPerThread; k += 2) {
      const uint32_t v = sm.hist[w][(d0 + k) / 2];
      const unsigned lo = v & 0xffffu, hi = v >> 16;
      sm.hist[w][(d0 + k) / 2] = mine[k] | mine[k + 1] << 16;
      mine[k] += lo;
      mine[k + 1] += hi;
    }
  }
#pragma unroll
  for (unsigned k = 0; k < kDigitsPerThread; ++k) sm.cnt[d0 + k] = mine[k];
  cluster_sync();

  // 4. The cluster tile's counts (kept in ts until the scan) and this block's place among the
  // blocks; the tile's starts.
  unsigned before_b[kDigitsPerThread] = {}, sum = 0;
#pragma unroll
  for (unsigned k = 0; k < kDigitsPerThread; ++k) {
    unsigned total = 0;
#pragma unroll
    for (unsigned q = 0; q < kC; ++q) {
      const unsigned c = ld_cluster(remote(smem_addr(&sm.cnt[d0 + k]), q));
      total += c;
      before_b[k] += q < b ? c : 0u;
    }
    sm.ts[d0 + k] = total;
    sum += total;
  }
  unsigned incl = sum;  // block-wide exclusive scan of the threads' sums
#pragma unroll
  for (unsigned o = 1; o < 32; o *= 2) {
    const unsigned v = __shfl_up_sync(0xffffffffu, incl, o);
    if (lane >= o) incl += v;
  }
  if (lane == 31) sm.warp_sums[warp] = incl;
  __syncthreads();
  unsigned run = incl - sum;
  for (unsigned w = 0; w < warp; ++w) run += sm.warp_sums[w];
#pragma unroll
  for (unsigned k = 0; k < kDigitsPerThread; k += 2) {  // two digits, one word of each warp's
    const unsigned t0 = sm.ts[d0 + k], t1 = sm.ts[d0 + k + 1];
    sm.ts[d0 + k] = run << 16 | t0;
    sm.ts[d0 + k + 1] = (run + t0) << 16 | t1;
    const unsigned add = (run + before_b[k]) | (run + t0 + before_b[k + 1]) << 16;  // < 49,152
#pragma unroll
    for (unsigned w = 0; w < kWarps; ++w) sm.hist[w][(d0 + k) / 2] += add;
    run += t0 + t1;
  }
  __syncthreads();

  // 5. Publish the owned digits' counts, stage the keys across the cluster, look back.
  for (unsigned d = b * kPer + threadIdx.x; d < (b + 1) * kPer; d += kThreads)
    publish(status + size_t(tile) * kD + d, tile == 0 ? pre_flag(pass) : agg_flag(pass),
            sm.ts[d] & 0xffffu);
  const unsigned staged0 = smem_addr(sm.staged);
#pragma unroll
  for (unsigned j = 0; j < kItems; ++j) {
    const unsigned d = (key[j] >> shift) & (kD - 1);
    const unsigned r = (j % 2 ? rank2[j / 2] >> 16 : rank2[j / 2]) & 0xffffu;
    const unsigned place = r + ((sm.hist[warp][d / 2] >> (16 * (d & 1))) & 0xffffu);
    const unsigned q = place / kBlockKeys;
    st_cluster(remote(staged0 + 4 * (place - q * kBlockKeys), q), key[j]);
  }
  for (unsigned d = b * kPer + threadIdx.x; d < (b + 1) * kPer; d += kThreads) {
    const unsigned ts = sm.ts[d];
    const unsigned before =
        (MODE & kNoLookBack) != 0 ? 0u : look_back(status, tile, d, pass, ts & 0xffffu);
    const unsigned off = bases[d] + before - (ts >> 16);  // modulo 2^32
    const unsigned a = smem_addr(&sm.offs[d]);
#pragma unroll
    for (unsigned q = 0; q < kC; ++q) st_cluster(remote(a, q), off);
  }
  cluster_sync();

  // 6. Write this block's slice: D / 4 whole runs of the cluster's digits.
#pragma unroll
  for (unsigned j = 0; j < kItems; ++j) {
    const unsigned i = j * kThreads + threadIdx.x;
    const uint32_t k = sm.staged[i];
    const unsigned d = (k >> shift) & (kD - 1);
    out[sm.offs[d] + b * kBlockKeys + i] = k;  // offs[d] + the place in the cluster tile
  }
}

// The same pass with the cluster's keys pulled rather than pushed. cluster11_pass above stores
// each key straight into its place in the cluster's tile, in another block's shared memory for
// three keys in four; a warp's 32 keys have 32 unrelated digits, so each such store instruction
// makes 32 separate distributed-shared-memory writes. Here each block first stages its own keys
// in digit order in its own shared memory (sort v06's staging), and the write-out reads them:
// block b writes the runs of the digits it owns, [512 b, 512 b + 512), each run one warp store
// (the four blocks' keys of that digit, in block order), reading its keys from the four blocks'
// staging, where each block's keys of one digit lie side by side (a warp's loads touch at most
// four places). No place in the cluster tile, and so no scan of the cluster's counts, is needed:
// the output position of key k of digit d's run is bases[d] + the look-back's count + k.
// Shared memory: staged (48 KB), the warps' counters (32 KB; after the cluster barrier their
// bytes hold the owned digits' four counts, four starts and output positions), the block's count
// and start of each digit (read by the cluster).
struct SmemPull {
  uint32_t staged[kBlockKeys];  // this block's keys in digit order
  union {
    uint32_t hist[kWarps][kD / 2];  // per warp, two 16-bit counters (then offsets) a word
    struct {
      uint32_t c01[kPer], c23[kPer];  // owned digit: the four blocks' counts, 16 bits each
      uint32_t s01[kPer], s23[kPer];  // and where each block's keys of it start in its staging
      uint32_t base[kPer];            // output position of the run's first key
    } own;
  };
  uint32_t cnt[kD];  // this block's count of each digit (read by the cluster)
  uint32_t bst[kD];  // where this block's keys of each digit start in its staging (read too)
  uint32_t warp_sums[kWarps];
  uint32_t tile;
};

// MATCH (the ranking): 0 matches every key's digit with eleven ballots; k > 0 uses one
// match.any.sync (the shared-memory pipe) for every k-th key instead (1: all of them).
template <unsigned MODE, unsigned MATCH = 0>
__global__ void __cluster_dims__(kC, 1, 1) __launch_bounds__(kThreads, 2)
    cluster11_pull(const uint32_t* __restrict__ in, uint32_t* __restrict__ out, unsigned pass,
                   uint32_t* status, const uint32_t* __restrict__ bases, unsigned* counter) {
  extern __shared__ __align__(16) unsigned char raw[];
  SmemPull& sm = *reinterpret_cast<SmemPull*>(raw);
  const unsigned b = ctarank(), lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const unsigned shift = pass * kBits;

  // 1. The tile (drawn by block 0), and zeroed counters; as in cluster11_pass.
  asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
  for (unsigned i = threadIdx.x; i < kWarps * kD / 2; i += kThreads) (&sm.hist[0][0])[i] = 0;
  asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
  if (b == 0 && threadIdx.x == 0) {
    const unsigned t = atomicAdd(counter, 1u);
#pragma unroll
    for (unsigned q = 0; q < kC; ++q) st_cluster(remote(smem_addr(&sm.tile), q), t);
  }
  cluster_sync();
  const unsigned tile = sm.tile;

  // 2. Load and rank within the block (as in cluster11_pass).
  const uint32_t* src = in + size_t(tile) * kTileKeys + b * kBlockKeys;
  uint32_t key[kItems];
#pragma unroll
  for (unsigned j = 0; j < kItems; ++j) key[j] = src[(warp * kItems + j) * 32 + lane];
  unsigned rank2[kItems / 2];
  unsigned lanemask_le;
  asm("mov.u32 %0, %%lanemask_le;" : "=r"(lanemask_le));
#pragma unroll
  for (unsigned j = 0; j < kItems; ++j) {
    const unsigned d = (key[j] >> shift) & (kD - 1);
    const unsigned peers = MATCH && j % (MATCH ? MATCH : 1) == MATCH - 1
                               ? __match_any_sync(0xffffffffu, d)
                               : match11(d);
    const unsigned upto = __popc(peers & lanemask_le);
    const unsigned leader = 31 - __clz(peers);
    const unsigned half = 16 * (d & 1);
    unsigned old = 0;
    if (lane == leader) old = atomicAdd(&sm.hist[warp][d / 2], upto << half);
    old = (__shfl_sync(0xffffffffu, old, leader) >> half) & 0xffffu;
    const unsigned r = old + upto - 1;
    if (j % 2 == 0)
      rank2[j / 2] = r;
    else
      rank2[j / 2] |= r << 16;
  }
  __syncthreads();

  // 3. The block's count and start of each of the thread's eight digits; each warp's offset.
  const unsigned d0 = threadIdx.x * kDigitsPerThread;
  unsigned mine[kDigitsPerThread] = {};
#pragma unroll
  for (unsigned w = 0; w < kWarps; ++w) {
#pragma unroll
    for (unsigned k = 0; k < kDigitsPerThread; k += 2) {
      const uint32_t v = sm.hist[w][(d0 + k) / 2];
      sm.hist[w][(d0 + k) / 2] = mine[k] | mine[k + 1] << 16;
      mine[k] += v & 0xffffu;
      mine[k + 1] += v >> 16;
    }
  }
  unsigned sum = 0;
#pragma unroll
  for (unsigned k = 0; k < kDigitsPerThread; ++k) {
    sm.cnt[d0 + k] = mine[k];
    sum += mine[k];
  }
  unsigned incl = sum;
#pragma unroll
  for (unsigned o = 1; o < 32; o *= 2) {
    const unsigned v = __shfl_up_sync(0xffffffffu, incl, o);
    if (lane >= o) incl += v;
  }
  if (lane == 31) sm.warp_sums[warp] = incl;
  __syncthreads();
  unsigned run = incl - sum;
  for (unsigned w = 0; w < warp; ++w) run += sm.warp_sums[w];
#pragma unroll
  for (unsigned k = 0; k < kDigitsPerThread; k += 2) {
    sm.bst[d0 + k] = run;
    sm.bst[d0 + k + 1] = run + mine[k];
    const unsigned add = run | (run + mine[k]) << 16;  // starts below 12,288: no carry
#pragma unroll
    for (unsigned w = 0; w < kWarps; ++w) sm.hist[w][(d0 + k) / 2] += add;
    run += mine[k] + mine[k + 1];
  }
  __syncthreads();

  // 4. Stage the block's keys in digit order, in its own shared memory.
#pragma unroll
  for (unsigned j = 0; j < kItems; ++j) {
    const unsigned d = (key[j] >> shift) & (kD - 1);
    const unsigned r = (j % 2 ? rank2[j / 2] >> 16 : rank2[j / 2]) & 0xffffu;
    sm.staged[r + ((sm.hist[warp][d / 2] >> (16 * (d & 1))) & 0xffffu)] = key[j];
  }
  cluster_sync();  // every block's counts, starts and staged keys are visible to the cluster

  // 5. The owned digits: the four blocks' counts and starts, the tile's count published, then
  // the look-back (every owned digit published before any look-back starts).
  unsigned total[kPer / kThreads];
#pragma unroll
  for (unsigned m = 0; m < kPer / kThreads; ++m) {
    const unsigned o = m * kThreads + threadIdx.x, d = b * kPer + o;
    unsigned c[kC], st[kC];
#pragma unroll
    for (unsigned q = 0; q < kC; ++q) {
      c[q] = ld_cluster(remote(smem_addr(&sm.cnt[d]), q));
      st[q] = ld_cluster(remote(smem_addr(&sm.bst[d]), q));
    }
    total[m] = c[0] + c[1] + c[2] + c[3];
    sm.own.c01[o] = c[0] | c[1] << 16;
    sm.own.c23[o] = c[2] | c[3] << 16;
    sm.own.s01[o] = st[0] | st[1] << 16;
    sm.own.s23[o] = st[2] | st[3] << 16;
    publish(status + size_t(tile) * kD + d, tile == 0 ? pre_flag(pass) : agg_flag(pass), total[m]);
  }
#pragma unroll
  for (unsigned m = 0; m < kPer / kThreads; ++m) {
    const unsigned o = m * kThreads + threadIdx.x, d = b * kPer + o;
    const unsigned before =
        (MODE & kNoLookBack) != 0 ? 0u : look_back(status, tile, d, pass, total[m]);
    sm.own.base[o] = bases[d] + before;
  }
  __syncthreads();

  // 6. Write the owned digits' runs, a warp a digit: lane k takes key k of the run, from the
  // block whose keys of the digit it falls in.
  const unsigned staged0 = smem_addr(sm.staged);
  for (unsigned o = warp; o < kPer; o += kWarps) {
    const unsigned c01 = sm.own.c01[o], c23 = sm.own.c23[o];
    const unsigned s01 = sm.own.s01[o], s23 = sm.own.s23[o];
    const unsigned e0 = c01 & 0xffffu, e1 = e0 + (c01 >> 16), e2 = e1 + (c23 & 0xffffu),
                   e3 = e2 + (c23 >> 16);  // run ends of blocks 0..3
    const unsigned base = sm.own.base[o];
    for (unsigned k = lane; k < e3; k += 32) {
      const unsigned q = (k >= e0) + (k >= e1) + (k >= e2);
      const unsigned from = q == 0   ? s01 & 0xffffu
                            : q == 1 ? (s01 >> 16) - e0
                            : q == 2 ? (s23 & 0xffffu) - e1
                                     : (s23 >> 16) - e2;  // start in block q's staging, minus
                                                          // the keys of earlier blocks
      out[base + k] = ld_cluster(remote(staged0 + 4 * (from + k), q));
    }
  }
  cluster_sync();  // no block leaves while another may still read its shared memory
}

// hist[p][d]: the keys whose digit p is d (zeroed).
__global__ void __launch_bounds__(256)
    cluster11_histogram(const uint32_t* __restrict__ in, size_t n, uint32_t* hist) {
  __shared__ uint32_t h[kPasses][kD];
  for (unsigned i = threadIdx.x; i < kPasses * kD; i += blockDim.x) (&h[0][0])[i] = 0;
  __syncthreads();
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    const uint32_t k = in[i];
#pragma unroll
    for (unsigned p = 0; p < kPasses; ++p) atomicAdd(&h[p][(k >> (p * kBits)) & (kD - 1)], 1u);
  }
  __syncthreads();
  for (unsigned i = threadIdx.x; i < kPasses * kD; i += blockDim.x)
    if ((&h[0][0])[i]) atomicAdd(hist + i, (&h[0][0])[i]);
}
// bases[p][d] = exclusive prefix of hist[p][.] (one block per pass, 256 threads x 8 digits).
__global__ void __launch_bounds__(256) cluster11_bases(const uint32_t* hist, uint32_t* bases) {
  __shared__ uint32_t warp_sums[8];
  const uint32_t* h = hist + blockIdx.x * kD;
  const unsigned d0 = threadIdx.x * 8, lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  unsigned v[8], sum = 0;
  for (unsigned k = 0; k < 8; ++k) sum += v[k] = h[d0 + k];
  unsigned incl = sum;
  for (unsigned o = 1; o < 32; o *= 2) {
    const unsigned x = __shfl_up_sync(0xffffffffu, incl, o);
    if (lane >= o) incl += x;
  }
  if (lane == 31) warp_sums[warp] = incl;
  __syncthreads();
  unsigned run = incl - sum;
  for (unsigned w = 0; w < warp; ++w) run += warp_sums[w];
  for (unsigned k = 0; k < 8; ++k) {
    bases[blockIdx.x * kD + d0 + k] = run;
    run += v[k];
  }
}

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

// A pass kernel: cluster11_pass (keys pushed to their places) or cluster11_pull, each with or
// without the look-back.
using PassKernel = void (*)(const uint32_t*, uint32_t*, unsigned, uint32_t*, const uint32_t*,
                            unsigned*);
struct Variant {
  const char* name;
  PassKernel kernel;
  size_t smem;
  bool sorts;
};
const Variant kVariants[] = {
    {"pushed (cluster11_pass)", cluster11_pass<0>, sizeof(Smem), true},
    {"pushed, no look-back (wrong)", cluster11_pass<kNoLookBack>, sizeof(Smem), false},
    {"pulled (cluster11_pull)", cluster11_pull<0>, sizeof(SmemPull), true},
    {"pulled, no look-back (wrong)", cluster11_pull<kNoLookBack>, sizeof(SmemPull), false},
    {"pulled, match.any every key", cluster11_pull<0, 1>, sizeof(SmemPull), true},
    {"pulled, match.any every 2nd", cluster11_pull<0, 2>, sizeof(SmemPull), true},
    {"pulled, match.any every 3rd", cluster11_pull<0, 3>, sizeof(SmemPull), true},
};

struct Sorter {
  size_t n = 0, tiles = 0;
  uint32_t *tmp = nullptr, *status = nullptr, *hist = nullptr, *bases = nullptr;
  unsigned* counters = nullptr;
  explicit Sorter(size_t n_) : n(n_), tiles(n_ / kTileKeys) {
    check(cudaMalloc(&tmp, n * 4), "tmp");
    check(cudaMalloc(&status, tiles * kD * 4), "status");
    check(cudaMalloc(&hist, kPasses * kD * 4), "hist");
    check(cudaMalloc(&bases, kPasses * kD * 4), "bases");
    check(cudaMalloc(&counters, kPasses * 4), "counters");
    for (const Variant& v : kVariants)
      check(
          cudaFuncSetAttribute(v.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(v.smem)),
          "smem attribute");
  }
  void histogram(const uint32_t* in, cudaStream_t s) const {
    cudaMemsetAsync(hist, 0, kPasses * kD * 4, s);
    cluster11_histogram<<<4 * current_sm_count(), 256, 0, s>>>(in, n, hist);
    cluster11_bases<<<kPasses, 256, 0, s>>>(hist, bases);
  }
  void passes(const uint32_t* in, uint32_t* out, cudaStream_t s, const Variant& v) const {
    cudaMemsetAsync(status, 0, tiles * kD * 4, s);
    cudaMemsetAsync(counters, 0, kPasses * 4, s);
    const uint32_t* from[kPasses] = {in, out, tmp};
    uint32_t* to[kPasses] = {out, tmp, out};
    for (unsigned p = 0; p < kPasses; ++p)
      v.kernel<<<unsigned(tiles * kC), kThreads, v.smem, s>>>(from[p], to[p], p, status,
                                                              bases + p * kD, counters + p);
  }
  void sort(const uint32_t* in, uint32_t* out, cudaStream_t s, const Variant& v) const {
    histogram(in, s);
    passes(in, out, s, v);
  }
};

}  // namespace

int main(int argc, char** argv) {
  const bool once = argc > 1 && std::string(argv[1]) == "once";
  const size_t n = size_t(5461) * kTileKeys;  // 268,419,072 keys
  uint32_t *in, *out, *want;
  for (uint32_t** p : {&in, &out, &want}) check(cudaMalloc(p, n * 4), "cudaMalloc");
  unsigned long long* bad;
  check(cudaMalloc(&bad, 8), "cudaMalloc");
  size_t cub_bytes = 0;
  cub::DeviceRadixSort::SortKeys(nullptr, cub_bytes, in, out, static_cast<long long>(n));
  const size_t ws_bytes = std::max(cub_bytes, v14::workspace_bytes(n));
  void* ws;
  check(cudaMalloc(&ws, ws_bytes), "cudaMalloc ws");
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  probe_timing::Timer timer(s);
  fill_pairs<<<1024, 256>>>(in, out, n);  // keys: a hash of the index
  check(cudaDeviceSynchronize(), "fill");
  const Sorter sorter(n);
  std::printf("%s, n = %zu uniform keys; cluster tile %u keys\n", query_device(0).name.c_str(), n,
              kTileKeys);
  for (const Variant& v : kVariants) {
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(unsigned(sorter.tiles * kC));
    config.blockDim = dim3(kThreads);
    config.dynamicSmemBytes = v.smem;
    int clusters = 0;
    cudaOccupancyMaxActiveClusters(&clusters, v.kernel, &config);
    std::printf("  %-30s %zu bytes of shared memory a block, at most %d clusters resident\n",
                v.name, v.smem, clusters);
  }
  auto cub_sort = [&](uint32_t* o) {
    size_t b = cub_bytes;
    return cub::DeviceRadixSort::SortKeys(ws, b, in, o, static_cast<long long>(n), 0, 32, s);
  };
  cub_sort(want);
  unsigned long long all_wrong = 0;
  for (const Variant& v : kVariants) {
    if (!v.sorts) continue;
    cudaMemsetAsync(out, 0xa5, n * 4, s);
    sorter.sort(in, out, s, v);
    check(cudaStreamSynchronize(s), v.name);
    const unsigned long long wrong = probe_timing::mismatches(out, want, n, bad, s);
    all_wrong += wrong;
    std::printf("%-30s keys that differ from CUB's: %llu\n", v.name, wrong);
  }
  cudaMemsetAsync(out, 0xa5, n * 4, s);
  v14::launch(in, out, n, ws, s);
  const unsigned long long wrong14 = probe_timing::mismatches(out, want, n, bad, s);
  all_wrong += wrong14;
  // The check must be able to fail: one key of a sorted output changed, one mismatch found.
  check(cudaStreamSynchronize(s), "v14");
  uint32_t one = 0;
  cudaMemcpy(&one, out + n / 3, 4, cudaMemcpyDeviceToHost);
  one ^= 1u << 30;
  cudaMemcpy(out + n / 3, &one, 4, cudaMemcpyHostToDevice);
  const unsigned long long planted = probe_timing::mismatches(out, want, n, bad, s);
  std::printf("sort v14: keys that differ from CUB's: %llu; one key changed: %llu (want 1)\n",
              wrong14, planted);
  if (once) {
    for (const Variant& v : kVariants) sorter.sort(in, out, s, v);
    check(cudaStreamSynchronize(s), "once");
    return all_wrong == 0 ? 0 : 1;
  }
  const float copy_us =
      timer.median_us([&] { cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDeviceToDevice, s); }, 21);
  const float cub_us = timer.median_us([&] { cub_sort(out); }, 21);
  const float v14_us = timer.median_us([&] { v14::launch(in, out, n, ws, s); }, 21);
  const float hist_us = timer.median_us([&] { sorter.histogram(in, s); }, 21);
  std::printf("copy of the keys                  %9.1f us\n", copy_us);
  std::printf("CUB SortKeys                      %9.1f us  1.000x CUB\n", cub_us);
  std::printf("sort v14                          %9.1f us  %.3fx CUB\n", v14_us, v14_us / cub_us);
  std::printf("cluster11 histogram alone         %9.1f us\n", hist_us);
  for (const Variant& v : kVariants) {
    const float all = v.sorts ? timer.median_us([&] { sorter.sort(in, out, s, v); }, 21) : 0.f;
    const float passes = timer.median_us([&] { sorter.passes(in, out, s, v); }, 21);
    if (v.sorts)
      std::printf("%-30s sort %9.1f us  %.3fx CUB; 3 passes %9.1f us (%.1f a pass)\n", v.name, all,
                  all / cub_us, passes, passes / 3);
    else
      std::printf("%-30s (does not sort) 3 passes %9.1f us (%.1f a pass)\n", v.name, passes,
                  passes / 3);
  }
  check(cudaStreamSynchronize(s), "timing");
  return all_wrong == 0 ? 0 : 1;
}
