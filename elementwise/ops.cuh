// elementwise/ops.cuh — the three operations as device functors, in float, half and half2.
//
// Every rung computes through these, so the rungs differ only in how they move data. The
// float and half overloads compute in float and round once (a half input is widened, the
// result narrowed); the half2 overloads (rung v04 on) compute in half precision two lanes at a
// time with the __half2 intrinsics of cuda_fp16.h.
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "elementwise/elementwise.h"

namespace ladder::elementwise {

inline constexpr float kGeluK0 = 0.7978845608028654f;  // sqrt(2 / pi)
inline constexpr float kGeluK1 = 0.044715f;

// 0.5 x (1 + tanh(z)) = x / (1 + e), e = exp(-2z), exactly, since 1 + tanh(z) = 2 / (1 + e).
// The float form uses that identity with __expf (ex2.approx: a handful of instructions against
// tanhf's two dozen) and an IEEE division. __expf's error, (2 + 1.17 |2z|) ulp, reaches the
// result scaled by e / (1 + e)^2 relative to |x|: at most about 1.25 * 2^-24 |x| (near
// z = -0.35, where e is about 2 and its ulp 2^-22). With the rounding of z and of the division
// the result is within a few 2^-24 |x|: inside the check's bound of 16 unit roundoffs. NaN and
// +-Inf come out as the tanh form gives them (x = -Inf: -Inf / Inf = NaN; x = +Inf: Inf / 1 = Inf).
struct GeluOp {
  __device__ __forceinline__ float operator()(float x) const {
    const float z = kGeluK0 * (x + kGeluK1 * x * x * x);
    return x / (1.0f + __expf(-2.0f * z));
  }
  __device__ __forceinline__ __half operator()(__half x) const {
    return __float2half_rn((*this)(__half2float(x)));
  }
  // Half precision throughout, tanh by the hardware's tanh.approx.f16x2 (sm_75+).
  __device__ __forceinline__ __half2 operator()(__half2 x) const {
    const __half2 k0 = __float2half2_rn(kGeluK0), k1 = __float2half2_rn(kGeluK1);
    const __half2 half = __float2half2_rn(0.5f), one = __float2half2_rn(1.0f);
    const __half2 x3 = __hmul2(__hmul2(x, x), x);
    const __half2 t = h2tanh_approx(__hmul2(k0, __hfma2(k1, x3, x)));
    return __hmul2(__hmul2(half, x), __hadd2(one, t));
  }
};

struct AddOp {
  __device__ __forceinline__ float operator()(float x, float a) const { return x + a; }
  __device__ __forceinline__ __half operator()(__half x, __half a) const {
    return __float2half_rn(__half2float(x) + __half2float(a));
  }
  __device__ __forceinline__ __half2 operator()(__half2 x, __half2 a) const {
    return __hadd2(x, a);
  }
};

// y = (x + bias) * mask * scale + addend, mask a byte that is 0 or 1.
struct FusedOp {
  float scale;
  __device__ __forceinline__ float operator()(float x, float bias, uint8_t mask, float a) const {
    return (x + bias) * static_cast<float>(mask) * scale + a;
  }
  __device__ __forceinline__ __half operator()(__half x, __half bias, uint8_t mask,
                                               __half a) const {
    return __float2half_rn((*this)(__half2float(x), __half2float(bias), mask, __half2float(a)));
  }
  // Two lanes; the two mask bytes become one __half2 of 0.0 / 1.0 (as VecCompute does in the
  // Chinese notes on CUDA operator optimization, section 3.4).
  __device__ __forceinline__ __half2 operator()(__half2 x, __half2 bias, uchar2 mask,
                                                __half2 a) const {
    const __half2 m = __halves2half2(__ushort2half_rn(mask.x), __ushort2half_rn(mask.y));
    const __half2 s = __float2half2_rn(scale);
    return __hadd2(__hmul2(__hmul2(__hadd2(x, bias), m), s), a);
  }
};

// Element i of the operation K, read straight from global memory: the scalar rungs' body.
template <Kind K, typename T>
__device__ __forceinline__ T element(const Args<T>& a, size_t i) {
  if constexpr (K == Kind::kGelu) {
    return GeluOp{}(a.x[i]);
  } else if constexpr (K == Kind::kAdd) {
    return AddOp{}(a.x[i], a.addend[i]);
  } else {
    return FusedOp{a.scale}(a.x[i], a.bias[i % static_cast<size_t>(a.bias_size)], a.mask[i],
                            a.addend[i]);
  }
}

}  // namespace ladder::elementwise
