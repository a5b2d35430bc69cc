// sort/lab/probe_ptxas_merge.cu — a standalone reproducer of the miscompiled merge loop that
// sort/lab/probe_merge.cu met (sort/lab/LAB_NOTES.md, "The merge round, measured and rebuilt"):
// CUDA 13.0's ptxas for sm_90 compiled the probe's flat merge of 256 x 8 outputs so that, after a
// thread takes a key from the right run, it reads sk[j + 2] where the PTX reads sk[j + 1]. This
// file holds that kernel as the probe had it (a tile's place in a struct passed by reference to
// inline device functions; the old loop, each run's next key read behind a test) and nothing of
// the project but the loop, with a host side of its own: two sorted runs of uniform keys, the
// splits by a binary search on the host, and each output compared with std::merge's (ties from
// the left run). It merges at 7, 8, 9, 11 and 15 outputs a thread and prints the mismatches of
// each; a correct compiler gives none. No CUB, no project headers:
//   nvcc -O3 -std=c++17 -arch=sm_90 sort/lab/probe_ptxas_merge.cu -o repro && ./repro
//   cuobjdump -sass -fun '_Z10merge_flatILj256ELj8EEvPKjPjmmPKm' repro   (the load: LDS [R+0x4])
// Written 2026-11-30; its runs are in the lab notes.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

struct Pair {
  size_t lo, na, nb;
};
__host__ __device__ inline Pair pair_of(size_t out, size_t n, size_t w) {
  Pair p;
  p.lo = out / (2 * w) * (2 * w);
  p.na = w < n - p.lo ? w : n - p.lo;
  const size_t rest = n - p.lo - p.na;
  p.nb = w < rest ? w : rest;
  return p;
}

// How many of the first `diag` outputs of the stable merge of a[0, na) and b[0, nb) come from a.
template <typename Index>
__host__ __device__ inline Index merge_split(const uint32_t* a, Index na, const uint32_t* b,
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

template <unsigned THREADS, unsigned ITEMS>
__device__ __forceinline__ void stage(uint32_t* sk, const Tile& g, const uint32_t (&k)[ITEMS]) {
#pragma unroll
  for (unsigned t = 0; t < ITEMS; ++t) {
    const unsigned x = threadIdx.x + t * THREADS;
    if (x < g.total) sk[x] = k[t];
  }
}

// The old loop: each run's next key read only while the run has one (a_left, b_left).
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
        bk = b_left ? sk[j] : 0;  // compiled at 7, 8 and 9 to read sk[j + 1] (the new j's next)
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

// One block a tile of THREADS x ITEMS outputs. sk holds one slot more than the tile, so that the
// miscompiled read past a full tile's end does not fault and the wrong outputs can be counted.
template <unsigned THREADS, unsigned ITEMS>
__global__ void __launch_bounds__(THREADS)
    merge_flat(const uint32_t* __restrict__ src, uint32_t* __restrict__ dst, size_t n, size_t w,
               const size_t* __restrict__ split) {
  constexpr size_t TILE = size_t(THREADS) * ITEMS;
  __shared__ uint32_t sk[TILE + 1];
  const size_t t = blockIdx.x;
  const Tile g = tile_of<TILE>(t, n, w, split[t], split[t + 1]);
  uint32_t k[ITEMS];
  load_tile<THREADS, ITEMS>(src, g, k);
  stage<THREADS, ITEMS>(sk, g, k);
  __syncthreads();
  merge_staged<THREADS, ITEMS>(sk, g, k, dst);
}

#define CHECK(x)                                                    \
  do {                                                              \
    const cudaError_t e_ = (x);                                     \
    if (e_ != cudaSuccess) {                                        \
      std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); \
      return 1;                                                     \
    }                                                               \
  } while (0)

// Merges the two runs of `runs` (w keys each, one pair) on the GPU at THREADS x ITEMS and returns
// the number of outputs that differ from `want` (or -1 on a CUDA error, reported).
template <unsigned THREADS, unsigned ITEMS>
long long mismatches(const std::vector<uint32_t>& runs, const std::vector<uint32_t>& want,
                     size_t w) {
  constexpr size_t TILE = size_t(THREADS) * ITEMS;
  const size_t n = runs.size(), tiles = (n + TILE - 1) / TILE;
  std::vector<size_t> split(tiles + 1);
  for (size_t t = 0; t <= tiles; ++t) {
    const size_t out = std::min(t * TILE, n);
    const Pair p = pair_of(out, n, w);
    split[t] =
        merge_split<size_t>(runs.data() + p.lo, p.na, runs.data() + p.lo + p.na, p.nb, out - p.lo);
  }
  uint32_t *src = nullptr, *dst = nullptr;
  size_t* sp = nullptr;
  std::vector<uint32_t> got(n);
  const bool ok =
      cudaMalloc(&src, n * 4) == cudaSuccess && cudaMalloc(&dst, n * 4) == cudaSuccess &&
      cudaMalloc(&sp, split.size() * 8) == cudaSuccess &&
      cudaMemcpy(src, runs.data(), n * 4, cudaMemcpyHostToDevice) == cudaSuccess &&
      cudaMemcpy(sp, split.data(), split.size() * 8, cudaMemcpyHostToDevice) == cudaSuccess &&
      cudaMemset(dst, 0, n * 4) == cudaSuccess;
  if (ok) merge_flat<THREADS, ITEMS><<<unsigned(tiles), THREADS>>>(src, dst, n, w, sp);
  const cudaError_t e = ok ? cudaDeviceSynchronize() : cudaGetLastError();
  if (e == cudaSuccess) cudaMemcpy(got.data(), dst, n * 4, cudaMemcpyDeviceToHost);
  cudaFree(src);
  cudaFree(dst);
  cudaFree(sp);
  if (!ok || e != cudaSuccess) {
    std::fprintf(stderr, "%u x %u: CUDA error: %s\n", THREADS, ITEMS, cudaGetErrorString(e));
    return -1;
  }
  long long bad = 0;
  for (size_t x = 0; x < n; ++x) bad += got[x] != want[x];
  return bad;
}

int main() {
  const size_t w = size_t(1) << 20;  // two runs of 2^20 keys: one pair, w a multiple of each tile
  std::mt19937 rng(1);
  std::vector<uint32_t> runs(2 * w);
  for (auto& x : runs) x = static_cast<uint32_t>(rng());
  std::sort(runs.begin(), runs.begin() + w);
  std::sort(runs.begin() + w, runs.end());
  std::vector<uint32_t> want(2 * w);
  std::merge(runs.begin(), runs.begin() + w, runs.begin() + w, runs.end(), want.begin());
  int device = 0;
  cudaDeviceProp prop;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaGetDeviceProperties(&prop, device));
  std::printf("%s (sm_%d%d), CUDA runtime %d; two sorted runs of %zu keys\n", prop.name, prop.major,
              prop.minor, CUDART_VERSION, w);
  const long long r[] = {mismatches<256, 7>(runs, want, w), mismatches<256, 8>(runs, want, w),
                         mismatches<256, 9>(runs, want, w), mismatches<256, 11>(runs, want, w),
                         mismatches<128, 15>(runs, want, w)};
  const char* shape[] = {"256 x 7", "256 x 8", "256 x 9", "256 x 11", "128 x 15"};
  int wrong = 0;
  for (int s = 0; s < 5; ++s) {
    std::printf("%-9s %lld of %zu outputs differ from std::merge's\n", shape[s], r[s], 2 * w);
    wrong += r[s] != 0;
  }
  std::printf("%s\n", wrong ? "MISCOMPILED (or wrong): see above" : "all shapes right");
  return wrong ? 2 : 0;
}
