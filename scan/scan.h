// scan/scan.h — the scan problem: inclusive prefix sum of n int32 values,
// out[i] = in[0] + in[1] + ... + in[i].
//
// Host side: input generators, the check and the bytes moved. The versions live in
// scan/vNN_<slug>.cuh and are registered in scan/scan.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/registry.h"

namespace ladder::scan {

// The contract every scan version's launcher meets:
//   in     device pointer to n int32 values, 4-byte aligned (16-byte alignment NOT assumed)
//   out    device pointer to n int32 values, 16-byte aligned, not overlapping `in`; receives the
//          inclusive prefix sums. Integer addition is exact, so every version must match the CPU
//          reference bit for bit.
//   n      number of elements (not bytes), 0 up to the version's max_n
//   ws     device workspace of workspace_bytes(n) bytes, zero-filled once when allocated. A
//          version that keeps state there (tile status, a counter) resets it itself, on the
//          stream, before it relies on it, or leaves it at the end of each call as its next call
//          needs it (v18). Between calls only the same version writes it, for any sequence of n
//          whose workspace_bytes(n) fit, one call at a time in stream order; after a launch that
//          did not complete, it is zeroed again.
//   stream every launch and memset goes on it; the launcher never synchronizes
// Returns the launch error (cudaGetLastError after the launches), cudaSuccess otherwise.
using Launcher = cudaError_t (*)(const int32_t* in, int32_t* out, size_t n, void* ws,
                                 cudaStream_t stream);
using WorkspaceFn = size_t (*)(size_t n);

// Seeded input distributions. Values are chosen so that no prefix sum leaves the int32 range at
// any size the suite runs (the check verifies this and fails loudly if it ever does):
//   "small_signed"  uniform integers in [-8, 8]: a random walk, |prefix| ~ 5 sqrt(n), about
//                   2.3e5 at n = 2^31 (the benchmark input)
//   "ones"          every element 1: out[i] = i + 1, exact up to n = 2^31 - 1
//   "one_hot"       all zeros but one element, a value in [1, 1000] at a seeded position: an
//                   off-by-one in a carry shows up as a step in the wrong place
std::vector<std::string> distributions();
// Throws std::invalid_argument for an unknown distribution, even when n is 0.
std::vector<int32_t> generate(size_t n, const std::string& dist, uint64_t seed);

// Compares got[0, count) with the inclusive scan of in[0, count), continuing a running sum
// `carry` (the sum of everything before this piece; updated). `base` is the index of got[0] in
// the whole output, for messages. max_err = number of mismatching elements in the piece.
CheckResult check_piece(const int32_t* in, const int32_t* got, size_t count, size_t base,
                        int64_t& carry);

// Minimal traffic: each input read once and each output written once (8n bytes).
inline double bytes_moved(size_t n) { return 8.0 * static_cast<double>(n); }

Operator make_operator();

// The launcher and workspace size of the registered scan version whose slug is `slug` (its
// VersionDoc's), for the tests that drive one workspace through several sizes. Throws
// std::invalid_argument for a slug that names no registered version.
struct RawVersion {
  Launcher launch = nullptr;
  WorkspaceFn workspace_bytes = nullptr;
};
RawVersion raw_version(const std::string& slug);

// The scan ladder's single-pass scan (v13) for other ladders (copy_if v04), under the Launcher
// contract above. Defined in scan.cu, so other translation units need not include its kernels.
cudaError_t lookback_scan(const int32_t* in, int32_t* out, size_t n, void* ws, cudaStream_t stream);
size_t lookback_scan_workspace_bytes(size_t n);

}  // namespace ladder::scan
