// copy_if/copy_if.h — the copy_if problem (stream compaction): keep the int32 values x > 0.
//
// Host side: input generators, the checks and the bytes moved. The versions live in
// copy_if/vNN_<slug>.cuh and are registered in copy_if/copy_if.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/registry.h"

namespace ladder::copy_if {

// The contract every copy_if version's launcher meets:
//   in     device pointer to n int32 values, 4-byte aligned (16-byte alignment NOT assumed)
//   out    device pointer with room for n int32 values, 16-byte aligned, not overlapping `in`.
//          Receives the kept values (x > 0) in out[0, count). Ordered versions keep input order
//          (out equals std::copy_if's); unordered versions write the same multiset in any order.
//   count  device pointer to one unsigned long long: receives the number kept. The version
//          writes it on the stream; the caller copies it back (cudaMemcpyAsync) to size the
//          result, as a user of cub::DeviceSelect::If does with its num_selected.
//   n      number of elements (not bytes), 0 up to the version's max_n
//   ws     device workspace of workspace_bytes(n) bytes, zero-filled once when allocated. A
//          version that keeps state there (tile status, a counter) resets it itself, on the
//          stream, before it relies on it, or leaves it at the end of each call as its next call
//          needs it (v09, v10). Between calls only the same version writes it, for any sequence of
//          n whose workspace_bytes(n) fit, one call at a time in stream order; after a launch that
//          did not complete, it is zeroed again.
//   stream every launch and memset goes on it; the launcher never synchronizes
// Returns the launch error (cudaGetLastError after the launches), cudaSuccess otherwise.
using Launcher = cudaError_t (*)(const int32_t* in, int32_t* out, unsigned long long* count,
                                 size_t n, void* ws, cudaStream_t stream);
using WorkspaceFn = size_t (*)(size_t n);

// The launcher and workspace size of the registered copy_if version whose slug is `slug` (its
// VersionDoc's), for the tests that drive one workspace through several sizes. Throws
// std::invalid_argument for a slug that names no registered version.
struct RawVersion {
  Launcher launch = nullptr;
  WorkspaceFn workspace_bytes = nullptr;
};
RawVersion raw_version(const std::string& slug);

// v10's group sums (copy_if/v10_group_sums.cuh), for the test that reads them in a workspace: the
// header's bytes (4-byte words: claim counter, epoch, then the groups last written into array 0
// and array 1), the 8-byte words of each group array (array a's first word at header_bytes + a *
// array_words * 8), the stride of its words (group g's word at index g * stride: high half its
// arrivals, low half their counts' sum), the tiles a group and the elements a tile.
struct GroupSumsLayout {
  size_t header_bytes, array_words, stride, group_tiles, tile_elements;
};
GroupSumsLayout group_sums_layout();

// The predicate every version applies (host and device: this header is read by both compilers).
#if defined(__CUDACC__)
#define LADDER_COPY_IF_HD __host__ __device__
#else
#define LADDER_COPY_IF_HD
#endif
struct KeepPositive {
  LADDER_COPY_IF_HD bool operator()(int32_t x) const { return x > 0; }
};

// Seeded input distributions. Except in "boundary", kept values are in [1, 2^30] and dropped
// ones in [-(2^30 - 1), 0] (zero is dropped):
//   "keep50", "keep1", "keep99"  each element kept with probability 1/2, 1/100, 99/100
//   "none"                        nothing kept
//   "all"                         everything kept
//   "boundary"                    only the predicate's edge values: 0, 1, -1, INT_MIN and
//                                 INT_MAX, equally likely (2 in 5 kept)
// Benchmarks run the first three; tests run all six.
std::vector<std::string> distributions();
// Throws std::invalid_argument for an unknown distribution, even when n is 0.
std::vector<int32_t> generate(size_t n, const std::string& dist, uint64_t seed);

// The reference: std::copy_if with KeepPositive.
std::vector<int32_t> reference(const std::vector<int32_t>& in);

// Ordered check: got[0, count) equals want exactly (count == want.size() is checked first).
// max_err = number of differing elements.
CheckResult check_ordered(const std::vector<int32_t>& want, const int32_t* got, size_t count);

// Unordered check: the same count, every value satisfies the predicate, and got[0, count) is
// the multiset `want`. Exact (both sorted, by a radix sort on every core, and compared) when
// count <= kExactMultiset; above that the multisets are compared by two independent order-free
// 64-bit fingerprints (sums of a mixing hash of each value), which differ for a wrong multiset
// except with probability about 2^-64 each. `want_sorted`, if given, is `want` in ascending
// order (the benchmark sorts each reference once); otherwise it is sorted here. `got` is not
// modified.
inline constexpr size_t kExactMultiset = size_t(1) << 25;
CheckResult check_unordered(const std::vector<int32_t>& want, const int32_t* got, size_t count,
                            const int32_t* want_sorted = nullptr);
// `want` in ascending order (its values are kept ones, so positive): what check_unordered
// compares a sorted output with.
std::vector<int32_t> sorted_values(const std::vector<int32_t>& want);

// Minimal traffic for an input with `kept` values kept: 4n read, 4 kept written, and the
// 8-byte count.
inline double bytes_moved(size_t n, size_t kept) {
  return 4.0 * static_cast<double>(n) + 4.0 * static_cast<double>(kept) + 8.0;
}

Operator make_operator();

}  // namespace ladder::copy_if
