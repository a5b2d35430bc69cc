// scan/v00_serial.cuh — scan v00: the serial baseline, one GPU thread.
// Technique: the CPU loop (sum += in[i]; out[i] = sum) run by a single GPU thread.
// Changes: the starting point.
// Remains (bottleneck): everything: one thread does n dependent additions while the GPU idles.
// Source: W. Zhang, "Classic problems in high-performance CUDA: prefix sum" (OneFlow, 2022, in
// Chinese), §1.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "common/registry.h"

namespace ladder::scan::v00 {

inline constexpr VersionDoc kDoc = {
    0, "v00_serial", "Serial: one thread walks the array",
    /*technique*/
    "The CPU loop run by a single GPU thread: sum += in[i]; out[i] = sum.",
    /*changes*/ "The starting point.",
    /*remains*/
    "Everything: one thread does n dependent additions and 2n memory accesses, and the rest of "
    "the GPU sits idle. The loop-carried dependence is what every later rung has to break.",
    /*source*/
    "Will Zhang, Classic problems in high-performance CUDA: prefix sum (OneFlow, 2022, in "
    "Chinese), §1 (PrefixSum on the CPU)"};

// Largest n the benchmark and tests run it at: the ladder size, a few seconds at most.
inline constexpr size_t kMaxN = size_t(1) << 25;

// Launch: <<<1, 1>>>. in, out: n int32 values.
__global__ void serial_kernel(const int32_t* __restrict__ in, int32_t* __restrict__ out, size_t n) {
  int32_t sum = 0;
  for (size_t i = 0; i < n; ++i) {
    sum += in[i];
    out[i] = sum;
  }
}

inline size_t workspace_bytes(size_t) { return 0; }

inline cudaError_t launch(const int32_t* in, int32_t* out, size_t n, void*, cudaStream_t stream) {
  serial_kernel<<<1, 1, 0, stream>>>(in, out, n);
  return cudaGetLastError();
}

}  // namespace ladder::scan::v00
