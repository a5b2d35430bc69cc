// sort/lab/probe_scatter.cu — a standalone probe toward the rungs past v12 ("Probe
// 1b" of sort/lab/LAB_NOTES.md's "Directions toward 0.80x CUB"): what one radix pass's memory side
// costs at 8-bit and at 11-bit digits, with the ranking made as cheap as it gets, so that the
// time left is the loads, the per-tile digit offsets and the scatter's partly filled sectors.
//
// One counting-sort pass over n uniform keys by their low BITS bits, tile by tile, shaped as a
// one-sweep pass: each thread loads its keys into registers, ranks each within its digit with one
// shared atomicAdd (unstable: enough for the traffic, not for a sort), the block scans the tile's
// D digit counts, stages the keys in digit order, reads its D global digit offsets (what a
// one-sweep pass's look-back reads: D words a tile), and writes each staged key to offset[d] +
// its place in the digit's run. The offsets are computed beforehand, untimed (a histogram per
// tile and CUB's exclusive sum). Timed as the benchmark times (L2 flushed, the stream held by a
// blocking kernel, median of 21) for D = 256 and 2,048 at tiles of 11,264 keys (v12's: 256 x 44,
// two blocks an SM) and 22,528 (512 x 44, one block an SM: the register file's limit). Each output
// is checked: digits non-decreasing and the same multiset of keys (two order-free 64-bit sums).
// Variants of the same pass (each kernel's comment says more): scatter_pass with its stores
// coalesced (a control, not checked); scatter_pipelined (the next tile's keys by bulk copy while
// this one is ranked); scatter_cluster (a thread block cluster of C blocks ranks and stages one
// tile C blocks wide in distributed shared memory); scatter_cluster_counts (the cluster shares only
// its counts, and each block writes its own keys into the cluster's runs). For the write traffic,
// run it under Nsight Compute:
//   ncu --clock-control none -k regex:scatter_ --metrics \
//     gpu__time_duration.sum,dram__bytes_write.sum,dram__bytes_read.sum,\
//     lts__t_sectors_srcunit_tex_op_write.sum,lts__t_requests_srcunit_tex_op_write.sum
//     ./probe_scatter 28 once
// ("once": each pass runs once, untimed, after its check). Not part of the binary.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. sort/lab/probe_scatter.cu common/device.cu \
//     -o probe_scatter && ./probe_scatter [log2 n, default 28] [once]
//
// Source: the pass structure of A. Adinets and D. Merrill, "Onesweep: A Faster Least Significant
// Digit Radix Sort for GPUs", 2022 (rank, stage in shared memory, write runs), and sort v06's
// staging and write-out; the counting-sort pass itself is the textbook one. Clusters and
// distributed shared memory: the CUDA C++ Programming Guide, "Thread Block Clusters"; PTX ISA,
// "mapa", "barrier.cluster".
#include <cooperative_groups.h>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/bulk_copy.cuh"
#include "common/device.h"
#include "common/probe_timer.cuh"
#include "sort/lab/probe_common.cuh"

using namespace ladder;
using namespace ladder::sort::tuning;
using probe_timing::Timer;
namespace cg = cooperative_groups;

namespace {

__global__ void fill_keys(uint32_t* k, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    k[i] = mix((i + 1) * 0x9e3779b97f4a7c15ull);
}

// counts[d * tiles + tile]: how many keys of the tile have digit d (digit-major, so that one
// exclusive sum over the array gives every (digit, tile) its global offset).
template <unsigned D>
__global__ void tile_histogram(const uint32_t* in, size_t n, unsigned tile_keys, unsigned tiles,
                               uint32_t* counts) {
  extern __shared__ uint32_t cnt[];
  for (unsigned d = threadIdx.x; d < D; d += blockDim.x) cnt[d] = 0;
  __syncthreads();
  const size_t first = size_t(blockIdx.x) * tile_keys;
  const size_t end = n < first + tile_keys ? n : first + tile_keys;
  for (size_t i = first + threadIdx.x; i < end; i += blockDim.x)
    atomicAdd(&cnt[in[i] & (D - 1)], 1u);
  __syncthreads();
  for (unsigned d = threadIdx.x; d < D; d += blockDim.x)
    counts[size_t(d) * tiles + blockIdx.x] = cnt[d];
}

// offsets_by_tile[tile * D + d] = scanned[d * tiles + tile]: each tile's D offsets contiguous, as
// a one-sweep pass finds them (one read of D words a tile).
template <unsigned D>
__global__ void transpose_offsets(const uint32_t* scanned, unsigned tiles, uint32_t* by_tile) {
  const size_t total = size_t(D) * tiles;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < total;
       i += size_t(gridDim.x) * blockDim.x) {
    const size_t tile = i / D, d = i % D;
    by_tile[i] = scanned[d * tiles + tile];
  }
}

// Exclusive sum of cnt[0, D) in place, by one block of THREADS threads (D a multiple of
// THREADS, or below it): each thread sums its D / THREADS consecutive counts (one, or none
// past D), the block scans the thread sums with warp shuffles, and each thread writes its run's
// prefixes.
template <unsigned D, unsigned THREADS>
__device__ void block_exclusive_sum(uint32_t* cnt, uint32_t* warp_sums) {
  constexpr unsigned kPer = D >= THREADS ? D / THREADS : 1;
  const unsigned t = threadIdx.x, lane = t % 32, warp = t / 32;
  const bool mine_any = t * kPer < D;
  uint32_t mine[kPer];
  uint32_t sum = 0;
  for (unsigned j = 0; j < kPer; ++j) {
    mine[j] = mine_any ? cnt[t * kPer + j] : 0u;
    sum += mine[j];
  }
  uint32_t incl = sum;  // inclusive scan of the thread sums within the warp
  for (unsigned o = 1; o < 32; o *= 2) {
    const uint32_t v = __shfl_up_sync(0xffffffffu, incl, o);
    if (lane >= o) incl += v;
  }
  if (lane == 31) warp_sums[warp] = incl;
  __syncthreads();
  uint32_t before = 0;
  for (unsigned w = 0; w < warp; ++w) before += warp_sums[w];
  uint32_t run = before + incl - sum;
  for (unsigned j = 0; j < kPer && mine_any; ++j) {
    cnt[t * kPer + j] = run;
    run += mine[j];
  }
  __syncthreads();
}

// The timed pass, shaped as a one-sweep pass is: each thread loads its ITEMS keys into registers
// first (item j of lane l of warp w is tile element (w * ITEMS + j) * 32 + l), so that a block has
// its whole tile in flight; each key takes its rank within its digit from one shared atomicAdd
// (held in a register); the tile's D counts are scanned; the keys are staged in digit order; the
// tile's D global offsets are read (a look-back's D words); consecutive threads write consecutive
// staged keys. Shared memory: staged[T], cnt[D], offs[D].
// SCATTER false (a control): the staged tile is written back where the tile came from, coalesced,
// so that the pass differs from the real one only in where its stores go.
template <unsigned D, unsigned THREADS, unsigned ITEMS, bool SCATTER = true>
__global__ void __launch_bounds__(THREADS, 512 / THREADS)
    scatter_pass(const uint32_t* __restrict__ in, uint32_t* __restrict__ out, size_t n,
                 const uint32_t* __restrict__ offsets_by_tile, unsigned* /*counter*/) {
  constexpr unsigned kTile = THREADS * ITEMS;
  extern __shared__ uint32_t smem[];
  uint32_t* staged = smem;
  uint32_t* cnt = staged + kTile;
  uint32_t* offs = cnt + D;
  __shared__ uint32_t warp_sums[THREADS / 32];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;

  const size_t base = size_t(blockIdx.x) * kTile;
  const bool full = base + kTile <= n;
  const size_t first = base + size_t(warp) * ITEMS * 32 + lane;
  uint32_t key[ITEMS];
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j)
    key[j] = full || first + j * 32 < n ? in[first + j * 32] : 0u;
  for (unsigned d = threadIdx.x; d < D; d += THREADS) cnt[d] = 0;
  __syncthreads();
  unsigned rank[ITEMS];
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j)
    rank[j] = full || first + j * 32 < n ? atomicAdd(&cnt[key[j] & (D - 1)], 1u) : 0u;
  __syncthreads();
  block_exclusive_sum<D, THREADS>(cnt, warp_sums);  // cnt[d]: where digit d's run starts
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j)
    if (full || first + j * 32 < n) staged[cnt[key[j] & (D - 1)] + rank[j]] = key[j];
  for (unsigned d = threadIdx.x; d < D; d += THREADS)
    offs[d] = offsets_by_tile[size_t(blockIdx.x) * D + d] - cnt[d];
  __syncthreads();
  const unsigned valid = full ? kTile : static_cast<unsigned>(n - base);
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) {
    const unsigned i = j * THREADS + threadIdx.x;
    if (full || i < valid) {
      const uint32_t k = staged[i];
      const unsigned o = offs[k & (D - 1)];
      if constexpr (SCATTER)
        out[o + i] = k;
      else  // the offset still read and used, so that only the stores' addresses differ
        out[base + i] = k ^ static_cast<uint32_t>(o == 0x7fffffffu);
    }
  }
}

// scatter_pass with the next tile's keys in flight while this one is ranked and written (software
// pipelining): a resident grid of persistent blocks, each drawing its tiles in order from a global
// counter (as a one-sweep pass draws them, so that the tiles in flight stay close together), the
// next one at the start of the current one; two tile-sized buffers in shared memory, filled by one
// bulk copy each (the TMA, completing on an mbarrier). At the start of a tile, thread 0 issues the
// copy of the block's next tile into the other buffer; the threads wait for this tile's copy, take
// their keys from shared memory, rank, and stage the keys in digit order in the same buffer (its
// keys are in registers by then), from where they are written out. A partial last tile is loaded
// from global memory directly. Shared memory: buf[2][T], cnt[D], offs[D].
template <unsigned D, unsigned THREADS, unsigned ITEMS>
__global__ void __launch_bounds__(THREADS, 512 / THREADS)
    scatter_pipelined(const uint32_t* __restrict__ in, uint32_t* __restrict__ out, size_t n,
                      const uint32_t* __restrict__ offsets_by_tile, unsigned* counter) {
  constexpr unsigned kTile = THREADS * ITEMS;
  extern __shared__ __align__(16) uint32_t smem[];
  uint32_t* cnt = smem + 2 * kTile;
  uint32_t* offs = cnt + D;
  __shared__ uint32_t warp_sums[THREADS / 32];
  __shared__ unsigned long long bar[2];
  __shared__ unsigned drawn[2];  // the tile of iteration k is drawn[k % 2]
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const size_t tiles = (n + kTile - 1) / kTile, full_tiles = n / kTile;
  if (threadIdx.x == 0) {
    bulk::barrier_init(&bar[0]);
    bulk::barrier_init(&bar[1]);
  }
  __syncthreads();
  auto issue = [&](size_t tile, unsigned b) {
    if (threadIdx.x == 0 && tile < full_tiles)
      bulk::load(smem + b * kTile, in + tile * kTile, kTile * 4, &bar[b]);
  };
  if (threadIdx.x == 0) {
    drawn[0] = atomicAdd(counter, 1u);
    issue(drawn[0], 0);
  }
  __syncthreads();
  for (unsigned k = 0;; ++k) {
    const size_t tile = drawn[k & 1];
    if (tile >= tiles) break;  // block-uniform
    const unsigned b = k & 1;
    uint32_t* stage = smem + b * kTile;
    if (threadIdx.x == 0) {  // the next tile, into the buffer freed at the end of the last one
      drawn[b ^ 1] = atomicAdd(counter, 1u);
      issue(drawn[b ^ 1], b ^ 1);
    }
    const size_t base = tile * kTile;
    const bool full = tile < full_tiles;
    uint32_t key[ITEMS];
    if (full) {
      bulk::wait(&bar[b], (k >> 1) & 1);
#pragma unroll
      for (unsigned j = 0; j < ITEMS; ++j) key[j] = stage[(warp * ITEMS + j) * 32 + lane];
    } else {
      const size_t first = base + size_t(warp) * ITEMS * 32 + lane;
#pragma unroll
      for (unsigned j = 0; j < ITEMS; ++j) key[j] = first + j * 32 < n ? in[first + j * 32] : 0u;
    }
    for (unsigned d = threadIdx.x; d < D; d += THREADS) cnt[d] = 0;
    __syncthreads();
    const unsigned valid = full ? kTile : static_cast<unsigned>(n - base);
    unsigned rank[ITEMS];
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j)
      rank[j] = full || (warp * ITEMS + j) * 32 + lane < valid
                    ? atomicAdd(&cnt[key[j] & (D - 1)], 1u)
                    : 0u;
    __syncthreads();
    block_exclusive_sum<D, THREADS>(cnt, warp_sums);
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j)
      if (full || (warp * ITEMS + j) * 32 + lane < valid)
        stage[cnt[key[j] & (D - 1)] + rank[j]] = key[j];
    for (unsigned d = threadIdx.x; d < D; d += THREADS)
      offs[d] = offsets_by_tile[tile * D + d] - cnt[d];
    __syncthreads();
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j) {
      const unsigned i = j * THREADS + threadIdx.x;
      if (full || i < valid) {
        const uint32_t key_i = stage[i];
        out[offs[key_i & (D - 1)] + i] = key_i;
      }
    }
    bulk::fence_proxy_async_shared();  // the staging writes, before a bulk copy refills the buffer
    __syncthreads();
  }
}

// Distributed shared memory by hand: the address of `local` (this block's shared memory) in
// block `rank` of the cluster (mapa), and a 32-bit load and store there (ld/st.shared::cluster).
// Cooperative groups' map_shared_rank returns a generic pointer, whose stores cost several times
// the instructions of a shared::cluster store.
__device__ __forceinline__ unsigned cluster_addr(const void* local, unsigned rank) {
  unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(local)), r;
  asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(rank));
  return r;
}
__device__ __forceinline__ void cluster_store(unsigned addr, uint32_t v) {
  asm volatile("st.shared::cluster.u32 [%0], %1;" ::"r"(addr), "r"(v) : "memory");
}
__device__ __forceinline__ uint32_t cluster_load(unsigned addr) {
  uint32_t v;
  asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(addr) : "memory");
  return v;
}

// The same pass with a cluster of C blocks ranking and staging one tile of C x THREADS x ITEMS
// keys together (thread block clusters, distributed shared memory): each block ranks its own
// THREADS x ITEMS keys into its own counts, then every block reads all C blocks' counts, so that
// it knows each digit's start in the cluster's tile and how many keys of that digit the blocks
// before it hold; each key goes to its place in the cluster's staging, which is spread over the C
// blocks' shared memories (a store to another block's shared memory for most keys); after a
// cluster barrier, each block writes out its slice of the staged tile. Each digit's run in the
// output is C times longer than one block's, and a cluster reads D offsets for C blocks' keys.
// Shared memory: staged[T], cnt[D], before[D], start[D], offs[D].
template <unsigned D, unsigned THREADS, unsigned ITEMS, unsigned C>
__global__ void __launch_bounds__(THREADS, 512 / THREADS)
    scatter_cluster(const uint32_t* __restrict__ in, uint32_t* __restrict__ out, size_t n,
                    const uint32_t* __restrict__ offsets_by_tile, unsigned* /*counter*/) {
  constexpr unsigned kBlockKeys = THREADS * ITEMS;
  extern __shared__ uint32_t smem[];
  uint32_t* staged = smem;
  uint32_t* cnt = staged + kBlockKeys;
  uint32_t* before = cnt + D;
  uint32_t* start = before + D;
  uint32_t* offs = start + D;
  __shared__ uint32_t warp_sums[THREADS / 32];
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned r = cluster.block_rank();
  const size_t ctile = blockIdx.x / C;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;

  const size_t cbase = ctile * C * kBlockKeys;
  const size_t base = cbase + size_t(r) * kBlockKeys;
  const bool full = base + kBlockKeys <= n;
  const size_t first = base + size_t(warp) * ITEMS * 32 + lane;
  uint32_t key[ITEMS];
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j)
    key[j] = full || first + j * 32 < n ? in[first + j * 32] : 0u;
  for (unsigned d = threadIdx.x; d < D; d += THREADS) cnt[d] = 0;
  __syncthreads();
  unsigned rank2[(ITEMS + 1) / 2] = {};  // 16-bit ranks, two a register (below 2^16 keys a block)
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j)
    if (full || first + j * 32 < n)
      rank2[j / 2] |= atomicAdd(&cnt[key[j] & (D - 1)], 1u) << (16 * (j % 2));
  cluster.sync();  // every block's counts are final
  for (unsigned d = threadIdx.x; d < D; d += THREADS) {
    unsigned b4 = 0, total = 0;
#pragma unroll
    for (unsigned b = 0; b < C; ++b) {
      const unsigned c = cluster_load(cluster_addr(cnt + d, b));
      b4 += b < r ? c : 0u;
      total += c;
    }
    before[d] = b4;
    start[d] = total;
  }
  __syncthreads();
  block_exclusive_sum<D, THREADS>(start, warp_sums);  // start[d]: digit d's run in the cluster tile
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) {
    if (full || first + j * 32 < n) {
      const unsigned d = key[j] & (D - 1);
      const unsigned p = start[d] + before[d] + ((rank2[j / 2] >> (16 * (j % 2))) & 0xffffu);
      const unsigned q = p / kBlockKeys;  // the block whose staging holds position p
      cluster_store(cluster_addr(staged + (p - q * kBlockKeys), q), key[j]);
    }
  }
  for (unsigned d = threadIdx.x; d < D; d += THREADS)
    offs[d] = offsets_by_tile[ctile * D + d] - start[d];
  cluster.sync();  // the cluster's tile is staged; no block reads another's counts any more
  const size_t in_cluster = n - cbase < C * kBlockKeys ? n - cbase : C * kBlockKeys;
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) {
    const unsigned p = r * kBlockKeys + j * THREADS + threadIdx.x;
    if (p < in_cluster) {
      const uint32_t k = staged[p - r * kBlockKeys];
      out[offs[k & (D - 1)] + p] = k;
    }
  }
}

// scatter_cluster without the distributed staging: the C blocks of a cluster share only their
// digit counts (each block reads the counts of the blocks before it, D words each, over
// distributed shared memory), then each block stages and writes its own keys, each digit's run
// placed right after the same digit's run of the block before it. The output runs are as long as
// scatter_cluster's, but C blocks write each run's pieces, at about the same time (they left the
// same cluster barrier); the keys never cross between SMs. A cluster barrier at the end keeps each
// block's counts alive until the others have read them (arrival relaxed, right after the reads).
// Shared memory: staged[T], cnt[D], start[D], offs[D].
template <unsigned D, unsigned THREADS, unsigned ITEMS, unsigned C>
__global__ void __launch_bounds__(THREADS, 512 / THREADS)
    scatter_cluster_counts(const uint32_t* __restrict__ in, uint32_t* __restrict__ out, size_t n,
                           const uint32_t* __restrict__ offsets_by_tile, unsigned* /*counter*/) {
  constexpr unsigned kBlockKeys = THREADS * ITEMS;
  extern __shared__ uint32_t smem[];
  uint32_t* staged = smem;
  uint32_t* cnt = staged + kBlockKeys;
  uint32_t* start = cnt + D;
  uint32_t* offs = start + D;
  __shared__ uint32_t warp_sums[THREADS / 32];
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned r = cluster.block_rank();
  const size_t ctile = blockIdx.x / C;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;

  const size_t base = ctile * C * kBlockKeys + size_t(r) * kBlockKeys;
  const bool full = base + kBlockKeys <= n;
  const size_t first = base + size_t(warp) * ITEMS * 32 + lane;
  uint32_t key[ITEMS];
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j)
    key[j] = full || first + j * 32 < n ? in[first + j * 32] : 0u;
  for (unsigned d = threadIdx.x; d < D; d += THREADS) cnt[d] = 0;
  __syncthreads();
  unsigned rank2[(ITEMS + 1) / 2] = {};  // 16-bit ranks, two a register
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j)
    if (full || first + j * 32 < n)
      rank2[j / 2] |= atomicAdd(&cnt[key[j] & (D - 1)], 1u) << (16 * (j % 2));
  cluster.sync();  // every block's counts are final
  for (unsigned d = threadIdx.x; d < D; d += THREADS) {
    unsigned b4 = 0;
    for (unsigned b = 0; b < r; ++b) b4 += cluster_load(cluster_addr(cnt + d, b));
    offs[d] = offsets_by_tile[ctile * D + d] + b4;  // this block's run of digit d starts here
    start[d] = cnt[d];
  }
  asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");  // done reading counts
  __syncthreads();
  block_exclusive_sum<D, THREADS>(start, warp_sums);  // start[d]: digit d's run in this block
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j)
    if (full || first + j * 32 < n)
      staged[start[key[j] & (D - 1)] + ((rank2[j / 2] >> (16 * (j % 2))) & 0xffffu)] = key[j];
  for (unsigned d = threadIdx.x; d < D; d += THREADS) offs[d] -= start[d];
  __syncthreads();
  const unsigned valid = full ? kBlockKeys : (base < n ? static_cast<unsigned>(n - base) : 0u);
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) {
    const unsigned i = j * THREADS + threadIdx.x;
    if (full || i < valid) {
      const uint32_t k = staged[i];
      out[offs[k & (D - 1)] + i] = k;
    }
  }
  asm volatile("barrier.cluster.wait.aligned;" ::: "memory");  // the others read our counts
}

// Where digit(out[i]) < digit(out[i - 1]) (must be nowhere), and the two order-free sums of the
// keys (sum of the keys and sum of a hash of each) for in and out.
template <unsigned D>
__global__ void check_pass(const uint32_t* in, const uint32_t* out, size_t n,
                           unsigned long long* acc) {
  unsigned long long bad = 0, s_in = 0, s_out = 0, h_in = 0, h_out = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    bad += i > 0 && (out[i] & (D - 1)) < (out[i - 1] & (D - 1));
    s_in += in[i];
    s_out += out[i];
    h_in += mix(in[i]);
    h_out += mix(out[i]);
  }
  atomicAdd(&acc[0], bad);
  atomicAdd(&acc[1], s_in);
  atomicAdd(&acc[2], s_out);
  atomicAdd(&acc[3], h_in);
  atomicAdd(&acc[4], h_out);
}

// C = 1: scatter_pass; C > 1: scatter_cluster, clusters of C blocks; C = 0: scatter_pipelined.
// SCATTER false: scatter_pass's control, its stores coalesced (not checked: it does not sort).
// COUNTS (with C > 1): scatter_cluster_counts instead of scatter_cluster.
template <unsigned D, unsigned THREADS, unsigned ITEMS, unsigned C = 1, bool SCATTER = true,
          bool COUNTS = false>
void probe(size_t n, const uint32_t* in, uint32_t* out, Timer& timer, bool once) {
  constexpr bool kPipe = C == 0;
  const unsigned tile_keys = (kPipe ? 1 : C) * THREADS * ITEMS;
  const unsigned tiles = static_cast<unsigned>((n + tile_keys - 1) / tile_keys);
  const size_t table = size_t(D) * tiles;
  uint32_t *counts = nullptr, *scanned = nullptr, *by_tile = nullptr;
  unsigned long long* acc = nullptr;
  cudaMalloc(&counts, table * 4);
  cudaMalloc(&scanned, table * 4);
  cudaMalloc(&by_tile, table * 4);
  cudaMalloc(&acc, 5 * sizeof(unsigned long long));
  tile_histogram<D><<<tiles, 256, D * 4>>>(in, n, tile_keys, tiles, counts);
  size_t scan_bytes = 0;
  cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, counts, scanned, table);
  void* scan_ws = nullptr;
  cudaMalloc(&scan_ws, scan_bytes);
  cub::DeviceScan::ExclusiveSum(scan_ws, scan_bytes, counts, scanned, table);
  transpose_offsets<D><<<1024, 256>>>(scanned, tiles, by_tile);

  const size_t smem = size_t(THREADS) * ITEMS * 4 * (kPipe ? 2 : 1) + D * (C > 1 ? 16 : 8);
  const auto kernel = kPipe    ? scatter_pipelined<D, THREADS, ITEMS>
                      : C == 1 ? scatter_pass<D, THREADS, ITEMS, SCATTER>
                      : COUNTS ? scatter_cluster_counts<D, THREADS, ITEMS, (C > 1 ? C : 2)>
                               : scatter_cluster<D, THREADS, ITEMS, (C > 1 ? C : 2)>;
  cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(smem));
  cudaStream_t s = timer.stream();
  cudaLaunchConfig_t config = {};
  int per_sm = 0;
  if (err == cudaSuccess)
    err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, THREADS, smem);
  // The pipelined pass: a resident grid of persistent blocks.
  config.gridDim =
      kPipe ? dim3(std::min<unsigned>(tiles, per_sm * query_device(0).sm_count)) : dim3(tiles * C);
  config.blockDim = dim3(THREADS);
  config.dynamicSmemBytes = smem;
  config.stream = s;
  cudaLaunchAttribute cluster_dim[1];
  cluster_dim[0].id = cudaLaunchAttributeClusterDimension;
  cluster_dim[0].val.clusterDim.x = kPipe ? 1 : C;
  cluster_dim[0].val.clusterDim.y = 1;
  cluster_dim[0].val.clusterDim.z = 1;
  config.attrs = cluster_dim;
  config.numAttrs = 1;
  unsigned* counter = nullptr;  // the pipelined pass's tile counter, zeroed before each run
  cudaMalloc(&counter, sizeof(unsigned));
  auto clear = [&] { cudaMemsetAsync(counter, 0, sizeof(unsigned), s); };
  auto run = [&] {
    cudaLaunchKernelEx(&config, kernel, in, out, n, static_cast<const uint32_t*>(by_tile), counter);
  };
  clear();
  cudaMemsetAsync(out, 0xa5, n * 4, s);
  if (err == cudaSuccess) {
    run();
    err = cudaGetLastError();
  }
  if (err == cudaSuccess) err = cudaStreamSynchronize(s);
  unsigned long long h[5] = {};
  if (err == cudaSuccess) {
    cudaMemset(acc, 0, sizeof h);
    check_pass<D><<<1024, 256>>>(in, out, n, acc);
    err = cudaMemcpy(h, acc, sizeof h, cudaMemcpyDefault);
  }
  const bool ok = err == cudaSuccess && ((h[0] == 0 && h[1] == h[2] && h[3] == h[4]) || !SCATTER);
  if (!ok) {
    std::printf("D = %4u, tile %6u, cluster %u: WRONG (%s; %llu digits out of order, sums %s)\n", D,
                tile_keys, C, cudaGetErrorString(err), h[0],
                h[1] == h[2] && h[3] == h[4] ? "equal" : "differ");
  } else if (once) {
    std::printf("D = %4u, tile %6u: correct (run once, for Nsight Compute)\n", D, tile_keys);
  } else {
    const float us = timer.median_us(run, clear, 21);
    const double gbps = 8.0 * n / us / 1e3;  // one read and one write of the keys
    std::printf(
        "D = %4u, tile %6u (%u x %4u x %2u keys%s), %6u tiles, offsets %6.1f MB: %8.1f us, "
        "%7.1f GB/s (keys read + written)\n",
        D, tile_keys, kPipe ? 1 : C, THREADS, ITEMS,
        kPipe ? ", pipelined"
              : (COUNTS ? ", counts shared" : (SCATTER ? "" : ", stores coalesced")),
        tiles, table * 4 / 1e6, us, gbps);
  }
  cudaFree(scan_ws);
  cudaFree(counts);
  cudaFree(scanned);
  cudaFree(by_tile);
  cudaFree(acc);
  cudaFree(counter);
}

}  // namespace

int main(int argc, char** argv) {
  const int log2n = argc > 1 ? std::atoi(argv[1]) : 28;
  const bool once = argc > 2 && std::string(argv[2]) == "once";  // each pass once, untimed
  const size_t n = size_t(1) << log2n;
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  Timer timer(s);
  uint32_t *in = nullptr, *out = nullptr;
  cudaMalloc(&in, n * 4);
  cudaMalloc(&out, n * 4);
  fill_keys<<<1024, 256>>>(in, n);
  cudaDeviceSynchronize();
  std::printf("one counting pass over 2^%d uniform keys, %s\n", log2n,
              query_device(0).name.c_str());
  // A plain copy of the keys, for scale: the same bytes with no scatter.
  const float copy_us =
      timer.median_us([&] { cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDeviceToDevice, s); }, 21);
  std::printf("cudaMemcpyAsync of the keys: %8.1f us, %7.1f GB/s\n", copy_us,
              8.0 * n / copy_us / 1e3);
  // v12's tile (256 x 44 keys, two blocks an SM) and twice it (512 x 44, one block an SM: the
  // register file's limit for 44 keys and their ranks a thread).
  probe<256, 256, 44>(n, in, out, timer, once);
  probe<2048, 256, 44>(n, in, out, timer, once);
  probe<256, 512, 44>(n, in, out, timer, once);
  probe<2048, 512, 44>(n, in, out, timer, once);
  // The control: the same passes with their stores coalesced.
  probe<256, 256, 44, 1, false>(n, in, out, timer, once);
  probe<2048, 256, 44, 1, false>(n, in, out, timer, once);
  probe<256, 512, 44, 1, false>(n, in, out, timer, once);
  // The next tile's keys in flight (bulk copies into two buffers), persistent blocks.
  probe<256, 256, 44, 0>(n, in, out, timer, once);
  probe<2048, 256, 44, 0>(n, in, out, timer, once);
  // Clusters: the tile C blocks wide (the portable cluster size is at most 8).
  probe<256, 256, 44, 2>(n, in, out, timer, once);
  probe<2048, 256, 44, 2>(n, in, out, timer, once);
  probe<2048, 256, 44, 4>(n, in, out, timer, once);
  probe<2048, 256, 44, 8>(n, in, out, timer, once);
  probe<2048, 512, 44, 2>(n, in, out, timer, once);
  probe<2048, 512, 44, 4>(n, in, out, timer, once);
  // Clusters that share only their counts: each block writes its own keys.
  probe<256, 256, 44, 2, true, true>(n, in, out, timer, once);
  probe<2048, 256, 44, 2, true, true>(n, in, out, timer, once);
  probe<2048, 256, 44, 4, true, true>(n, in, out, timer, once);
  probe<2048, 256, 44, 8, true, true>(n, in, out, timer, once);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
