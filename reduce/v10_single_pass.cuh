// reduce/v10_single_pass.cuh — reduce v10: one launch; the last block to finish adds the rest.
//
// Technique: each block stores its sum and takes a ticket; the last ticket's block adds the
// block sums (strided per thread, then a tree: deterministic). Changed from v09: the second
// launch is gone. What remains: a thread's loads a grid stride apart (v11 makes them contiguous).
// Source: NVIDIA's CUDA samples, threadFenceReduction. The kDoc below says each in full.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>

#include "common/device.h"
#include "common/registry.h"
#include "common/warp_reduce.cuh"
#include "reduce/v09_vectorized.cuh"  // v09::thread_sum_vec4, the vectorized per-thread loop

namespace ladder::reduce::v10 {

inline constexpr VersionDoc kDoc = {
    10, "v10_single_pass", "Single pass: the last block to finish reduces the block sums",
    /*technique*/
    "Each block stores its sum, fences (__threadfence) and takes a ticket (atomicAdd); the "
    "block with the last ticket reads every block sum back, each thread adding a strided "
    "share (sums t, t + 256, ...) before block_reduce_sum combines the threads, and resets the "
    "counter. The order of the additions depends on the grid only, not on which block "
    "finished when: the result is deterministic. No block waits for another.",
    /*changes*/
    "v09's loads and grid, but the second launch is gone: one kernel, one launch "
    "gap, no one-block tail kernel.",
    /*remains*/
    "Where a trip's loads land: a thread's kUnroll loads are a grid stride (about 4 MB) apart, "
    "so every block has kUnroll distant regions of memory open per trip. The kernel is within "
    "a percent or two of the best this GPU does; v11 takes that last step.",
    /*source*/
    "NVIDIA CUDA samples, threadFenceReduction (a counter and __threadfence find the last "
    "block). Scan's single pass needs more, each block's predecessors' sums: Duane Merrill and "
    "Michael Garland, Single-pass Parallel Prefix Scan with Decoupled Look-back (NVIDIA, 2016)"};

inline constexpr unsigned kThreads = 256;
inline constexpr int kUnroll = 4;

// Why it is safe whatever order blocks run in: no block ever waits for another. Each one
// publishes its sum (store, __threadfence) before taking a ticket, so the block that draws the
// last ticket knows every sum is visible; it reduces them and resets the counter for the next
// launch. Its thread t adds partial[t], partial[t + BS], ... and block_reduce_sum combines the
// threads: an order fixed by the grid, not by which block finished last, so the result is the
// same on every run (deterministic), though not the left-to-right order of the blocks.
// The single-pass finish. Called by every thread of every block, with the block's sum valid in
// thread 0. Block b stores its sum in partial[b]; the block that takes the last ticket from
// `done` reduces partial[0 .. gridDim.x) as above and writes *out.
// Preconditions: partial has gridDim.x floats; *done is 0 on entry. Postcondition: *done is 0.
template <unsigned BS>
__device__ __forceinline__ void finish_in_last_block(float block_sum, float* __restrict__ out,
                                                     float* __restrict__ partial, unsigned* done) {
  __shared__ bool is_last;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = block_sum;
    __threadfence();  // release: the sum is visible device-wide before the ticket is taken
    const unsigned ticket = atomicAdd(done, 1u);
    is_last = ticket == gridDim.x - 1;
    if (is_last) __threadfence();  // acquire: later reads see every other block's sum
  }
  __syncthreads();  // also separates block_reduce_sum's two uses of its shared memory
  if (!is_last) return;

  float total = 0.0f;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += BS) total += __ldcg(&partial[b]);  // via L2
  total = block_reduce_sum<BS>(total);
  if (threadIdx.x == 0) {
    *out = total;
    *done = 0;  // every block has taken its ticket: safe to reset for the next launch
  }
}

// in: n floats (4-byte aligned); out: one float. partial: gridDim.x floats of scratch.
// done: a counter that is 0 on entry and is left 0 on exit (the last block resets it).
template <unsigned BS, int UNROLL>
__global__ void single_pass_kernel(const float* __restrict__ in, float* __restrict__ out, size_t n,
                                   float* __restrict__ partial, unsigned* done) {
  const float sum = block_reduce_sum<BS>(v09::thread_sum_vec4<BS, UNROLL>(in, n));
  finish_in_last_block<BS>(sum, out, partial, done);
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

}  // namespace ladder::reduce::v10
