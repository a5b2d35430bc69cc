// copy_if/v08_size_dispatch.cuh — copy_if v08: the shape picked from n. One block for a small
// input, v05's or v06's kernels above (v05 where the GPU cannot run sm_90 code). Keeps the order.
// Technique: dispatch by problem size: one launch and no look-back where one block's trip
// covers the input; v05's one-tile blocks where v06's persistent blocks get too few tiles.
// Changes from v06: up to 16,384 elements no status memset and no persistent pipeline; one
// 1024-thread block flags, ranks and compacts everything through shared memory. Between one and
// sixteen v06 tiles per SM, v05; from three v05 tiles per SM, as the programmatic dependent
// launch of its workspace clear. Below one v06 tile per SM and from sixteen, v06.
// Remains (bottleneck): launch latency below the threshold; v05's and v06's above it.
// Source: CUB DeviceSelect's tile compaction (agent_select_if.cuh: BlockLoad, BlockScan of the
// selection flags, compaction through shared memory); the size dispatch as in scan v16 (bounds
// in tiles per SM; the upper one 16 here, 12 there); programmatic dependent launch as newer CCCL
// releases launch CUB's scan kernels on sm_90 (dispatch_scan.cuh on NVIDIA/cccl's main branch).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "common/device.h"
#include "common/registry.h"
#include "copy_if/copy_if.h"
#include "copy_if/v05_single_pass.cuh"
#include "copy_if/v06_warp_specialized.cuh"
#include "scan/warp_scan.cuh"  // warp_scan_inclusive

namespace ladder::copy_if::v08 {

inline constexpr VersionDoc kDoc = {
    8, "v08_size_dispatch",
    "Shape picked from n: one block up to 16,384 elements, then v05 or v06 by tiles per SM",
    /*technique*/
    "Dispatch by problem size. Up to 16,384 elements one 1024-thread block loads everything "
    "in one trip (16 per thread, striped, staged into blocked order in padded shared memory), "
    "flags, scans the per-thread counts, writes the kept values compacted back into shared "
    "memory and stores them with coalesced writes, then the count: one launch. Where v06 would "
    "give each SM between one and sixteen tiles, v05's one-tile blocks; from three of those per "
    "SM on, launched as the programmatic dependent of a kernel that clears their status words "
    "(their launch and start-up overlap the clear, as newer CCCL releases do for CUB's scan on "
    "sm_90). "
    "Elsewhere v06 (v05 on a GPU that cannot run sm_90 code). Keeps the input order.",
    /*changes*/
    "v06 ran its memset, its persistent pipeline and its look-ahead at every size; on a few "
    "thousand elements those cost more than the work, and at a few million its persistent "
    "blocks get too few tiles to hide the look-ahead.",
    /*remains*/
    "Below the threshold, the launch itself; above it, v05's and v06's bottlenecks.",
    /*source*/
    "CUB DeviceSelect (agent_select_if.cuh: BlockLoad, BlockScan of selection flags, "
    "compaction through shared memory); bounds in tiles per SM as in scan v16 (the upper one "
    "16 here, 12 there); programmatic dependent launch as newer CCCL releases launch CUB's "
    "scan on sm_90"};

inline constexpr unsigned kThreads = 1024;
inline constexpr unsigned kItems = 16;
// The largest n the single block takes: one trip of its threads (64 KB in flight).
inline constexpr size_t kSingleBlockMax = size_t(kThreads) * kItems;
inline constexpr size_t kMaxN = v06::kMaxN;

// One word of padding per 32 (bank-conflict-free blocked and striped access; see scan v16).
__device__ __forceinline__ unsigned padded(unsigned i) { return i + i / 32; }
inline constexpr size_t kSmemBytes = (kSingleBlockMax + kSingleBlockMax / 32) * sizeof(int32_t);

// Keeps in[i] > 0 of in[0, n) in order into out[0, count) and writes count, by one block of
// kThreads threads, one trip of kSingleBlockMax at a time (larger n is correct, only slow). Any
// alignment. Dynamic shared memory: kSmemBytes.
__global__ void __launch_bounds__(kThreads)
    single_block_kernel(const int32_t* __restrict__ in, int32_t* __restrict__ out,
                        unsigned long long* __restrict__ count, size_t n) {
  extern __shared__ int32_t s[];
  __shared__ unsigned warp_sums[kThreads / 32];
  const unsigned t = threadIdx.x, lane = t % 32, warp = t / 32;
  const KeepPositive keep;
  size_t kept_before = 0;  // kept in earlier trips
  for (size_t base = 0; base < n; base += kSingleBlockMax) {
    const unsigned trip = static_cast<unsigned>(min(n - base, kSingleBlockMax));
#pragma unroll
    for (unsigned u = 0; u < kItems; ++u) {  // striped loads; the padding is dropped by keep()
      const unsigned i = u * kThreads + t;
      s[padded(i)] = i < trip ? __ldg(in + base + i) : 0;
    }
    __syncthreads();
    int32_t v[kItems];
    unsigned mine = 0;
#pragma unroll
    for (unsigned k = 0; k < kItems; ++k) {
      v[k] = s[padded(t * kItems + k)];
      mine += keep(v[k]) ? 1u : 0u;
    }
    const unsigned inclusive =
        static_cast<unsigned>(scan::warp_scan_inclusive(static_cast<int>(mine)));
    if (lane == 31) warp_sums[warp] = inclusive;
    __syncthreads();  // also: every thread has read its values out of s
    if (warp == 0)
      warp_sums[lane] =
          static_cast<unsigned>(scan::warp_scan_inclusive(static_cast<int>(warp_sums[lane])));
    __syncthreads();
    unsigned pos = inclusive - mine + (warp > 0 ? warp_sums[warp - 1] : 0);
    const unsigned total = warp_sums[kThreads / 32 - 1];
#pragma unroll
    for (unsigned k = 0; k < kItems; ++k)
      if (keep(v[k])) s[padded(pos++)] = v[k];
    __syncthreads();
    for (unsigned i = t; i < total; i += kThreads) out[kept_before + i] = s[padded(i)];
    kept_before += total;
    __syncthreads();  // s and warp_sums are rewritten by the next trip
  }
  if (t == 0) *count = kept_before;
}

// v05's one-tile blocks between these many v06 tiles per SM, as scan v16 does with v14: v06
// alone was behind CUB at 2^22 elements, about eight v06 tiles per SM (copy_if/lab/LAB_NOTES.md).
inline constexpr size_t kMiddleFromTilesPerSm = 1, kMiddleToTilesPerSm = 16;

// The path above the one-block threshold on this device: v06 where sm_90 code runs and each SM
// gets at least kMiddleToTilesPerSm of its tiles, or fewer than kMiddleFromTilesPerSm; else v05.
inline bool above_uses_v06(size_t n) {
  if (!current_device_runs_sm90_code()) return false;
  const size_t tiles = ceil_div(n, v06::kTile);
  const size_t sms = static_cast<size_t>(current_sm_count());
  return tiles < kMiddleFromTilesPerSm * sms || tiles >= kMiddleToTilesPerSm * sms;
}

// Within v05's band, from this many v05 tiles per SM on, its launch is the programmatic
// dependent of the workspace clear (v05::launch_pdl); below, the memset and a plain launch. On
// the H100 (copy_if/lab/LAB_NOTES.md), with PDL 5-8% slower at 1 to 1.9 tiles per SM (540,672 and
// 2^20 elements), 7-9% faster from 3.9 (2^21 ... 2^23); the bound lies between.
inline constexpr size_t kPdlFromTilesPerSm = 3;
inline bool middle_uses_pdl(size_t n) {
  return current_device_runs_sm90_code() &&
         ceil_div(n, v05::kTile) >= kPdlFromTilesPerSm * static_cast<size_t>(current_sm_count());
}
// The largest n of each path but the last, on this device (the tests run both sides of each).
inline std::vector<size_t> dispatch_bounds() {
  std::vector<size_t> bounds = {kSingleBlockMax};
  if (current_device_runs_sm90_code()) {
    const size_t sms = static_cast<size_t>(current_sm_count());
    bounds.push_back((kMiddleFromTilesPerSm * sms - 1) * v06::kTile);
    bounds.push_back((kPdlFromTilesPerSm * sms - 1) * v05::kTile);
    bounds.push_back((kMiddleToTilesPerSm * sms - 1) * v06::kTile);
  }
  return bounds;
}

inline size_t workspace_bytes(size_t n) {
  if (n <= kSingleBlockMax) return 0;
  return std::max(v05::workspace_bytes(n), v06::workspace_bytes(n));
}

// The copy_if launcher contract (copy_if/copy_if.h); n <= kMaxN. Errors: the launch's, or those
// of the path above the threshold.
inline cudaError_t launch(const int32_t* in, int32_t* out, unsigned long long* count, size_t n,
                          void* ws, cudaStream_t stream) {
  if (n > kSingleBlockMax) {
    if (above_uses_v06(n)) return v06::launch(in, out, count, n, ws, stream);
    if (middle_uses_pdl(n)) return v05::launch_pdl(in, out, count, n, ws, stream);
    return v05::launch(in, out, count, n, ws, stream);
  }
  if (n == 0) return cudaMemsetAsync(count, 0, sizeof(*count), stream);
  const cudaError_t e = cudaFuncSetAttribute(
      single_block_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmemBytes));
  if (e != cudaSuccess) return e;
  single_block_kernel<<<1, kThreads, kSmemBytes, stream>>>(in, out, count, n);
  return cudaGetLastError();
}

}  // namespace ladder::copy_if::v08
