// elementwise/inputs.cuh — the elementwise inputs element by element, one definition for the host
// and the GPU.
//
// Element i of every input array is a function of (seed, distribution, n, i) alone: SplitMix64 is
// counter-based, so draw k needs no draw before it. The benchmark's Runners fill their device
// arrays with a kernel built from these functions (elementwise.cu), and the CPU reference
// regenerates each element from the same functions while it checks (InputView in elementwise.h):
// no n-element host copy of the input is made, and the two cannot drift apart.
//
// The stream of draws, in the order the sequential generator made them:
//   x       draws [0, n)
//   addend  draws [n, 2n)          (add and fused)
//   mask    draws [2n, 3n)         (fused)
//   bias    draws [3n, 3n + b)     (fused; b = 1,024, or 1,000 on "bias1000"; made on the host)
// and on "specials" every 61st x (from 0) and every 67th addend (from 3) replaced by a special
// value, without consuming a draw.
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ladder::elementwise {

enum class Kind { kGelu, kFused, kAdd };

// The input distributions (elementwise.h says what each one is).
enum class Dist { kUniform, kSpecials, kBias1000 };

namespace inputs {

// Draw k of the stream that SplitMix64(seed) makes: SplitMix64(seed).peek(k) (common/random.h),
// written again here because common/random.h is host code. A host test holds the two equal.
__host__ __device__ inline uint64_t draw(uint64_t seed, uint64_t k) {
  uint64_t z = seed + (k + 1) * 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// lo + (hi - lo) * u, u = the draw's top 24 bits / 2^24 (SplitMix64::unit_float_of), computed
// exactly: lo * 2^24 + (hi - lo) * bits is an integer of at most 29 bits, exact in int64_t and in
// double, and scaling it by 2^-24 is exact. Nothing is rounded before the conversion to the
// element type, so neither FMA contraction (nvcc contracts a * b + c) nor the order of operations
// can change a bit, on the host or the GPU. (The same value as the double expression
// lo + (hi - lo) * u, which is exact too.)
__host__ __device__ inline double uniform(int lo, int hi, uint64_t d) {
  const int64_t bits = static_cast<int64_t>(d >> 40);
  return static_cast<double>(int64_t(lo) * (int64_t(1) << 24) + int64_t(hi - lo) * bits) * 0x1p-24;
}

// A double's value in the element type, round to nearest even: float is one conversion (cvtsd2ss
// on x86-64, cvt.rn.f32.f64 on the GPU); half goes through float, as it always has, and
// __float2half_rn rounds to nearest even on both sides (software on the host, cvt.rn.f16.f32 on
// the GPU). The GPU test GeneratedInputs holds host and device equal bit for bit.
template <typename T>
__host__ __device__ inline T to_element(double v) {
  if constexpr (std::is_same_v<T, __half>) {
    return __float2half_rn(static_cast<float>(v));
  } else {
    return static_cast<float>(v);
  }
}

// The special values of "specials", by bit pattern (a NaN's payload is not left to a conversion:
// the host and the GPU may make different NaNs from a double NaN). Case k % 6: NaN, +Inf, -Inf, -0,
// +big, -big, where big (1e30 in fp32, 3e4 in fp16) makes x^3 overflow in the element type.
template <typename T>
__host__ __device__ inline T special(uint64_t k) {
  constexpr bool kHalf = std::is_same_v<T, __half>;
  uint32_t bits;
  switch (k % 6) {
    case 0:
      bits = kHalf ? 0x7fffu : 0x7fc00000u;  // NaN
      break;
    case 1:
      bits = kHalf ? 0x7c00u : 0x7f800000u;  // +Inf
      break;
    case 2:
      bits = kHalf ? 0xfc00u : 0xff800000u;  // -Inf
      break;
    case 3:
      bits = kHalf ? 0x8000u : 0x80000000u;  // -0
      break;
    case 4:
      bits = kHalf ? 0x7753u : 0x7149f2cau;  // +big: 30000 in fp16, 1e30 (rounded) in fp32
      break;
    default:
      bits = kHalf ? 0xf753u : 0xf149f2cau;  // -big
      break;
  }
  if constexpr (kHalf) {
    __half_raw r;
    r.x = static_cast<unsigned short>(bits);
    return __half(r);
  } else {
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  }
}

// Element i of x, uniform in [-6, 6].
template <typename T>
__host__ __device__ inline T x_at(Dist dist, uint64_t seed, size_t i) {
  if (dist == Dist::kSpecials && i % 61 == 0) return special<T>(i / 61);
  return to_element<T>(uniform(-6, 6, draw(seed, i)));
}

// Element i of the addend (add, fused), uniform in [-10, 10].
template <typename T>
__host__ __device__ inline T addend_at(Dist dist, uint64_t seed, size_t n, size_t i) {
  if (dist == Dist::kSpecials && i % 67 == 3) return special<T>(i / 67 + 1);
  return to_element<T>(uniform(-10, 10, draw(seed, n + i)));
}

// Element i of the mask (fused): 0 or 1.
__host__ __device__ inline uint8_t mask_at(uint64_t seed, size_t n, size_t i) {
  return static_cast<uint8_t>(draw(seed, 2 * n + i) & 1);
}

// Element j of the bias (fused), uniform in [-1, 1].
template <typename T>
__host__ __device__ inline T bias_at(uint64_t seed, size_t n, size_t j) {
  return to_element<T>(uniform(-1, 1, draw(seed, 3 * n + j)));
}

}  // namespace inputs
}  // namespace ladder::elementwise
