// elementwise/v00_serial.cuh — elementwise v00: the serial baseline, one GPU thread.
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
    /*source*/ "seed 002 §3.4 (CPU_fused_kernel), seed 000 (elementwise add)"};

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
