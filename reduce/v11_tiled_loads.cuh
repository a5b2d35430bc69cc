// reduce/v11_tiled_loads.cuh — reduce v11: block-contiguous tiles, loads that skip L1.
//
// Technique: each trip a block reads one contiguous 16 KB tile through loads that do not
// allocate in L1 (ld.global.nc.L1::no_allocate). Changed from v10: tile-contiguous trips
// instead of grid-strided ones. What remains: the memory system itself, and at small n the fixed
// cost of one launch and one wave of blocks. Source: CUB's even-share tiles over contiguous
// loads (BlockLoad); NVIDIA's PTX ISA (ld.global.nc, L1::no_allocate). The kDoc below says
// each in full.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/device.h"
#include "common/load.cuh"  // load_once: 16-byte read-only load, no L1 allocation
#include "common/registry.h"
#include "common/warp_reduce.cuh"
#include "reduce/v10_single_pass.cuh"  // v10::finish_in_last_block, the single-pass finish

namespace ladder::reduce::v11 {

inline constexpr VersionDoc kDoc = {
    11, "v11_tiled_loads", "Block-contiguous tiles and L1-bypassing loads, single pass",
    /*technique*/
    "Each trip a block reads one contiguous 16 KB tile (thread t: words t, t+256, ...) instead "
    "of loads a grid stride apart, through ld.global.nc.L1::no_allocate. v10's finish.",
    /*changes*/
    "v10 with a tile-contiguous trip instead of a grid-strided one, and load_once "
    "instead of plain loads.",
    /*remains*/
    "The memory system itself: the kernel reads above the measured copy ceiling (a read-only "
    "stream has no write traffic to turn the bus around for). What is left is the fixed cost "
    "of one launch and one wave of blocks, visible only at small n.",
    /*source*/
    "CUB's tile-based even-share partitioning (BlockLoad over contiguous tiles); NVIDIA, PTX "
    "ISA, ld.global.nc with the L1::no_allocate eviction hint"};

inline constexpr unsigned kThreads = 256;
inline constexpr int kUnroll = 4;

// Where the loads land: in v09/v10 a thread's kUnroll loads are a grid stride (about 4 MB on an
// H200) apart, so a block touches kUnroll distant regions per trip. Here a block reads one
// contiguous tile of kUnroll x 256 float4 (16 KB) per trip, thread t taking words t, t + 256,
// ... (still coalesced), and tiles are dealt to blocks round-robin. Data read once has no
// business in L1, hence load_once.
// This thread's share of sum(in[0, n)). Precondition: `in` 4-byte aligned; any n.
template <unsigned BS, int UNROLL>
__device__ __forceinline__ float thread_sum_tiled(const float* __restrict__ in, size_t n) {
  const size_t misalign = reinterpret_cast<uintptr_t>(in) & 15;
  const size_t head = min(n, ((16 - misalign) & 15) / sizeof(float));
  const float4* body = reinterpret_cast<const float4*>(in + head);
  const size_t n4 = (n - head) / 4;
  const size_t tail_begin = head + 4 * n4;
  constexpr size_t kTile = size_t(UNROLL) * BS;  // float4 words per block per trip

  float acc[UNROLL] = {};
  size_t base = size_t(blockIdx.x) * kTile;
  for (; base + kTile <= n4; base += size_t(gridDim.x) * kTile) {
    float4 v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) v[u] = load_once(body + base + u * BS + threadIdx.x);
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) acc[u] += (v[u].x + v[u].y) + (v[u].z + v[u].w);
  }
  for (size_t i = base + threadIdx.x; i < n4; i += BS) {  // the one partial tile, if any
    const float4 v = load_once(body + i);
    acc[0] += (v.x + v.y) + (v.z + v.w);
  }
  float sum = 0.0f;
#pragma unroll
  for (int u = 0; u < UNROLL; ++u) sum += acc[u];
  const size_t thread = size_t(blockIdx.x) * BS + threadIdx.x;
  if (thread < head) sum += in[thread];
  if (thread < n - tail_begin) sum += in[tail_begin + thread];
  return sum;
}

// in: n floats (4-byte aligned); out: one float. partial: gridDim.x floats of scratch.
// done: a counter that is 0 on entry and is left 0 on exit (v10's last-block finish).
template <unsigned BS, int UNROLL>
__global__ void single_pass_kernel(const float* __restrict__ in, float* __restrict__ out, size_t n,
                                   float* __restrict__ partial, unsigned* done) {
  const float sum = block_reduce_sum<BS>(thread_sum_tiled<BS, UNROLL>(in, n));
  v10::finish_in_last_block<BS>(sum, out, partial, done);
}

inline size_t grid_for(size_t n) {
  static const int per_sm = [] {
    int blocks = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, single_pass_kernel<kThreads, kUnroll>,
                                                  kThreads, 0);
    return std::max(blocks, 1);
  }();
  const size_t full = size_t(current_sm_count()) * per_sm;
  return std::clamp<size_t>(ceil_div(n, size_t(kThreads) * 4 * kUnroll), 1, full);
}

// Workspace: the counter (first 16 bytes), then one float per block.
inline size_t workspace_bytes(size_t n) { return 16 + grid_for(n) * sizeof(float); }

inline cudaError_t launch(const float* in, float* out, size_t n, void* ws, cudaStream_t stream) {
  const size_t grid = grid_for(n);
  auto* done = static_cast<unsigned*>(ws);
  auto* partial = reinterpret_cast<float*>(static_cast<char*>(ws) + 16);
  single_pass_kernel<kThreads, kUnroll>
      <<<static_cast<unsigned>(grid), kThreads, 0, stream>>>(in, out, n, partial, done);
  return cudaGetLastError();
}

}  // namespace ladder::reduce::v11
