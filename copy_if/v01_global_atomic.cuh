// copy_if/v01_global_atomic.cuh — copy_if v01: one global atomicAdd per kept element.
// Technique: each thread takes an output slot from one global counter. UNORDERED: slots go in
// the order the atomics reach L2, not input order.
// Changes from v00: the loop becomes a grid-stride loop over the whole GPU; the running count
// becomes an atomic. The compiler combines the lanes of a warp that add to the one address into
// a single atomic (vote, popc, one ATOMG, shuffle): one per warp that holds a kept element.
// Remains (bottleneck): those atomics all hit one address, serialized in its L2 slice.
// Source: A. Adinetz, "CUDA Pro Tip: Optimized Filtering with Warp-Aggregated Atomics" (NVIDIA
// Developer Blog, 2014), the filter's first version; retold in the anonymous Chinese notes on
// CUDA operator optimization.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/device.h"
#include "common/registry.h"
#include "copy_if/copy_if.h"

namespace ladder::copy_if::v01 {

inline constexpr VersionDoc kDoc = {
    1, "v01_global_atomic", "One global atomicAdd per kept element (unordered)",
    /*technique*/
    "One thread per element, in a grid-stride loop; a thread whose element is kept takes the "
    "next output slot with atomicAdd on one global counter and writes there. Order is lost: "
    "slots are handed out in whatever order the atomics arrive at L2.",
    /*changes*/
    "v00's single loop becomes a grid-stride loop over one resident wave of threads; "
    "the running count becomes an atomic.",
    /*remains*/
    "Contention: the source asks for one atomic per kept element; the compiler combines the "
    "lanes of a warp that add to the same address into one, so one per warp of input that "
    "holds a kept element, all on one address. The L2 slice that owns it serializes them, so "
    "at 50% kept the atomics, not the bytes, set the time.",
    /*source*/
    "A. Adinetz, CUDA Pro Tip: Optimized Filtering with Warp-Aggregated Atomics (NVIDIA "
    "Developer Blog, 2014); retold in the anonymous Chinese notes on CUDA operator "
    "optimization (copy_if section)"};

inline constexpr unsigned kThreads = 256;

__global__ void __launch_bounds__(kThreads)
    global_atomic_kernel(const int32_t* __restrict__ in, int32_t* __restrict__ out,
                         unsigned long long* count, size_t n) {
  for (size_t i = size_t(blockIdx.x) * kThreads + threadIdx.x; i < n;
       i += size_t(gridDim.x) * kThreads) {
    const int32_t x = in[i];
    if (KeepPositive{}(x)) out[atomicAdd(count, 1ull)] = x;
  }
}

inline size_t workspace_bytes(size_t) { return 0; }

inline cudaError_t launch(const int32_t* in, int32_t* out, unsigned long long* count, size_t n,
                          void*, cudaStream_t stream) {
  const cudaError_t e = cudaMemsetAsync(count, 0, sizeof(*count), stream);
  if (e != cudaSuccess || n == 0) return e;
  static const size_t resident = resident_grid((const void*)global_atomic_kernel, kThreads, 0);
  const size_t grid = std::clamp<size_t>(ceil_div(n, size_t(kThreads)), 1, resident);
  global_atomic_kernel<<<static_cast<unsigned>(grid), kThreads, 0, stream>>>(in, out, count, n);
  return cudaGetLastError();
}

}  // namespace ladder::copy_if::v01
