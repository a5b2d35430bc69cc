// reduce/rows/cub_baseline.cuh — row_sum's library baseline: cub::DeviceSegmentedReduce::Sum
// with one segment per row.
#pragma once

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <climits>
#include <cstdint>
#include <cub/device/device_segmented_reduce.cuh>

#include "common/registry.h"

namespace ladder::reduce::rows::cub_baseline {

inline constexpr VersionDoc kDoc = {
    -1, "cub", "cub::DeviceSegmentedReduce::Sum, one segment per row (the library baseline)",
    /*technique*/
    "CUB's segmented reduction, the segments' offsets given as a transform of a counting "
    "iterator (row r starts at r * cols; its end is the next row's start), 32-bit offsets "
    "where the matrix fits them.",
    /*changes*/ "Not a rung: the reference the row ladder is compared with, timed the same way.",
    /*remains*/ "CUB's choice of threads per segment for the shape.",
    /*source*/ "CUB, cub::DeviceSegmentedReduce::Sum (CUDA Toolkit's CCCL)"};

template <typename Offset>
struct RowStart {
  Offset cols;
  __host__ __device__ Offset operator()(Offset r) const { return r * cols; }
};

template <typename Offset>
cudaError_t call(void* ws, size_t& bytes, const float* in, float* out, size_t rows, size_t cols,
                 cudaStream_t stream) {
  auto begin = thrust::make_transform_iterator(thrust::counting_iterator<Offset>(0),
                                               RowStart<Offset>{static_cast<Offset>(cols)});
  return cub::DeviceSegmentedReduce::Sum(ws, bytes, in, out, static_cast<int64_t>(rows), begin,
                                         begin + 1, stream);
}

inline bool fits_int(size_t rows, size_t cols) { return rows * cols <= size_t(INT_MAX); }

inline size_t workspace_bytes(size_t rows, size_t cols) {
  size_t bytes = 0;
  if (fits_int(rows, cols))
    call<int>(nullptr, bytes, nullptr, nullptr, rows, cols, nullptr);
  else
    call<int64_t>(nullptr, bytes, nullptr, nullptr, rows, cols, nullptr);
  return bytes;
}

inline cudaError_t launch(const float* in, float* out, size_t rows, size_t cols, void* ws,
                          cudaStream_t stream) {
  if (rows == 0) return cudaSuccess;
  size_t bytes = workspace_bytes(rows, cols);
  return fits_int(rows, cols) ? call<int>(ws, bytes, in, out, rows, cols, stream)
                              : call<int64_t>(ws, bytes, in, out, rows, cols, stream);
}

}  // namespace ladder::reduce::rows::cub_baseline
