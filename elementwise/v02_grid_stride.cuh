// elementwise/v02_grid_stride.cuh — elementwise v02: a grid-stride loop over resident blocks.
// Technique: launch only the blocks that fit on the GPU at once; each thread steps through the
// array by the grid's size, coalesced at every step.
// Changes from v01: one-shot threads become loops; the grid no longer grows with n.
// Remains (bottleneck): each load is still 2 or 4 bytes per thread, at most 128 bytes per warp
// instruction, so it takes many instructions in flight to keep HBM busy.
// Source: Mark Harris, "CUDA Pro Tip: Write Flexible Kernels with Grid-Stride Loops" (NVIDIA
// Developer Blog, 2013); the fp32 fused kernel of the Chinese notes on CUDA operator optimization
// is such a loop.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>

#include "common/device.h"
#include "common/registry.h"
#include "elementwise/ops.cuh"

namespace ladder::elementwise::v02 {

inline constexpr VersionDoc kDoc = {
    2, "v02_grid_stride", "Grid-stride loop: one wave of blocks walks the whole array",
    /*technique*/
    "Launch only as many blocks as fit on the GPU at once; each thread steps through the array "
    "by the grid's size (gridDim.x * blockDim.x), staying coalesced at every step.",
    /*changes*/ "v01's one-shot threads become loops; the grid no longer grows with n.",
    /*remains*/
    "Each load is still 2 or 4 bytes per thread: at most 128 bytes per warp instruction, so it "
    "takes many instructions (and many in flight) to keep HBM busy.",
    /*source*/
    "Mark Harris, 'CUDA Pro Tip: Write Flexible Kernels with Grid-Stride Loops', NVIDIA "
    "Developer Blog, 2013"};

inline constexpr unsigned kThreads = 256;

template <Kind K, typename T>
__global__ void grid_stride_kernel(Args<T> a, T* __restrict__ out, size_t n) {
  const size_t stride = size_t(gridDim.x) * kThreads;
  for (size_t i = size_t(blockIdx.x) * kThreads + threadIdx.x; i < n; i += stride)
    out[i] = element<K>(a, i);
}

template <Kind K, typename T>
cudaError_t launch(const Args<T>& a, T* out, size_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  static const size_t resident = resident_grid((const void*)grid_stride_kernel<K, T>, kThreads, 0);
  const size_t grid = std::clamp<size_t>(ceil_div(n, kThreads), 1, resident);
  grid_stride_kernel<K, T><<<static_cast<unsigned>(grid), kThreads, 0, stream>>>(a, out, n);
  return cudaGetLastError();
}

}  // namespace ladder::elementwise::v02
