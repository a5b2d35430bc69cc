// reduce/v12_size_dispatch.cuh — reduce v12: the shape picked from n. One block, one launch
// for an input that one block reads in one trip; v11 above that.
// Technique: dispatch by problem size, as libraries do (CUB's single-tile reduce).
// Changes from v11: up to 16,384 floats no partial sums, no fence, no atomic counter: one block
// (256 threads up to 4,096 floats, 1,024 threads up to 16,384) issues every load of the input at
// once, adds, and writes the sum. Above 16,384 floats, v11 unchanged.
// Remains (bottleneck): launch latency below the threshold; the memory system above it.
// Source: CUB DeviceReduce's single-tile path (dispatch_reduce.cuh, tuning_reduce.cuh).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "common/load.cuh"  // load_once
#include "common/registry.h"
#include "common/warp_reduce.cuh"
#include "reduce/v11_tiled_loads.cuh"  // the path above the threshold

namespace ladder::reduce::v12 {

inline constexpr VersionDoc kDoc = {
    12, "v12_size_dispatch", "Shape picked from n: one block below a threshold, v11 above",
    /*technique*/
    "Dispatch by problem size. Up to 16,384 floats (one trip of one 1024-thread block, four "
    "float4 per thread; up to 4,096, a 256-thread block, as CUB's single tile) a single block "
    "issues every load of the input at once (guarded, 32-bit indices), reduces it and writes "
    "the sum: one launch, nothing else. Above that, v11's grid and last-block finish.",
    /*changes*/
    "v11 on a small input still ran its finish: write the block's partial, fence, atomic "
    "increment, and the last block reads the partials back: three L2 round trips in a row "
    "(the fence, the atomic, the read-back) after the data is summed. The single-block path skips "
    "all of it, and does not use v11's per-thread loop, "
    "which walks a partial tile one dependent load at a time.",
    /*remains*/
    "Below the threshold, the launch itself (a few microseconds: the work is under one). Above "
    "it, the memory system, as in v11.",
    /*source*/
    "CUB DeviceReduce's single-tile path (dispatch_reduce.cuh: one block when n fits one "
    "tile; tuning_reduce.cuh for its sm90 tile of 4,096 items)"};

inline constexpr unsigned kThreads = 1024;
inline constexpr int kUnroll = 4;
// The largest n the single block takes: what its 1024 threads read in one trip of kUnroll float4
// each (64 KB). One more trip would double its time while 131 SMs stay idle; v11's grid spreads
// a second trip's worth over four blocks instead.
inline constexpr size_t kSingleBlockMax = size_t(kThreads) * 4 * kUnroll;
// Up to one trip of 256 threads, a 256-thread block: 32 warps would mostly idle, and their block
// reduction (32 warp sums) and launch cost more than the loads.
inline constexpr unsigned kSmallThreads = 256;
inline constexpr size_t kSmallBlockMax = size_t(kSmallThreads) * 4 * kUnroll;

// in: n floats (4-byte aligned), n <= BS * 4 * kUnroll; out: one float. Launch with one block
// of BS threads. Every thread issues all its loads (up to kUnroll float4, guarded) before its
// first add, with 32-bit indices: v11's thread_sum_tiled, written for any grid and n, loops over
// a partial tile one float4 at a time (each load waiting on the one before) and does its
// head/tail index math in 64 bits, a measurable share of a launch of a few microseconds. The
// floats before the first 16-byte boundary (head) and after the last whole float4 (tail) are
// added by the first threads.
template <unsigned BS>
__global__ void __launch_bounds__(BS)
    single_block_kernel(const float* __restrict__ in, float* __restrict__ out, unsigned n) {
  const unsigned misalign = static_cast<unsigned>(reinterpret_cast<uintptr_t>(in) & 15) / 4;
  const unsigned head = min(n, (4 - misalign) & 3);
  const float4* body = reinterpret_cast<const float4*>(in + head);
  const unsigned n4 = (n - head) / 4;
  const unsigned tail_begin = head + 4 * n4;
  float4 v[kUnroll];
#pragma unroll
  for (int u = 0; u < kUnroll; ++u) {
    const unsigned i = u * BS + threadIdx.x;
    v[u] = i < n4 ? load_once(body + i) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  }
  float sum = 0.0f;
  if (threadIdx.x < head) sum += in[threadIdx.x];
  if (threadIdx.x < n - tail_begin) sum += in[tail_begin + threadIdx.x];
#pragma unroll
  for (int u = 0; u < kUnroll; ++u) sum += (v[u].x + v[u].y) + (v[u].z + v[u].w);
  sum = block_reduce_sum<BS>(sum);
  if (threadIdx.x == 0) *out = sum;
}

inline size_t workspace_bytes(size_t n) {
  return n <= kSingleBlockMax ? 0 : v11::workspace_bytes(n);
}

// in: n floats, 4-byte aligned; out: one float; ws: workspace_bytes(n) bytes, zero on the first
// launch above the threshold and left zero by each (v11's counter).
inline cudaError_t launch(const float* in, float* out, size_t n, void* ws, cudaStream_t stream) {
  if (n > kSingleBlockMax) return v11::launch(in, out, n, ws, stream);
  const bool small = n <= kSmallBlockMax;
  auto kernel = small ? single_block_kernel<kSmallThreads> : single_block_kernel<kThreads>;
  kernel<<<1, small ? kSmallThreads : kThreads, 0, stream>>>(in, out, static_cast<unsigned>(n));
  return cudaGetLastError();
}

}  // namespace ladder::reduce::v12
