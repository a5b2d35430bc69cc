// reduce/reduce.h — the reduce problem: sum of n float32 values.
//
// Host side: input generators, the double-precision reference, the check and the bytes moved.
// The versions themselves live in reduce/vNN_<slug>.cuh and are registered in reduce/reduce.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/random.h"
#include "common/registry.h"

namespace ladder::reduce {

// The contract every reduce version's launcher meets:
//   in     device pointer to n floats; 4-byte aligned (16-byte alignment is NOT assumed)
//   out    device pointer to one float that receives the sum; 0.0f when n == 0
//   n      number of elements (not bytes), any value from 0 to the version's max_n
//   ws     device workspace of workspace_bytes(n) bytes. The harness zero-fills it once when it
//          allocates it; a version that keeps state there (a counter) must leave it zeroed.
//   stream every launch goes on it; the launcher never synchronizes
// Returns the launch error (cudaGetLastError after the launches), cudaSuccess otherwise.
using Launcher = cudaError_t (*)(const float* in, float* out, size_t n, void* ws,
                                 cudaStream_t stream);
using WorkspaceFn = size_t (*)(size_t n);

// Seeded input distributions (never all zeros):
//   "uniform"    uniform in [-1, 1]                       (the benchmark input)
//   "ones"       every element 1.0f
//   "small_ints" integers uniform in [-8, 8]
//   "large"      uniform in [-1e28, 1e28]: magnitudes where any absolute tolerance breaks
//   "one_per_256" every aligned group of 256 elements (indices 256k .. 256k + 255) holds one
//                1.0 at a seeded position and zeros elsewhere. The sum is an integer and
//                sum|x| = ceil(n / 256) <= 2^24 up to n = 2^32, so the check is exact at every
//                size the suite runs: a lost or repeated group of 256 changes the sum by at
//                least 1 and fails, where the uniform input's tolerance would let a million
//                elements go missing at 2^28.
std::vector<std::string> distributions();
std::vector<float> generate(size_t n, const std::string& dist, uint64_t seed);
// The same stream in pieces: fills x[0, count) with the next `count` values of `dist` drawn from
// `rng` (one draw per element), x[0] being element `first` of the whole array, so that
// consecutive calls reproduce generate(). Throws std::invalid_argument for an unknown
// distribution, even when count is 0.
void fill(float* x, size_t count, const std::string& dist, SplitMix64& rng, size_t first = 0);

struct Reference {
  double sum = 0;              // sum in double precision
  double abs_sum = 0;          // sum of |x|: the scale of the rounding error of any summation order
  bool integer_valued = true;  // every x is an integer
};
Reference reference(const float* x, size_t n);
// Adds x[0, n) to a running reference: reference() of a whole array, one piece at a time.
void accumulate(Reference& ref, const float* x, size_t n);

// The error a float32 sum may make, whatever its summation order:
//  - integer inputs whose sum of |x| is at most 2^24: zero. Every partial sum is then an integer
//    of magnitude <= 2^24, exactly representable, so every addition is exact. This is what
//    catches a dropped or doubled element ("one_per_256" stays in this case at every size).
//  - otherwise 2^-16 * sum|x|: the worst-case bound d * u * sum|x| (u = 2^-24) for a summation
//    tree of depth d <= 256. It does not grow with n.
double tolerance(const Reference& ref);

// Compares a GPU result with the reference. max_err = |got - want| / sum|x| (0 when exact).
// NaN or Inf never passes.
CheckResult check_sum(float got, const Reference& ref);

// Minimal traffic: each input read once (4n bytes); the one-float result is negligible.
inline double bytes_moved(size_t n) { return 4.0 * static_cast<double>(n); }

Operator make_operator();

// The ladder's top rung and the CUB call, for other chapters (the host-memory sums of the
// elementwise chapter's transfer section), under the Launcher contract above.
cudaError_t best_sum(const float* in, float* out, size_t n, void* ws, cudaStream_t stream);
size_t best_sum_workspace_bytes(size_t n);
cudaError_t cub_sum(const float* in, float* out, size_t n, void* ws, cudaStream_t stream);
size_t cub_sum_workspace_bytes(size_t n);

}  // namespace ladder::reduce
