// histogram/samples.cuh — how histogram kernels read samples, shared by every version.
//
// SampleTraits<T> gives the bin of one sample and unpacks a 16-byte vector of samples;
// for_each_sample walks one thread's grid-stride share of the input in 16-byte vectors, with
// scalar head and tail so any n and any sizeof(T)-aligned pointer work.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace ladder::histogram {

template <typename T>
struct SampleTraits;

template <>
struct SampleTraits<int32_t> {
  using Vec = int4;
  static constexpr int kPerVec = 4;
  // Negative samples become huge unsigned values: `bin < 256` rejects them and those >= 256.
  __device__ static unsigned bin(int32_t x) { return static_cast<unsigned>(x); }
  template <class F>
  __device__ static void for_each(const Vec& v, F& f) {
    f(bin(v.x));
    f(bin(v.y));
    f(bin(v.z));
    f(bin(v.w));
  }
};

template <>
struct SampleTraits<uint8_t> {
  using Vec = uint4;
  static constexpr int kPerVec = 16;
  __device__ static unsigned bin(uint8_t x) { return x; }
  template <class F>
  __device__ static void for_each(const Vec& v, F& f) {
    const unsigned words[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int w = 0; w < 4; ++w) {
#pragma unroll
      for (int j = 0; j < 4; ++j) f((words[w] >> (8 * j)) & 0xffu);
    }
  }
};

// Calls f(bin) for every sample in this thread's share of in[0, n): 16-byte vectors read with
// `load(const Vec*)`, grid-strided, UNROLL loads in flight per trip; then the scalar head (until
// the pointer is 16-byte aligned) and tail go to the grid's first threads. f must accept any
// unsigned value; those >= 256 are out-of-range samples it must skip.
template <typename T, int UNROLL, class Load, class F>
__device__ __forceinline__ void for_each_sample(const T* __restrict__ in, size_t n, Load load,
                                                F& f) {
  using Traits = SampleTraits<T>;
  using Vec = typename Traits::Vec;
  const size_t misalign = reinterpret_cast<uintptr_t>(in) & 15;
  const size_t head = min(n, ((16 - misalign) & 15) / sizeof(T));
  const Vec* body = reinterpret_cast<const Vec*>(in + head);
  const size_t n_vec = (n - head) / Traits::kPerVec;
  const size_t tail_begin = head + n_vec * Traits::kPerVec;
  const size_t thread = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const size_t stride = size_t(gridDim.x) * blockDim.x;

  size_t i = thread;
  for (; i + (UNROLL - 1) * stride < n_vec; i += UNROLL * stride) {
    Vec v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) v[u] = load(body + i + u * stride);
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) Traits::for_each(v[u], f);
  }
  for (; i < n_vec; i += stride) Traits::for_each(load(body + i), f);
  if (thread < head) f(Traits::bin(in[thread]));
  if (thread < n - tail_begin) f(Traits::bin(in[tail_begin + thread]));
}

}  // namespace ladder::histogram
