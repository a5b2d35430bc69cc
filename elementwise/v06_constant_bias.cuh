// elementwise/v06_constant_bias.cuh — elementwise v06 (fused operators only): v05 with the bias
// in __constant__ memory. A lesson in when the constant cache helps: here it does not.
// Technique: the bias table copied into constant memory before each launch, read with LDC.
// Changes from v05: the bias read, and nothing else (same tiles, same 64-bit `%`).
// Remains (bottleneck): the constant cache serves one address per warp per cycle; the lanes of
// a warp read different bias entries, so each read is split into as many requests as there are
// distinct addresses.
// Source: CUDA C++ Programming Guide, "Device Memory Accesses: Constant Memory"; the anonymous
// Chinese article "A review of CUDA basics" (constant memory, and a 1-D stencil with its taps
// there).
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/device.h"
#include "common/kernel_primitives.cuh"
#include "common/registry.h"
#include "elementwise/ops.cuh"
#include "elementwise/v05_primitives.cuh"  // vector_size, kThreads, and the path for large biases

namespace ladder::elementwise::v06 {

inline constexpr VersionDoc kDoc = {
    6, "v06_constant_bias", "v05 with the bias table in __constant__ memory (fused operators)",
    /*technique*/
    "The fused operator's bias table lives in __constant__ memory: the launcher copies it there "
    "(cudaMemcpyToSymbolAsync, device to device, on the stream) before the kernel, and the "
    "kernel reads it through the constant cache (LDC) instead of global loads. Everything else "
    "is v05.",
    /*changes*/
    "The bias read only. The constant cache broadcasts: when every lane of a warp reads the "
    "same address, one request serves all 32. Here lane l reads the entries of its own vector, "
    "32 different addresses per warp-wide read, which the constant cache serves one after "
    "another.",
    /*remains*/
    "Serialized constant reads on top of v05's memory traffic. Constant memory wins where a "
    "warp reads one value (a scale, a filter tap in a stencil, a kernel argument); a table "
    "indexed by the lane is what global (or shared) memory is for.",
    /*source*/
    "CUDA C++ Programming Guide, 'Device Memory Accesses: Constant Memory'; anonymous, 'A "
    "review of CUDA basics' (Chinese; constant memory and a 1-D stencil with its taps there)"};

// The largest bias this rung keeps in constant memory (elements). Constant memory is 64 KB per
// module; larger biases take v05's path.
inline constexpr int kMaxBias = 4096;

__constant__ float c_bias_f32[kMaxBias];
__constant__ uint16_t c_bias_f16[kMaxBias];  // __half bits (a __constant__ __half would need a
                                             // trivially constructible type)

template <typename T>
__device__ __forceinline__ T constant_bias(int j) {
  if constexpr (sizeof(T) == 4)
    return c_bias_f32[j];
  else
    return __ushort_as_half(c_bias_f16[j]);
}

// v05's tile for the fused operator, the bias from constant memory.
template <typename T, int VecSize, bool IsBoundary>
__device__ __forceinline__ void tile(const Args<T>& a, T* out, size_t first, int num) {
  constexpr int NX = VecSize * v05::kUnroll;
  T x[NX] = {}, y[NX], add[NX] = {}, bias[NX] = {};
  uint8_t mask[NX] = {};
  kps::ReadData<T, NX, VecSize, IsBoundary>(x, a.x + first, num);
  kps::ReadData<T, NX, VecSize, IsBoundary>(add, a.addend + first, num);
  kps::ReadData<uint8_t, NX, VecSize, IsBoundary>(mask, a.mask + first, num);
#pragma unroll
  for (int u = 0; u < NX / VecSize; ++u) {  // kps::ReadDataModulo, from constant memory
    const int i0 = kps::tile_index<VecSize>(u * VecSize);
    int j = static_cast<int>((first + i0) % static_cast<size_t>(a.bias_size));
#pragma unroll
    for (int k = 0; k < VecSize; ++k) {
      if (!IsBoundary || i0 + k < num) bias[u * VecSize + k] = constant_bias<T>(j);
      j = j + 1 == a.bias_size ? 0 : j + 1;
    }
  }
  kps::ElementwiseAny(y, FusedOp{a.scale}, x, bias, mask, add);
  kps::WriteData<T, NX, VecSize, IsBoundary>(out + first, y, num);
}

template <typename T, int VecSize>
__global__ void __launch_bounds__(v05::kThreads)
    constant_bias_kernel(Args<T> a, T* __restrict__ out, size_t n) {
  constexpr size_t kTile = size_t(v05::kThreads) * VecSize * v05::kUnroll;
  for (size_t first = blockIdx.x * kTile; first < n; first += size_t(gridDim.x) * kTile) {
    if (n - first >= kTile)
      tile<T, VecSize, false>(a, out, first, static_cast<int>(kTile));
    else
      tile<T, VecSize, true>(a, out, first, static_cast<int>(n - first));
  }
}

template <typename T, int VecSize>
cudaError_t launch_with(const Args<T>& a, T* out, size_t n, cudaStream_t stream) {
  const size_t grid = std::clamp<size_t>(
      ceil_div(n, size_t(v05::kThreads) * VecSize * v05::kUnroll), 1, 0x7fffffff);
  constant_bias_kernel<T, VecSize>
      <<<static_cast<unsigned>(grid), v05::kThreads, 0, stream>>>(a, out, n);
  return cudaGetLastError();
}

// The elementwise launcher contract (elementwise/elementwise.h), fused operators only. The copy
// into constant memory is part of every launch, timed with it: the table may have changed since
// the last one. Constant memory is one per module, so two launches with different biases on two
// streams at once would race; the suite launches one at a time. bias_size > kMaxBias: v05.
template <Kind K, typename T>
cudaError_t launch(const Args<T>& a, T* out, size_t n, cudaStream_t stream) {
  static_assert(K == Kind::kFused, "v06 is a rung of the fused operators only");
  if (n == 0) return cudaSuccess;
  if (a.bias_size > kMaxBias) return v05::launch<K, T>(a, out, n, stream);
  const size_t bytes = size_t(a.bias_size) * sizeof(T);
  const cudaError_t e =
      sizeof(T) == 4
          ? cudaMemcpyToSymbolAsync(c_bias_f32, a.bias, bytes, 0, cudaMemcpyDeviceToDevice, stream)
          : cudaMemcpyToSymbolAsync(c_bias_f16, a.bias, bytes, 0, cudaMemcpyDeviceToDevice, stream);
  if (e != cudaSuccess) return e;
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

}  // namespace ladder::elementwise::v06
