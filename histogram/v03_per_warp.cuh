// histogram/v03_per_warp.cuh — histogram v03: one sub-histogram per warp.
// Technique: per-warp sub-histograms: 8 copies of 256 counters per block, summed at the end.
// Changes from v02: one copy per warp instead of one per block: warps no longer share counters.
// Remains (bottleneck): the same one 4-byte load and one atomic per sample; it runs at v02's
// speed, so cross-warp collisions were not what limited v02.
// Source: V. Podlozhnyuk, "Histogram calculation in CUDA" (NVIDIA CUDA SDK white paper, 2007),
// per-warp sub-histograms.
#pragma once

#include <cuda_runtime.h>

#include "common/device.h"
#include "common/registry.h"
#include "histogram/histogram.h"
#include "histogram/samples.cuh"

namespace ladder::histogram::v03 {

inline constexpr VersionDoc kDoc = {
    3, "v03_per_warp", "Per-warp sub-histograms in shared memory",
    /*technique*/
    "Each warp of the block gets its own 256 counters (8 warps x 1 KiB). Warps no longer "
    "collide with each other; at the end the block sums the 8 copies of each bin and issues "
    "one global atomic per non-zero bin.",
    /*changes*/ "v02's one copy per block becomes one copy per warp.",
    /*remains*/
    "Every sample costs a 4-byte load and an atomic instruction of its own. Lanes that hit "
    "the same counter in one instruction cost no more than one (the compiler issues the "
    "update as ATOMS.POPC.INC, which combines them), so on the H200 the one-bin input runs "
    "no slower than the uniform one at 2^28; lanes with different bins in one bank still "
    "conflict, as in v02. The one scalar load per sample, not the atomics, bounds this rung "
    "(the chapter's table).",
    /*source*/
    "V. Podlozhnyuk, Histogram calculation in CUDA (NVIDIA CUDA SDK white paper, 2007), "
    "per-warp sub-histograms"};

inline constexpr unsigned kThreads = 256;
inline constexpr unsigned kWarps = kThreads / 32;

// in: n samples; bins: 256 counters, zeroed before the launch. Launch with kThreads threads.
template <typename T>
__global__ void per_warp_kernel(const T* __restrict__ in, unsigned* __restrict__ bins, size_t n) {
  __shared__ unsigned h[kWarps][kBins];
  for (unsigned i = threadIdx.x; i < kWarps * kBins; i += kThreads) (&h[0][0])[i] = 0;
  __syncthreads();
  unsigned* mine = h[threadIdx.x / 32];
  for (size_t i = size_t(blockIdx.x) * kThreads + threadIdx.x; i < n;
       i += size_t(gridDim.x) * kThreads) {
    const unsigned b = SampleTraits<T>::bin(in[i]);
    if (b < kBins) atomicAdd(&mine[b], 1u);
  }
  __syncthreads();
  for (unsigned b = threadIdx.x; b < kBins; b += kThreads) {
    unsigned sum = 0;
#pragma unroll
    for (unsigned w = 0; w < kWarps; ++w) sum += h[w][b];
    if (sum != 0) atomicAdd(&bins[b], sum);
  }
}

inline size_t workspace_bytes(size_t) { return 0; }

template <typename T>
cudaError_t launch(const T* in, unsigned* bins, size_t n, void*, cudaStream_t stream) {
  static const size_t full = resident_grid((const void*)per_warp_kernel<T>, kThreads, 0);
  const size_t grid = std::min(full, std::max<size_t>(1, ceil_div(n, kThreads)));
  if (cudaError_t e = cudaMemsetAsync(bins, 0, kBins * sizeof(unsigned), stream)) return e;
  per_warp_kernel<T><<<static_cast<unsigned>(grid), kThreads, 0, stream>>>(in, bins, n);
  return cudaGetLastError();
}

}  // namespace ladder::histogram::v03
