// copy_if/v00_serial.cuh — copy_if v00: one GPU thread walks the array.
// Technique: the sequential loop, on the device so the harness times it like the rest.
// Changes: the starting point.
// Remains (bottleneck): one thread: no parallelism at all; the baseline every rung divides.
// Source: std::copy_if; the serial filter of the anonymous Chinese notes on CUDA operator
// optimization (their copy_if section).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "common/registry.h"
#include "copy_if/copy_if.h"

namespace ladder::copy_if::v00 {

inline constexpr VersionDoc kDoc = {
    0, "v00_serial", "Serial baseline: one thread, one pass, order kept",
    /*technique*/
    "A single thread reads every element and appends each kept one to the output: "
    "std::copy_if, on the GPU.",
    /*changes*/ "The starting point.",
    /*remains*/
    "Everything: one thread of one SM, each load waiting for the one before. The ladder's "
    "job is to spread this loop over the GPU without losing the output's order.",
    /*source*/
    "std::copy_if; the serial filter in the anonymous Chinese notes on CUDA operator "
    "optimization (copy_if section)"};

// Seconds per run at the ladder size; larger sizes are skipped.
inline constexpr size_t kMaxN = kLadderSize;

__global__ void serial_kernel(const int32_t* __restrict__ in, int32_t* __restrict__ out,
                              unsigned long long* count, size_t n) {
  unsigned long long kept = 0;
  for (size_t i = 0; i < n; ++i)
    if (KeepPositive{}(in[i])) out[kept++] = in[i];
  *count = kept;
}

inline size_t workspace_bytes(size_t) { return 0; }

inline cudaError_t launch(const int32_t* in, int32_t* out, unsigned long long* count, size_t n,
                          void*, cudaStream_t stream) {
  serial_kernel<<<1, 1, 0, stream>>>(in, out, count, n);
  return cudaGetLastError();
}

}  // namespace ladder::copy_if::v00
