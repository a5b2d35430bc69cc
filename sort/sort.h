// sort/sort.h — the sort problem: n uint32 keys in ascending order; and, for the best rung and
// the library, key-value pairs sorted stably by key.
//
// Host side: input generators, the reference (a radix sort on every core), the checks and the
// bytes moved. The versions live in sort/vNN_<slug>.cuh and are registered in sort/sort.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/registry.h"

namespace ladder::sort {

// The contract every keys-only launcher meets:
//   in     device pointer to n uint32 keys, 4-byte aligned; not modified
//   out    device pointer with room for n keys, 16-byte aligned, not overlapping `in`; receives
//          the keys in ascending order
//   n      number of keys (not bytes), 0 up to the version's max_n
//   ws     device workspace of workspace_bytes(n) bytes; the version resets what it keeps there
//   stream every launch and memset goes on it; the launcher never synchronizes
using Launcher = cudaError_t (*)(const uint32_t* in, uint32_t* out, size_t n, void* ws,
                                 cudaStream_t stream);
// Pairs: the same, plus values_in / values_out (n uint32 each); equal keys keep the input order
// of their values (a stable sort).
using PairsLauncher = cudaError_t (*)(const uint32_t* keys_in, const uint32_t* values_in,
                                      uint32_t* keys_out, uint32_t* values_out, size_t n, void* ws,
                                      cudaStream_t stream);
using WorkspaceFn = size_t (*)(size_t n);

// Seeded distributions:
//   "uniform"   every 32-bit key equally likely (the main benchmark input)
//   "sorted"    already ascending (uniform keys, sorted)
//   "reversed"  descending
//   "equal"     every key the same
//   "few"       low entropy: 16 distinct keys
//   "few_top"   16 values of the top 16 bits, the low 16 bits uniform: buckets of sort v16 and
//               v17 too large for a block, each holding many key values (v17 must not leave them
//               in place)
//   "few_spread"  15 keys in 16 take one of 16 values, the rest are uniform keys whose top 16
//               bits none of the 16 values has: buckets too large for a block that each hold one
//               key value (left in place on sort v17's third road) beside small buckets of several
//               values (which the bucket pass must then sort)
//   "topbit"    uniform keys with the top bit set (a signed reading would call them negative)
//   "nearly_sorted"  "sorted", then in each run of keys with equal top 16 bits the last two
//               swapped (no change where a run has one key or its last two are equal): one
//               pair out of order per bucket of sort v16, which at 25.6M keys lies past its
//               warp's first row in about half the buckets (256 x 4) or all (larger shapes),
//               where v16's order check (which stops at a warp's first row when that row is out
//               of order) must keep looking
std::vector<std::string> distributions();
// Throws std::invalid_argument for an unknown distribution, even when n is 0.
std::vector<uint32_t> generate(size_t n, const std::string& dist, uint64_t seed);
// The same keys, written to x[0, n) (which may be uninitialized) on every core.
void generate_into(uint32_t* x, size_t n, const std::string& dist, uint64_t seed);

// `keys` in ascending order: a plain LSD radix sort on every core (std::sort below 2^16 keys).
std::vector<uint32_t> reference(std::vector<uint32_t> keys);
// The same, of keys[0, n) into out[0, n) (which may be uninitialized; not overlapping keys).
void reference_into(const uint32_t* keys, size_t n, uint32_t* out);

// got[0, n) equals want[0, n) exactly. max_err = number of differing keys.
CheckResult check_keys(const uint32_t* want, size_t n, const uint32_t* got);
inline CheckResult check_keys(const std::vector<uint32_t>& want, const uint32_t* got) {
  return check_keys(want.data(), want.size(), got);
}

// Pairs sorted stably, where the input values are 0, 1, ..., n - 1 (each key's input index):
// got_keys equals want, every value is an index whose input key (keys_in) is the key beside
// it, every index appears once, and equal keys have increasing values (stability). Every array
// holds n elements.
CheckResult check_pairs(const uint32_t* keys_in, const uint32_t* want, size_t n,
                        const uint32_t* got_keys, const uint32_t* got_values);
inline CheckResult check_pairs(const std::vector<uint32_t>& keys_in,
                               const std::vector<uint32_t>& want, const uint32_t* got_keys,
                               const uint32_t* got_values) {
  return check_pairs(keys_in.data(), want.data(), want.size(), got_keys, got_values);
}

// Bytes counted: one read and one write of the keys per pass that a radix sort with 8-bit
// digits needs at least (4 passes for 32-bit keys): 32n. Pairs: 64n.
inline constexpr int kMinPasses = 4;
inline double bytes_moved(size_t n) { return 8.0 * kMinPasses * static_cast<double>(n); }
inline double bytes_moved_pairs(size_t n) { return 16.0 * kMinPasses * static_cast<double>(n); }

Operator make_operator();
Operator make_pairs_operator();

// For the tests: the four digit histograms (4 x 256 counts, hist zeroed by the caller) of
// keys[0, n) by one of the histogram kernels of the one-sweep rungs: "v06" (one copy of the
// counters per block), "v09-16" and "v09-32" (sort v09's lane-striped kernel with 16 or 32
// copies; v09 picks by the device's shared memory, so on a Hopper only the 32-copy kernel runs
// in a sort). keys: device pointer; hist: device pointer to 1,024 uint32. Synchronous. Throws
// std::invalid_argument for another name.
cudaError_t digit_histogram(const std::string& kernel, const uint32_t* keys, size_t n,
                            unsigned* hist);

}  // namespace ladder::sort
