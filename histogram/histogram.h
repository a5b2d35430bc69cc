// histogram/histogram.h — the histogram problem: counts of n samples in 256 bins.
//
// Two sample types, registered as two operators over the same version files:
//   "histogram"     int32 samples; bin b counts the samples equal to b, 0 <= b < 256; samples
//                   outside [0, 256) are not counted (as cub::DeviceHistogram::HistogramEven)
//   "histogram_u8"  uint8 samples; every byte value is a bin
// Host side: generators, reference, check, bytes moved. Versions: histogram/vNN_<slug>.cuh.
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/random.h"
#include "common/registry.h"

namespace ladder::histogram {

inline constexpr int kBins = 256;

// The contract every histogram version's launcher meets, for T = int32_t or uint8_t:
//   in     device pointer to n samples, aligned to sizeof(T) (16-byte alignment not assumed)
//   bins   device pointer to 256 uint32 counters; the version overwrites them (it zeroes them
//          itself, on the stream), so whatever they held before does not matter
//   n      number of samples (not bytes); a bin's count must fit in uint32
//   ws     device workspace of workspace_bytes(n) bytes, zero-filled once when allocated
//   stream every launch and memset goes on it; the launcher never synchronizes
template <typename T>
using Launcher = cudaError_t (*)(const T* in, unsigned* bins, size_t n, void* ws,
                                 cudaStream_t stream);
using WorkspaceFn = size_t (*)(size_t n);

// Seeded distributions (never all zeros), for T = int32_t or uint8_t:
//   "uniform"       every bin equally likely                     (the main benchmark input)
//   "skewed"        90% of samples in 4 hot bins (3, 64, 65, 200), the rest uniform
//   "degenerate"    every sample is 7: one bin, the contention stress test
// and for int32 samples only (tested, not benchmarked):
//   "out_of_range"  three samples in four outside [0, 256): -1, 256, INT_MIN, INT_MAX and
//                   random values below 0 or above 256, which every version ignores (as CUB
//                   does); the rest uniform in [0, 256)
template <typename T>
std::vector<std::string> distributions();
template <typename T>
void fill(T* x, size_t count, const std::string& dist, SplitMix64& rng);
template <typename T>
std::vector<T> generate(size_t n, const std::string& dist, uint64_t seed);

using Counts = std::array<uint64_t, kBins>;
template <typename T>
void accumulate(Counts& counts, const T* x, size_t n);  // the CPU reference, piece by piece

// Exact comparison. max_err = number of bins that differ; the message names the first one.
CheckResult check_bins(const unsigned* got, const Counts& want);

// Minimal traffic: every sample read once; the 1 KiB of bins is negligible.
template <typename T>
double bytes_moved(size_t n) {
  return static_cast<double>(sizeof(T)) * static_cast<double>(n);
}

Operator make_operator_i32();
Operator make_operator_u8();

}  // namespace ladder::histogram
