// reduce/rows/v05_row_tiles.cuh — row_sum v05: long rows read in CUB-sized tiles with read-once
// loads, one block per row; v04 for every other shape.
// Technique: where a row starts 16-byte aligned and is at least one tile long (256 threads x 4
// float4 = 4,096 floats), one 256-thread block per row (a grid of `rows` blocks, not a resident
// grid): each trip, every thread issues four 16-byte `ld.global.nc.L1::no_allocate` loads
// (common/load.cuh, reduce v11's loads) before it adds them, then BlockXReduce. Shorter or
// unaligned rows, and the few-long-rows shape (fewer rows than one wave of blocks), go to v04.
// Changes from v04: many long rows get a block each and tiles of 16 floats per thread instead of
// a warp per row; the loads skip L1.
// Remains (bottleneck): the memory system; the last partial tile of each row.
// Source: CUB's DeviceSegmentedReduce (one block per segment, its sm90 reduce tile of 256
// threads x 16 items with 4-wide vector loads); reduce v11 (load_once); Paddle's BlockXReduce
// (PaddlePaddle documentation, CUDA Kernel Primitive API).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "common/device.h"
#include "common/load.cuh"
#include "common/registry.h"
#include "common/warp_reduce.cuh"
#include "reduce/rows/v04_shape_dispatch.cuh"

namespace ladder::reduce::rows::v05 {

inline constexpr VersionDoc kDoc = {
    5, "v05_row_tiles", "Long rows: a block per row, 16-float tiles per thread, read-once loads",
    /*technique*/
    "For rows of at least 4,096 floats that start 16-byte aligned, with at least one wave of "
    "rows (8 blocks per SM): block r sums row r. Each trip a thread loads four float4 (at "
    "thread, thread + 256, + 512, + 768 in vectors of the trip's 1,024) with "
    "ld.global.nc.L1::no_allocate, adds them into four sums, and moves on by 4,096 floats; a "
    "partial last tile is read one vector at a time; then block_reduce_sum. Every other shape "
    "is v04's plan.",
    /*changes*/
    "v04 gave many long rows a warp each (four rows per warp in flight); here they get a block "
    "each, the tile CUB's segmented reduce reads, and loads that do not allocate in L1.",
    /*remains*/
    "The memory system; the partial last tile of a row whose length is not a "
    "multiple of 4,096.",
    /*source*/
    "CUB DeviceSegmentedReduce (a block per segment; the sm90 reduce policy's 256 x 16 tile, "
    "4-wide loads); reduce v11 (common/load.cuh); PaddlePaddle documentation, CUDA Kernel "
    "Primitive API (BlockXReduce)"};

inline constexpr unsigned kThreads = 256;
inline constexpr unsigned kVecs = 4;                                 // float4 per thread a trip
inline constexpr size_t kTileFloats = size_t(kThreads) * kVecs * 4;  // 4,096

// Block r: row r of a matrix whose rows start 16-byte aligned (cols % 4 == 0, in aligned).
__global__ void __launch_bounds__(kThreads)
    row_tile_kernel(const float* __restrict__ in, float* __restrict__ out, size_t cols) {
  const size_t r = blockIdx.x;
  const float4* row = reinterpret_cast<const float4*>(in + r * cols);
  const size_t units = cols / 4, full = units / (kThreads * kVecs) * (kThreads * kVecs);
  float part[kVecs] = {};
  for (size_t u = threadIdx.x; u < full; u += kThreads * kVecs) {
    float4 v[kVecs];
#pragma unroll
    for (unsigned k = 0; k < kVecs; ++k) v[k] = load_once(row + u + k * kThreads);
#pragma unroll
    for (unsigned k = 0; k < kVecs; ++k) part[k] += (v[k].x + v[k].y) + (v[k].z + v[k].w);
  }
  for (size_t u = full + threadIdx.x; u < units; u += kThreads) {
    const float4 v = load_once(row + u);
    part[0] += (v.x + v.y) + (v.z + v.w);
  }
  float sum = (part[0] + part[1]) + (part[2] + part[3]);
  sum = block_reduce_sum<kThreads>(sum);
  if (threadIdx.x == 0) out[r] = sum;
}

// True when the tile kernel takes the shape: aligned rows, at least one tile long, and enough
// rows for a wave of blocks (fewer long rows are v04's split plan).
inline bool takes(const float* in, size_t rows, size_t cols) {
  return reinterpret_cast<uintptr_t>(in) % 16 == 0 && cols % 4 == 0 && cols >= kTileFloats &&
         rows >= size_t(current_sm_count()) * 8 && rows <= 0x7fffffffu;
}

// The sizes whose neighbours the dispatch tests run (n and n + 1): the "softmax" input (4,096
// columns) gains its wave-th row at wave x 4,096 elements, where v04 hands over to the tile
// kernel; the "square" input's side becomes 4,100 (a multiple of 4 with a partial last tile) at
// 4,100^2, where it leaves v04 (side 4,099) for the tile kernel.
inline std::vector<size_t> dispatch_bounds() {
  const size_t wave = size_t(current_sm_count()) * 8;
  return {wave * kTileFloats - 1, size_t(4100) * 4100 - 1};
}

inline size_t workspace_bytes(size_t rows, size_t cols) { return v04::workspace_bytes(rows, cols); }

inline cudaError_t launch(const float* in, float* out, size_t rows, size_t cols, void* ws,
                          cudaStream_t stream) {
  if (rows == 0) return cudaSuccess;
  if (!takes(in, rows, cols)) return v04::launch(in, out, rows, cols, ws, stream);
  row_tile_kernel<<<static_cast<unsigned>(rows), kThreads, 0, stream>>>(in, out, cols);
  return cudaGetLastError();
}

}  // namespace ladder::reduce::rows::v05
