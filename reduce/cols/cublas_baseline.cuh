// reduce/cols/cublas_baseline.cuh — col_sum's library baseline: cuBLAS sgemv with a vector of
// ones (the row-major rows x cols matrix is a column-major cols x rows one; its product with
// ones(rows) is the column sums).
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <climits>
#include <mutex>

#include "common/registry.h"

namespace ladder::reduce::cols::cublas_baseline {

inline constexpr VersionDoc kDoc = {
    -1, "cublas_gemv", "cuBLAS sgemv with a vector of ones (the library baseline)",
    /*technique*/
    "Column sums as a matrix-vector product: the row-major matrix read as a column-major "
    "cols x rows matrix A (lda = cols), y = A * ones(rows), cublasSgemv with CUBLAS_OP_N. The "
    "ones vector is made once and kept, as a user would keep it; the handle too.",
    /*changes*/ "Not a rung: the reference the column ladder is compared with, timed the same way.",
    /*remains*/ "gemv's general shape handling (alpha, beta, any vector) for a sum.",
    /*source*/
    "cuBLAS (CUDA Toolkit), cublasSgemv, called as the anonymous Chinese article A review of "
    "CUDA basics (CUDA基础知识梳理) describes the toolkit's libraries. CUB has no column "
    "reduction: cub::DeviceSegmentedReduce over a strided iterator reads each column with a "
    "stride"};

namespace detail {
__global__ void fill_ones(float* p, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    p[i] = 1.0f;
}
struct State {
  cublasHandle_t handle = nullptr;
  float* ones = nullptr;
  size_t ones_size = 0;
};
inline State& state() {
  static State s;
  return s;
}
}  // namespace detail

inline size_t workspace_bytes(size_t, size_t) { return 0; }

// rows and cols at most INT_MAX (cuBLAS's int dimensions). Errors: cudaErrorNotSupported past
// that; cudaErrorUnknown when cuBLAS reports a failure; else the fill's or the memory's.
inline cudaError_t launch(const float* in, float* out, size_t rows, size_t cols, void*,
                          cudaStream_t stream) {
  if (cols == 0) return cudaSuccess;
  if (rows > size_t(INT_MAX) || cols > size_t(INT_MAX)) return cudaErrorNotSupported;
  if (rows == 0) return cudaMemsetAsync(out, 0, cols * sizeof(float), stream);
  detail::State& s = detail::state();
  if (!s.handle && cublasCreate(&s.handle) != CUBLAS_STATUS_SUCCESS) return cudaErrorUnknown;
  if (s.ones_size < rows) {  // made once per size, outside any later timed launch
    if (s.ones) cudaFree(s.ones);
    s.ones = nullptr;
    s.ones_size = 0;
    cudaError_t e = cudaMalloc(&s.ones, rows * sizeof(float));
    if (e != cudaSuccess) return e;
    detail::fill_ones<<<1024, 256, 0, stream>>>(s.ones, rows);
    if ((e = cudaGetLastError()) != cudaSuccess) return e;
    s.ones_size = rows;
  }
  if (cublasSetStream(s.handle, stream) != CUBLAS_STATUS_SUCCESS) return cudaErrorUnknown;
  const float one = 1.0f, zero = 0.0f;
  const cublasStatus_t st =
      cublasSgemv(s.handle, CUBLAS_OP_N, static_cast<int>(cols), static_cast<int>(rows), &one, in,
                  static_cast<int>(cols), s.ones, 1, &zero, out, 1);
  return st == CUBLAS_STATUS_SUCCESS ? cudaGetLastError() : cudaErrorUnknown;
}

}  // namespace ladder::reduce::cols::cublas_baseline
