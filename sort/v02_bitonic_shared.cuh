// sort/v02_bitonic_shared.cuh — sort v02: bitonic network, every stride that fits a block in
// shared memory.
// Technique: a block of 1,024 threads holds a 2,048-key tile in shared memory and runs there
// every stage whose stride j is below 2,048: one launch for all stages k <= 2,048, and for each
// larger k one launch after the global strides. The comparator is a functor, as in the block Sort
// with a Comparator of Paddle's kernel primitives, here for any n (padded).
// Changes from v01: 406 launches at 2^28 become 171; 253 of the 406 stages touch shared memory
// instead of DRAM.
// Remains (bottleneck): still O(n log^2 n) compares, and the 153 strides of 2,048 and above pass
// over DRAM.
// Source: PaddlePaddle documentation, "CUDA Kernel Primitive API" (block bitonic Sort with a
// Comparator; in Chinese); K. E. Batcher, "Sorting networks and their applications", AFIPS 1968.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/device.h"
#include "common/registry.h"
#include "sort/v01_bitonic_global.cuh"  // pad_kernel, stage_kernel for strides >= one tile

namespace ladder::sort::v02 {

inline constexpr VersionDoc kDoc = {
    2, "v02_bitonic_shared", "Bitonic network with shared memory for every stride inside a tile",
    /*technique*/
    "Tiles of 2048 keys (1024 threads, one compare-swap each per step) live in shared memory: "
    "one launch runs every stage k <= 2048 on every tile, and for each larger k one launch runs "
    "all the strides j < 2048 of that k in shared memory after the global launches for "
    "j >= 2048. The comparator is a functor (as the Comparator of Paddle's kernel primitives), "
    "the padding 0xFFFFFFFF.",
    /*changes*/
    "v01's 406 launches at 2^28 become 1 + 153 + 17: the 66 stages inside a tile and the 11 "
    "smallest strides of every larger stage (187) read and write shared memory, not DRAM.",
    /*remains*/
    "The network's O(n log^2 n) compares, and one DRAM pass for every stride of 2048 and "
    "above (153 at 2^28): the algorithm, not the memory, is now the limit.",
    /*source*/
    "PaddlePaddle, \"CUDA Kernel Primitive API\" (block bitonic Sort with a Comparator, in "
    "Chinese); Batcher, \"Sorting networks and their applications\", AFIPS 1968"};

inline constexpr unsigned kThreads = 1024;
inline constexpr size_t kTile = 2 * kThreads;  // keys per tile, a power of two
inline constexpr size_t kMaxN = size_t(1) << 30;

struct Ascending {  // the comparator: does a belong after b?
  __device__ __forceinline__ bool operator()(uint32_t a, uint32_t b) const { return a > b; }
};

// Runs the stages (k, j) for j = j_first, j_first / 2, ..., 1 on one tile in shared memory; the
// direction of a pair comes from its global index (i & k), so tiles of one stage alternate.
template <typename Cmp>
__device__ __forceinline__ void tile_strides(uint32_t* s, size_t tile_base, size_t k,
                                             size_t j_first, Cmp cmp) {
  for (size_t j = j_first; j >= 1; j /= 2) {
    const unsigned t = threadIdx.x;
    const unsigned i = 2 * t - (t & (unsigned(j) - 1));
    const unsigned p = i + unsigned(j);
    const uint32_t a = s[i], b = s[p];
    const bool ascending = ((tile_base + i) & k) == 0;
    if (cmp(a, b) == ascending) {
      s[i] = b;
      s[p] = a;
    }
    __syncthreads();
  }
}

// Every stage k = 2 .. kTile on each tile. ALTERNATE: tiles alternate direction as the global
// network needs (odd tiles end descending); otherwise every tile ends ascending (merge sort).
template <bool ALTERNATE = true>
__global__ void __launch_bounds__(kThreads) sort_tiles_kernel(uint32_t* buf) {
  __shared__ uint32_t s[kTile];
  const size_t base = size_t(blockIdx.x) * kTile;
  s[threadIdx.x] = buf[base + threadIdx.x];
  s[threadIdx.x + kThreads] = buf[base + threadIdx.x + kThreads];
  __syncthreads();
  for (size_t k = 2; k <= kTile; k *= 2)
    tile_strides(s, ALTERNATE ? base : 0, k, k / 2, Ascending{});
  buf[base + threadIdx.x] = s[threadIdx.x];
  buf[base + threadIdx.x + kThreads] = s[threadIdx.x + kThreads];
}

// The strides j = kTile / 2 .. 1 of stage k (> kTile) on each tile.
__global__ void __launch_bounds__(kThreads) tile_stage_kernel(uint32_t* buf, size_t k) {
  __shared__ uint32_t s[kTile];
  const size_t base = size_t(blockIdx.x) * kTile;
  s[threadIdx.x] = buf[base + threadIdx.x];
  s[threadIdx.x + kThreads] = buf[base + threadIdx.x + kThreads];
  __syncthreads();
  tile_strides(s, base, k, kTile / 2, Ascending{});
  buf[base + threadIdx.x] = s[threadIdx.x];
  buf[base + threadIdx.x + kThreads] = s[threadIdx.x + kThreads];
}

inline size_t padded(size_t n) { return std::max(v01::padded(n), kTile); }
inline size_t workspace_bytes(size_t n) { return padded(n) * sizeof(uint32_t); }

inline cudaError_t launch(const uint32_t* in, uint32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  const size_t N = padded(n);
  const unsigned tiles = static_cast<unsigned>(N / kTile);
  uint32_t* buf = static_cast<uint32_t*>(ws);
  v01::pad_kernel<<<v01::grid_for(N), v01::kThreads, 0, stream>>>(in, buf, n, N);
  sort_tiles_kernel<true><<<tiles, kThreads, 0, stream>>>(buf);
  for (size_t k = 2 * kTile; k <= N; k *= 2) {
    for (size_t j = k / 2; j >= kTile; j /= 2)
      v01::stage_kernel<<<v01::grid_for(N / 2), v01::kThreads, 0, stream>>>(buf, N, k, j);
    tile_stage_kernel<<<tiles, kThreads, 0, stream>>>(buf, k);
  }
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return e;
  return cudaMemcpyAsync(out, buf, n * sizeof(uint32_t), cudaMemcpyDeviceToDevice, stream);
}

}  // namespace ladder::sort::v02
