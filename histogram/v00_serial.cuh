// histogram/v00_serial.cuh — histogram v00: the serial baseline, one GPU thread.
// Technique: the CPU loop on the GPU: one thread, ++bins[x[i]]; nothing races with it.
// Changes: the starting point.
// Remains (bottleneck): one thread of one SM, a dependent global read-modify-write per sample.
// Source: the histogram section of the anonymous Chinese notes on CUDA operator optimization.
#pragma once

#include <cuda_runtime.h>

#include "common/registry.h"
#include "histogram/histogram.h"
#include "histogram/samples.cuh"

namespace ladder::histogram::v00 {

inline constexpr VersionDoc kDoc = {
    0, "v00_serial", "Serial: one thread counts every sample",
    /*technique*/
    "The CPU loop on the GPU: one thread reads each sample and increments its bin. With one "
    "thread there is nothing to race with, so a plain ++ is correct.",
    /*changes*/ "The starting point.",
    /*remains*/
    "Everything: one thread of one SM, a dependent read-modify-write of global memory per "
    "sample. The rest of the GPU idles.",
    /*source*/
    "The histogram section of the anonymous Chinese notes on CUDA operator optimization"};

inline constexpr size_t kMaxN = size_t(1) << 25;

// Launch <<<1, 1>>> after zeroing bins. in: n samples; bins: 256 counters.
template <typename T>
__global__ void serial_kernel(const T* __restrict__ in, unsigned* __restrict__ bins, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const unsigned b = SampleTraits<T>::bin(in[i]);
    if (b < kBins) ++bins[b];
  }
}

inline size_t workspace_bytes(size_t) { return 0; }

template <typename T>
cudaError_t launch(const T* in, unsigned* bins, size_t n, void*, cudaStream_t stream) {
  if (cudaError_t e = cudaMemsetAsync(bins, 0, kBins * sizeof(unsigned), stream)) return e;
  serial_kernel<T><<<1, 1, 0, stream>>>(in, bins, n);
  return cudaGetLastError();
}

}  // namespace ladder::histogram::v00
