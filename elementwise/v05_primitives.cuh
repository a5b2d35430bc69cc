// elementwise/v05_primitives.cuh — elementwise v05: kernel primitives, the operation a functor.
// Technique: ReadData / Elementwise* / WriteData over tiles (common/kernel_primitives.cuh), one
// tile of 256 x VecSize elements per block, the vector width the widest every pointer allows.
// Changes from v03/v04: the hand-written loops become primitive calls with the operation as a
// functor, and the grid covers the array (one block per tile) instead of a resident grid looping
// over it; on the H200 the grid is what closes most of the gap to the copy ceiling left after
// v03/v04.
// Remains (bottleneck): the memory system itself; what is left is the launch and the last tile,
// which matter only at small sizes.
// Source: PaddlePaddle, CUDA Kernel Primitive API documentation (ReadData, WriteData,
// ElementwiseAny, GetVectorizedSize).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/device.h"
#include "common/kernel_primitives.cuh"  // ReadData, WriteData, ElementwiseAny/Unary/Binary
#include "common/registry.h"
#include "elementwise/ops.cuh"

namespace ladder::elementwise::v05 {

inline constexpr VersionDoc kDoc = {
    5, "v05_primitives", "Kernel primitives: ReadData / Elementwise* / WriteData with functors",
    /*technique*/
    "One kernel shape for every operation: tiles of 256 x NX elements, one per block, each "
    "read with kps::ReadData, computed with kps::ElementwiseUnary/Binary/Any and the "
    "operation's functor, written with kps::WriteData. The vector width is the widest every "
    "pointer's alignment allows (16 bytes down to one element), chosen once by the launcher.",
    /*changes*/
    "v03/v04's hand-written loops become calls into common/kernel_primitives.cuh; fp16 "
    "functors reach their __half2 overloads through ElementwiseAny. And the grid covers the "
    "array, one tile per block, instead of v02-v04's resident grid looping over it: on the "
    "H200 that alone closes most of the gap to the copy ceiling left after v03/v04.",
    /*remains*/
    "The memory system. Each byte is moved once; what is left between this and the copy "
    "ceiling is the launch and the tail tile.",
    /*source*/
    "PaddlePaddle, CUDA Kernel Primitive API documentation (ReadData, WriteData, "
    "ElementwiseAny, GetVectorizedSize)"};

inline constexpr unsigned kThreads = 256;
// Vectors per thread per tile, of each input. Of 1, 2, 4 and 8, timed at 2^28 on the H200, 1 was
// fastest for fp16 and as fast as any for fp32 (elementwise/lab/LAB_NOTES.md).
inline constexpr int kUnroll = 1;

// One tile of `num` elements starting at element `first`.
template <Kind K, typename T, int VecSize, bool IsBoundary>
__device__ __forceinline__ void tile(const Args<T>& a, T* out, size_t first, int num) {
  constexpr int NX = VecSize * kUnroll;
  T x[NX] = {}, y[NX];
  kps::ReadData<T, NX, VecSize, IsBoundary>(x, a.x + first, num);
  if constexpr (K == Kind::kGelu) {
    kps::ElementwiseUnary(y, x, GeluOp{});
  } else if constexpr (K == Kind::kAdd) {
    T b[NX] = {};
    kps::ReadData<T, NX, VecSize, IsBoundary>(b, a.addend + first, num);
    kps::ElementwiseBinary(y, x, b, AddOp{});
  } else {
    T add[NX] = {}, bias[NX] = {};
    uint8_t mask[NX] = {};
    kps::ReadData<T, NX, VecSize, IsBoundary>(add, a.addend + first, num);
    kps::ReadData<uint8_t, NX, VecSize, IsBoundary>(mask, a.mask + first, num);
    kps::ReadDataModulo<T, NX, VecSize, IsBoundary>(bias, a.bias, a.bias_size, first, num);
    kps::ElementwiseAny(y, FusedOp{a.scale}, x, bias, mask, add);
  }
  kps::WriteData<T, NX, VecSize, IsBoundary>(out + first, y, num);
}

template <Kind K, typename T, int VecSize>
__global__ void __launch_bounds__(kThreads)
    primitives_kernel(Args<T> a, T* __restrict__ out, size_t n) {
  constexpr size_t kTile = size_t(kThreads) * VecSize * kUnroll;
  for (size_t first = blockIdx.x * kTile; first < n; first += size_t(gridDim.x) * kTile) {
    if (n - first >= kTile)
      tile<K, T, VecSize, false>(a, out, first, static_cast<int>(kTile));
    else
      tile<K, T, VecSize, true>(a, out, first, static_cast<int>(n - first));
  }
}

// One block per tile; the kernel's loop runs more than once only past 2^31 - 1 tiles.
template <Kind K, typename T, int VecSize>
cudaError_t launch_with(const Args<T>& a, T* out, size_t n, cudaStream_t stream) {
  const size_t grid =
      std::clamp<size_t>(ceil_div(n, size_t(kThreads) * VecSize * kUnroll), 1, 0x7fffffff);
  primitives_kernel<K, T, VecSize><<<static_cast<unsigned>(grid), kThreads, 0, stream>>>(a, out, n);
  return cudaGetLastError();
}

// The widest vector (in elements) that every array's alignment allows: Paddle's
// GetVectorizedSize. Tiles start at multiples of 256 x NX elements, so aligned bases stay
// aligned.
template <Kind K, typename T>
int vector_size(const Args<T>& a, const T* out) {
  auto ok = [&](int v) {
    auto aligned = [](const void* p, size_t bytes) {
      return reinterpret_cast<uintptr_t>(p) % bytes == 0;
    };
    return aligned(a.x, v * sizeof(T)) && aligned(out, v * sizeof(T)) &&
           (K == Kind::kGelu || aligned(a.addend, v * sizeof(T))) &&
           (K != Kind::kFused || aligned(a.mask, v));
  };
  for (int v = 16 / sizeof(T); v > 1; v /= 2)
    if (ok(v)) return v;
  return 1;
}

template <Kind K, typename T>
cudaError_t launch(const Args<T>& a, T* out, size_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  switch (vector_size<K>(a, out)) {
    case 8:
      if constexpr (sizeof(T) == 2) return launch_with<K, T, 8>(a, out, n, stream);
      [[fallthrough]];
    case 4:
      return launch_with<K, T, 4>(a, out, n, stream);
    case 2:
      return launch_with<K, T, 2>(a, out, n, stream);
    default:
      return launch_with<K, T, 1>(a, out, n, stream);
  }
}

}  // namespace ladder::elementwise::v05
