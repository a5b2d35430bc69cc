// common/load.cuh — global-memory loads for data read exactly once.
//
// Introduced by reduce v11; later rungs and other ladders use it by name.
#pragma once

#include <cuda_runtime.h>

namespace ladder {

// One 16-byte load through the read-only path that does not allocate in L1
// (`ld.global.nc.L1::no_allocate.v4.f32`). For streams that are read once, L1 can only lose by
// keeping them: the lines are never reused and would evict data that might be.
// Preconditions: `p` is 16-byte aligned, and nothing writes the data while the kernel runs (the
// non-coherent path may return stale values otherwise).
__device__ __forceinline__ float4 load_once(const float4* p) {
  float4 v;
  asm volatile("ld.global.nc.L1::no_allocate.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "l"(p));
  return v;
}

}  // namespace ladder
