// histogram/v01_global_atomics.cuh — histogram v01: one global atomicAdd per sample.
// Technique: a grid-stride loop over a full grid; atomicAdd(&bins[b], 1u) on global memory
// (issued as a reduction, RED: nobody reads the old value).
// Changes from v00: from one thread to the whole GPU; the increment becomes an atomic.
// Remains (bottleneck): contention: all n updates on 256 L2 addresses (one, on the degenerate
// input), serialized per address; each lane's address depends on its sample, so the compiler
// cannot combine a warp's updates.
// Source: NVIDIA, CUDA C++ Programming Guide, atomic functions; the histogram section of the
// anonymous Chinese notes on CUDA operator optimization.
#pragma once

#include <cuda_runtime.h>

#include "common/device.h"
#include "common/registry.h"
#include "histogram/histogram.h"
#include "histogram/samples.cuh"

namespace ladder::histogram::v01 {

inline constexpr VersionDoc kDoc = {
    1, "v01_global_atomics", "Global atomics: one atomicAdd to global memory per sample",
    /*technique*/
    "Every thread of a full grid takes samples with a grid-stride loop and adds 1 to its bin "
    "with atomicAdd on global memory. (`bins[x]++` from many threads would be a data race: two "
    "threads read the same count, both add one, one increment is lost. The chapter shows it; "
    "it is not registered, because it is wrong.)",
    /*changes*/ "From one thread to the whole GPU; the increment becomes an atomic.",
    /*remains*/
    "Contention: all n atomics go to 256 addresses in L2, and an atomic unit serializes the "
    "updates to one address. With one bin (the degenerate input) every atomic in the GPU "
    "queues on one address.",
    /*source*/
    "NVIDIA, CUDA C++ Programming Guide, atomic functions; the histogram section of the "
    "anonymous Chinese notes on CUDA operator optimization"};

inline constexpr unsigned kThreads = 256;

// in: n samples; bins: 256 counters, zeroed before the launch. Any grid.
template <typename T>
__global__ void global_atomic_kernel(const T* __restrict__ in, unsigned* __restrict__ bins,
                                     size_t n) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    const unsigned b = SampleTraits<T>::bin(in[i]);
    if (b < kBins) atomicAdd(&bins[b], 1u);
  }
}

inline size_t workspace_bytes(size_t) { return 0; }

template <typename T>
cudaError_t launch(const T* in, unsigned* bins, size_t n, void*, cudaStream_t stream) {
  static const size_t full = resident_grid((const void*)global_atomic_kernel<T>, kThreads, 0);
  const size_t grid = std::min(full, std::max<size_t>(1, ceil_div(n, kThreads)));
  if (cudaError_t e = cudaMemsetAsync(bins, 0, kBins * sizeof(unsigned), stream)) return e;
  global_atomic_kernel<T><<<static_cast<unsigned>(grid), kThreads, 0, stream>>>(in, bins, n);
  return cudaGetLastError();
}

}  // namespace ladder::histogram::v01
