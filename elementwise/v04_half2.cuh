// elementwise/v04_half2.cuh — elementwise v04 (fp16 only): half2 intrinsics, two lanes per op.
// Technique: v03's 16-byte loads, computed as four __half2 per load instead of widening to float:
// __hmul2, __hadd2, __hfma2 and h2tanh_approx (tanh.approx.f16x2) do two elements per instruction.
// Changes from v03: the fp16 arithmetic only; loads, stores, head, tail and fallback are v03's.
// Remains (bottleneck): the loop's shape, shared with v02 and v03 (a resident grid striding over
// the whole array, which v05's one tile per block beats); and each rung writes its own loop.
// Source: the anonymous Chinese notes on CUDA operator optimization, sections 3.2-3.4 (FP16 GELU,
// the half2 VecCompute); NVIDIA's CUDA Math API, half2 arithmetic functions.
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/device.h"
#include "common/registry.h"
#include "elementwise/ops.cuh"
#include "elementwise/v03_vectorized.cuh"  // Pack, MaskPack, the alignment rules and fallback

namespace ladder::elementwise::v04 {

inline constexpr VersionDoc kDoc = {
    4, "v04_half2", "fp16 in __half2: two elements per instruction (fp16 operators only)",
    /*technique*/
    "The 8 halves of a 16-byte load are 4 __half2 registers; __hmul2, __hadd2, __hfma2 and "
    "h2tanh_approx (tanh.approx.f16x2) compute two elements per instruction without widening "
    "to float.",
    /*changes*/
    "v03's per-element float arithmetic on halves becomes paired half arithmetic "
    "(__float2half2_rn for the constants); loads, stores, head and tail as v03.",
    /*remains*/
    "The kernel is now as cheap as its memory traffic; what is left is the loop's shape (a "
    "resident grid striding over the array, which v05's one tile per block beats), and each "
    "rung still writes its own loop.",
    /*source*/
    "Anonymous, Chinese notes on CUDA operator optimization, sections 3.2-3.4 (FP16 GELU, "
    "half2 VecCompute); NVIDIA CUDA Math API, half2 arithmetic functions"};

using v03::kThreads;

template <Kind K>
__global__ void half2_kernel(Args<__half> a, __half* __restrict__ out, size_t n, size_t head) {
  constexpr int V = 8;
  using Vec = v03::Pack<__half, V>;
  const size_t tid = size_t(blockIdx.x) * kThreads + threadIdx.x;
  const size_t stride = size_t(gridDim.x) * kThreads;
  if (tid < head) out[tid] = element<K>(a, tid);
  const size_t vectors = (n - head) / V;
  const Vec* x = reinterpret_cast<const Vec*>(a.x + head);
  Vec* y = reinterpret_cast<Vec*>(out + head);
  for (size_t j = tid; j < vectors; j += stride) {
    const Vec xv = x[j];
    Vec r;
    const auto* x2 = reinterpret_cast<const __half2*>(xv.v);
    auto* r2 = reinterpret_cast<__half2*>(r.v);
    if constexpr (K == Kind::kGelu) {
#pragma unroll
      for (int k = 0; k < V / 2; ++k) r2[k] = GeluOp{}(x2[k]);
    } else if constexpr (K == Kind::kAdd) {
      const Vec av = reinterpret_cast<const Vec*>(a.addend + head)[j];
      const auto* a2 = reinterpret_cast<const __half2*>(av.v);
#pragma unroll
      for (int k = 0; k < V / 2; ++k) r2[k] = AddOp{}(x2[k], a2[k]);
    } else {
      const Vec av = reinterpret_cast<const Vec*>(a.addend + head)[j];
      const auto* a2 = reinterpret_cast<const __half2*>(av.v);
      const v03::MaskPack<V> mv = reinterpret_cast<const v03::MaskPack<V>*>(a.mask + head)[j];
      const FusedOp op{a.scale};
      const int size = a.bias_size;
      int b = static_cast<int>((head + j * V) % static_cast<size_t>(size));
#pragma unroll
      for (int k = 0; k < V / 2; ++k) {
        const __half b0 = a.bias[b];
        b = b + 1 == size ? 0 : b + 1;
        const __half b1 = a.bias[b];
        b = b + 1 == size ? 0 : b + 1;
        r2[k] = op(x2[k], __halves2half2(b0, b1), make_uchar2(mv.b[2 * k], mv.b[2 * k + 1]), a2[k]);
      }
    }
    y[j] = r;
  }
  const size_t tail = head + vectors * V;
  if (tid < n - tail) out[tail + tid] = element<K>(a, tail + tid);
}

template <Kind K>
cudaError_t launch(const Args<__half>& a, __half* out, size_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  constexpr int V = 8;
  const size_t misalign = (reinterpret_cast<uintptr_t>(a.x) % 16) / sizeof(__half);
  const size_t head = std::min(n, (V - misalign) % V);
  const bool vectorizable = v03::aligned(out + head, 16) &&
                            (K == Kind::kGelu || v03::aligned(a.addend + head, 16)) &&
                            (K != Kind::kFused || v03::aligned(a.mask + head, V));
  if (!vectorizable) return v02::launch<K, __half>(a, out, n, stream);
  static const size_t resident = resident_grid((const void*)half2_kernel<K>, kThreads, 0);
  const size_t grid = std::clamp<size_t>(ceil_div(n, size_t(kThreads) * V), 1, resident);
  half2_kernel<K><<<static_cast<unsigned>(grid), kThreads, 0, stream>>>(a, out, n, head);
  return cudaGetLastError();
}

}  // namespace ladder::elementwise::v04
