// histogram/cub_baseline.cuh — the library baseline: cub::DeviceHistogram::HistogramEven.
#pragma once

#include <cub/device/device_histogram.cuh>

#include <climits>

#include "common/registry.h"
#include "histogram/histogram.h"

namespace ladder::histogram::cub_baseline {

inline constexpr VersionDoc kDoc = {
    -1, "cub", "cub::DeviceHistogram::HistogramEven (CCCL), the library baseline",
    /*technique*/
    "NVIDIA's device-wide histogram: 257 even levels over [0, 256) make 256 unit-wide bins; "
    "shared-memory privatized counters per block, merged into the output.",
    /*changes*/ "Not a rung: the reference every rung is compared with, timed the same way.",
    /*remains*/
    "Its general binning (levels, ranges, several channels) costs arithmetic per "
    "sample that a fixed 256-bin histogram does not need.",
    /*source*/ "CUB, cub::DeviceHistogram::HistogramEven (CUDA Toolkit's CCCL)"};

template <typename F>
cudaError_t with_offsets(size_t n, F&& f) {
  return n <= size_t(INT_MAX) ? f(static_cast<int>(n)) : f(static_cast<long long>(n));
}

template <typename T>
size_t workspace_bytes_for(size_t n) {
  size_t bytes = 0;
  with_offsets(n, [&](auto count) {
    return cub::DeviceHistogram::HistogramEven(nullptr, bytes, static_cast<const T*>(nullptr),
                                               static_cast<unsigned*>(nullptr), kBins + 1, 0, kBins,
                                               count);
  });
  return bytes;
}

template <typename T>
cudaError_t launch(const T* in, unsigned* bins, size_t n, void* ws, cudaStream_t stream) {
  return with_offsets(n, [&](auto count) {
    size_t bytes = 0;
    cub::DeviceHistogram::HistogramEven(nullptr, bytes, in, bins, kBins + 1, 0, kBins, count,
                                        stream);
    return cub::DeviceHistogram::HistogramEven(ws, bytes, in, bins, kBins + 1, 0, kBins, count,
                                               stream);
  });
}

}  // namespace ladder::histogram::cub_baseline
