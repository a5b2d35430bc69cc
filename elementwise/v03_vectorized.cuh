// elementwise/v03_vectorized.cuh — elementwise v03: 16-byte loads and stores, scalar head/tail.
// Technique: each thread moves 16 bytes per load and store instruction (4 floats or 8 halves);
// a scalar head up to x's first 16-byte boundary, an aligned vector body, a scalar tail.
// Changes from v02: the loop steps over 16-byte vectors; arrays misaligned by different amounts
// (no head aligns them all) take v02's scalar loop.
// Remains (bottleneck): fp16 elements are widened to float, computed and narrowed one at a time,
// which for GELU costs more than its memory traffic; and the resident grid's loop.
// Source: Justin Luitjens, "CUDA Pro Tip: Increase Performance with Vectorized Memory Access"
// (NVIDIA Developer Blog, 2013); the Chinese notes on CUDA operator optimization, section 3.4
// (eight halves or four floats per load).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/device.h"
#include "common/registry.h"
#include "elementwise/ops.cuh"
#include "elementwise/v02_grid_stride.cuh"  // the fallback for mutually misaligned arrays

namespace ladder::elementwise::v03 {

inline constexpr VersionDoc kDoc = {
    3, "v03_vectorized", "16-byte vector loads and stores: float4, eight halves",
    /*technique*/
    "Each thread moves 16 bytes per load and store instruction (4 floats or 8 halves; the "
    "mask as 4 or 8 bytes in one load). The array splits into a scalar head up to the first "
    "16-byte boundary, an aligned vector body, and a scalar tail.",
    /*changes*/
    "v02's loop steps over 16-byte vectors instead of elements. If the arrays are misaligned "
    "by different amounts no head aligns them all: that case takes v02's scalar loop.",
    /*remains*/
    "For fp16 every element is still widened to float, computed and narrowed one at a time; "
    "for GELU (an __expf and a division per element) that arithmetic, not memory, is the limit.",
    /*source*/
    "Justin Luitjens, 'CUDA Pro Tip: Increase Performance with Vectorized Memory Access', "
    "NVIDIA Developer Blog, 2013; anonymous, Chinese notes on CUDA operator optimization, "
    "section 3.4 (eight halves or four floats per load)"};

inline constexpr unsigned kThreads = 256;

// V elements of T in one 16-byte register group, and the V mask bytes that go with them.
template <typename T, int V>
struct alignas(16) Pack {
  T v[V];
};
template <int V>
struct alignas(V) MaskPack {
  uint8_t b[V];
};

// head: elements before the first 16-byte boundary of x, done one per thread. Then
// (n - head) / V vectors, then the tail, one per thread. Preconditions: x + head, addend + head
// and out + head are 16-byte aligned and mask + head is V-byte aligned (the launcher checks).
template <Kind K, typename T>
__global__ void vectorized_kernel(Args<T> a, T* __restrict__ out, size_t n, size_t head) {
  constexpr int V = 16 / sizeof(T);
  using Vec = Pack<T, V>;
  const size_t tid = size_t(blockIdx.x) * kThreads + threadIdx.x;
  const size_t stride = size_t(gridDim.x) * kThreads;
  if (tid < head) out[tid] = element<K>(a, tid);
  const size_t vectors = (n - head) / V;
  const Vec* x = reinterpret_cast<const Vec*>(a.x + head);
  Vec* y = reinterpret_cast<Vec*>(out + head);
  for (size_t j = tid; j < vectors; j += stride) {
    const Vec xv = x[j];
    Vec r;
    if constexpr (K == Kind::kGelu) {
#pragma unroll
      for (int k = 0; k < V; ++k) r.v[k] = GeluOp{}(xv.v[k]);
    } else if constexpr (K == Kind::kAdd) {
      const Vec av = reinterpret_cast<const Vec*>(a.addend + head)[j];
#pragma unroll
      for (int k = 0; k < V; ++k) r.v[k] = AddOp{}(xv.v[k], av.v[k]);
    } else {
      const Vec av = reinterpret_cast<const Vec*>(a.addend + head)[j];
      const MaskPack<V> mv = reinterpret_cast<const MaskPack<V>*>(a.mask + head)[j];
      const FusedOp op{a.scale};
      size_t b = (head + j * V) % static_cast<size_t>(a.bias_size);
#pragma unroll
      for (int k = 0; k < V; ++k) {
        r.v[k] = op(xv.v[k], a.bias[b], mv.b[k], av.v[k]);
        if (++b == static_cast<size_t>(a.bias_size)) b = 0;
      }
    }
    y[j] = r;
  }
  const size_t tail = head + vectors * V;
  if (tid < n - tail) out[tail + tid] = element<K>(a, tail + tid);
}

inline bool aligned(const void* p, size_t bytes) {
  return reinterpret_cast<uintptr_t>(p) % bytes == 0;
}

template <Kind K, typename T>
cudaError_t launch(const Args<T>& a, T* out, size_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  constexpr int V = 16 / sizeof(T);
  const size_t misalign = (reinterpret_cast<uintptr_t>(a.x) % 16) / sizeof(T);
  const size_t head = std::min(n, (V - misalign) % V);
  const bool vectorizable = aligned(out + head, 16) &&
                            (K == Kind::kGelu || aligned(a.addend + head, 16)) &&
                            (K != Kind::kFused || aligned(a.mask + head, V));
  if (!vectorizable) return v02::launch<K, T>(a, out, n, stream);
  static const size_t resident = resident_grid((const void*)vectorized_kernel<K, T>, kThreads, 0);
  const size_t grid = std::clamp<size_t>(ceil_div(n, size_t(kThreads) * V), 1, resident);
  vectorized_kernel<K, T><<<static_cast<unsigned>(grid), kThreads, 0, stream>>>(a, out, n, head);
  return cudaGetLastError();
}

}  // namespace ladder::elementwise::v03
