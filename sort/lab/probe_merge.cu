// sort/lab/probe_merge.cu — a standalone probe for the merge round of sort's road past 2^32 - 1
// keys (sort/merge_parts.cuh). At 2^32 + 5 keys on the H200 that round took about 18 ms: the split
// searches 2.83 ms and merge_kernel 15.51 ms, about half a copy's rate (sort/lab/LAB_NOTES.md,
// "Sorting 2^32 keys and more"). The lab notes' likely cause: a block waits for its split, then for
// its keys, with six blocks an SM to cover both waits. This probe times, on two sorted runs cut as
// parts::plan cuts n (uniform keys, each run sorted by CUB, not timed):
//   shipped     parts::merge_coarse_kernel, merge_split_kernel and merge_kernel<false>, as the road
//               runs them (the flat 256 x 8 below is the kernel shipped before 2026-11-30's
//               change);
//   flat T x I  the same two kernels with T threads of I outputs (a larger tile a block);
//   piped T x I a persistent merge: each block loops over tiles (b, b + grid, ...) and, while it
//               merges one tile, has the next tile's keys in flight in registers and the splits
//               of the tile after that (so neither wait is exposed once the loop runs);
//   flat T x I 2l  flat, its splits found in two levels: a search every 64 tiles, then each
//               tile's search confined between its group's two (a window of each run in L2);
//   splits alone one search a tile (the split kernel shipped before) and the shipped two-level
//               splits, at the shipped tile, compared entry by entry;
// and cudaMemcpy of the same keys (the same 8n bytes read plus written) as the rate to compare
// with. Each is timed as the benchmark times (common/probe_timer.cuh: L2 flushed, stream held,
// median of 11), its split kernel included. The shipped output is checked in order (no key above
// its successor) and against the input's key sum; every variant's output is compared with it.
// Not part of the binary; written 2026-11-30 without a GPU at hand (not yet run).
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. sort/lab/probe_merge.cu common/device.cu -o probe_merge
//   ./probe_merge [n] [old]  (default 2^32 + 5; about 77 GB of GPU memory there; "old": the
//                            variants of the first runs, else the shipped loop's shapes)
//   LADDER_SORT_PART_KEYS=1000000 ./probe_merge 25600000   (small runs, as the ctest cuts them)
#include <cub/device/device_radix_sort.cuh>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/device.h"
#include "common/probe_timer.cuh"
#include "sort/lab/probe_common.cuh"
#include "sort/merge_parts.cuh"

using namespace ladder;
using sort::parts::merge_split;
using sort::parts::Pair;
using sort::parts::pair_of;

namespace {

__global__ void fill_uniform(uint32_t* k, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    k[i] = sort::tuning::mix((i + 1) * 0x9e3779b97f4a7c15ull);
}

// *first = the smallest i with a[i] != b[i] (set to ~0 first).
__global__ void first_mismatch(const uint32_t* a, const uint32_t* b, size_t n,
                               unsigned long long* first) {
  if (blockIdx.x == 0 && threadIdx.x == 0) atomicMin(first, ~0ull);
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    if (a[i] != b[i]) atomicMin(first, (unsigned long long)i);
}

// *bad += the i with k[i] > k[i + 1] inside one run of width `run` (a round's output: runs of
// 2w keys); *sum += every key (64-bit).
__global__ void order_and_sum(const uint32_t* k, size_t n, size_t run, unsigned long long* bad,
                              unsigned long long* sum) {
  unsigned long long b = 0, s = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    s += k[i];
    b += i + 1 < n && (i + 1) % run != 0 && k[i] > k[i + 1];
  }
  atomicAdd(bad, b);
  atomicAdd(sum, s);
}

// merge_split_kernel for a tile of TILE outputs, for blocks + 1 entries: every tile reads
// split[t + 1], and uses it only when the next tile lies in its pair (the last entry, at n, is
// never used).
template <size_t TILE>
__global__ void split_kernel(const uint32_t* __restrict__ keys, size_t n, size_t w, size_t blocks,
                             size_t* __restrict__ split) {
  const size_t b = size_t(blockIdx.x) * 256 + threadIdx.x;
  if (b >= blocks) return;
  const size_t out = min(b * TILE, n);  // the entry past the last tile: its diagonal at n
  const Pair p = pair_of(out, n, w);
  split[b] = merge_split<size_t>(keys + p.lo, p.na, keys + p.lo + p.na, p.nb, out - p.lo);
}

// The two-level split: coarse[c] = the split at diagonal c x G x TILE (clipped to n), for c in
// [0, ceil(blocks / G)]; then each tile's search is confined to its group's coarse splits where
// they lie in its pair (the split grows with the diagonal within one pair). The fine searches of a
// group then read a window of each run that the group's first searches put in L2.
template <size_t TILE, size_t G>
__global__ void split_coarse(const uint32_t* __restrict__ keys, size_t n, size_t w, size_t groups,
                             size_t* __restrict__ coarse) {
  const size_t c = size_t(blockIdx.x) * 256 + threadIdx.x;
  if (c > groups) return;
  const size_t out = min(c * G * TILE, n);
  const Pair p = pair_of(out, n, w);
  coarse[c] = merge_split<size_t>(keys + p.lo, p.na, keys + p.lo + p.na, p.nb, out - p.lo);
}
template <size_t TILE, size_t G>
__global__ void split_fine(const uint32_t* __restrict__ keys, size_t n, size_t w, size_t blocks,
                           const size_t* __restrict__ coarse, size_t* __restrict__ split) {
  const size_t b = size_t(blockIdx.x) * 256 + threadIdx.x;
  if (b >= blocks) return;
  const size_t out = min(b * TILE, n);
  const Pair p = pair_of(out, n, w);
  const size_t diag = out - p.lo;
  size_t lo = diag > p.nb ? diag - p.nb : 0, hi = diag < p.na ? diag : p.na;
  const size_t c = b / G;
  const size_t d0 = min(c * G * TILE, n), d1 = min((c + 1) * G * TILE, n);
  if (pair_of(d0, n, w).lo == p.lo) lo = max(lo, coarse[c]);
  if (d1 < n && pair_of(d1, n, w).lo == p.lo) hi = min(hi, coarse[c + 1]);
  const uint32_t* a = keys + p.lo;
  const uint32_t* bb = keys + p.lo + p.na;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (a[mid] <= bb[diag - 1 - mid])
      lo = mid + 1;
    else
      hi = mid;
  }
  split[b] = lo;
}

// One tile's place: its first output, its pair, and where its shares of the two runs begin.
struct Tile {
  size_t first, lo, na, a0, b0;
  unsigned la, total;
};
template <size_t TILE>
__device__ __forceinline__ Tile tile_of(size_t t, size_t n, size_t w, size_t s0, size_t s1) {
  Tile g;
  g.first = t * TILE;
  const Pair p = pair_of(g.first, n, w);
  g.lo = p.lo;
  g.na = p.na;
  const size_t end = min(g.first + TILE, p.lo + p.na + p.nb);
  const size_t a1 = end < p.lo + p.na + p.nb ? s1 : p.na;
  g.a0 = s0;
  g.b0 = g.first - p.lo - s0;
  g.la = static_cast<unsigned>(a1 - s0);
  g.total = static_cast<unsigned>(end - g.first);
  return g;
}

template <unsigned THREADS, unsigned ITEMS>
__device__ __forceinline__ void load_tile(const uint32_t* __restrict__ src, const Tile& g,
                                          uint32_t (&k)[ITEMS]) {
#pragma unroll
  for (unsigned t = 0; t < ITEMS; ++t) {
    const unsigned x = threadIdx.x + t * THREADS;
    if (x < g.total) k[t] = src[x < g.la ? g.lo + g.a0 + x : g.lo + g.na + g.b0 + (x - g.la)];
  }
}

// The staged tile in sk (g.la keys of a, then b's) merged: this thread's ITEMS outputs into k,
// then written back to sk in order and stored to dst. Three barriers, as in merge_kernel.
// sk holds TILE + 1 slots: compute-sanitizer found the compiled loop reading sk[TILE] (the slot
// past a full tile) from the last thread of a block, in no run of the shipped kernel (whose unused
// sv[1] may lie there).
template <unsigned THREADS, unsigned ITEMS>
__device__ __forceinline__ void merge_staged(uint32_t* sk, const Tile& g, uint32_t (&k)[ITEMS],
                                             uint32_t* __restrict__ dst) {
  const unsigned total = g.total, la = g.la;
  const unsigned d = min(threadIdx.x * ITEMS, total);
  unsigned i = merge_split<unsigned>(sk, la, sk + la, total - la, d);
  unsigned j = la + (d - i);
  bool a_left = i < la, b_left = j < total;
  uint32_t ak = a_left ? sk[i] : 0, bk = b_left ? sk[j] : 0;
#pragma unroll
  for (unsigned t = 0; t < ITEMS; ++t)
    if (d + t < total) {
      if (a_left && (!b_left || ak <= bk)) {
        k[t] = ak;
        a_left = ++i < la;
        ak = a_left ? sk[i] : 0;
      } else {
        k[t] = bk;
        b_left = ++j < total;
        bk = b_left ? sk[j] : 0;
      }
    }
  __syncthreads();
#pragma unroll
  for (unsigned t = 0; t < ITEMS; ++t)
    if (d + t < total) sk[d + t] = k[t];
  __syncthreads();
#pragma unroll
  for (unsigned t = 0; t < ITEMS; ++t) {
    const unsigned x = threadIdx.x + t * THREADS;
    if (x < total) dst[g.first + x] = sk[x];
  }
}

template <unsigned THREADS, unsigned ITEMS>
__device__ __forceinline__ void stage(uint32_t* sk, const Tile& g, const uint32_t (&k)[ITEMS]) {
#pragma unroll
  for (unsigned t = 0; t < ITEMS; ++t) {
    const unsigned x = threadIdx.x + t * THREADS;
    if (x < g.total) sk[x] = k[t];
  }
}

// merge_kernel with THREADS x ITEMS outputs a block, one block a tile.
template <unsigned THREADS, unsigned ITEMS>
__global__ void __launch_bounds__(THREADS)
    merge_flat(const uint32_t* __restrict__ src, uint32_t* __restrict__ dst, size_t n, size_t w,
               const size_t* __restrict__ split) {
  constexpr size_t TILE = size_t(THREADS) * ITEMS;
  __shared__ uint32_t sk[TILE + 1];  // + 1: see merge_staged
  const size_t t = blockIdx.x;
  const Tile g = tile_of<TILE>(t, n, w, split[t], split[t + 1]);
  uint32_t k[ITEMS];
  load_tile<THREADS, ITEMS>(src, g, k);
  stage<THREADS, ITEMS>(sk, g, k);
  __syncthreads();
  merge_staged<THREADS, ITEMS>(sk, g, k, dst);
}

// The persistent merge: tiles b, b + grid, ...; the next tile's keys and the splits of the one
// after it are loaded while this tile merges. Three barriers a tile, as merge_flat: the next
// tile's staging needs none after the stores, since each thread stages the very slots of sk that
// it stored from (x = threadIdx.x + t x THREADS).
template <unsigned THREADS, unsigned ITEMS>
__global__ void __launch_bounds__(THREADS)
    merge_piped(const uint32_t* __restrict__ src, uint32_t* __restrict__ dst, size_t n, size_t w,
                const size_t* __restrict__ split, size_t tiles) {
  constexpr size_t TILE = size_t(THREADS) * ITEMS;
  __shared__ uint32_t sk[TILE + 1];  // + 1: see merge_staged
  size_t t = blockIdx.x;
  if (t >= tiles) return;
  Tile g = tile_of<TILE>(t, n, w, split[t], split[t + 1]);
  uint32_t cur[ITEMS], next[ITEMS];
  load_tile<THREADS, ITEMS>(src, g, cur);
  size_t tn = t + gridDim.x;
  size_t n0 = 0, n1 = 0;  // the next tile's splits
  if (tn < tiles) {
    n0 = split[tn];
    n1 = split[tn + 1];
  }
  for (;;) {
    stage<THREADS, ITEMS>(sk, g, cur);
    __syncthreads();
    const bool more = tn < tiles;
    Tile gn{};
    size_t m0 = 0, m1 = 0;
    const size_t tnn = tn + gridDim.x;
    if (more) {
      gn = tile_of<TILE>(tn, n, w, n0, n1);
      load_tile<THREADS, ITEMS>(src, gn, next);
      if (tnn < tiles) {
        m0 = split[tnn];
        m1 = split[tnn + 1];
      }
    }
    merge_staged<THREADS, ITEMS>(sk, g, cur, dst);
    if (!more) break;
#pragma unroll
    for (unsigned i = 0; i < ITEMS; ++i) cur[i] = next[i];
    g = gn;
    tn = tnn;
    n0 = m0;
    n1 = m1;
  }
}

struct Bufs {
  uint32_t *runs, *want, *got;
  size_t *split, *split2, *coarse;
  unsigned long long* scratch;
};

template <unsigned THREADS, unsigned ITEMS>
void run_flat(const Bufs& b, size_t n, size_t w, cudaStream_t s) {
  constexpr size_t TILE = size_t(THREADS) * ITEMS;
  const size_t blocks = ceil_div(n, TILE);
  split_kernel<TILE>
      <<<unsigned(ceil_div(blocks + 1, 256)), 256, 0, s>>>(b.runs, n, w, blocks + 1, b.split);
  merge_flat<THREADS, ITEMS><<<unsigned(blocks), THREADS, 0, s>>>(b.runs, b.got, n, w, b.split);
}

constexpr size_t kGroup = 64;  // tiles a coarse split

template <size_t TILE, size_t G = kGroup>
void split_two_level(const Bufs& b, size_t n, size_t w, size_t entries, size_t* split,
                     cudaStream_t s) {
  const size_t groups = ceil_div(entries, G);
  split_coarse<TILE, G>
      <<<unsigned(ceil_div(groups + 1, 256)), 256, 0, s>>>(b.runs, n, w, groups, b.coarse);
  split_fine<TILE, G>
      <<<unsigned(ceil_div(entries, 256)), 256, 0, s>>>(b.runs, n, w, entries, b.coarse, split);
}

// The shipped merge_kernel<false>'s body (since 8ce0f31) at THREADS x ITEMS: one select a
// step, each run's next key read at an index clipped to the share.
template <unsigned THREADS, unsigned ITEMS>
__global__ void __launch_bounds__(THREADS)
    merge_new(const uint32_t* __restrict__ src, uint32_t* __restrict__ dst, size_t n, size_t w,
              const size_t* __restrict__ split) {
  constexpr size_t TILE = size_t(THREADS) * ITEMS;
  __shared__ uint32_t sk[TILE];
  const Tile g = tile_of<TILE>(blockIdx.x, n, w, split[blockIdx.x], split[blockIdx.x + 1]);
  const unsigned total = g.total, la = g.la;
  uint32_t k[ITEMS];
  load_tile<THREADS, ITEMS>(src, g, k);
  stage<THREADS, ITEMS>(sk, g, k);
  __syncthreads();
  const unsigned d = min(threadIdx.x * ITEMS, total);
  unsigned i = merge_split<unsigned>(sk, la, sk + la, total - la, d);
  unsigned j = la + (d - i);
  uint32_t ak = sk[min(i, total - 1)], bk = sk[min(j, total - 1)];
#pragma unroll
  for (unsigned t = 0; t < ITEMS; ++t) {
    if (d + t < total) {
      const bool from_a = j >= total || (i < la && ak <= bk);
      k[t] = from_a ? ak : bk;
      if (from_a)
        ak = sk[min(++i, total - 1)];
      else
        bk = sk[min(++j, total - 1)];
    }
  }
  __syncthreads();
#pragma unroll
  for (unsigned t = 0; t < ITEMS; ++t)
    if (d + t < total) sk[d + t] = k[t];
  __syncthreads();
#pragma unroll
  for (unsigned t = 0; t < ITEMS; ++t) {
    const unsigned x = threadIdx.x + t * THREADS;
    if (x < total) dst[g.first + x] = sk[x];
  }
}

template <unsigned THREADS, unsigned ITEMS, size_t G = kGroup>
void run_new(const Bufs& b, size_t n, size_t w, cudaStream_t s) {
  constexpr size_t TILE = size_t(THREADS) * ITEMS;
  const size_t blocks = ceil_div(n, TILE);
  split_two_level<TILE, G>(b, n, w, blocks + 1, b.split, s);
  merge_new<THREADS, ITEMS><<<unsigned(blocks), THREADS, 0, s>>>(b.runs, b.got, n, w, b.split);
}

template <unsigned THREADS, unsigned ITEMS>
void run_flat2(const Bufs& b, size_t n, size_t w, cudaStream_t s) {
  constexpr size_t TILE = size_t(THREADS) * ITEMS;
  const size_t blocks = ceil_div(n, TILE);
  split_two_level<TILE>(b, n, w, blocks + 1, b.split, s);
  merge_flat<THREADS, ITEMS><<<unsigned(blocks), THREADS, 0, s>>>(b.runs, b.got, n, w, b.split);
}

template <unsigned THREADS, unsigned ITEMS>
void run_piped(const Bufs& b, size_t n, size_t w, unsigned grid, cudaStream_t s) {
  constexpr size_t TILE = size_t(THREADS) * ITEMS;
  const size_t blocks = ceil_div(n, TILE);
  split_kernel<TILE>
      <<<unsigned(ceil_div(blocks + 1, 256)), 256, 0, s>>>(b.runs, n, w, blocks + 1, b.split);
  merge_piped<THREADS, ITEMS><<<unsigned(std::min<size_t>(grid, blocks)), THREADS, 0, s>>>(
      b.runs, b.got, n, w, b.split, blocks);
}

template <unsigned THREADS, unsigned ITEMS>
unsigned resident_grid() {
  int per_sm = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, merge_piped<THREADS, ITEMS>, THREADS, 0);
  return unsigned(per_sm) * unsigned(query_device(0).sm_count);
}

}  // namespace

int main(int argc, char** argv) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  const size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (size_t(1) << 32) + 5;
  // Two runs (or more) as the road cuts n: parts of at most 2^32 - 1 keys. The probe merges the
  // first round only: runs of parts::plan_for's `keys`.
  const sort::parts::Plan cut = sort::parts::plan_for(n, sort::parts::largest());
  std::printf("n %zu: %zu parts of %zu keys, %u rounds (this probe times the first)\n", n,
              cut.count, cut.keys, cut.rounds);
  if (cut.rounds == 0) {
    std::printf(
        "one part: no merge to time (n above 2^32 - 1, or LADDER_SORT_PART_KEYS below n)\n");
    return 1;
  }
  // Every CUDA error so far, then a clear exit: the checks below read nothing after a fault.
  const auto ok = [&](const char* where) {
    cudaError_t e = cudaStreamSynchronize(s);
    if (e == cudaSuccess) e = cudaGetLastError();
    if (e != cudaSuccess) {
      std::printf("CUDA error after %s: %s\n", where, cudaGetErrorString(e));
      std::exit(1);
    }
  };
  Bufs b{};
  uint32_t* keys = nullptr;
  cudaMalloc(&keys, n * 4);
  cudaMalloc(&b.runs, n * 4);
  cudaMalloc(&b.want, n * 4);
  cudaMalloc(&b.got, n * 4);
  cudaMalloc(&b.split, (ceil_div(n, 256) + 2) * 8);  // enough for tiles of 256 keys or more
  cudaMalloc(&b.split2, (ceil_div(n, 256) + 2) * 8);
  cudaMalloc(&b.coarse, (ceil_div(n, 256) + 2) * 8);  // any group of tiles of 256 or more
  cudaMalloc(&b.scratch, 4 * 8);
  fill_uniform<<<1024, 256, 0, s>>>(keys, n);
  size_t temp_bytes = 0;
  cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, keys, b.runs, (long long)cut.keys, 0, 32, s);
  void* temp = nullptr;
  cudaMalloc(&temp, temp_bytes);
  for (size_t at = 0; at < n; at += cut.keys)
    cub::DeviceRadixSort::SortKeys(temp, temp_bytes, keys + at, b.runs + at,
                                   (long long)std::min(cut.keys, n - at), 0, 32, s);
  ok("the setup (allocations, input, CUB's sorts of the parts)");
  cudaFree(temp);
  const size_t w = cut.keys;
  probe_timing::Timer timer(s);

  // The shipped round, checked: in order, and the input's keys (by their sum).
  const auto shipped = [&] {
    const size_t blocks = ceil_div(n, sort::parts::kTile);
    const size_t groups = ceil_div(blocks, sort::parts::kGroup);
    sort::parts::merge_coarse_kernel<<<unsigned(ceil_div(groups + 1, 256)), 256, 0, s>>>(
        b.runs, n, w, groups, b.coarse);
    sort::parts::merge_split_kernel<<<unsigned(ceil_div(blocks, 256)), 256, 0, s>>>(
        b.runs, n, w, blocks, b.coarse, b.split);
    sort::parts::merge_kernel<false><<<unsigned(blocks), sort::parts::kThreads, 0, s>>>(
        b.runs, nullptr, b.want, nullptr, n, w, b.split);
  };
  const float t_ship = timer.median_us(shipped, 11);
  ok("the shipped round");
  unsigned long long h[4] = {~0ull, ~0ull, ~0ull, 1};  // a sentinel: fails unless overwritten
  cudaMemsetAsync(b.scratch, 0, 32, s);
  order_and_sum<<<1024, 256, 0, s>>>(b.want, n, 2 * w, b.scratch, b.scratch + 1);
  order_and_sum<<<1024, 256, 0, s>>>(keys, n, n, b.scratch + 2, b.scratch + 3);
  cudaMemcpyAsync(h, b.scratch, 32, cudaMemcpyDeviceToHost, s);
  ok("the shipped output's check");
  std::printf("shipped output: %llu keys above their successor; key sum %llu (input %llu): %s\n",
              h[0], h[1], h[3], h[0] == 0 && h[1] == h[3] ? "ok" : "WRONG");

  const float t_copy = timer.median_us(
      [&] { cudaMemcpyAsync(b.got, b.runs, n * 4, cudaMemcpyDeviceToDevice, s); }, 11);
  const auto line = [&](const char* name, float us, bool checked) {
    ok(name);
    unsigned long long bad = 0;
    if (checked) bad = probe_timing::mismatches(b.got, b.want, n, b.scratch, s);
    ok(name);
    std::printf("%-16s %10.1f us  %6.1f%% of cudaMemcpy  %s", name, us, 100.0 * t_copy / us,
                !checked ? ""
                : bad    ? "MISMATCH"
                         : "same as shipped");
    if (bad) {  // how many, and the first: its index, and got / want around it
      cudaMemsetAsync(b.scratch + 2, 0xff, 8, s);
      first_mismatch<<<1024, 256, 0, s>>>(b.got, b.want, n, b.scratch + 2);
      unsigned long long at = ~0ull;
      cudaMemcpyAsync(&at, b.scratch + 2, 8, cudaMemcpyDeviceToHost, s);
      ok(name);
      uint32_t g3[3] = {}, w3[3] = {};
      const size_t from = at > 0 ? at - 1 : 0;
      cudaMemcpy(g3, b.got + from, 12, cudaMemcpyDeviceToHost);
      cudaMemcpy(w3, b.want + from, 12, cudaMemcpyDeviceToHost);
      std::printf(
          " %llu differ, first at %llu (tile %llu of 2048, %llu of 1792): got %u %u %u, "
          "want %u %u %u",
          bad, at, at / 2048, at / 1792, g3[0], g3[1], g3[2], w3[0], w3[1], w3[2]);
    }
    std::printf("\n");
  };
  line("cudaMemcpy", t_copy, false);
  line("shipped", t_ship, false);
  // The variants' tiles need not divide the run width (parts are multiples of parts::kTile), so
  // they run where there is one pair of runs: two parts.
  const bool old_variants = argc > 2 && std::string(argv[2]) == "old";
  if (cut.count == 2 && !old_variants) {
    // The shipped loop's shapes (the shipped one, 128 x 15 with groups of 64, first, as a control
    // of the probe's copy), then the coarse splits' group.
#define NEW(T, I, G)                                                                           \
  cudaMemsetAsync(b.got, 0, n * 4, s);                                                         \
  line("new " #T " x " #I " g" #G, timer.median_us([&] { run_new<T, I, G>(b, n, w, s); }, 11), \
       true);
    NEW(128, 15, 64)
    NEW(64, 15, 64)
    NEW(128, 11, 64)
    NEW(128, 13, 64)
    NEW(128, 17, 64)
    NEW(128, 19, 64)
    NEW(128, 21, 64)
    NEW(128, 23, 64)
    NEW(256, 13, 64)
    NEW(256, 15, 64)
    NEW(128, 15, 16)
    NEW(128, 15, 256)
    NEW(128, 15, 1024)
#undef NEW
  }
  if (cut.count == 2 && old_variants) {
    cudaMemsetAsync(b.got, 0, n * 4, s);
    line("flat 256 x 8", timer.median_us([&] { run_flat<256, 8>(b, n, w, s); }, 11), true);
    cudaMemsetAsync(b.got, 0, n * 4, s);
    line("flat 256 x 16", timer.median_us([&] { run_flat<256, 16>(b, n, w, s); }, 11), true);
    cudaMemsetAsync(b.got, 0, n * 4, s);
    line("flat 128 x 16", timer.median_us([&] { run_flat<128, 16>(b, n, w, s); }, 11), true);
    const unsigned g8 = resident_grid<256, 8>(), g16 = resident_grid<256, 16>();
    if (g8 == 0 || g16 == 0) {
      std::printf("the persistent kernels fit no block on an SM\n");
      return 1;
    }
    cudaMemsetAsync(b.got, 0, n * 4, s);
    line("piped 256 x 8", timer.median_us([&] { run_piped<256, 8>(b, n, w, g8, s); }, 11), true);
    cudaMemsetAsync(b.got, 0, n * 4, s);
    line("piped 256 x 16", timer.median_us([&] { run_piped<256, 16>(b, n, w, g16, s); }, 11), true);
    cudaMemsetAsync(b.got, 0, n * 4, s);
    line("piped 256 x 8 /2", timer.median_us([&] { run_piped<256, 8>(b, n, w, g8 / 2, s); }, 11),
         true);
    cudaMemsetAsync(b.got, 0, n * 4, s);
    line("flat 256 x 8 2l", timer.median_us([&] { run_flat2<256, 8>(b, n, w, s); }, 11), true);
    cudaMemsetAsync(b.got, 0, n * 4, s);
    line("flat 256 x 16 2l", timer.median_us([&] { run_flat2<256, 16>(b, n, w, s); }, 11), true);
    // Odd outputs a thread: a thread's serial merge and its write-back reach shared memory at a
    // stride of ITEMS words, so even ITEMS put up to ITEMS lanes (8 at 8) on one bank; odd ones
    // none. Tiles of 1792 or 2816 keys do not divide the run width, so these run where there is one
    // pair.
    cudaMemsetAsync(b.got, 0, n * 4, s);
    line("flat 256 x 7 2l", timer.median_us([&] { run_flat2<256, 7>(b, n, w, s); }, 11), true);
    cudaMemsetAsync(b.got, 0, n * 4, s);
    line("flat 256 x 9 2l", timer.median_us([&] { run_flat2<256, 9>(b, n, w, s); }, 11), true);
    cudaMemsetAsync(b.got, 0, n * 4, s);
    line("flat 256 x 11 2l", timer.median_us([&] { run_flat2<256, 11>(b, n, w, s); }, 11), true);
    cudaMemsetAsync(b.got, 0, n * 4, s);
    line("flat 128 x 15 2l", timer.median_us([&] { run_flat2<128, 15>(b, n, w, s); }, 11), true);
    cudaMemsetAsync(b.got, 0, n * 4, s);
    line("flat 512 x 7 2l", timer.median_us([&] { run_flat2<512, 7>(b, n, w, s); }, 11), true);
    std::printf("resident grids: 256 x 8 %u blocks, 256 x 16 %u\n", g8, g16);
  } else {
    std::printf("the variants: %s\n", cut.count == 2 ? "the earlier ones ('old')"
                                                     : "not run (they need exactly two parts)");
  }
  // The splits alone, at the shipped tile: one search a tile, and the two-level searches; their
  // outputs compared entry by entry (as pairs of 32-bit words).
  {
    const size_t blocks = ceil_div(n, sort::parts::kTile);
    const float t1 = timer.median_us(
        [&] {
          split_kernel<sort::parts::kTile>
              <<<unsigned(ceil_div(blocks, 256)), 256, 0, s>>>(b.runs, n, w, blocks, b.split);
        },
        11);
    const float t2 = timer.median_us(
        [&] {
          const size_t groups = ceil_div(blocks, sort::parts::kGroup);
          sort::parts::merge_coarse_kernel<<<unsigned(ceil_div(groups + 1, 256)), 256, 0, s>>>(
              b.runs, n, w, groups, b.coarse);
          sort::parts::merge_split_kernel<<<unsigned(ceil_div(blocks, 256)), 256, 0, s>>>(
              b.runs, n, w, blocks, b.coarse, b.split2);
        },
        11);
    ok("the split kernels");
    const unsigned long long bad = probe_timing::mismatches(
        reinterpret_cast<const uint32_t*>(b.split), reinterpret_cast<const uint32_t*>(b.split2),
        2 * blocks, b.scratch, s);
    ok("the splits' check");
    std::printf(
        "splits alone (%zu tiles of %zu): one search a tile %.1f us, two-level (groups of "
        "%zu) %.1f us, %llu words differ%s\n",
        blocks, sort::parts::kTile, t1, kGroup, t2, bad, bad ? " MISMATCH" : "");
  }
  ok("the last variant");
  return 0;
}
