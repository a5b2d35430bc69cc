// elementwise/cub_baseline.cuh — the library baselines: cub::DeviceTransform, fused and unfused.
#pragma once

#include <thrust/iterator/counting_iterator.h>
#include <cub/device/device_transform.cuh>
#include <cuda/std/functional>
#include <cuda/std/tuple>

#include <climits>
#include <cstdint>

#include "common/registry.h"
#include "elementwise/ops.cuh"

namespace ladder::elementwise::cub_baseline {

inline constexpr VersionDoc kDoc = {
    -1, "cub", "cub::DeviceTransform::Transform (CCCL), the library baseline",
    /*technique*/
    "NVIDIA's n-ary transform: one kernel over a tuple of input iterators with the operation's "
    "functor (the same float/half functors the rungs use); on Hopper it stages tiles with bulk "
    "copies or prefetches, sized by its own tuning. The fused operation's bias index comes from "
    "a counting iterator.",
    /*changes*/ "Not a rung: the reference every rung is compared with, timed the same way.",
    /*remains*/ "Its tuning choices for this GPU and type, which the chapter measures.",
    /*source*/ "CUB, cub::DeviceTransform (CUDA Toolkit's CCCL 3.0)"};

inline constexpr VersionDoc kUnfusedDoc = {
    -1, "cub_unfused", "Four cub::DeviceTransform calls: the unfused sequence the fusion replaces",
    /*technique*/
    "What a framework without the fused kernel runs: y = x + bias, y = y * mask, y = y * scale, "
    "y = y + addend, each a library transform over the whole array, in place in the output.",
    /*changes*/ "Not a rung: the baseline the fused kernel has to beat.",
    /*remains*/
    "Four launches and four round trips of the output through memory: about 2.5 times the "
    "traffic of the fused kernel.",
    /*source*/ "seed 002 §3.4 (why fuse); CUB, cub::DeviceTransform"};

// 32-bit offsets whenever n fits (CUB's fast path), 64-bit beyond.
template <typename F>
cudaError_t with_offsets(size_t n, F&& f) {
  return n <= size_t(INT_MAX) ? f(static_cast<int>(n)) : f(static_cast<long long>(n));
}

// The fused functor with the element index as its second input (for bias[i % size]).
template <typename T>
struct FusedIndexed {
  const T* bias;
  int bias_size;
  float scale;
  __device__ T operator()(T x, long long i, uint8_t mask, T addend) const {
    return FusedOp{scale}(x, bias[i % bias_size], mask, addend);
  }
};
template <typename T>
struct AddBias {
  const T* bias;
  int bias_size;
  __device__ T operator()(T x, long long i) const { return AddOp{}(x, bias[i % bias_size]); }
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

template <Kind K, typename T>
cudaError_t launch(const Args<T>& a, T* out, size_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  return with_offsets(n, [&](auto count) {
    using cub::DeviceTransform;
    if constexpr (K == Kind::kGelu) {
      return DeviceTransform::Transform(a.x, out, count, GeluOp{}, stream);
    } else if constexpr (K == Kind::kAdd) {
      return DeviceTransform::Transform(::cuda::std::make_tuple(a.x, a.addend), out, count, AddOp{},
                                        stream);
    } else {
      return DeviceTransform::Transform(
          ::cuda::std::make_tuple(a.x, thrust::counting_iterator<long long>(0), a.mask, a.addend),
          out, count, FusedIndexed<T>{a.bias, a.bias_size, a.scale}, stream);
    }
  });
}

// The fused operation as four library calls (fused operators only).
template <Kind K, typename T>
cudaError_t launch_unfused(const Args<T>& a, T* out, size_t n, cudaStream_t stream) {
  static_assert(K == Kind::kFused, "the unfused sequence is the fused operation's baseline");
  if (n == 0) return cudaSuccess;
  return with_offsets(n, [&](auto count) {
    using cub::DeviceTransform;
    using ::cuda::std::make_tuple;
    cudaError_t e =
        DeviceTransform::Transform(make_tuple(a.x, thrust::counting_iterator<long long>(0)), out,
                                   count, AddBias<T>{a.bias, a.bias_size}, stream);
    if (e == cudaSuccess)
      e = DeviceTransform::Transform(make_tuple(out, a.mask), out, count, TimesMask<T>{}, stream);
    if (e == cudaSuccess)
      e = DeviceTransform::Transform(out, out, count, TimesScale<T>{a.scale}, stream);
    if (e == cudaSuccess)
      e = DeviceTransform::Transform(make_tuple(out, a.addend), out, count, AddOp{}, stream);
    return e;
  });
}

}  // namespace ladder::elementwise::cub_baseline
