// common/fast_divmod.h — division and remainder by a run-time constant as a multiply-high, an
// add and a shift (the FastDivMod of PaddlePaddle's CUDA Kernel Primitive API, with its overflow
// fixed; common/GLOSSARY.md#references). Host and device: the host builds it once per launch,
// the kernel divides with it; the host test (tests/test_host.cpp) checks it against / and %.
//
// Why it is exact. Let d >= 1 be a 32-bit divisor and s = ceil(log2 d), so 2^(s-1) < d <= 2^s.
// Take m = floor(2^32 (2^s - d) / d) + 1, which fits in 32 bits (2^s - d < d). For any 32-bit n,
// with t = floor(m n / 2^32) (the multiply-high):
//     q = floor((t + n) / 2^s) = floor(n / d).
// Granlund & Montgomery, "Division by invariant integers using multiplication" (PLDI 1994),
// Theorem 4.2 with N = 32, l = s: m + 2^32 is the rounded-up (N + 1)-bit reciprocal
// 2^(32+s) / d, its error times n stays below one unit of the quotient for n < 2^32, and the
// implicit 2^32 becomes the "+ n". The remainder is n - q d.
//
// Paddle's version adds t + n in 32 bits: for n >= 2^31 the sum can wrap and the quotient is
// wrong (t is close to n when d is just above a power of two). Here the sum is taken in 64 bits,
// which costs one more integer instruction. Preconditions: d >= 1; n any 32-bit value.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define LADDER_HD __host__ __device__ __forceinline__
#else
#define LADDER_HD inline
#endif

namespace ladder {

struct FastDivMod {
  uint32_t divisor = 1;
  uint32_t multiplier = 0;  // m: the rounded-up reciprocal 2^(32+s) / d, less its 2^32 bit
  uint32_t shift = 0;       // s = ceil(log2 divisor)

  FastDivMod() = default;
  // d >= 1 (d = 0 is a division by zero: the caller checks).
  LADDER_HD explicit FastDivMod(uint32_t d) : divisor(d) {
    while (shift < 32 && (uint64_t(1) << shift) < d) ++shift;
    multiplier =
        static_cast<uint32_t>(((uint64_t(1) << 32) * ((uint64_t(1) << shift) - d)) / d + 1);
  }

  LADDER_HD static uint32_t mulhi(uint32_t a, uint32_t b) {
#if defined(__CUDA_ARCH__)
    return __umulhi(a, b);
#else
    return static_cast<uint32_t>((uint64_t(a) * b) >> 32);
#endif
  }

  // floor(n / divisor)
  LADDER_HD uint32_t div(uint32_t n) const {
    const uint32_t t = mulhi(n, multiplier);
    return static_cast<uint32_t>((uint64_t(t) + n) >> shift);
  }
  // n % divisor
  LADDER_HD uint32_t mod(uint32_t n) const { return n - div(n) * divisor; }
  // Both at once: quotient into q, remainder into r.
  LADDER_HD void divmod(uint32_t n, uint32_t& q, uint32_t& r) const {
    q = div(n);
    r = n - q * divisor;
  }
};

// Paddle's quotient as its source document writes it (hence "seed_"), kept for the test that
// shows why the sum above is 64-bit: (t + n) in 32 bits wraps for some n >= 2^31. For divisors up
// to 2^31 (its shift stays below 32).
LADDER_HD uint32_t seed_fast_div(const FastDivMod& f, uint32_t n) {
  const uint32_t t = FastDivMod::mulhi(n, f.multiplier);
  return (t + n) >> f.shift;
}

}  // namespace ladder
