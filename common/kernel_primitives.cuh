// common/kernel_primitives.cuh — block-level kernel primitives: read a tile, compute on
// registers, write a tile.
//
// Written anew after PaddlePaddle's CUDA Kernel Primitive API (PaddlePaddle documentation, in
// Chinese; common/GLOSSARY.md#references): a kernel is a loop over tiles of blockDim.x * NX
// elements, and each step is one of these calls, so the memory access pattern (vector width,
// boundary handling) is decided once, here, and the operation is a functor. Introduced by
// elementwise v05.
//
// Layout of a tile (NX elements per thread, VecSize elements per vector load): thread t holds
// the NX / VecSize vectors with tile-relative vector index u * blockDim.x + t, u = 0, 1, ...,
// so each vector load instruction of a warp reads 32 consecutive vectors (coalesced).
// Register element r = u * VecSize + k is tile element (u * blockDim.x + t) * VecSize + k.
//
// IsBoundary = false: the whole tile exists and every pointer passed is aligned to
// VecSize * sizeof(T) bytes: one vector instruction per vector. IsBoundary = true: only the
// first `num` elements of the tile exist: element-wise guarded accesses, for the last tile.
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "common/fast_divmod.h"

namespace ladder::kps {

template <typename T, int VecSize>
struct alignas(sizeof(T) * VecSize) Vector {
  T v[VecSize];
};

// Tile-relative index of register element r of this thread.
template <int VecSize>
__device__ __forceinline__ int tile_index(int r) {
  return ((r / VecSize) * static_cast<int>(blockDim.x) + static_cast<int>(threadIdx.x)) * VecSize +
         r % VecSize;
}

// dst[r] = tile[tile_index(r)], for the NX register elements of this thread.
template <typename T, int NX, int VecSize, bool IsBoundary>
__device__ __forceinline__ void ReadData(T (&dst)[NX], const T* tile, int num) {
  static_assert(NX % VecSize == 0, "NX: whole vectors");
  if constexpr (!IsBoundary) {
    using V = Vector<T, VecSize>;
    const V* src = reinterpret_cast<const V*>(tile);
#pragma unroll
    for (int u = 0; u < NX / VecSize; ++u) {
      const V v = src[u * blockDim.x + threadIdx.x];
#pragma unroll
      for (int k = 0; k < VecSize; ++k) dst[u * VecSize + k] = v.v[k];
    }
  } else {
#pragma unroll
    for (int r = 0; r < NX; ++r) {
      const int i = tile_index<VecSize>(r);
      if (i < num) dst[r] = tile[i];
    }
  }
}

// dst[r] = table[(first + tile_index(r)) % size]: a broadcast operand such as a bias, indexed by
// the element's global position `first + ...` (first = the tile's first element).
template <typename T, int NX, int VecSize, bool IsBoundary>
__device__ __forceinline__ void ReadDataModulo(T (&dst)[NX], const T* table, int size, size_t first,
                                               int num) {
#pragma unroll
  for (int u = 0; u < NX / VecSize; ++u) {
    const int i0 = tile_index<VecSize>(u * VecSize);
    int j = static_cast<int>((first + i0) % static_cast<size_t>(size));
#pragma unroll
    for (int k = 0; k < VecSize; ++k) {
      if (!IsBoundary || i0 + k < num) dst[u * VecSize + k] = table[j];
      j = j + 1 == size ? 0 : j + 1;
    }
  }
}

// ReadDataModulo with the index math of the Paddle API's ReadDataBc: the position's remainder by
// the table size through a FastDivMod (a multiply-high, an add and a shift) instead of a 64-bit
// `%`. Positions are 32-bit: first + the tile's last index < 2^32 (the caller checks n).
template <typename T, int NX, int VecSize, bool IsBoundary>
__device__ __forceinline__ void ReadDataBroadcast(T (&dst)[NX], const T* table,
                                                  const FastDivMod& size, uint32_t first, int num) {
#pragma unroll
  for (int u = 0; u < NX / VecSize; ++u) {
    const int i0 = tile_index<VecSize>(u * VecSize);
    uint32_t j = size.mod(first + static_cast<uint32_t>(i0));
#pragma unroll
    for (int k = 0; k < VecSize; ++k) {
      if (!IsBoundary || i0 + k < num) dst[u * VecSize + k] = table[j];
      j = j + 1 == size.divisor ? 0 : j + 1;
    }
  }
}

// tile[tile_index(r)] = src[r].
template <typename T, int NX, int VecSize, bool IsBoundary>
__device__ __forceinline__ void WriteData(T* tile, const T (&src)[NX], int num) {
  if constexpr (!IsBoundary) {
    using V = Vector<T, VecSize>;
    V* dst = reinterpret_cast<V*>(tile);
#pragma unroll
    for (int u = 0; u < NX / VecSize; ++u) {
      V v;
#pragma unroll
      for (int k = 0; k < VecSize; ++k) v.v[k] = src[u * VecSize + k];
      dst[u * blockDim.x + threadIdx.x] = v;
    }
  } else {
#pragma unroll
    for (int r = 0; r < NX; ++r) {
      const int i = tile_index<VecSize>(r);
      if (i < num) tile[i] = src[r];
    }
  }
}

// Two adjacent register elements as one paired value, for functors with a two-lane overload
// (half -> __half2, byte -> uchar2). Types without a pair have type void.
template <typename T>
struct PairOf {
  using type = void;
};
template <>
struct PairOf<__half> {
  using type = __half2;
  static __device__ __forceinline__ __half2 make(const __half* p) {
    return __halves2half2(p[0], p[1]);
  }
};
template <>
struct PairOf<uint8_t> {
  using type = uchar2;
  static __device__ __forceinline__ uchar2 make(const uint8_t* p) {
    return make_uchar2(p[0], p[1]);
  }
};

// out[r] = op(ins[r]...) for the NX register elements, any number of inputs of any types.
// Where the output is half, NX is even and the functor takes every input as a pair (returning
// __half2), it is called once per two elements: that is how fp16 functors reach the __half2
// intrinsics.
template <typename OutT, int NX, typename Op, typename... InT>
__device__ __forceinline__ void ElementwiseAny(OutT (&out)[NX], Op op, const InT (&... ins)[NX]) {
  constexpr bool kPaired = std::is_same_v<OutT, __half> && NX % 2 == 0 &&
                           (!std::is_void_v<typename PairOf<InT>::type> && ...) &&
                           std::is_invocable_r_v<__half2, Op, typename PairOf<InT>::type...>;
  if constexpr (kPaired) {
#pragma unroll
    for (int r = 0; r < NX; r += 2) {
      const __half2 y = op(PairOf<InT>::make(ins + r)...);
      out[r] = __low2half(y);
      out[r + 1] = __high2half(y);
    }
  } else {
#pragma unroll
    for (int r = 0; r < NX; ++r) out[r] = op(ins[r]...);
  }
}

// The one- and two-input forms of ElementwiseAny, named as in the Paddle API.
template <typename InT, typename OutT, int NX, typename Op>
__device__ __forceinline__ void ElementwiseUnary(OutT (&out)[NX], const InT (&in)[NX], Op op) {
  ElementwiseAny(out, op, in);
}
template <typename InT, typename OutT, int NX, typename Op>
__device__ __forceinline__ void ElementwiseBinary(OutT (&out)[NX], const InT (&a)[NX],
                                                  const InT (&b)[NX], Op op) {
  ElementwiseAny(out, op, a, b);
}

}  // namespace ladder::kps
