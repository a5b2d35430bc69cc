// reduce/rows/v01_thread_per_row.cuh — row_sum v01: one thread per row.
// Technique: thread r sums row r alone. Remains (bottleneck): uncoalesced loads — the 32 lanes
// of a warp read 32 different rows, cols * 4 bytes apart, so each load instruction touches 32
// sectors for 128 useful bytes; and a shape with few rows leaves most of the GPU idle.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>

#include "common/device.h"
#include "common/registry.h"

namespace ladder::reduce::rows::v01 {

inline constexpr VersionDoc kDoc = {
    1, "v01_thread_per_row", "One thread per row",
    /*technique*/
    "The obvious parallelisation: thread r sums row r, in a grid-stride loop over rows.",
    /*changes*/ "v00's loop over rows becomes the threads.",
    /*remains*/
    "The loads do not coalesce: at a given step the lanes of a warp read element c of 32 "
    "different rows, one 32-byte sector each for 4 useful bytes. And a matrix of 64 rows (the "
    "'wide' shape) runs on 64 threads.",
    /*source*/
    "PaddlePaddle documentation, CUDA Kernel Primitive API (kLocalMode: each thread keeps its "
    "own result)"};

inline constexpr unsigned kThreads = 256;

__global__ void __launch_bounds__(kThreads)
    thread_per_row_kernel(const float* __restrict__ in, float* __restrict__ out, size_t rows,
                          size_t cols) {
  for (size_t r = blockIdx.x * size_t(kThreads) + threadIdx.x; r < rows;
       r += size_t(gridDim.x) * kThreads) {
    float sum = 0.0f;
    for (size_t c = 0; c < cols; ++c) sum += in[r * cols + c];
    out[r] = sum;
  }
}

inline size_t workspace_bytes(size_t, size_t) { return 0; }

inline cudaError_t launch(const float* in, float* out, size_t rows, size_t cols, void*,
                          cudaStream_t stream) {
  if (rows == 0) return cudaSuccess;
  const size_t grid =
      std::clamp<size_t>(ceil_div(rows, kThreads), 1, size_t(current_sm_count()) * 8);
  thread_per_row_kernel<<<static_cast<unsigned>(grid), kThreads, 0, stream>>>(in, out, rows, cols);
  return cudaGetLastError();
}

}  // namespace ladder::reduce::rows::v01
