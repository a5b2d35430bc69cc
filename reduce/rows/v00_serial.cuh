// reduce/rows/v00_serial.cuh — row_sum v00: the serial baseline, one GPU thread.
#pragma once

#include <cuda_runtime.h>

#include "common/registry.h"

namespace ladder::reduce::rows::v00 {

inline constexpr VersionDoc kDoc = {
    0, "v00_serial", "Serial: one thread sums every row",
    /*technique*/ "One GPU thread walks the matrix row by row, the CPU loop run on the GPU.",
    /*changes*/ "The starting point.",
    /*remains*/ "Everything: one thread of one SM does all the work.",
    /*source*/
    "The CPU loop; the reduction along an axis of the PaddlePaddle documentation, "
    "CUDA Kernel Primitive API"};

// Elements. Tests only: at the benchmark sizes one thread would take about a second a launch
// (reduce v00 at 25.6M), times four shapes, for a rung whose lesson needs no timing.
inline constexpr size_t kMaxN = size_t(1) << 22;

__global__ void serial_kernel(const float* __restrict__ in, float* __restrict__ out, size_t rows,
                              size_t cols) {
  for (size_t r = 0; r < rows; ++r) {
    float sum = 0.0f;
    for (size_t c = 0; c < cols; ++c) sum += in[r * cols + c];
    out[r] = sum;
  }
}

inline size_t workspace_bytes(size_t, size_t) { return 0; }

inline cudaError_t launch(const float* in, float* out, size_t rows, size_t cols, void*,
                          cudaStream_t stream) {
  if (rows == 0) return cudaSuccess;
  serial_kernel<<<1, 1, 0, stream>>>(in, out, rows, cols);
  return cudaGetLastError();
}

}  // namespace ladder::reduce::rows::v00
