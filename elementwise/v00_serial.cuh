// elementwise/v00_serial.cuh — elementwise v00: the serial baseline, one GPU thread.
// Technique: the CPU loop run by one thread: out[i] = f(inputs at i) for i = 0, 1, ..., n - 1.
// Changes: the starting point.
// Remains (bottleneck): everything. One thread keeps only a few loads in flight; tested, not
// benchmarked at the ladder sizes.
// Source: the CPU reference of the fused kernel in the anonymous Chinese notes on CUDA operator
// optimization (section 3.4); the ElementwiseAdd example of PaddlePaddle's CUDA Kernel Primitive
// API documentation.
#pragma once

#include <cuda_runtime.h>

#include "common/registry.h"
#include "elementwise/ops.cuh"

namespace ladder::elementwise::v00 {

inline constexpr VersionDoc kDoc = {
    0, "v00_serial", "Serial: one thread computes every element",
    /*technique*/ "The CPU loop run by one GPU thread: out[i] = f(inputs at i), i = 0, 1, ...",
    /*changes*/ "The starting point.",
    /*remains*/
    "Everything: one thread, one element at a time, a memory latency every few elements. It is "
    "tested but not benchmarked at the ladder size (reduce v00 already shows that cost).",
    /*source*/
    "Anonymous, Chinese notes on CUDA operator optimization, section 3.4 (the fused kernel's CPU "
    "reference); PaddlePaddle, CUDA Kernel Primitive API documentation (the ElementwiseAdd "
    "example)"};

// Largest n it runs at: tests only (the benchmark sizes are larger).
inline constexpr size_t kMaxN = size_t(1) << 21;

template <Kind K, typename T>
__global__ void serial_kernel(Args<T> a, T* __restrict__ out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = element<K>(a, i);
}

template <Kind K, typename T>
cudaError_t launch(const Args<T>& a, T* out, size_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  serial_kernel<K, T><<<1, 1, 0, stream>>>(a, out, n);
  return cudaGetLastError();
}

}  // namespace ladder::elementwise::v00
