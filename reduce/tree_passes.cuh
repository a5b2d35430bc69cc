// reduce/tree_passes.cuh — the multi-pass driver shared by reduce v01 to v06.
//
// Those versions differ only in how ONE block reduces its tile in shared memory. Each launch
// turns m values into ceil(m / tile) block sums; the driver launches the same kernel again on
// the block sums until one value is left (Harris's "recursive kernel invocation"). The last
// launch writes `out` directly.
//
//   n = 25.6M, tile 256:  25.6M -> 100,000 -> 391 -> 2 -> 1   (four launches)
//
// Workspace: the block sums of every level but the last, one after the other, in floats.
#pragma once

#include <cuda_runtime.h>

#include "common/device.h"

namespace ladder::reduce {

// A tile kernel: reduces in[blockIdx.x * tile ... + tile) (bounds-checked against m) into
// out[blockIdx.x]. Launched with `threads` threads and `threads` floats of dynamic shared memory.
using TileKernel = void (*)(const float* in, float* out, size_t m);

inline size_t tree_workspace_bytes(size_t n, size_t tile) {
  size_t floats = 0;
  for (size_t m = ceil_div(n, tile); m > 1; m = ceil_div(m, tile)) floats += m;
  return floats * sizeof(float);
}

inline cudaError_t launch_tree(TileKernel kernel, unsigned threads, size_t tile, const float* in,
                               float* out, size_t n, void* ws, cudaStream_t stream) {
  if (n == 0) return cudaMemsetAsync(out, 0, sizeof(float), stream);  // the empty sum
  float* level = static_cast<float*>(ws);
  const float* src = in;
  for (size_t m = n; m > 1 || src == in;) {
    const size_t blocks = ceil_div(m, tile);
    float* dst = blocks == 1 ? out : level;
    kernel<<<static_cast<unsigned>(blocks), threads, threads * sizeof(float), stream>>>(src, dst,
                                                                                        m);
    if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
    src = dst;
    level += blocks;
    m = blocks;
  }
  return cudaSuccess;
}

}  // namespace ladder::reduce
