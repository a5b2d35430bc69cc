// elementwise/v01_one_per_thread.cuh — elementwise v01: one element per thread.
// Technique: ceil(n / 256) blocks of 256 threads; thread i computes element i, so a warp's loads
// and stores are coalesced.
// Changes from v00: the loop becomes the grid.
// Remains (bottleneck): one 2- or 4-byte load per thread, then the thread retires: too few bytes
// in flight to keep HBM busy, a million blocks to schedule at 2^28, index math per element.
// Source: CUDA C++ Programming Guide (thread hierarchy).
#pragma once

#include <cuda_runtime.h>

#include "common/device.h"
#include "common/registry.h"
#include "elementwise/ops.cuh"

namespace ladder::elementwise::v01 {

inline constexpr VersionDoc kDoc = {
    1, "v01_one_per_thread", "One element per thread, a block of 256 per 256 elements",
    /*technique*/
    "Thread i computes element i: ceil(n / 256) blocks of 256 threads, consecutive threads on "
    "consecutive elements, so every warp's loads and stores are coalesced.",
    /*changes*/ "v00's loop becomes the grid: n threads instead of one.",
    /*remains*/
    "Each thread does one element's worth of work and then retires: a million blocks at 2^28 "
    "are scheduled, index math and the bounds check are paid per element, and each load "
    "instruction moves only 2 or 4 bytes per thread.",
    /*source*/ "CUDA C++ Programming Guide (thread hierarchy)"};

inline constexpr unsigned kThreads = 256;

template <Kind K, typename T>
__global__ void one_per_thread_kernel(Args<T> a, T* __restrict__ out, size_t n) {
  const size_t i = size_t(blockIdx.x) * kThreads + threadIdx.x;
  if (i < n) out[i] = element<K>(a, i);
}

template <Kind K, typename T>
cudaError_t launch(const Args<T>& a, T* out, size_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  const auto blocks = static_cast<unsigned>(ceil_div(n, kThreads));  // < 2^31 for n < 2^39
  one_per_thread_kernel<K, T><<<blocks, kThreads, 0, stream>>>(a, out, n);
  return cudaGetLastError();
}

}  // namespace ladder::elementwise::v01
