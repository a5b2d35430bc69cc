// sort/lab/probe_common.cuh — what the standalone sort probes share: a device hash to draw
// keys from, and common/probe_timer.cuh's kernel that counts where two arrays differ. Not part of
// the binary.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "common/probe_timer.cuh"

namespace ladder::sort::tuning {

// splitmix64's finalizer: a well-mixed 32-bit value from any 64-bit input.
__device__ __forceinline__ uint32_t mix(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return static_cast<uint32_t>(x ^ (x >> 31));
}

// The pairs probes' input: key i a hash of i (uniform), value i = i.
__global__ void fill_pairs(uint32_t* k, uint32_t* v, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    k[i] = mix((i + 1) * 0x9e3779b97f4a7c15ull);
    v[i] = static_cast<uint32_t>(i);
  }
}

// count_mismatches: common/probe_timer.cuh's, under the name the sort probes use.
using probe_timing::count_mismatches;

}  // namespace ladder::sort::tuning
