// copy_if/cub_baseline.cuh — the library baseline: cub::DeviceSelect::If.
#pragma once

#include <cub/device/device_select.cuh>

#include <cstdint>

#include "common/registry.h"
#include "copy_if/copy_if.h"

namespace ladder::copy_if::cub_baseline {

inline constexpr VersionDoc kDoc = {
    -1, "cub", "cub::DeviceSelect::If (CCCL), the library baseline",
    /*technique*/
    "NVIDIA's single-pass, order-preserving selection: tiles, decoupled look-back over the "
    "tiles' counts, compaction through shared memory; tuned per architecture.",
    /*changes*/ "Not a rung: the reference every rung is compared with, timed the same way.",
    /*remains*/ "Its tile-status initialisation kernel, timed with it (as v05's memset).",
    /*source*/ "CUB, cub::DeviceSelect::If (CUDA Toolkit's CCCL)"};

inline size_t workspace_bytes(size_t n) {
  size_t bytes = 0;
  cub::DeviceSelect::If(nullptr, bytes, static_cast<const int32_t*>(nullptr),
                        static_cast<int32_t*>(nullptr), static_cast<unsigned long long*>(nullptr),
                        static_cast<int64_t>(n), KeepPositive{});
  return bytes;
}

inline cudaError_t launch(const int32_t* in, int32_t* out, unsigned long long* count, size_t n,
                          void* ws, cudaStream_t stream) {
  size_t bytes = workspace_bytes(n);
  return cub::DeviceSelect::If(ws, bytes, in, out, count, static_cast<int64_t>(n), KeepPositive{},
                               stream);
}

}  // namespace ladder::copy_if::cub_baseline
