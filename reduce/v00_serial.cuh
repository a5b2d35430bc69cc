// reduce/v00_serial.cuh — reduce v00: the serial baseline, one GPU thread.
#pragma once

#include <cuda_runtime.h>

#include "common/registry.h"

namespace ladder::reduce::v00 {

inline constexpr VersionDoc kDoc = {
    0, "v00_serial", "Serial: one thread adds every element",
    /*technique*/
    "A single GPU thread walks the array, the CPU loop run on the GPU. It accumulates in double: "
    "a float accumulator stops growing at 2^24 (the sum of 25.6M ones comes out as 16777216).",
    /*changes*/ "The starting point.",
    /*remains*/
    "Everything: one thread of one SM does all the work, so the time is n dependent additions "
    "plus a memory latency for every few loads. The GPU's other threads sit idle.",
    /*source*/
    "The baseline of the anonymous Chinese notes on CUDA operator optimization (its reduce "
    "ladder at 25.6M floats, section 2.1), which retell Mark Harris, Optimizing Parallel "
    "Reduction in CUDA (NVIDIA, 2007)"};

// Largest n the benchmark and tests run it at: enough for the ladder size, seconds at most.
inline constexpr size_t kMaxN = size_t(1) << 25;

// Launch: <<<1, 1>>>. in: n floats; out: one float.
__global__ void serial_kernel(const float* __restrict__ in, float* __restrict__ out, size_t n) {
  double sum = 0.0;
  for (size_t i = 0; i < n; ++i) sum += in[i];
  *out = static_cast<float>(sum);
}

inline size_t workspace_bytes(size_t) { return 0; }

inline cudaError_t launch(const float* in, float* out, size_t n, void*, cudaStream_t stream) {
  serial_kernel<<<1, 1, 0, stream>>>(in, out, n);
  return cudaGetLastError();
}

}  // namespace ladder::reduce::v00
