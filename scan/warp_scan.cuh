// scan/warp_scan.cuh — the PTX predicated warp scan, introduced by scan v09.
//
// Device functions only (no kernels), so any translation unit may include it: scan v09-v14 and
// copy_if v05 do.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace ladder::scan {

// Inclusive scan of `v` over the warp; all 32 lanes call it. shfl.sync.up sets p_k when the
// source lane exists (lane >= 2^k) and `@p_k add` adds only then: two instructions a step.
__device__ __forceinline__ int32_t warp_scan_inclusive(int32_t v) {
  int32_t result;
  asm("{\n\t"
      ".reg .s32 r<5>;\n\t"
      ".reg .pred p<5>;\n\t"
      "shfl.sync.up.b32 r0|p0, %1, 1, 0, -1;\n\t"
      "@p0 add.s32 r0, r0, %1;\n\t"
      "shfl.sync.up.b32 r1|p1, r0, 2, 0, -1;\n\t"
      "@p1 add.s32 r1, r1, r0;\n\t"
      "shfl.sync.up.b32 r2|p2, r1, 4, 0, -1;\n\t"
      "@p2 add.s32 r2, r2, r1;\n\t"
      "shfl.sync.up.b32 r3|p3, r2, 8, 0, -1;\n\t"
      "@p3 add.s32 r3, r3, r2;\n\t"
      "shfl.sync.up.b32 r4|p4, r3, 16, 0, -1;\n\t"
      "@p4 add.s32 r4, r4, r3;\n\t"
      "mov.s32 %0, r4;\n\t"
      "}"
      : "=r"(result)
      : "r"(v));
  return result;
}

}  // namespace ladder::scan
