// elementwise/cub_baseline.cuh — the library baselines: cub::DeviceTransform, fused and unfused;
// for fp16, in __half2 arithmetic (the headline) and in float arithmetic.
#pragma once

#include <thrust/iterator/counting_iterator.h>
#include <cub/device/device_transform.cuh>
#include <cuda/std/functional>
#include <cuda/std/tuple>

#include <climits>
#include <cstdint>
#include <type_traits>

#include "common/registry.h"
#include "elementwise/ops.cuh"

namespace ladder::elementwise::cub_baseline {

inline constexpr VersionDoc kDoc = {
    -1, "cub", "cub::DeviceTransform::Transform (CCCL), the library baseline",
    /*technique*/
    "NVIDIA's n-ary transform: one kernel over a tuple of input iterators with the operation's "
    "functor; on Hopper it stages tiles with bulk copies or prefetches, sized by its own "
    "tuning. The call a CUB user would write for the same arithmetic as the rungs: fp32 "
    "operators pass the float functors; fp16 operators pass the arrays as __half2 pairs (and "
    "the mask as uchar2) with the same __half2 functors the rungs from v04 on use (an odd "
    "last element, never at the benchmark's sizes, goes through the scalar functor). The "
    "fused operation's element index comes from a counting iterator of int (32-bit index and "
    "modulo) whenever n fits in int, of long long beyond.",
    /*changes*/ "Not a rung: the reference every rung is compared with, timed the same way.",
    /*remains*/ "Its tuning choices for this GPU and type, which the chapter measures.",
    /*source*/ "CUB, cub::DeviceTransform (CUDA Toolkit's CCCL 3.0)"};

inline constexpr VersionDoc kFloatMathDoc = {
    -1, "cub_float_math", "cub::DeviceTransform over __half elements, computing in float",
    /*technique*/
    "The same transform over single __half elements with the scalar functor: each element is "
    "widened to float, computed (GELU through __expf and a division) and rounded back.",
    /*changes*/
    "Not a rung and not the headline: the straightforward call, kept to show what the "
    "arithmetic costs. `cub` is the same library call in __half2 arithmetic, as the rungs "
    "compute.",
    /*remains*/ "Float arithmetic per element: for GELU, instructions rather than bytes bound it.",
    /*source*/ "CUB, cub::DeviceTransform (CUDA Toolkit's CCCL 3.0)"};

inline constexpr VersionDoc kUnfusedDoc = {
    -1, "cub_unfused", "Four cub::DeviceTransform calls: the unfused sequence the fusion replaces",
    /*technique*/
    "What a framework without the fused kernel runs: y = x + bias, y = y * mask, y = y * scale, "
    "y = y + addend, each a library transform over the whole array, in place in the output "
    "(element by element; the element index is an int counting iterator where n fits).",
    /*changes*/ "Not a rung: the baseline the fused kernel has to beat.",
    /*remains*/
    "Four launches and four round trips of the output through memory: nearly three times the "
    "traffic of the fused kernel (37 against 13 bytes an element in fp32, 19 against 7 in fp16).",
    /*source*/
    "Anonymous, Chinese notes on CUDA operator optimization, section 3.4 (the fused kernel); "
    "CUB, cub::DeviceTransform"};

// Two size classes, each its own set of DeviceTransform instantiations. CCCL 3.0.1's
// DeviceTransform chooses its tile (items a thread) on the first call of each instantiation in a
// process and keeps it for every later call (dispatch_transform.cuh, configure_ublkcp_kernel's
// `static auto cached_config`), and the choice stops growing the tile as soon as one tile covers
// that first call's n. A process whose first call is small (the size sweep starts at 2^10) would
// therefore keep a tile of a few items a thread, with too few bytes in flight, at every larger n:
// on the H200 at 2^27 CUB's fp16 GELU took a third longer that way
// (results/logs/h200-cub-cache-9b747f9-2026-11-29/; newer CCCL chooses the tile without n,
// NVIDIA/cccl PR #5112).
// The class is decided by the number of items CUB is given (pairs, for the fp16 pair calls): a
// first call of kSmallTransform items or more cannot stop early (no tile reaches that many: 256
// threads x at most 31 items), so calls from that size on get the tile a fresh process gets at
// any large n, whatever ran before them; smaller calls share the other class.
inline constexpr size_t kSmallTransform = 8192;
template <bool Small, typename Op>
struct SizeClass : Op {};  // the same functor, a distinct type per size class

template <typename F>
cudaError_t with_size_class(size_t items, F&& f) {
  return items < kSmallTransform ? f(std::true_type{}) : f(std::false_type{});
}

// 32-bit offsets and element indices whenever n fits in int (CUB's fast path, and a 32-bit
// modulo for the bias), 64-bit beyond.
template <typename F>
cudaError_t with_offsets(size_t n, F&& f) {
  return n <= size_t(INT_MAX) ? f(static_cast<int>(n)) : f(static_cast<long long>(n));
}

// The fused functor with the element index as its second input (for bias[i % size]); Index is
// the counting iterator's type, int or long long.
template <typename T>
struct FusedIndexed {
  const T* bias;
  int bias_size;
  float scale;
  template <typename Index>
  __device__ T operator()(T x, Index i, uint8_t mask, T addend) const {
    return FusedOp{scale}(x, bias[i % bias_size], mask, addend);
  }
};
// The same on pairs: pair j holds elements 2j and 2j + 1 (of the view that starts at the
// pointers passed), computed in __half2 as the rungs do.
struct FusedIndexedPair {
  const __half* bias;
  int bias_size;
  float scale;
  template <typename Index>
  __device__ __half2 operator()(__half2 x, Index j, uchar2 mask, __half2 addend) const {
    const Index i = 2 * j;
    const __half2 b = __halves2half2(bias[i % bias_size], bias[(i + 1) % bias_size]);
    return FusedOp{scale}(x, b, mask, addend);
  }
};
template <typename T>
struct AddBias {
  const T* bias;
  int bias_size;
  template <typename Index>
  __device__ T operator()(T x, Index i) const {
    return AddOp{}(x, bias[i % bias_size]);
  }
};
template <typename T>
struct TimesMask {
  __device__ T operator()(T x, uint8_t m) const {
    return static_cast<T>(static_cast<float>(x) * static_cast<float>(m));
  }
};
template <typename T>
struct TimesScale {
  float scale;
  __device__ T operator()(T x) const { return static_cast<T>(static_cast<float>(x) * scale); }
};

// One transform of the operation over `count` elements, element by element (T's own functor),
// in size class Small.
template <Kind K, bool Small, typename T, typename Count>
cudaError_t transform(const Args<T>& a, T* out, Count count, cudaStream_t stream) {
  using cub::DeviceTransform;
  using ::cuda::std::make_tuple;
  if constexpr (K == Kind::kGelu) {
    return DeviceTransform::Transform(a.x, out, count, SizeClass<Small, GeluOp>{}, stream);
  } else if constexpr (K == Kind::kAdd) {
    return DeviceTransform::Transform(make_tuple(a.x, a.addend), out, count,
                                      SizeClass<Small, AddOp>{}, stream);
  } else {
    return DeviceTransform::Transform(
        make_tuple(a.x, thrust::counting_iterator<Count>(0), a.mask, a.addend), out, count,
        SizeClass<Small, FusedIndexed<T>>{{a.bias, a.bias_size, a.scale}}, stream);
  }
}

// Whether the fp16 arrays can be read as pairs: __half2 (x, addend, out) 4-byte aligned, the
// mask's uchar2 2-byte aligned.
template <Kind K>
bool pairs_aligned(const Args<__half>& a, const __half* out) {
  auto aligned = [](const void* p, size_t bytes) {
    return reinterpret_cast<uintptr_t>(p) % bytes == 0;
  };
  return aligned(a.x, 4) && aligned(out, 4) && (K == Kind::kGelu || aligned(a.addend, 4)) &&
         (K != Kind::kFused || aligned(a.mask, 2));
}

// The fp16 operation on n / 2 pairs in __half2 arithmetic (the rungs' arithmetic from v04 on),
// in size class Small.
template <Kind K, bool Small, typename Count>
cudaError_t transform_pairs(const Args<__half>& a, __half* out, Count pairs, cudaStream_t stream) {
  using cub::DeviceTransform;
  using ::cuda::std::make_tuple;
  const auto* x = reinterpret_cast<const __half2*>(a.x);
  auto* y = reinterpret_cast<__half2*>(out);
  if constexpr (K == Kind::kGelu) {
    return DeviceTransform::Transform(x, y, pairs, SizeClass<Small, GeluOp>{}, stream);
  } else if constexpr (K == Kind::kAdd) {
    return DeviceTransform::Transform(make_tuple(x, reinterpret_cast<const __half2*>(a.addend)), y,
                                      pairs, SizeClass<Small, AddOp>{}, stream);
  } else {
    return DeviceTransform::Transform(
        make_tuple(x, thrust::counting_iterator<Count>(0), reinterpret_cast<const uchar2*>(a.mask),
                   reinterpret_cast<const __half2*>(a.addend)),
        y, pairs, SizeClass<Small, FusedIndexedPair>{{a.bias, a.bias_size, a.scale}}, stream);
  }
}

// The element at index `last` alone, through the scalar functor (the odd tail of the pairs).
template <Kind K>
cudaError_t transform_last(const Args<__half>& a, __half* out, size_t last, cudaStream_t stream) {
  using cub::DeviceTransform;
  using ::cuda::std::make_tuple;
  if constexpr (K == Kind::kGelu) {
    return DeviceTransform::Transform(a.x + last, out + last, 1, GeluOp{}, stream);
  } else if constexpr (K == Kind::kAdd) {
    return DeviceTransform::Transform(make_tuple(a.x + last, a.addend + last), out + last, 1,
                                      AddOp{}, stream);
  } else {
    return DeviceTransform::Transform(
        make_tuple(a.x + last, thrust::counting_iterator<long long>(static_cast<long long>(last)),
                   a.mask + last, a.addend + last),
        out + last, 1, FusedIndexed<__half>{a.bias, a.bias_size, a.scale}, stream);
  }
}

// The headline baseline: fp32 element by element; fp16 in pairs where the arrays allow it
// (always in the benchmark), element by element otherwise.
template <Kind K, typename T>
cudaError_t launch(const Args<T>& a, T* out, size_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  if constexpr (sizeof(T) == 2) {
    if (pairs_aligned<K>(a, out)) {
      cudaError_t e = cudaSuccess;
      if (n >= 2)  // the index type is chosen by n, so 2 * pair index fits it too
        e = with_size_class(n / 2, [&](auto small) {
          return with_offsets(n, [&](auto count) {
            return transform_pairs<K, decltype(small)::value>(a, out, decltype(count)(count / 2),
                                                              stream);
          });
        });
      if (e == cudaSuccess && n % 2 == 1) e = transform_last<K>(a, out, n - 1, stream);
      return e;
    }
  }
  return with_size_class(n, [&](auto small) {
    return with_offsets(
        n, [&](auto count) { return transform<K, decltype(small)::value>(a, out, count, stream); });
  });
}

// fp16 only: the same library call element by element, in float arithmetic.
template <Kind K, typename T>
cudaError_t launch_float_math(const Args<T>& a, T* out, size_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  return with_size_class(n, [&](auto small) {
    return with_offsets(
        n, [&](auto count) { return transform<K, decltype(small)::value>(a, out, count, stream); });
  });
}

// The fused operation as four library calls (fused operators only).
template <Kind K, typename T>
cudaError_t launch_unfused(const Args<T>& a, T* out, size_t n, cudaStream_t stream) {
  static_assert(K == Kind::kFused, "the unfused sequence is the fused operation's baseline");
  if (n == 0) return cudaSuccess;
  return with_size_class(n, [&](auto small) {
    constexpr bool Small = decltype(small)::value;
    return with_offsets(n, [&](auto count) {
      using Count = decltype(count);
      using cub::DeviceTransform;
      using ::cuda::std::make_tuple;
      cudaError_t e = DeviceTransform::Transform(
          make_tuple(a.x, thrust::counting_iterator<Count>(0)), out, count,
          SizeClass<Small, AddBias<T>>{{a.bias, a.bias_size}}, stream);
      if (e == cudaSuccess)
        e = DeviceTransform::Transform(make_tuple(out, a.mask), out, count,
                                       SizeClass<Small, TimesMask<T>>{}, stream);
      if (e == cudaSuccess)
        e = DeviceTransform::Transform(out, out, count, SizeClass<Small, TimesScale<T>>{{a.scale}},
                                       stream);
      if (e == cudaSuccess)
        e = DeviceTransform::Transform(make_tuple(out, a.addend), out, count,
                                       SizeClass<Small, AddOp>{}, stream);
      return e;
    });
  });
}

}  // namespace ladder::elementwise::cub_baseline
