// common/random.h — the seeded generator every operator's inputs come from.
//
// SplitMix64 (Steele, Lea & Flood, 2014): one 64-bit state, statistically sound for test data,
// and fast enough to fill 2^28 elements in about a second. The same seed gives the same input on
// every machine, so a failure reproduces.
#pragma once

#include <cstdint>

namespace ladder {

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // SplitMix64 is counter-based: draw k is a function of the state and k alone. peek(k) is the
  // value the (k+1)-th next() from now returns (peek(0) is the next one; negative k looks back
  // at draws already made), without advancing; skip(k) advances as k calls of next() would.
  uint64_t peek(int64_t k) const {
    uint64_t z = state_ + static_cast<uint64_t>(k + 1) * 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  void skip(uint64_t k) { state_ += k * 0x9e3779b97f4a7c15ULL; }
  // Uniform in [0, 1) with 24 random bits: every value is an exact float.
  float unit_float() { return unit_float_of(next()); }
  // Uniform integer in [lo, hi].
  int64_t uniform_int(int64_t lo, int64_t hi) { return uniform_int_of(next(), lo, hi); }
  // The same two, of a draw already made (for parallel_draws in common/parallel.h).
  static float unit_float_of(uint64_t draw) {
    return static_cast<float>(draw >> 40) * (1.0f / 16777216.0f);
  }
  static int64_t uniform_int_of(uint64_t draw, int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(draw % static_cast<uint64_t>(hi - lo + 1));
  }

 private:
  uint64_t state_;
};

}  // namespace ladder
