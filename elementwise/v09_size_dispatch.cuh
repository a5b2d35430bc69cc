// elementwise/v09_size_dispatch.cuh — elementwise v09 (add_f32): the kernel picked from n. v05's
// register tiles below 2^26 elements, v08's bulk copies from there.
// Technique: dispatch by problem size, as reduce v12, scan v16 and copy_if v08 do: each path
// where it measured faster.
// Changes from v08: below kBulkFrom elements (and on a GPU that cannot run sm_90 code) v05's
// launcher instead of v08's. On the H200 v08 took 0.7% to 9% more time than v05 from 2^16 to 2^25
// elements, the same at 2^26, and 1% less at 2^28 (elementwise/lab/LAB_NOTES.md, "add_f32: where
// v05 and v08 cross").
// Remains (bottleneck): the memory system, as in v05 and v08; at the smallest sizes the launch.
// The bound is the H200's crossing; the H100's has not been measured.
// Source: NVIDIA CCCL, cub::DeviceTransform (a policy per architecture picks its algorithm); the
// size dispatch as in this suite's reduce v12 and scan v16.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "common/device.h"
#include "common/registry.h"
#include "elementwise/ops.cuh"
#include "elementwise/v05_primitives.cuh"
#include "elementwise/v08_bulk_copy.cuh"

namespace ladder::elementwise::v09 {

inline constexpr VersionDoc kDoc = {
    9, "v09_size_dispatch",
    "Kernel picked from n: v05 below 2^26 elements, v08's bulk copies from there",
    /*technique*/
    "Dispatch by problem size. Below 2^26 elements v05's register tiles (16-byte vector loads, "
    "one tile of 256 x 4 a block); from 2^26 on, v08's bulk copies into shared memory with its "
    "tile sized for 48 KiB in flight per SM. v05 at every size on a GPU that cannot run sm_90 "
    "code.",
    /*changes*/
    "v08 ran its bulk copies at every size, and from 2^16 to 2^25 elements they took 0.7% to 9% "
    "more time than v05's register tiles on the H200; from 2^27 v08 is the faster one. add_f32 "
    "only, as v08.",
    /*remains*/
    "The memory system above the bound, as in v05 and v08; the launch at the smallest sizes. The "
    "bound is the H200's crossing (level at 2^26); the H100's has not been measured.",
    /*source*/
    "NVIDIA CCCL, cub::DeviceTransform (an algorithm chosen per architecture); the size dispatch "
    "as in reduce v12 and scan v16"};

// The smallest n that takes v08's bulk copies (where sm_90 code runs). On the H200 the two
// launchers took the same time at 2^26 (v08 / v05 = 1.000 and 0.999 in two runs of the probe),
// v08 0.5% less at 2^27 and 1% less at 2^28, 0.7% more at 2^25 and more below.
inline constexpr size_t kBulkFrom = size_t(1) << 26;

// The largest n of v05's path (the tests run it and the next size).
inline std::vector<size_t> dispatch_bounds() { return {kBulkFrom - 1}; }

// The add_f32 launcher (elementwise/elementwise.h's contract): v08::launch from kBulkFrom
// elements where the GPU runs sm_90 code, v05::launch otherwise. Errors: those of the path taken.
template <Kind K, typename T>
cudaError_t launch(const Args<T>& a, T* out, size_t n, cudaStream_t stream) {
  static_assert(K == Kind::kAdd && sizeof(T) == 4, "v09 is add_f32's rung");
  if (n >= kBulkFrom && current_device_runs_sm90_code())
    return v08::launch<K, T>(a, out, n, stream);
  return v05::launch<K, T>(a, out, n, stream);
}

}  // namespace ladder::elementwise::v09
