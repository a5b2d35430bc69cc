// histogram/v05_lane_striped.cuh — histogram v05: a counter column per lane, bank = lane.
// Technique: counters laid out h[bin][32]; lane L counts in column L, which lies in bank L, so a
// warp's 32 atomics touch 32 banks on any input; 16-byte loads that skip L1, two in flight; a
// grid of sqrt(vectors / 16) blocks, which balances each block's fixed cost against its reads.
// Changes from v04: no match instruction; per-lane columns instead of per-warp copies; 32 KiB of
// shared memory per 512-thread block; loads through load_once (no L1 allocation); sqrt(vectors /
// 16) blocks where v04 launches one vector a thread (both capped at the resident grid).
// Remains (bottleneck): one shared-memory atomic per sample: for uint8, 16 per 16-byte load,
// four times the atomics per byte moved of the int32 ladder.
// Source: replicated sub-histograms against bank conflicts, as in J. Gómez-Luna et al.,
// "Performance Modeling of Atomic Additions on GPU Scratchpad Memory" (IEEE TPDS, 2013).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>

#include "common/device.h"
#include "common/load.cuh"  // load_once: 16-byte read-only load, no L1 allocation
#include "common/registry.h"
#include "histogram/histogram.h"
#include "histogram/samples.cuh"

namespace ladder::histogram::v05 {

inline constexpr VersionDoc kDoc = {
    5, "v05_lane_striped", "Contention-proof privatization: one counter column per lane",
    /*technique*/
    "Counters laid out h[bin][32]: lane L counts into column L, word bin * 32 + L, always bank "
    "L. A warp's 32 atomics hit 32 banks whatever the data. 16-byte loads skipping L1. A grid "
    "of sqrt(vectors / 16) blocks (at most the resident grid): each block's fixed cost (zeroing, "
    "summing, 256 global atomics) against its threads' reads one after another.",
    /*changes*/
    "v04's per-warp copies and __match_any_sync replaced by per-lane columns: no "
    "match instruction, no two lanes of an instruction on one bank by layout (Nsight "
    "Compute counts none at 2^22 with this grid; at four blocks an SM it counted a few "
    "thousand, even on stores whose addresses cannot conflict), 32 KiB of shared memory per "
    "block; sqrt(vectors / 16) blocks where v04 launches one vector a thread (both at most the "
    "resident grid).",
    /*remains*/
    "One shared-memory atomic per sample. For uint8 that is 16 atomics per 16-byte load: the "
    "hardware counters show the byte ladder issuing as many shared atomics per sample as the "
    "int32 one on a quarter of the bytes, four times the atomics per byte moved, and the byte "
    "histogram stays short of the copy ceiling that the int32 one reaches.",
    /*source*/
    "The bank = lane layout is the standard way to make shared-memory privatization immune to "
    "data-dependent bank conflicts (e.g. Gómez-Luna et al., Performance Modeling of Atomic "
    "Additions on GPU Scratchpad Memory, 2013: replicated sub-histograms); written anew here"};

inline constexpr unsigned kThreads = 512;
inline constexpr int kUnroll = 2;
inline constexpr size_t kSmemBytes = kBins * 32 * sizeof(unsigned);  // 32 KiB

// The layout: h[bin * 32 + lane]. Word bin * 32 + L lies in bank L, so the 32 atomics of one
// warp instruction touch 32 different banks on any input (uniform, skewed, one bin): no bank
// conflict by address and no same-address collision inside a warp (Nsight Compute's conflict
// counter reads 0 at this grid; at four blocks an SM it read a few thousand: the lab notes). Warps
// of the block share the columns; their atomics are separate instructions. At the end each bin's 32
// columns are summed, read rotated by bin so that this too is conflict-free, and added to the
// global histogram with one atomic per non-zero bin. in: n samples (sizeof(T)-aligned); bins: 256
// counters, zeroed before the launch. Launch with kThreads threads and kSmemBytes of dynamic shared
// memory.
template <typename T>
__global__ void lane_striped_kernel(const T* __restrict__ in, unsigned* __restrict__ bins,
                                    size_t n) {
  extern __shared__ unsigned h[];  // h[bin * 32 + lane]
  for (unsigned i = threadIdx.x; i < kBins * 32; i += kThreads) h[i] = 0;
  __syncthreads();
  const unsigned lane = threadIdx.x % 32;
  auto add = [&](unsigned b) {
    if (b < kBins) atomicAdd(&h[b * 32 + lane], 1u);
  };
  using Vec = typename SampleTraits<T>::Vec;
  for_each_sample<T, kUnroll>(
      in, n, [](const Vec* p) { return load_once(p); }, add);
  __syncthreads();
  for (unsigned b = threadIdx.x; b < kBins; b += kThreads) {
    unsigned sum = 0;
#pragma unroll 8
    for (unsigned j = 0; j < 32; ++j) sum += h[b * 32 + ((j + b) & 31)];  // bank (j + b) % 32
    if (sum != 0) atomicAdd(&bins[b], sum);
  }
}

inline size_t workspace_bytes(size_t) { return 0; }

// The grid for n_vec 16-byte vectors, `full` blocks resident at once. Each block pays a fixed
// cost (zeroing its 32 KiB, summing the columns, 256 global atomics on the same 256 counters as
// every other block) and its threads read n_vec / (grid x kThreads) vectors one after another: a
// time a x grid + b x n_vec / grid, least at grid = sqrt(n_vec x b / a). Timed on the H200
// (histogram/lab/probe_grid.cu), the best power-of-two grid was sqrt(n_vec / 16) at 2^16, 2^18 and
// 2^20 vectors for both sample types (64, 128 and 256 blocks; at 2^22 int32 vectors its 512 beat
// the resident 528, the only other grid there); one vector a thread (the grid before,
// 512 blocks at 2^20 int32 samples) took 10.27 us there against 7.68 with 128 blocks. Never more
// blocks than one vector a thread gives, at least one, at most the resident grid.
inline size_t grid_for(size_t n_vec, size_t full) {
  const size_t balanced = static_cast<size_t>(std::sqrt(static_cast<double>(n_vec) / 16));
  return std::min(full, std::max<size_t>(1, std::min(ceil_div(n_vec, size_t(kThreads)), balanced)));
}

template <typename T>
cudaError_t launch(const T* in, unsigned* bins, size_t n, void*, cudaStream_t stream) {
  static const size_t full =
      resident_grid((const void*)lane_striped_kernel<T>, kThreads, kSmemBytes);
  const size_t grid = grid_for(ceil_div(n, size_t(SampleTraits<T>::kPerVec)), full);
  if (cudaError_t e = cudaMemsetAsync(bins, 0, kBins * sizeof(unsigned), stream)) return e;
  lane_striped_kernel<T>
      <<<static_cast<unsigned>(grid), kThreads, kSmemBytes, stream>>>(in, bins, n);
  return cudaGetLastError();
}

}  // namespace ladder::histogram::v05
