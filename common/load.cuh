// common/load.cuh — global-memory loads for data read exactly once.
//
// Introduced by reduce v11; later rungs and other ladders use it by name.
#pragma once

#include <cuda_runtime.h>

namespace ladder {

// One 16-byte load through the read-only path that does not allocate in L1
// (`ld.global.nc.L1::no_allocate.v4`). For streams that are read once, L1 can only lose by
// keeping them: the lines are never reused and would evict data that might be.
// V is any 16-byte vector type (float4, int4, uint4).
// Preconditions: `p` is 16-byte aligned, and nothing writes the data while the kernel runs (the
// non-coherent path may return stale values otherwise).
template <typename V>
__device__ __forceinline__ V load_once(const V* p) {
  static_assert(sizeof(V) == 16 && alignof(V) == 16, "load_once reads 16-byte vectors");
  uint4 u;
  asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(u.x), "=r"(u.y), "=r"(u.z), "=r"(u.w)
               : "l"(p));
  V v;
  static_assert(sizeof(v) == sizeof(u));
  __builtin_memcpy(&v, &u, sizeof(v));
  return v;
}

}  // namespace ladder
