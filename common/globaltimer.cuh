// common/globaltimer.cuh — the GPU's global timer, read in device code.
#pragma once

namespace ladder {

// Nanoseconds of the GPU's global timer (PTX %globaltimer): one clock for every SM, so times taken
// on different SMs compare. Its update interval depends on the GPU (PTX ISA, "Special Registers").
__device__ __forceinline__ unsigned long long globaltimer_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

}  // namespace ladder
