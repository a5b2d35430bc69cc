// scan/v02_shared_memory.cuh — scan v02: each part loaded into shared memory first.
// Technique: all threads load the part coalesced into shared memory; thread 0 scans it there.
// Changes from v01: the one-thread scan reads shared memory instead of global memory.
// Remains (bottleneck): 1024 dependent adds by one thread per block; the one-thread part-sum scan.
// Source: W. Zhang, "Classic problems in high-performance CUDA: prefix sum" (OneFlow, 2022, in
// Chinese), §4.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "common/device.h"
#include "common/registry.h"
#include "scan/v01_scan_then_fan.cuh"  // v01's part-sum scan and fan, unchanged

namespace ladder::scan::v02 {

inline constexpr VersionDoc kDoc = {
    2, "v02_shared_memory", "Each part staged in shared memory before the one-thread scan",
    /*technique*/
    "All 1024 threads load the part with one coalesced read into shared memory; thread 0 scans "
    "it there; all threads write it back coalesced.",
    /*changes*/ "v01's scan of global memory becomes a scan of shared memory.",
    /*remains*/
    "Thread 0 still scans 1024 elements alone while 1023 threads wait at the barrier, and the "
    "part-sum scan is still one thread.",
    /*source*/
    "Will Zhang, Classic problems in high-performance CUDA: prefix sum (OneFlow, 2022, in "
    "Chinese), §4 (Shared Memory)"};

using v01::kPart;
inline constexpr size_t kMaxN = v01::kMaxN;

// Block of kPart threads; grid-stride over parts. Writes out and part_sums as v01.
__global__ void scan_parts_kernel(const int32_t* __restrict__ in, int32_t* __restrict__ out,
                                  int32_t* __restrict__ part_sums, size_t n, size_t parts) {
  __shared__ int32_t shm[kPart];
  for (size_t p = blockIdx.x; p < parts; p += gridDim.x) {
    const size_t i = p * kPart + threadIdx.x;
    shm[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    if (threadIdx.x == 0) {  // the naive block scan
      int32_t acc = 0;
      for (unsigned k = 0; k < kPart; ++k) {
        acc += shm[k];
        shm[k] = acc;
      }
    }
    __syncthreads();
    if (i < n) out[i] = shm[threadIdx.x];
    if (threadIdx.x == kPart - 1) part_sums[p] = shm[threadIdx.x];
    __syncthreads();  // shm is reloaded by the next part
  }
}

inline size_t workspace_bytes(size_t n) { return ceil_div(n, kPart) * sizeof(int32_t); }

inline cudaError_t launch(const int32_t* in, int32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  const size_t parts = ceil_div(n, kPart);
  const auto grid = static_cast<unsigned>(v01::grid_for(parts));
  auto* part_sums = static_cast<int32_t*>(ws);
  scan_parts_kernel<<<grid, kPart, 0, stream>>>(in, out, part_sums, n, parts);
  v01::scan_part_sums_serial<<<1, 1, 0, stream>>>(part_sums, parts);
  v01::add_base_kernel<<<grid, kPart, 0, stream>>>(part_sums, out, n, parts);
  return cudaGetLastError();
}

}  // namespace ladder::scan::v02
