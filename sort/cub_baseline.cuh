// sort/cub_baseline.cuh — the library baselines: cub::DeviceRadixSort (keys, pairs) and
// cub::DeviceMergeSort (keys).
//
// DeviceRadixSort is called with a 64-bit count (long long) at every n. On the H200 at
// n = 2^28 that call ran in 5.4 ms and the same call with an int count in 6.3 ms, timed side by
// side on the same keys (sort/lab/LAB_NOTES.md): CUB picks a different configuration per offset
// type. The baseline is the library's faster call, so a rung is held to the harder mark.
#pragma once

#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>

#include <climits>
#include <cstdint>

#include "common/registry.h"

namespace ladder::sort::cub_baseline {

inline constexpr VersionDoc kDoc = {
    -1, "cub", "cub::DeviceRadixSort::SortKeys (CCCL), the library baseline",
    /*technique*/
    "NVIDIA's radix sort: Onesweep on recent GPUs (one histogram pass, then one chained-scan "
    "pass per digit), tuned per architecture. Called with a 64-bit count, its faster form on "
    "the H200 (see the file's header).",
    /*changes*/ "Not a rung: the reference every rung is compared with, timed the same way.",
    /*remains*/ "Its histogram and initialisation kernels, timed with it.",
    /*source*/ "CUB, cub::DeviceRadixSort (CUDA Toolkit's CCCL); Adinets & Merrill 2022"};

inline constexpr VersionDoc kMergeDoc = {
    -1,
    "cub_merge",
    "cub::DeviceMergeSort::SortKeysCopy (CCCL), the comparison-sort baseline",
    /*technique*/ "NVIDIA's merge sort: block sorts, then merge-path merges.",
    /*changes*/ "Not a rung: the comparison sort to set beside v03.",
    /*remains*/ "log2(n / tile) merge passes over memory.",
    /*source*/ "CUB, cub::DeviceMergeSort (CUDA Toolkit's CCCL)"};

inline constexpr VersionDoc kPairsDoc = {
    -1,
    "cub",
    "cub::DeviceRadixSort::SortPairs (CCCL), the library baseline for pairs",
    /*technique*/ "As SortKeys, with a value moved beside each key; stable.",
    /*changes*/ "Not a rung: the reference for the pairs version.",
    /*remains*/ "Its histogram and initialisation kernels, timed with it.",
    /*source*/ "CUB, cub::DeviceRadixSort::SortPairs (CUDA Toolkit's CCCL)"};

// DeviceMergeSort's count: an int where n allows it, a 64-bit one beyond (DeviceRadixSort's calls
// above and below take a 64-bit count at every n; see the file's header).
template <typename F>
cudaError_t with_count(size_t n, F&& f) {
  return n <= size_t(INT_MAX) ? f(static_cast<int>(n)) : f(static_cast<long long>(n));
}

struct Less {
  __device__ bool operator()(uint32_t a, uint32_t b) const { return a < b; }
};

inline size_t workspace_bytes(size_t n) {
  size_t bytes = 0;
  cub::DeviceRadixSort::SortKeys(nullptr, bytes, static_cast<const uint32_t*>(nullptr),
                                 static_cast<uint32_t*>(nullptr), static_cast<long long>(n));
  return bytes;
}

inline cudaError_t launch(const uint32_t* in, uint32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  size_t bytes = workspace_bytes(n);
  return cub::DeviceRadixSort::SortKeys(ws, bytes, in, out, static_cast<long long>(n), 0, 32,
                                        stream);
}

inline size_t merge_workspace_bytes(size_t n) {
  size_t bytes = 0;
  with_count(n, [&](auto count) {
    return cub::DeviceMergeSort::SortKeysCopy(nullptr, bytes, static_cast<const uint32_t*>(nullptr),
                                              static_cast<uint32_t*>(nullptr), count, Less{});
  });
  return bytes;
}

inline cudaError_t launch_merge(const uint32_t* in, uint32_t* out, size_t n, void* ws,
                                cudaStream_t stream) {
  return with_count(n, [&](auto count) {
    size_t bytes = merge_workspace_bytes(n);
    return cub::DeviceMergeSort::SortKeysCopy(ws, bytes, in, out, count, Less{}, stream);
  });
}

inline size_t pairs_workspace_bytes(size_t n) {
  size_t bytes = 0;
  cub::DeviceRadixSort::SortPairs(nullptr, bytes, static_cast<const uint32_t*>(nullptr),
                                  static_cast<uint32_t*>(nullptr),
                                  static_cast<const uint32_t*>(nullptr),
                                  static_cast<uint32_t*>(nullptr), static_cast<long long>(n));
  return bytes;
}

inline cudaError_t launch_pairs(const uint32_t* keys_in, const uint32_t* vals_in,
                                uint32_t* keys_out, uint32_t* vals_out, size_t n, void* ws,
                                cudaStream_t stream) {
  size_t bytes = pairs_workspace_bytes(n);
  return cub::DeviceRadixSort::SortPairs(ws, bytes, keys_in, keys_out, vals_in, vals_out,
                                         static_cast<long long>(n), 0, 32, stream);
}

}  // namespace ladder::sort::cub_baseline
