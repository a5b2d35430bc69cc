// scan/v16_size_dispatch.cuh — scan v16: the shape picked from n and the device. One block for a
// small input, v13's small blocks below one v15 tile per SM, v14 where v15's persistent blocks
// get too few tiles, v15 above.
// Technique: dispatch by problem size, with thresholds in tiles per SM rather than elements.
// Changes from v15: up to 16,384 elements one block scans everything in one launch (no status
// memset, no look-back); below one v15 tile per SM, v13's 64-thread one-tile blocks; between one
// and twelve v15 tiles per SM, v14's one-tile blocks.
// Remains (bottleneck): launch latency for small n; for large n, v15's pipeline, a few per cent
// short of the copy ceiling (its whole-tile copies, then its look-ahead).
// Source: CUB's tuning policies and size dispatch (dispatch_scan.cuh); the thresholds measured
// on the H100 and the H200 (the chapter's v16 section).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/device.h"
#include "common/registry.h"
#include "scan/v13_vectorized_lookback.cuh"
#include "scan/v14_bulk_staged.cuh"
#include "scan/v15_warp_specialized.cuh"
#include "scan/warp_scan.cuh"  // warp_scan_inclusive

namespace ladder::scan::v16 {

inline constexpr VersionDoc kDoc = {
    16, "v16_size_dispatch", "Shape picked from n and the device: one block, v13, v14 or v15",
    /*technique*/
    "Dispatch by problem size. Up to 16,384 elements one 1024-thread block loads everything "
    "in one trip (16 per thread, staged through padded shared memory into blocked order), "
    "scans it and stores it: one launch, no status words to clear. Where v15 would give each "
    "SM less than one tile, v13's 64-thread one-tile blocks; between one and twelve tiles, "
    "v14's one-tile blocks; above that, v15. On a GPU that cannot run sm_90 code, v14 takes "
    "v15's share.",
    /*changes*/
    "v15 ran the same persistent pipeline at every size: a memset and a launch where one "
    "block's work would do, and a look-ahead that a few tiles per block cannot hide in the "
    "middle sizes (v14 was measured ahead there), and below one tile per SM most SMs "
    "idle while a few persistent blocks run it: v13's small blocks spread those tiles out.",
    /*remains*/
    "Below the threshold, the launch itself. Up to one tile per SM, v13's status memset and "
    "launch. In the middle, v14's serial look-back per tile. "
    "Above, v15's pipeline, a few per cent short of the copy ceiling (its whole-tile copies, "
    "then its look-ahead).",
    /*source*/
    "CUB's per-size policies (dispatch_scan.cuh); the single-block scan is v09's two-level block "
    "scan (warp scans, then a scan of the warp totals) over CUB's BlockLoad transpose (striped "
    "loads, blocked scan); thresholds measured on the H100 and the H200"};

inline constexpr unsigned kThreads = 1024;
inline constexpr unsigned kItems = 16;  // elements per thread per trip
// The largest n the single block takes: one trip of its 1024 threads (64 KB in flight).
inline constexpr size_t kSingleBlockMax = size_t(kThreads) * kItems;
// v14 between these many v15 tiles per SM (measured on the H200: v14 ahead at about 2 and 7.75
// tiles per SM, v15 ahead at 15.5; on the H100 also at 31; below one tile per SM v13 was ahead of
// both on the H100 and the H200; the switch to v15 is set halfway between 7.75 and 15.5; see
// scan/lab/LAB_NOTES.md).
inline constexpr size_t kMiddleFromTilesPerSm = 1, kMiddleToTilesPerSm = 12;

// Shared-memory index with one word of padding per 32: a thread's kItems consecutive words
// (blocked order) then fall in distinct banks, as do a warp's 32 consecutive (striped) words.
__device__ __forceinline__ unsigned padded(unsigned i) { return i + i / 32; }
inline constexpr size_t kSmemBytes = (kSingleBlockMax + kSingleBlockMax / 32) * sizeof(int32_t);

// Inclusive scan of in[0, n) into out[0, n) by one block of kThreads threads, one trip of
// kSingleBlockMax elements at a time with a running carry (n above one trip is correct, only
// slow). Any alignment of in and out. Dynamic shared memory: kSmemBytes.
__global__ void __launch_bounds__(kThreads)
    single_block_kernel(const int32_t* __restrict__ in, int32_t* __restrict__ out, size_t n) {
  extern __shared__ int32_t s[];
  __shared__ int32_t warp_sums[kThreads / 32];
  const unsigned t = threadIdx.x, lane = t % 32, warp = t / 32;
  int32_t carry = 0;
  for (size_t base = 0; base < n; base += kSingleBlockMax) {
    const unsigned count = static_cast<unsigned>(min(n - base, kSingleBlockMax));
#pragma unroll
    for (unsigned u = 0; u < kItems; ++u) {  // striped: coalesced loads, all issued first
      const unsigned i = u * kThreads + t;
      s[padded(i)] = i < count ? __ldg(in + base + i) : 0;
    }
    __syncthreads();
    int32_t v[kItems];
    int32_t sum = 0;
#pragma unroll
    for (unsigned k = 0; k < kItems; ++k) v[k] = sum += s[padded(t * kItems + k)];
    // Exclusive prefix of this thread's total over the block: warps, then the warp totals.
    const int32_t inclusive = warp_scan_inclusive(sum);
    if (lane == 31) warp_sums[warp] = inclusive;
    __syncthreads();
    if (warp == 0) warp_sums[lane] = warp_scan_inclusive(warp_sums[lane]);
    __syncthreads();
    const int32_t prefix = carry + inclusive - sum + (warp > 0 ? warp_sums[warp - 1] : 0);
#pragma unroll
    for (unsigned k = 0; k < kItems; ++k) s[padded(t * kItems + k)] = v[k] + prefix;
    carry += warp_sums[kThreads / 32 - 1];
    __syncthreads();
#pragma unroll
    for (unsigned u = 0; u < kItems; ++u) {
      const unsigned i = u * kThreads + t;
      if (i < count) out[base + i] = s[padded(i)];
    }
    __syncthreads();  // s and warp_sums are rewritten by the next trip
  }
}

// Which path n takes on this device.
enum class Path { kSingleBlock, kV13, kV14, kV15 };
inline Path path_for(size_t n) {
  if (n <= kSingleBlockMax) return Path::kSingleBlock;
  const size_t tiles = ceil_div(n, size_t(v15::kTile));
  const size_t sms = static_cast<size_t>(current_sm_count());
  if (tiles < kMiddleFromTilesPerSm * sms) return Path::kV13;
  if (!current_device_runs_sm90_code()) return Path::kV14;
  if (tiles < kMiddleToTilesPerSm * sms) return Path::kV14;
  return Path::kV15;
}

// The largest n of each path but the last, on this device (the tests run both sides of each).
inline std::vector<size_t> dispatch_bounds() {
  const size_t sms = static_cast<size_t>(current_sm_count());
  std::vector<size_t> bounds = {kSingleBlockMax, (kMiddleFromTilesPerSm * sms - 1) * v15::kTile};
  if (current_device_runs_sm90_code())
    bounds.push_back((kMiddleToTilesPerSm * sms - 1) * v15::kTile);
  return bounds;
}

inline size_t workspace_bytes(size_t n) {
  if (n <= kSingleBlockMax) return 0;
  return std::max({v13::workspace_bytes(n), v14::workspace_bytes(n), v15::workspace_bytes(n)});
}

// in: n int32 (any alignment); out: n int32, 16-byte aligned; ws: workspace_bytes(n) bytes.
// The paths above the threshold clear their own status words. Errors: the launch's or the
// memset's.
inline cudaError_t launch(const int32_t* in, int32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  switch (path_for(n)) {
    case Path::kSingleBlock: {
      const cudaError_t e = cudaFuncSetAttribute(
          single_block_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmemBytes));
      if (e != cudaSuccess) return e;
      single_block_kernel<<<1, kThreads, kSmemBytes, stream>>>(in, out, n);
      return cudaGetLastError();
    }
    case Path::kV13:
      return v13::launch(in, out, n, ws, stream);
    case Path::kV14:
      return v14::launch(in, out, n, ws, stream);
    case Path::kV15:
      break;
  }
  return v15::launch(in, out, n, ws, stream);
}

}  // namespace ladder::scan::v16
