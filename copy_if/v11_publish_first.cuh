// copy_if/v11_publish_first.cuh — temporary (session 31, call 5): v10 whose reduce warps publish a
// tile's count before they scan its chunk counts, registered as v11, and the same with the patient
// look-ahead (first pass once the own tile is reduced), registered as v12, for one call.
#pragma once

#include "common/registry.h"
#include "copy_if/lab/pipelined_lookahead.cuh"
#include "copy_if/v10_group_sums.cuh"

namespace ladder::copy_if::v11 {
inline constexpr VersionDoc kDoc = {11,
                                    "v11_publish_first",
                                    "v10 with each tile's count published before its chunk scan",
                                    "v10's pipeline.",
                                    "The reduce publishes before it scans.",
                                    "Under measurement.",
                                    "v10"};
inline cudaError_t launch(const int32_t* in, int32_t* out, unsigned long long* count, size_t n,
                          void* ws, cudaStream_t stream) {
  return v10::launch_with<lab_pipelined::PublishFirst<v10::GroupedLookAhead>>(in, out, count, n, ws,
                                                                              stream);
}
}  // namespace ladder::copy_if::v11
namespace ladder::copy_if::v12 {
inline constexpr VersionDoc kDoc = {12,
                                    "v12_publish_first_wait_own",
                                    "v11 with the look-ahead's first pass once its tile is reduced",
                                    "v10's pipeline.",
                                    "Publish first; the patient look-ahead.",
                                    "Under measurement.",
                                    "v10"};
inline cudaError_t launch(const int32_t* in, int32_t* out, unsigned long long* count, size_t n,
                          void* ws, cudaStream_t stream) {
  return v10::launch_with<lab_pipelined::PublishFirst<lab_pipelined::PatientLookAhead<true, 0>>>(
      in, out, count, n, ws, stream);
}
}  // namespace ladder::copy_if::v12
