// elementwise/elementwise.h — the elementwise problems: GELU, the fused bias + mask + scale + add
// (section 3.4 of the anonymous Chinese notes on CUDA operator optimization), and the add of two
// arrays, in fp32 and fp16.
//
// Five operators share one ladder of version files (each file is templated on the operation and
// the element type) and one chapter, elementwise/README.md:
//   gelu_f32, gelu_f16    y = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
//   fused_f32, fused_f16  y = (x + bias[i % bias_size]) * mask[i] * scale + addend[i],
//                         mask uint8 (0 or 1), bias_size = 1024 (1000 on the input
//                         "bias1000"), scale = 0.5
//   add_f32               y = x + addend (the example of PaddlePaddle's Kernel Primitive API)
// Host side: the inputs (their elements are defined once, for host and GPU, in inputs.cuh), the
// double-precision reference, the check and the bytes moved.
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/registry.h"
#include "elementwise/inputs.cuh"

namespace ladder::elementwise {

inline constexpr int kBiasSize = 1024;     // the Chinese notes' bias length
inline constexpr int kOddBiasSize = 1000;  // the "bias1000" input's
inline constexpr float kScale = 0.5f;      // the Chinese notes' scale

// Device pointers of one problem. Which are used depends on the Kind: GELU reads x; add reads x
// and addend; fused reads all four. Every array of n elements may start at any element (no
// 16-byte alignment is promised); bias holds bias_size elements.
template <typename T>
struct Args {
  const T* x = nullptr;
  const T* addend = nullptr;
  const uint8_t* mask = nullptr;
  const T* bias = nullptr;
  int bias_size = kBiasSize;
  float scale = kScale;
};

// The contract every elementwise version's launcher meets: out[i] = f(inputs at i) for i < n;
// out is a device array of n elements, with the same alignment as x in the harness (a sub-view
// starts at the same element of every array) but a version must be correct for any alignment.
// Enqueues on `stream`, never synchronizes, returns the launch error.
template <typename T>
using Launcher = cudaError_t (*)(const Args<T>& args, T* out, size_t n, cudaStream_t stream);

// Seeded input distributions:
//   "uniform"   x uniform in [-6, 6], addend in [-10, 10], bias in [-1, 1], mask 0 or 1 (the
//               benchmark input)
//   "specials"  as uniform, with NaN, +Inf, -Inf, -0 and large finite values (x^3 overflows)
//               among x and the addend: they must come out as the formula says
std::vector<std::string> distributions();
// The fused operators' inputs: the above, and
//   "bias1000"  as uniform, with a bias of 1,000 elements instead of 1,024 (a length that is not
//               a power of two, where the compiler cannot turn `%` into a mask)
std::vector<std::string> fused_distributions();

// The distribution named `dist` (one of the above), for an operator of this kind. Throws
// std::invalid_argument for an unknown one ("bias1000" is known to the fused operators only).
Dist parse_distribution(Kind kind, const std::string& dist);

// One problem's inputs without their arrays: element i of x, the addend and the mask is made on
// demand from (seed, dist, n, i) (inputs.cuh), on the host by the accessors below and on the GPU
// by generate_on_device, bit for bit the same. Only the bias (b elements) is kept. The check
// uses it to regenerate each element as it goes, so no n-element copy of an input stays on the
// host. T = float or __half.
template <typename T>
struct InputView {
  Kind kind = Kind::kGelu;
  Dist dist = Dist::kUniform;
  uint64_t seed = 0;
  size_t n = 0;
  std::vector<T> bias;  // fused: kBiasSize elements (kOddBiasSize on "bias1000"); else empty

  T x(size_t i) const { return inputs::x_at<T>(dist, seed, i); }
  T addend(size_t i) const { return inputs::addend_at<T>(dist, seed, n, i); }  // add, fused
  uint8_t mask(size_t i) const { return inputs::mask_at(seed, n, i); }         // fused
  bool has_addend() const { return kind != Kind::kGelu; }
  bool has_mask() const { return kind == Kind::kFused; }
};
// The view of the problem (kind, n, dist, seed), its bias drawn. Throws std::invalid_argument
// for an unknown distribution, even when n is 0.
template <typename T>
InputView<T> input_view(Kind kind, size_t n, const std::string& dist, uint64_t seed);

// Writes elements [0, in.n) of x, and of the addend and the mask where the kind has them (else
// pass nullptr), into device memory, on `stream`, without synchronizing; returns the launch
// error. Each pointer may start at any element. The bias is not written: upload in.bias.
template <typename T>
cudaError_t generate_on_device(const InputView<T>& in, T* x, T* addend, uint8_t* mask,
                               cudaStream_t stream);

// One problem's inputs as host arrays (the tests, and small uses): what the view gives,
// materialized on every core.
template <typename T>
struct HostInputs {
  std::vector<T> x, addend, bias;
  std::vector<uint8_t> mask;
};
// Throws std::invalid_argument for an unknown distribution, even when n is 0.
template <typename T>
HostInputs<T> generate(Kind kind, size_t n, const std::string& dist, uint64_t seed);

// The formula in double precision for one element's inputs; the kind ignores those it does not
// read (GELU reads x, add x and the addend).
double reference(Kind kind, double x, double addend, double bias, double mask);
// The same for element i of the view.
template <typename T>
double reference(const InputView<T>& in, size_t i);

// Compares got[0, count) (elements base .. base + count of the output) with the reference.
//   fp32: |got - ref| <= 16 * 2^-24 * M,  fp16: |got - ref| <= 16 * 2^-11 * M + 2^-24,
// where 2^-24 and 2^-11 are the unit roundoffs of float and half (fp16's added 2^-24, its
// smallest subnormal, is a floor for results near zero) and M is the operation's
// magnitude: |x| for GELU (|y| <= |x|), |x + bias| * |scale| + |addend| for fused, |x| + |addend|
// for add. A version rounds at most a handful of times, each costing at most one unit roundoff
// of M; 16 leaves room for the exponential's or tanh's own error (__expf in the float form,
// tanh.approx.f16x2 in the half2 form, about 2^-11).
// A NaN reference needs a NaN; an infinite one the same infinity. max_err = largest
// |got - ref| / M.
template <typename T>
CheckResult check_piece(const InputView<T>& in, const T* got, size_t base, size_t count);
// check_piece over the whole output got[0, in.n), on every core (a double-precision reference of
// 2^28 GELUs takes seconds on one); the failure at the lowest index is the one reported.
template <typename T>
CheckResult check_all(const InputView<T>& in, const T* got);

// Minimal traffic: every input read once, the output written once; the mask in bytes, the bias
// once.
double bytes_moved(Kind kind, size_t element_bytes, size_t n);

Operator make_gelu_f32();
Operator make_gelu_f16();
Operator make_fused_f32();
Operator make_fused_f16();
Operator make_add_f32();

}  // namespace ladder::elementwise
