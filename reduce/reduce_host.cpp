// reduce/reduce_host.cpp — CPU side of the reduce problem: generators, reference, check.
#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "common/parallel.h"
#include "reduce/reduce.h"

namespace ladder::reduce {

std::vector<std::string> distributions() {
  return {"uniform", "ones", "small_ints", "large", "one_per_256"};
}

void fill(float* x, size_t count, const std::string& dist, SplitMix64& rng, size_t first) {
  if (dist == "uniform") {
    parallel_draws(rng, x, count,
                   [](uint64_t d) { return 2.0f * SplitMix64::unit_float_of(d) - 1.0f; });
  } else if (dist == "ones") {
    for (size_t i = 0; i < count; ++i) x[i] = 1.0f;
  } else if (dist == "small_ints") {
    parallel_draws(rng, x, count, [](uint64_t d) {
      return static_cast<float>(SplitMix64::uniform_int_of(d, -8, 8));
    });
  } else if (dist == "large") {
    parallel_draws(rng, x, count,
                   [](uint64_t d) { return (2.0f * SplitMix64::unit_float_of(d) - 1.0f) * 1e28f; });
  } else if (dist == "one_per_256") {
    // The group's 1.0 sits where the draw of its first element points; the draw is looked up
    // (peek) rather than remembered, so a piece may start in the middle of a group.
    parallel_for(count, [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) {
        const size_t in_group = (first + i) % 256;
        const int64_t group_start = static_cast<int64_t>(i) - static_cast<int64_t>(in_group);
        x[i] = rng.peek(group_start) % 256 == in_group ? 1.0f : 0.0f;
      }
    });
    rng.skip(count);
  } else {
    throw std::invalid_argument("reduce: unknown distribution '" + dist + "'");
  }
}

std::vector<float> generate(size_t n, const std::string& dist, uint64_t seed) {
  std::vector<float> x(n);
  SplitMix64 rng(seed);
  fill(x.data(), n, dist, rng);
  return x;
}

// On every core: fixed chunks of 2^20 elements (whatever the core count, so the result is the
// same on every machine), each summed in order, and the chunks' sums added in order.
void accumulate(Reference& r, const float* x, size_t n) {
  constexpr size_t kChunk = size_t(1) << 20;
  const size_t chunks = (n + kChunk - 1) / kChunk;
  std::vector<Reference> part(chunks);
  parallel_for(
      chunks,
      [&](size_t cb, size_t ce) {
        for (size_t c = cb; c < ce; ++c) {
          Reference& p = part[c];
          for (size_t i = c * kChunk; i < std::min(n, (c + 1) * kChunk); ++i) {
            const double v = x[i];
            p.sum += v;
            p.abs_sum += std::fabs(v);
            if (p.integer_valued && v != std::floor(v)) p.integer_valued = false;
          }
        }
      },
      1);
  for (const Reference& p : part) {
    r.sum += p.sum;
    r.abs_sum += p.abs_sum;
    r.integer_valued = r.integer_valued && p.integer_valued;
  }
}

Reference reference(const float* x, size_t n) {
  Reference r;
  accumulate(r, x, n);
  return r;
}

double tolerance(const Reference& ref) {
  constexpr double kExactLimit = 16777216.0;  // 2^24
  if (ref.integer_valued && ref.abs_sum <= kExactLimit) return 0.0;
  return std::ldexp(ref.abs_sum, -16);
}

CheckResult check_sum(float got, const Reference& ref) {
  CheckResult c;
  const double err = std::fabs(static_cast<double>(got) - ref.sum);
  const double tol = tolerance(ref);
  c.max_err = ref.abs_sum > 0 ? err / ref.abs_sum : err;
  c.ok = std::isfinite(got) && err <= tol;
  if (!c.ok) {
    std::ostringstream msg;
    msg.precision(9);
    msg << "index 0: got " << got << ", want " << ref.sum << " (|error| " << err << " > tolerance "
        << tol << ", sum|x| " << ref.abs_sum << ")";
    c.message = msg.str();
  }
  return c;
}

}  // namespace ladder::reduce
