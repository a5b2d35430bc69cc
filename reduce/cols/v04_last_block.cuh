// reduce/cols/v04_last_block.cuh — col_sum v04: one launch; the last block of each column tile
// adds the splits' partial sums.
// Technique: v03's split of the rows over the grid, but no second pass: every block writes its
// partial column sums, makes them visible (__threadfence) and counts itself in on its tile's
// counter; the block that arrives last reads the tile's partials back and writes the sums. Fewer
// splits (four blocks per SM) keep that last block's work short.
// Changes from v03: the second launch (and its gap) is gone; the splits are fewer.
// Remains (bottleneck): the memory system; the last block's tail (splits x tile columns floats
// read back from L2).
// Source: the threadFenceReduction sample of the CUDA samples (a counter and __threadfence to
// find the last block); reduce v10; Paddle's BlockYReduce (PaddlePaddle documentation, CUDA
// Kernel Primitive API).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/device.h"
#include "common/registry.h"
#include "reduce/cols/v03_split_rows.cuh"  // the block shape, the plan and the vector loads

namespace ladder::reduce::cols::v04 {

inline constexpr VersionDoc kDoc = {
    4, "v04_last_block", "One launch: the last block of a column tile adds the partial sums",
    /*technique*/
    "v03's blocks (X lanes along the columns, 256 / X along the rows, rows split over the grid), "
    "four blocks per SM. Each block writes its partial column sums to a workspace, fences "
    "(__threadfence: the writes are visible GPU-wide before the count), and thread 0 adds one "
    "to its tile's counter. The block that sees the count reach the number of splits is the "
    "last of its tile: it reads the tile's partials (splits x tile columns, from L2), reduces "
    "them the same way and writes the column sums, then sets the counter back to zero for the "
    "next launch.",
    /*changes*/
    "v03 launched a second kernel over the partials; here the grid finishes its own work, so a "
    "small or tall matrix pays one launch.",
    /*remains*/
    "The memory system; the last block's read-back of the partials, a short serial tail.",
    /*source*/
    "CUDA samples, threadFenceReduction (a global counter and __threadfence find the last "
    "block); PaddlePaddle documentation, CUDA Kernel Primitive API (BlockYReduce, kGlobalMode)"};

inline constexpr unsigned kThreads = v03::kThreads;
inline constexpr size_t kBlocksPerSm = 4;

// The tile's x lanes by 256 / x rows: thread (tx, ty) sums acc over its rows, the block's
// partial column sums are written by the ty == 0 threads (V floats each) to dst.
template <unsigned V>
__device__ __forceinline__ void block_y_sum(float* part, const float (&acc)[V], unsigned x,
                                            float* dst, bool active) {
  const unsigned tx = threadIdx.x % x, ty = threadIdx.x / x, y = kThreads / x;
#pragma unroll
  for (unsigned k = 0; k < V; ++k) part[threadIdx.x * V + k] = acc[k];
  __syncthreads();
  if (ty == 0 && active)
#pragma unroll
    for (unsigned k = 0; k < V; ++k) {
      float total = 0.0f;
      for (unsigned j = 0; j < y; ++j) total += part[(j * x + tx) * V + k];
      dst[k] = total;
    }
}

// Block (tile = blockIdx.x, split = blockIdx.y). partials: gridDim.y x cols floats; counters:
// one per tile, zero on entry and left zero on exit.
template <unsigned V>
__global__ void __launch_bounds__(kThreads)
    last_block_kernel(const float* __restrict__ in, float* __restrict__ out, float* partials,
                      unsigned* counters, size_t rows, size_t cols, unsigned x,
                      size_t rows_per_split) {
  __shared__ float part[kThreads * V];
  __shared__ bool last;
  const unsigned tx = threadIdx.x % x, ty = threadIdx.x / x, y = kThreads / x;
  const size_t units = cols / V;
  const size_t u = blockIdx.x * size_t(x) + tx;
  const bool active = u < units;
  const size_t r0 = blockIdx.y * rows_per_split, r1 = std::min(rows, r0 + rows_per_split);
  float acc[V] = {};
  if (active) {
    size_t r = r0 + ty;
    constexpr unsigned kU = v03::kUnroll<V>;
    for (; r + (kU - 1) * y < r1; r += kU * y) {
      v03::VecOf<V> v[kU];
#pragma unroll
      for (unsigned k = 0; k < kU; ++k) v[k] = v03::load_vec<V>(in + (r + k * y) * cols + u * V);
#pragma unroll
      for (unsigned k = 0; k < kU; ++k) v03::add_vec<V>(acc, v[k]);
    }
    for (; r < r1; r += y) v03::add_vec<V>(acc, v03::load_vec<V>(in + r * cols + u * V));
  }
  if (gridDim.y == 1) {  // no split: the block's sums are the answer
    block_y_sum<V>(part, acc, x, out + u * V, active);
    return;
  }
  block_y_sum<V>(part, acc, x, partials + blockIdx.y * cols + u * V, active);
  __threadfence();  // this block's partials are visible to every SM before it is counted
  __syncthreads();
  if (threadIdx.x == 0) last = atomicAdd(&counters[blockIdx.x], 1u) == gridDim.y - 1;
  __syncthreads();
  if (!last) return;
  // The last block of the tile: every split's partials are written and visible. __ldcg reads
  // them from L2 (this SM's L1 never held them).
  float sum[V] = {};
  if (active) {
    const size_t splits = gridDim.y;
    constexpr unsigned kU = 4;
    size_t s = ty;
    for (; s + (kU - 1) * y < splits; s += kU * y) {
      float v[kU][V];
#pragma unroll
      for (unsigned j = 0; j < kU; ++j)
#pragma unroll
        for (unsigned k = 0; k < V; ++k)
          v[j][k] = __ldcg(partials + (s + j * y) * cols + u * V + k);
#pragma unroll
      for (unsigned j = 0; j < kU; ++j)
#pragma unroll
        for (unsigned k = 0; k < V; ++k) sum[k] += v[j][k];
    }
    for (; s < splits; s += y)
#pragma unroll
      for (unsigned k = 0; k < V; ++k) sum[k] += __ldcg(partials + s * cols + u * V + k);
  }
  __syncthreads();  // part is reused
  block_y_sum<V>(part, sum, x, out + u * V, active);
  if (threadIdx.x == 0) counters[blockIdx.x] = 0;  // ready for the next launch
}

inline v03::Plan plan_for(const float* in, size_t rows, size_t cols) {
  return v03::plan_for(in, rows, cols, kBlocksPerSm);
}

// Partials (splits x cols floats), then one counter per tile; the most either vector width asks.
inline size_t workspace_bytes(size_t rows, size_t cols) {
  size_t most = 0;
  for (const float* in : {static_cast<const float*>(nullptr), reinterpret_cast<const float*>(4)}) {
    const v03::Plan p = plan_for(in, rows, cols);
    most = std::max(most, sizeof(float) * cols * p.splits + sizeof(unsigned) * p.tiles);
  }
  return (most + 15) / 16 * 16;
}

inline cudaError_t launch(const float* in, float* out, size_t rows, size_t cols, void* ws,
                          cudaStream_t stream) {
  if (cols == 0) return cudaSuccess;
  const v03::Plan p = plan_for(in, rows, cols);
  float* partials = static_cast<float*>(ws);
  // Counters after the largest partials block any plan of this shape uses (fixed per shape, so
  // a launch finds the counters its predecessor left at zero).
  const size_t counter_offset = workspace_bytes(rows, cols) - sizeof(unsigned) * p.tiles;
  unsigned* counters = reinterpret_cast<unsigned*>(static_cast<char*>(ws) + counter_offset);
  const dim3 grid(static_cast<unsigned>(p.tiles), static_cast<unsigned>(p.splits));
  if (p.vec == 4)
    last_block_kernel<4><<<grid, kThreads, 0, stream>>>(in, out, partials, counters, rows, cols,
                                                        p.x, p.rows_per_split);
  else
    last_block_kernel<1><<<grid, kThreads, 0, stream>>>(in, out, partials, counters, rows, cols,
                                                        p.x, p.rows_per_split);
  return cudaGetLastError();
}

}  // namespace ladder::reduce::cols::v04
