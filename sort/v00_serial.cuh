// sort/v00_serial.cuh — sort v00: one GPU thread, heapsort.
// Technique: the textbook O(n log n) in-place heapsort, run by a single thread: build a max-heap,
// then move the maximum to the end n - 1 times.
// Changes: the starting point of the ladder.
// Remains (bottleneck): one thread of one SM, every comparison a dependent global load; it runs
// up to 2^16 keys only. Everything that follows spreads the work over the GPU.
// Source: J. W. J. Williams, "Algorithm 232: Heapsort", Communications of the ACM 7(6), 1964.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "common/registry.h"

namespace ladder::sort::v00 {

inline constexpr VersionDoc kDoc = {
    0, "v00_serial", "Serial baseline: one thread, heapsort (small n only)",
    /*technique*/
    "The keys are copied to the output and one thread heapsorts them in place: build a max-heap, "
    "then move the maximum to the end n - 1 times. O(n log n) comparisons, no extra memory.",
    /*changes*/ "The starting point.",
    /*remains*/
    "One thread of one SM, every comparison a dependent global load: tens of seconds at the "
    "ladder size, so it runs up to 2^16 keys only.",
    /*source*/
    "J. W. J. Williams, \"Algorithm 232: Heapsort\", CACM 1964; the CPU reference is std::sort"};

inline constexpr size_t kMaxN = size_t(1) << 16;

__device__ __forceinline__ void sift_down(uint32_t* a, size_t root, size_t end) {
  const uint32_t x = a[root];
  while (2 * root + 1 < end) {
    size_t child = 2 * root + 1;
    if (child + 1 < end && a[child + 1] > a[child]) ++child;
    if (a[child] <= x) break;
    a[root] = a[child];
    root = child;
  }
  a[root] = x;
}

__global__ void heapsort_kernel(const uint32_t* __restrict__ in, uint32_t* __restrict__ out,
                                size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = in[i];
  for (size_t i = n / 2; i-- > 0;) sift_down(out, i, n);
  for (size_t end = n; end > 1; --end) {
    const uint32_t top = out[0];
    out[0] = out[end - 1];
    out[end - 1] = top;
    sift_down(out, 0, end - 1);
  }
}

inline size_t workspace_bytes(size_t) { return 0; }

inline cudaError_t launch(const uint32_t* in, uint32_t* out, size_t n, void*, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  heapsort_kernel<<<1, 1, 0, stream>>>(in, out, n);
  return cudaGetLastError();
}

}  // namespace ladder::sort::v00
