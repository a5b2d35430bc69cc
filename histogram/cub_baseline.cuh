// histogram/cub_baseline.cuh — the library baselines: cub::DeviceHistogram::HistogramEven with
// float levels (the headline) and, for int32 samples, with int levels (what the level type costs).
#pragma once

#include <cub/device/device_histogram.cuh>

#include <climits>

#include "common/registry.h"
#include "histogram/histogram.h"

namespace ladder::histogram::cub_baseline {

inline constexpr VersionDoc kDoc = {
    -1, "cub", "cub::DeviceHistogram::HistogramEven, float levels (CCCL), the library baseline",
    /*technique*/
    "NVIDIA's device-wide histogram: 257 even levels 0.f, 1.f, ..., 256.f make 256 unit-wide "
    "bins; shared-memory privatized counters per block, merged into the output. Why float "
    "levels: CUB bins a sample in the common type of sample and level. With int levels and "
    "int32 samples that is a 64-bit integer multiply and divide per sample, (x - lo) * bins / "
    "(hi - lo) (dispatch_histogram.cuh, ScaleTransform::ComputeBin); with float levels it is "
    "one conversion and a multiply by a precomputed reciprocal (here 1.0f). Every int32 "
    "converts to a float on the same side of 0 and 256, and 0..255 convert exactly, so the "
    "counts are identical. For uint8 samples CUB bins the byte itself (a pass-through "
    "decode) and the level type only maps 256 privatized bins to the output once per block.",
    /*changes*/ "Not a rung: the reference every rung is compared with, timed the same way.",
    /*remains*/
    "Its general binning (levels, ranges, several channels): a conversion and a multiply per "
    "int32 sample that a fixed 256-bin histogram does not need.",
    /*source*/ "CUB, cub::DeviceHistogram::HistogramEven (CUDA Toolkit's CCCL)"};

inline constexpr VersionDoc kIntLevelsDoc = {
    -1, "cub_int_levels", "cub::DeviceHistogram::HistogramEven with int levels 0 and 256",
    /*technique*/
    "The same call with the levels given as int, as the samples are: CUB then bins in 64-bit "
    "integer arithmetic, (x - lo) * bins / (hi - lo), a 64-bit division per sample.",
    /*changes*/
    "Not a rung and not the headline: the natural-looking call, kept to show what the level "
    "type costs. `cub` is the same call with float levels.",
    /*remains*/ "A 64-bit integer division per sample: arithmetic, not memory, bounds it.",
    /*source*/ "CUB, cub::DeviceHistogram::HistogramEven; dispatch_histogram.cuh (ScaleTransform)"};

template <typename F>
cudaError_t with_offsets(size_t n, F&& f) {
  return n <= size_t(INT_MAX) ? f(static_cast<int>(n)) : f(static_cast<long long>(n));
}

// Level is the type of the lower and upper level: float (the headline) or int.
template <typename T, typename Level>
cudaError_t call(void* ws, size_t& bytes, const T* in, unsigned* bins, size_t n,
                 cudaStream_t stream) {
  return with_offsets(n, [&](auto count) {
    return cub::DeviceHistogram::HistogramEven(ws, bytes, in, bins, kBins + 1, Level(0),
                                               Level(kBins), count, stream);
  });
}

template <typename T, typename Level = float>
size_t workspace_bytes_for(size_t n) {
  size_t bytes = 0;
  call<T, Level>(nullptr, bytes, static_cast<const T*>(nullptr), nullptr, n, 0);
  return bytes;
}

template <typename T, typename Level = float>
cudaError_t launch(const T* in, unsigned* bins, size_t n, void* ws, cudaStream_t stream) {
  size_t bytes = 0;
  call<T, Level>(nullptr, bytes, in, bins, n, stream);
  return call<T, Level>(ws, bytes, in, bins, n, stream);
}

}  // namespace ladder::histogram::cub_baseline
