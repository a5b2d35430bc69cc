// scan/cub_baseline.cuh — the library baseline: cub::DeviceScan::InclusiveSum.
#pragma once

#include <cub/device/device_scan.cuh>

#include <climits>
#include <cstdint>

#include "common/registry.h"

namespace ladder::scan::cub_baseline {

inline constexpr VersionDoc kDoc = {
    -1, "cub", "cub::DeviceScan::InclusiveSum (CCCL), the library baseline",
    /*technique*/
    "NVIDIA's single-pass scan: decoupled look-back over tiles, several items per thread, "
    "tuned per architecture.",
    /*changes*/ "Not a rung: the reference every rung is compared with, timed the same way.",
    /*remains*/ "Its tile-status initialisation kernel, timed with it (as v12/v13's memset).",
    /*source*/ "CUB, cub::DeviceScan::InclusiveSum (CUDA Toolkit's CCCL)"};

// 32-bit offsets whenever n fits (CUB's fast path), 64-bit beyond.
template <typename F>
cudaError_t with_offsets(size_t n, F&& f) {
  return n <= size_t(INT_MAX) ? f(static_cast<int>(n)) : f(static_cast<long long>(n));
}

inline size_t workspace_bytes(size_t n) {
  size_t bytes = 0;
  with_offsets(n, [&](auto count) {
    return cub::DeviceScan::InclusiveSum(nullptr, bytes, static_cast<const int32_t*>(nullptr),
                                         static_cast<int32_t*>(nullptr), count);
  });
  return bytes;
}

inline cudaError_t launch(const int32_t* in, int32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  return with_offsets(n, [&](auto count) {
    size_t bytes = 0;
    cub::DeviceScan::InclusiveSum(nullptr, bytes, in, out, count, stream);
    return cub::DeviceScan::InclusiveSum(ws, bytes, in, out, count, stream);
  });
}

}  // namespace ladder::scan::cub_baseline
