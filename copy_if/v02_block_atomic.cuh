// copy_if/v02_block_atomic.cuh — copy_if v02: a shared-memory counter per block, one global
// atomic per block.
// Technique: kept elements take slots in a 1024-element tile from a shared counter; one thread
// reserves the tile's run of output with one global atomic. UNORDERED: slots inside a block
// follow the shared atomics' arrival order, runs the global atomic's.
// Changes from v01: the global counter sees one atomic per 1024 elements instead of one per
// warp; the per-warp atomics (combined by the compiler, as in v01) go to shared memory.
// Remains (bottleneck): 4-byte loads and small tiles: each block loads 4 KB, passes four
// barriers, scatters and exits (one tile a block).
// Source: A. Adinetz, "CUDA Pro Tip: Optimized Filtering with Warp-Aggregated Atomics" (NVIDIA
// Developer Blog, 2014), the shared-memory version; retold in the anonymous Chinese notes on
// CUDA operator optimization.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/device.h"
#include "common/registry.h"
#include "copy_if/copy_if.h"

namespace ladder::copy_if::v02 {

inline constexpr VersionDoc kDoc = {
    2, "v02_block_atomic", "Block-level: a shared counter, one global atomic per block (unordered)",
    /*technique*/
    "Each block takes a tile of 1024 elements. A kept element takes a slot in the tile with "
    "atomicAdd on a shared-memory counter; after a barrier one thread reserves the tile's "
    "whole run of output with a single global atomicAdd, and every kept element is written at "
    "run start + slot. Order is lost inside each tile and between tiles.",
    /*changes*/
    "v01's global atomics (one per warp with a kept element, after the compiler combines a "
    "warp's lanes) move to a shared-memory counter, and the global counter sees one atomic "
    "per 1024 elements: 32 times fewer.",
    /*remains*/
    "4-byte loads and 1024-element tiles: each block loads 4 KB, passes four barriers, "
    "scatters its kept elements and exits (one tile a block), with little in flight meanwhile.",
    /*source*/
    "A. Adinetz, CUDA Pro Tip: Optimized Filtering with Warp-Aggregated Atomics (NVIDIA "
    "Developer Blog, 2014), shared-memory version; retold in the anonymous Chinese notes on "
    "CUDA operator optimization (copy_if section)"};

inline constexpr unsigned kThreads = 256;
inline constexpr unsigned kItems = 4;  // elements per thread, strided by kThreads
inline constexpr size_t kTile = size_t(kThreads) * kItems;

__global__ void __launch_bounds__(kThreads)
    block_atomic_kernel(const int32_t* __restrict__ in, int32_t* __restrict__ out,
                        unsigned long long* count, size_t n) {
  __shared__ unsigned block_count;
  __shared__ unsigned long long block_base;
  for (size_t base = size_t(blockIdx.x) * kTile; base < n; base += size_t(gridDim.x) * kTile) {
    if (threadIdx.x == 0) block_count = 0;
    __syncthreads();
    int32_t x[kItems];
    unsigned slot[kItems];
#pragma unroll
    for (unsigned k = 0; k < kItems; ++k) {
      const size_t i = base + k * kThreads + threadIdx.x;
      x[k] = i < n ? in[i] : 0;  // 0 is dropped
      if (KeepPositive{}(x[k])) slot[k] = atomicAdd(&block_count, 1u);
    }
    __syncthreads();
    if (threadIdx.x == 0)
      block_base = atomicAdd(count, static_cast<unsigned long long>(block_count));
    __syncthreads();
#pragma unroll
    for (unsigned k = 0; k < kItems; ++k)
      if (KeepPositive{}(x[k])) out[block_base + slot[k]] = x[k];
    __syncthreads();  // block_count is reset for the next tile only after everyone has read it
  }
}

inline size_t workspace_bytes(size_t) { return 0; }

inline cudaError_t launch(const int32_t* in, int32_t* out, unsigned long long* count, size_t n,
                          void*, cudaStream_t stream) {
  const cudaError_t e = cudaMemsetAsync(count, 0, sizeof(*count), stream);
  if (e != cudaSuccess || n == 0) return e;
  const size_t grid = std::min<size_t>(ceil_div(n, kTile), 0x7fffffff);  // one tile per block
  block_atomic_kernel<<<static_cast<unsigned>(grid), kThreads, 0, stream>>>(in, out, count, n);
  return cudaGetLastError();
}

}  // namespace ladder::copy_if::v02
