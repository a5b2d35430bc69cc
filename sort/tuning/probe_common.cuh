// sort/tuning/probe_common.cuh — what the standalone sort probes share: a device hash to draw
// keys from and a kernel that counts where two key arrays differ. Not part of the binary.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace ladder::sort::tuning {

// splitmix64's finalizer: a well-mixed 32-bit value from any 64-bit input.
__device__ __forceinline__ uint32_t mix(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return static_cast<uint32_t>(x ^ (x >> 31));
}

// Adds to *count the number of i < n with a[i] != b[i] (grid-stride; *count zeroed by the caller).
__global__ void count_mismatches(const uint32_t* a, const uint32_t* b, size_t n,
                                 unsigned long long* count) {
  unsigned long long c = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    c += a[i] != b[i];
  if (c) atomicAdd(count, c);
}

}  // namespace ladder::sort::tuning
