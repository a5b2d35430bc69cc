// elementwise/v07_fastdivmod_broadcast.cuh — elementwise v07 (fused operators only): v05 with the
// bias read through a broadcast read whose index math is a FastDivMod.
// Technique: the remainder of each vector's position by the bias length as a multiply-high, an
// add and a shift for the quotient, then one multiply-subtract (common/fast_divmod.h), on 32-bit
// positions.
// Changes from v05: kps::ReadDataBroadcast instead of kps::ReadDataModulo: no 64-bit `%` (a call
// to a software division routine) per vector; and, when n is a multiple of the vector width, the
// partial last tile read and written by whole vectors (Partial below).
// Remains (bottleneck): the memory system, as in v05; the index math was never the limit at
// large n, so what this rung shows is what the division cost in instructions, not in time. An
// input under one tile that is not a whole number of vectors keeps the element path's second
// DRAM round trip.
// Source: PaddlePaddle, CUDA Kernel Primitive API documentation (FastDivMod, ReadDataBc); Torbjorn
// Granlund and Peter L. Montgomery, "Division by Invariant Integers using Multiplication" (PLDI
// 1994).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/device.h"
#include "common/fast_divmod.h"
#include "common/kernel_primitives.cuh"
#include "common/registry.h"
#include "elementwise/ops.cuh"
#include "elementwise/v05_primitives.cuh"  // vector_size, kThreads, and the path past 2^32

namespace ladder::elementwise::v07 {

inline constexpr VersionDoc kDoc = {
    7, "v07_fastdivmod_broadcast",
    "v05 with a FastDivMod broadcast read of the bias (fused operators)",
    /*technique*/
    "The bias index is the element's position modulo the bias length. v05 computes it once per "
    "vector with a 64-bit `%`, which the GPU has no instruction for (it calls a division "
    "routine). Here the host builds a FastDivMod for the bias length once per launch (magic "
    "multiplier and shift, common/fast_divmod.h) and the kernel's broadcast read "
    "(kps::ReadDataBroadcast, after Paddle's ReadDataBc) takes the remainder with one "
    "multiply-high, "
    "one add, one shift and one multiply-subtract on 32-bit positions.",
    /*changes*/
    "kps::ReadDataModulo becomes kps::ReadDataBroadcast; the kernel is otherwise v05, but for "
    "the last, partial tile when n is a whole number of vectors: there each thread reads and "
    "writes its vector whole, where v05 goes element by element (as compiled, part of those "
    "loads issue after the first store: a second DRAM round trip on an input under one tile). "
    "Inputs of 2^32 elements or more keep v05's 64-bit path.",
    /*remains*/
    "The memory system, as in v05. The division was a software routine per vector in a kernel "
    "that waits on DRAM; whether that shows in time is what the measurement says. An "
    "input under one tile that is not a whole number of vectors keeps the element path's second "
    "DRAM round trip.",
    /*source*/
    "PaddlePaddle, CUDA Kernel Primitive API documentation (FastDivMod; ReadDataBc's index "
    "math); Torbjorn Granlund and Peter L. Montgomery, 'Division by Invariant Integers using "
    "Multiplication', PLDI 1994"};

template <typename T, int VecSize, bool IsBoundary>
__device__ __forceinline__ void tile(const Args<T>& a, const FastDivMod& bias_size, T* out,
                                     uint32_t first, int num) {
  constexpr int NX = VecSize * v05::kUnroll;
  T x[NX] = {}, y[NX], add[NX] = {}, bias[NX] = {};
  uint8_t mask[NX] = {};
  kps::ReadData<T, NX, VecSize, IsBoundary>(x, a.x + first, num);
  kps::ReadData<T, NX, VecSize, IsBoundary>(add, a.addend + first, num);
  kps::ReadData<uint8_t, NX, VecSize, IsBoundary>(mask, a.mask + first, num);
  kps::ReadDataBroadcast<T, NX, VecSize, IsBoundary>(bias, a.bias, bias_size, first, num);
  kps::ElementwiseAny(y, FusedOp{a.scale}, x, bias, mask, add);
  kps::WriteData<T, NX, VecSize, IsBoundary>(out + first, y, num);
}

// How the last, partial tile is read and written (the measurements are in
// elementwise/lab/LAB_NOTES.md):
//   kElements: every thread element by element (kps's IsBoundary path). As compiled, part of its
//     loads issue after its first store: a second DRAM round trip on an input of under one tile.
//   kWholeVectors: a thread whose vector lies wholly inside n runs the full-tile code for it (one
//     vector load per array, then one vector store); a thread whose vector straddles n goes
//     element by element. With kUnroll = 1 a thread owns one vector of the tile, so the full-tile
//     code touches nothing else. A warp that holds both kinds of thread runs the two paths one
//     after the other, each with its own round trip, which is slower than kElements; so launch()
//     takes kWholeVectors only when n is a whole number of vectors (no thread straddles n).
//   kWholeVectorsPhased (a candidate, not launched): kWholeVectors with the choice made per phase
//     (loads, then arithmetic, then stores), so that a warp holding both kinds of thread issues
//     every load of both before it waits on any. The SASS does that, and it was slower still.
enum class Partial { kElements, kWholeVectors, kWholeVectorsPhased };

template <typename T, int VecSize>
__device__ __forceinline__ void partial_tile_phased(const Args<T>& a, const FastDivMod& bias_size,
                                                    T* out, uint32_t first, int num) {
  static_assert(v05::kUnroll == 1, "one vector per thread and tile");
  constexpr int kTile = v05::kThreads * VecSize;
  const int i0 = static_cast<int>(threadIdx.x) * VecSize;
  if (i0 >= num) return;
  const bool whole = i0 + VecSize <= num;
  T x[VecSize] = {}, y[VecSize], add[VecSize] = {}, bias[VecSize] = {};
  uint8_t mask[VecSize] = {};
  if (whole) {
    kps::ReadData<T, VecSize, VecSize, false>(x, a.x + first, kTile);
    kps::ReadData<T, VecSize, VecSize, false>(add, a.addend + first, kTile);
    kps::ReadData<uint8_t, VecSize, VecSize, false>(mask, a.mask + first, kTile);
  } else {
    kps::ReadData<T, VecSize, VecSize, true>(x, a.x + first, num);
    kps::ReadData<T, VecSize, VecSize, true>(add, a.addend + first, num);
    kps::ReadData<uint8_t, VecSize, VecSize, true>(mask, a.mask + first, num);
  }
  kps::ReadDataBroadcast<T, VecSize, VecSize, true>(bias, a.bias, bias_size, first, num);
  kps::ElementwiseAny(y, FusedOp{a.scale}, x, bias, mask, add);
  if (whole)
    kps::WriteData<T, VecSize, VecSize, false>(out + first, y, kTile);
  else
    kps::WriteData<T, VecSize, VecSize, true>(out + first, y, num);
}

// One tile per block (v05's grid); n < 2^32, so every position fits 32 bits.
template <typename T, int VecSize, Partial PARTIAL = Partial::kElements>
__global__ void __launch_bounds__(v05::kThreads)
    broadcast_kernel(Args<T> a, FastDivMod bias_size, T* __restrict__ out, uint32_t n) {
  constexpr uint32_t kTile = v05::kThreads * VecSize * v05::kUnroll;
  const uint32_t first = blockIdx.x * kTile;
  if (n - first >= kTile) {
    tile<T, VecSize, false>(a, bias_size, out, first, static_cast<int>(kTile));
  } else if constexpr (PARTIAL == Partial::kWholeVectors) {
    static_assert(v05::kUnroll == 1, "one vector per thread and tile");
    const uint32_t num = n - first, i0 = threadIdx.x * VecSize;
    if (i0 + VecSize <= num)
      tile<T, VecSize, false>(a, bias_size, out, first, static_cast<int>(kTile));
    else if (i0 < num)
      tile<T, VecSize, true>(a, bias_size, out, first, static_cast<int>(num));
  } else if constexpr (PARTIAL == Partial::kWholeVectorsPhased) {
    partial_tile_phased<T, VecSize>(a, bias_size, out, first, static_cast<int>(n - first));
  } else {
    tile<T, VecSize, true>(a, bias_size, out, first, static_cast<int>(n - first));
  }
}

template <typename T, int VecSize>
cudaError_t launch_with(const Args<T>& a, T* out, size_t n, cudaStream_t stream) {
  const size_t grid = ceil_div(n, size_t(v05::kThreads) * VecSize * v05::kUnroll);  // < 2^31
  const FastDivMod bias_size(static_cast<uint32_t>(a.bias_size));
  if (n % VecSize == 0)
    broadcast_kernel<T, VecSize, Partial::kWholeVectors>
        <<<static_cast<unsigned>(grid), v05::kThreads, 0, stream>>>(a, bias_size, out,
                                                                    static_cast<uint32_t>(n));
  else
    broadcast_kernel<T, VecSize, Partial::kElements>
        <<<static_cast<unsigned>(grid), v05::kThreads, 0, stream>>>(a, bias_size, out,
                                                                    static_cast<uint32_t>(n));
  return cudaGetLastError();
}

// The elementwise launcher contract (elementwise/elementwise.h), fused operators only;
// bias_size >= 1. n >= 2^32: v05.
template <Kind K, typename T>
cudaError_t launch(const Args<T>& a, T* out, size_t n, cudaStream_t stream) {
  static_assert(K == Kind::kFused, "v07 is a rung of the fused operators only");
  if (n == 0) return cudaSuccess;
  if (n > 0xffffffffu) return v05::launch<K, T>(a, out, n, stream);
  switch (v05::vector_size<K>(a, out)) {
    case 8:
      if constexpr (sizeof(T) == 2) return launch_with<T, 8>(a, out, n, stream);
      [[fallthrough]];
    case 4:
      return launch_with<T, 4>(a, out, n, stream);
    case 2:
      return launch_with<T, 2>(a, out, n, stream);
    default:
      return launch_with<T, 1>(a, out, n, stream);
  }
}

}  // namespace ladder::elementwise::v07
