// sort/tuning/probe_common.cuh — what the standalone sort probes share: a device hash to draw
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

// count_mismatches: common/probe_timer.cuh's, under the name the sort probes use.
using probe_timing::count_mismatches;

}  // namespace ladder::sort::tuning
