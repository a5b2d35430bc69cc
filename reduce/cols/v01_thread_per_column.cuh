// reduce/cols/v01_thread_per_column.cuh — col_sum v01: one thread per column.
// Technique: thread c walks column c from top to bottom. Unlike rows, this coalesces: at each
// step the lanes of a warp read 32 neighbouring columns of one row. Remains (bottleneck): only
// cols threads; a 64-column matrix runs on 64 threads, each with a chain of 4M dependent adds.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>

#include "common/device.h"
#include "common/registry.h"

namespace ladder::reduce::cols::v01 {

inline constexpr VersionDoc kDoc = {
    1, "v01_thread_per_column", "One thread per column, top to bottom",
    /*technique*/
    "Thread c sums column c, in a grid-stride loop over columns. At each row the lanes of a "
    "warp read 32 neighbouring floats: the loads coalesce (the row ladder's v01 did not).",
    /*changes*/ "v00's loop over columns becomes the threads.",
    /*remains*/
    "Parallelism is the number of columns: 16,384 columns make 64 blocks, one on each of half "
    "the SMs of a 132-SM GPU; 64 columns (the 'tall' shape) give 64 threads each a chain of 4M "
    "additions.",
    /*source*/
    "PaddlePaddle documentation, CUDA Kernel Primitive API (kLocalMode: each thread keeps its "
    "own result)"};

inline constexpr unsigned kThreads = 256;

__global__ void __launch_bounds__(kThreads)
    thread_per_column_kernel(const float* __restrict__ in, float* __restrict__ out, size_t rows,
                             size_t cols) {
  for (size_t c = blockIdx.x * size_t(kThreads) + threadIdx.x; c < cols;
       c += size_t(gridDim.x) * kThreads) {
    float sum = 0.0f;
    for (size_t r = 0; r < rows; ++r) sum += in[r * cols + c];
    out[c] = sum;
  }
}

inline size_t workspace_bytes(size_t, size_t) { return 0; }

inline cudaError_t launch(const float* in, float* out, size_t rows, size_t cols, void*,
                          cudaStream_t stream) {
  if (cols == 0) return cudaSuccess;
  const size_t grid =
      std::clamp<size_t>(ceil_div(cols, kThreads), 1, size_t(current_sm_count()) * 8);
  thread_per_column_kernel<<<static_cast<unsigned>(grid), kThreads, 0, stream>>>(in, out, rows,
                                                                                 cols);
  return cudaGetLastError();
}

}  // namespace ladder::reduce::cols::v01
