// reduce/cub_baseline.cuh — the library baseline: cub::DeviceReduce::Sum.
#pragma once

#include <cub/device/device_reduce.cuh>

#include <climits>

#include "common/registry.h"

namespace ladder::reduce::cub_baseline {

inline constexpr VersionDoc kDoc = {
    -1, "cub", "cub::DeviceReduce::Sum (CCCL), the library baseline",
    /*technique*/
    "NVIDIA's tuned device-wide reduction: vectorized loads, many items per thread, a grid "
    "sized for the GPU, and a second single-block kernel over the block sums.",
    /*changes*/ "Not a rung: the reference every rung is compared with, timed the same way.",
    /*remains*/ "The second launch, as in v09.",
    /*source*/ "CUB, cub::DeviceReduce::Sum (CUDA Toolkit's CCCL)"};

// CUB picks 32-bit offsets when num_items is a 32-bit type: give it that fast path whenever n
// fits, and 64-bit offsets beyond.
template <typename F>
cudaError_t with_offsets(size_t n, F&& f) {
  return n <= size_t(INT_MAX) ? f(static_cast<int>(n)) : f(n);
}

inline size_t workspace_bytes(size_t n) {
  size_t bytes = 0;
  with_offsets(n, [&](auto count) {
    return cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const float*>(nullptr),
                                  static_cast<float*>(nullptr), count);
  });
  return bytes;
}

inline cudaError_t launch(const float* in, float* out, size_t n, void* ws, cudaStream_t stream) {
  return with_offsets(n, [&](auto count) {
    size_t bytes = 0;
    cub::DeviceReduce::Sum(nullptr, bytes, in, out, count, stream);
    return cub::DeviceReduce::Sum(ws, bytes, in, out, count, stream);
  });
}

}  // namespace ladder::reduce::cub_baseline
