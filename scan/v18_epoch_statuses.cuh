// scan/v18_epoch_statuses.cuh — scan v18: v17 with no workspace clear. The statuses carry the
// launch's epoch, and the launch leaves its counter as the next launch needs it.
// Technique: every launch of the pipeline publishes its tile statuses under a flag that names the
// launch (2^31 + epoch) and counts only statuses that carry that flag, so statuses left by an
// earlier launch read as unpublished and need no clearing. The block that draws the launch's last
// tile claim sets the claim counter back to zero and advances the epoch, which live in a 16-byte
// header of v18's own, ahead of the workspace of v16's other paths.
// Changes from v17: no cudaMemsetAsync before the pipeline. v17 cleared the counter and one status
// word per tile on every call: a second operation on the stream in the timed interval, which cost
// v15 0.5% to 0.8% of its time at 2^28 on the H200 (the lab notes, "What v15's status words
// cost"). The paths below the pipeline are v17's (v16's), on the workspace after the header.
// Remains (bottleneck): the pipeline itself, about two per cent short of the copy ceiling at 2^28
// on the H200 even without a look-ahead, and about one more lost to the look-ahead. The workspace
// must be zero when it is first used and then written only by this function, one call at a time in
// stream order; a launch that did not complete leaves it to be zeroed again. The epoch has 31
// bits: a status 2^31 launches old, in a tile not published since, would pass for new.
// Source: Merrill & Garland 2016 (single pass, tile aggregates); the epoch is the sense reversal of
// Mellor-Crummey & Scott's barriers (1991): a flag that changes meaning with each episode instead
// of being reset; CUTLASS's serial split-K GEMM also leaves its workspace as the next launch needs
// it (cutlass/gemm/kernel/gemm.h: "The final threadblock resets the semaphore for subsequent
// grids"). v17's pipeline (NVIDIA/cccl PR #6811's warp-specialized scan) is unchanged.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "common/device.h"
#include "common/registry.h"
#include "scan/lookback.cuh"              // Status words, workspace layout
#include "scan/v15_warp_specialized.cuh"  // the shape, launch_resident
#include "scan/v16_size_dispatch.cuh"     // the dispatch below the pipeline
#include "scan/v17_aged_lookahead.cuh"    // aged_kernel

namespace ladder::scan::v18 {

inline constexpr VersionDoc kDoc = {
    18, "v18_epoch_statuses",
    "v17 with no workspace clear: statuses tagged with the launch's epoch",
    /*technique*/
    "v17's dispatch and pipeline, with nothing cleared between calls. Each launch of the "
    "pipeline publishes its tiles' aggregates under a flag that names the launch (2^31 plus an "
    "epoch read from the workspace), and its look-ahead counts only statuses that carry that "
    "flag: an earlier launch's statuses read as unpublished. The block that draws the launch's "
    "last tile claim (each block draws exactly one claim past the last tile, so the last of all "
    "is number tiles + blocks - 1) sets the claim counter back to zero and advances the epoch.",
    /*changes*/
    "v17 cleared the claim counter and one status word per tile with a memset before every "
    "pipeline launch: a second operation on the stream, inside the timed interval (it cost v15 "
    "0.5% to 0.8% of its time at 2^28 on the H200). v18 drops it. The counter and the epoch "
    "move to a 16-byte header of their own, ahead of the workspace of v16's other paths, whose "
    "memsets would otherwise set the epoch back and let stale statuses pass for new ones.",
    /*remains*/
    "The pipeline itself: about two per cent short of the copy ceiling at 2^28 on the H200 even "
    "without a look-ahead, and about one more lost to the look-ahead. The workspace must be "
    "zero when first used and written only by this function between calls (the harness zeroes "
    "it once), one call at a time in stream order; after a launch that did not complete it must "
    "be zeroed again. The epoch has 31 bits: a status 2^31 launches old, in a tile not published "
    "since, would pass for new.",
    /*source*/
    "Merrill & Garland, Single-pass Parallel Prefix Scan with Decoupled Look-back (2016), the "
    "tile statuses; Mellor-Crummey & Scott, Algorithms for Scalable Synchronization on "
    "Shared-Memory Multiprocessors (1991), sense reversal: a flag whose meaning changes with "
    "each episode instead of being reset; CUTLASS's serial split-K GEMM, whose final block resets "
    "the semaphore for the next grid (cutlass/gemm/kernel/gemm.h); v17's pipeline (NVIDIA/cccl "
    "PR #6811)"};

// Workspace: kHeaderBytes of v18's own (the pipeline's claim counter, then its epoch, as unsigned
// words), then v16's workspace, which v16's other paths clear and use as their own.
inline constexpr size_t kHeaderBytes = 16;

inline size_t workspace_bytes(size_t n) {
  return n <= v16::kSingleBlockMax ? 0 : kHeaderBytes + v16::workspace_bytes(n);
}

// Launches v17's aged_kernel with TAGGED statuses in v15's shape, on v18's header and the
// statuses of lookback's layout after it. Nothing is cleared.
template <bool ALIGNED>
cudaError_t launch_pipeline(const int32_t* in, int32_t* out, size_t n, void* ws,
                            cudaStream_t stream) {
  using namespace v15;
  void* rest = static_cast<char*>(ws) + kHeaderBytes;
  return launch_resident<
      v17::aged_kernel<kWarps, kVectors, kStages, kWindow, v17::kInFlight, v17::kAgeNs, ALIGNED,
                       /*TAGGED=*/true>,
      kBlockThreads<kWarps>, kTile,
      kStages * size_t(stage_vecs<kWarps, kVectors, ALIGNED>) * sizeof(int4)>(
      in, out, n, static_cast<unsigned*>(ws), lookback::tile_status(rest), stream);
}

// in: n int32 (any alignment); out: n int32, 16-byte aligned; ws: workspace_bytes(n) bytes,
// zero before this function's first call on it and written by nothing else since (one call at a
// time, in stream order: launches on one workspace must not overlap; after a launch that did not
// complete, zero it again). v16's paths where v16 does not run
// v15's pipeline (v16::path_for), on the workspace after the header; this file's pipeline where it
// does. Errors: the launch's or, on the other paths, v16's.
inline cudaError_t launch(const int32_t* in, int32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  if (v16::path_for(n) != v16::Path::kV15)
    return v16::launch(
        in, out, n, n <= v16::kSingleBlockMax ? ws : static_cast<char*>(ws) + kHeaderBytes, stream);
  if (reinterpret_cast<uintptr_t>(in) % 16 == 0)
    return launch_pipeline<true>(in, out, n, ws, stream);
  return launch_pipeline<false>(in, out, n, ws, stream);
}

}  // namespace ladder::scan::v18
