// sort/v01_bitonic_global.cuh — sort v01: bitonic sorting network, one launch per stage.
// Technique: Batcher's bitonic network over the keys padded to a power of two with 0xFFFFFFFF:
// for each stage (k, j), one launch in which thread t compare-swaps the t-th pair (i, i + j).
// Changes from v00: one thread becomes N/2 threads per stage; the compares do not depend on the
// keys (the stores do: a pair is written only when it swaps).
// Remains (bottleneck): O(n log^2 n) work, 406 stages at 2^28, each a full pass over DRAM.
// Source: K. E. Batcher, "Sorting networks and their applications", AFIPS Spring Joint Computer
// Conference, 1968; the block bitonic Sort of PaddlePaddle's "CUDA Kernel Primitive API"
// documentation (in Chinese).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/device.h"
#include "common/registry.h"

namespace ladder::sort::v01 {

inline constexpr VersionDoc kDoc = {
    1, "v01_bitonic_global", "Bitonic sorting network in global memory, one launch per stage",
    /*technique*/
    "The keys are copied into a power-of-two buffer padded with 0xFFFFFFFF (which sorts last). "
    "For k = 2, 4, ..., N and j = k/2, k/4, ..., 1, one launch compares every i with i ^ j and "
    "swaps them into the order the bit i & k asks for. Data-independent: the same compares for "
    "any input.",
    /*changes*/ "v00's one thread becomes N/2 threads per stage.",
    /*remains*/
    "O(n log^2 n) compare-swaps: log2(N) (log2(N) + 1) / 2 stages (406 at 2^28), each reading "
    "and writing every key in global memory.",
    /*source*/
    "Batcher, \"Sorting networks and their applications\", AFIPS 1968; PaddlePaddle's "
    "CUDA Kernel Primitive API (block bitonic Sort)"};

inline constexpr unsigned kThreads = 256;
inline constexpr size_t kMaxN = size_t(1) << 30;

inline size_t padded(size_t n) {
  size_t p = 1;
  while (p < n) p *= 2;
  return p;
}

__global__ void pad_kernel(const uint32_t* __restrict__ in, uint32_t* __restrict__ buf, size_t n,
                           size_t padded_n) {
  for (size_t i = size_t(blockIdx.x) * kThreads + threadIdx.x; i < padded_n;
       i += size_t(gridDim.x) * kThreads)
    buf[i] = i < n ? in[i] : 0xFFFFFFFFu;
}

// One (k, j) stage: the pair (i, i ^ j) with i < i ^ j is put in ascending order when
// i & k == 0, descending otherwise. One thread per pair.
__global__ void stage_kernel(uint32_t* buf, size_t padded_n, size_t k, size_t j) {
  for (size_t t = size_t(blockIdx.x) * kThreads + threadIdx.x; t < padded_n / 2;
       t += size_t(gridDim.x) * kThreads) {
    const size_t i = 2 * t - (t & (j - 1));  // the t-th index whose bit j is clear
    const size_t p = i + j;
    const uint32_t a = buf[i], b = buf[p];
    const bool ascending = (i & k) == 0;
    if ((a > b) == ascending) {
      buf[i] = b;
      buf[p] = a;
    }
  }
}

inline size_t workspace_bytes(size_t n) { return padded(n) * sizeof(uint32_t); }

inline unsigned grid_for(size_t items) {
  return static_cast<unsigned>(std::clamp<size_t>(ceil_div(items, size_t(kThreads)), 1, 1 << 20));
}

inline cudaError_t launch(const uint32_t* in, uint32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  const size_t N = padded(n);
  uint32_t* buf = static_cast<uint32_t*>(ws);
  pad_kernel<<<grid_for(N), kThreads, 0, stream>>>(in, buf, n, N);
  for (size_t k = 2; k <= N; k *= 2)
    for (size_t j = k / 2; j >= 1; j /= 2)
      stage_kernel<<<grid_for(N / 2), kThreads, 0, stream>>>(buf, N, k, j);
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return e;
  return cudaMemcpyAsync(out, buf, n * sizeof(uint32_t), cudaMemcpyDeviceToDevice, stream);
}

}  // namespace ladder::sort::v01
