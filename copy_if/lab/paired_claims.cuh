// copy_if/lab/paired_claims.cuh — v10 with two tiles a claim, so that its look-ahead runs once
// every two tiles: measured, slower, not a rung. Not part of the binary; the probe
// copy_if/lab/probe_v06_oracle.cu runs it (`paired`).
// Idea: v10's look-ahead warp makes at least one pass a claim (about 1.5 µs a claim at 2^28 and
// half kept on an H200) and is busy 95 to 98% of the time there (the lab notes, "The look-ahead's
// pace"). Here the producer takes two stages, claims two consecutive tiles with one atomic and
// loads both; the look-ahead finds the first tile's offset as v10's does, and the compact-store
// warps place the second tile right after the first. Every tile still publishes its status and adds
// into its group's word.
// Measured (session 30, call 4, registered as copy_if v11 then): correct (868 GPU tests, 2^31 + 17,
// memcheck, racecheck and initcheck clean, the sm_80 build's tests; two mutants failed the tests)
// and slower than v10 everywhere: 455.78 µs at 2^28 and half kept against v10's 393.22. Inferred:
// the producer waits for two empty stages before it claims, so a block has three claims in flight
// where v10 has six; copy_if/lab/paired_stagewise.cuh keeps six tiles in flight and is still far
// slower (call 7), so that is not the whole cause. Under synccheck both tests failed ("unspecified
// launch failure"); the 100 errors printed of 132 are all "Missing wait" at one barrier: the
// producer arrives on the `claimed` barrier of a claim's second stage, which nothing waits on. Left
// as measured.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/bulk_copy.cuh"  // cp.async.bulk, mbarrier init / arrive / wait
#include "common/device.h"
#include "copy_if/copy_if.h"
#include "copy_if/v06_warp_specialized.cuh"  // the shape
#include "copy_if/v08_size_dispatch.cuh"     // the other paths
#include "copy_if/v10_group_sums.cuh"        // the group sums, the look-ahead, the workspace
#include "scan/lookback.cuh"                 // Status words, publish
#include "scan/warp_scan.cuh"                // warp_scan_inclusive

namespace ladder::copy_if::lab_paired {

inline constexpr size_t kMaxN = v10::kMaxN;
// Tiles a claim: consecutive tiles, in consecutive stages.
inline constexpr unsigned kClaimTiles = 2;

inline size_t workspace_bytes(size_t n) { return v10::workspace_bytes(n); }
inline bool above_uses_pipeline(size_t n) { return v10::above_uses_pipeline(n); }
inline std::vector<size_t> dispatch_bounds() { return v10::dispatch_bounds(); }

// v10's group_kernel with claims of kClaimTiles tiles (v06's roles, barriers and forward progress;
// a claim's tiles wait only on lower tiles). The changes from v10:
//   producer:      waits for kClaimTiles stages, claims with one atomic (claim c: tiles
//                  c * kClaimTiles onwards; the launch's last claim is claims + gridDim.x - 1),
//                  loads each tile below `tiles` into its stage; a tile past the last is the end
//                  marker of the reduce and compact-store warps;
//   look-ahead:    v10's, on the first tile of each claim only;
//   compact-store: a claim's later tile takes the offset after the tile before it.
// Two blocks an SM, as v10 runs: without the bound the compiler gives one of the two kernels 106
// registers a thread, and one block of 320 threads an SM.
template <bool ALIGNED>
__global__ void __launch_bounds__(v06::kBlockThreads, 2)
    paired_kernel(const int32_t* __restrict__ in, int32_t* __restrict__ out,
                  unsigned long long* count, size_t n, unsigned tiles, unsigned* counter,
                  scan::lookback::Status* groups, scan::lookback::Status* status) {
  using v06::kTile;
  using v10::kGroup, v10::kGroupArrayWords, v10::kGroupStride;
  constexpr unsigned W = v06::kWarps, V = v06::kVectors, NS = v06::kStages, T = W * 32;
  constexpr unsigned P = kClaimTiles;
  static_assert(NS % P == 0, "a claim's tiles in consecutive stages, never wrapping");
  const unsigned claims = (tiles + P - 1) / P;
  constexpr unsigned kChunks = V * W;  // 128-element chunks: (load u, warp w) at u * W + w
  static_assert(kChunks == 32, "one lane of reduce warp 0 per chunk");
  namespace lb = scan::lookback;
  constexpr unsigned kStageVecs = v06::stage_vecs<ALIGNED>;
  extern __shared__ __align__(bulk::kStageAlign) int4 stage_data[];
  __shared__ alignas(8) unsigned long long full[NS], claimed[NS], reduced[NS], prefixed[NS],
      empty[NS];
  __shared__ unsigned tile_of[NS];
  __shared__ unsigned chunk_offset[NS][kChunks];  // kept elements in the tile before the chunk
  __shared__ unsigned tile_count[NS], tile_offset[NS];

  const KeepPositive keep;
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const unsigned shift = ALIGNED ? 0 : bulk::shift_of(in);
  const uint32_t epoch = counter[1];          // every thread, before the barrier and any claim
  const uint32_t flag = lb::kTagBit | epoch;  // this launch's statuses
  lb::Status* const my_groups = groups + (epoch & 1) * kGroupArrayWords;  // this launch's sums
  if (threadIdx.x == 0) {
    for (unsigned s = 0; s < NS; ++s) {
      bulk::barrier_init(&full[s], 32);
      bulk::barrier_init(&claimed[s], 1);
      bulk::barrier_init(&reduced[s], 32);
      bulk::barrier_init(&prefixed[s], 1);
      bulk::barrier_init(&empty[s], T);
    }
  }
  __syncthreads();  // the only block-wide barrier

  if (warp == 2 * W) {
    // ---- Producer: take P stages, then claim P tiles with one atomic, then load them ----
    for (unsigned i = 0;; i += P) {  // stages i mod NS to i mod NS + P - 1
      const unsigned round = i / NS;
      if (round > 0)
        for (unsigned p = 0; p < P; ++p) bulk::wait(&empty[(i + p) % NS], (round - 1) & 1);
      unsigned c = 0;
      if (lane == 0) c = atomicAdd(counter, 1u);
      if (lane == 0 && c == claims + gridDim.x - 1) {  // the launch's last claim
        counter[0] = 0;
        counter[1] = (epoch + 1) & ~lb::kTagBit;
      }
      c = __shfl_sync(0xffffffffu, c, 0);
      if (lane == 0)
        for (unsigned p = 0; p < P; ++p) {  // a tile past the last is the end marker
          tile_of[(i + p) % NS] = c < claims && c * P + p < tiles ? c * P + p : tiles;
          bulk::arrive(&claimed[(i + p) % NS]);
        }
      if (c >= claims) {
        bulk::arrive(&full[i % NS]);
        if (c == claims + gridDim.x - 1) {
          // The launch's last claim: the other group array, which the launch before wrote and
          // the next one will add into, cleared as far as that launch wrote it; this launch's
          // extent noted for the clear after it.
          const unsigned other = (epoch + 1) & 1;
          const unsigned used = counter[2 + other];
          for (size_t g = lane; g < used; g += 32)
            groups[other * kGroupArrayWords + g * kGroupStride] = 0;
          __syncwarp();
          if (lane == 0) {
            counter[2 + other] = 0;
            counter[2 + (epoch & 1)] = (tiles + kGroup - 1) / kGroup;
          }
        }
        break;
      }
      for (unsigned p = 0; p < P; ++p) {
        const unsigned s = (i + p) % NS, t = c * P + p;
        if (t >= tiles) {  // the last claim's tail: the reduce and compact-store warps end here
          bulk::arrive(&full[s]);
          break;
        }
        const size_t base = size_t(t) * kTile;
        int4* dst = stage_data + size_t(s) * kStageVecs;
        const bool bulk_path = ALIGNED ? base + kTile <= n : t > 0 && base + kTile + 4 - shift <= n;
        if (LADDER_HAS_BULK_COPY && bulk_path) {
          if (lane == 0)
            bulk::load(dst, in + base - shift, unsigned(v06::copy_vecs<ALIGNED> * sizeof(int4)),
                       &full[s]);
          else
            bulk::arrive(&full[s]);
        } else {
          int32_t* d = reinterpret_cast<int32_t*>(dst) + shift;
          for (size_t k = lane; k < kTile; k += 32) d[k] = base + k < n ? in[base + k] : 0;
          bulk::fence_proxy_async_shared();  // before a later bulk copy into this stage
          bulk::arrive(&full[s]);
        }
      }
    }
  } else if (warp == 2 * W + 1) {
    // ---- Look-ahead: v10's, for the first tile of each claim ----
    size_t counted = 0;
    unsigned sum = 0;
    for (unsigned i = 0;; i += P) {
      const unsigned s = i % NS, round = i / NS;
      bulk::wait(&claimed[s], round & 1);
      const size_t t = tile_of[s];
      if (t >= tiles) break;
      v10::advance_grouped(status, my_groups, t, counted, sum, flag);
      if (lane == 0) {
        tile_offset[s] = sum;
        bulk::arrive(&prefixed[s]);
      }
    }
  } else if (warp < W) {
    // ---- Reduce: count per chunk, scan the chunk counts, publish the tile's count and add it
    // into its group's word ----
    for (unsigned i = 0;; ++i) {
      const unsigned s = i % NS, round = i / NS;
      bulk::wait(&full[s], round & 1);
      const unsigned t = tile_of[s];
      if (t >= tiles) {
        if (warp == 0) bulk::arrive(&reduced[s]);
        break;
      }
      const int4* src = stage_data + size_t(s) * kStageVecs;
#pragma unroll
      for (unsigned u = 0; u < V; ++u) {
        const int4 x = bulk::staged_chunk_words<!ALIGNED>(src, shift, u * T + threadIdx.x, lane);
        const unsigned c =
            __reduce_add_sync(0xffffffffu, unsigned(keep(x.x)) + keep(x.y) + keep(x.z) + keep(x.w));
        if (lane == 0) chunk_offset[s][u * W + warp] = c;
      }
      asm volatile("bar.sync 1, %0;" ::"n"(T) : "memory");  // the reduce squad only
      if (warp == 0) {
        const int32_t mine = static_cast<int32_t>(chunk_offset[s][lane]);
        const int32_t incl = scan::warp_scan_inclusive(mine);
        chunk_offset[s][lane] = static_cast<unsigned>(incl - mine);
        const unsigned total = static_cast<unsigned>(__shfl_sync(0xffffffffu, incl, 31));
        if (lane == 0) {
          tile_count[s] = total;
          lb::publish<unsigned>(status + t, flag, total);
          atomicAdd(my_groups + t / kGroup * kGroupStride, (1ull << 32) | total);  // no return
        }
        __syncwarp();
        bulk::arrive(&reduced[s]);
      }
    }
  } else {
    // ---- Compact-store (v06's) ----
    const unsigned j = threadIdx.x - T, w = warp - W;
    unsigned after = 0;  // the offset after the block's last tile: the next tile of its claim's
    for (unsigned i = 0;; ++i) {
      const unsigned s = i % NS, round = i / NS;
      bulk::wait(&reduced[s], round & 1);
      const unsigned t = tile_of[s];
      if (t >= tiles) break;
      int4* stage = stage_data + size_t(s) * kStageVecs;
      int4 x[V];
      unsigned rank[V];
#pragma unroll
      for (unsigned u = 0; u < V; ++u) {
        x[u] = bulk::staged_int4<!ALIGNED>(stage, shift, u * T + j);
        const int32_t c = keep(x[u].x) + keep(x[u].y) + keep(x[u].z) + keep(x[u].w);
        const int32_t incl = scan::warp_scan_inclusive(c);
        rank[u] = chunk_offset[s][u * W + w] + static_cast<unsigned>(incl - c);
      }
      asm volatile("bar.sync 2, %0;" ::"n"(T) : "memory");  // every read of the stage is done
      int32_t* compacted = reinterpret_cast<int32_t*>(stage);
#pragma unroll
      for (unsigned u = 0; u < V; ++u) {
        unsigned r = rank[u];
        if (keep(x[u].x)) compacted[r++] = x[u].x;
        if (keep(x[u].y)) compacted[r++] = x[u].y;
        if (keep(x[u].z)) compacted[r++] = x[u].z;
        if (keep(x[u].w)) compacted[r++] = x[u].w;
      }
      asm volatile("bar.sync 2, %0;" ::"n"(T) : "memory");  // the compacted run is complete
      unsigned offset = after;  // a claim's later tile: the tile before it, then its kept
      if (i % P == 0) {
        bulk::wait(&prefixed[s], round & 1);
        offset = tile_offset[s];
      }
      const unsigned total = tile_count[s];
      after = offset + total;
      int32_t* dst = out + offset;
      const unsigned mis = unsigned(reinterpret_cast<uintptr_t>(dst) / 4) & 3u;
      const unsigned head = min((4u - mis) & 3u, total);
      const unsigned body = (total - head) / 4;  // whole int4
      const unsigned tail = head + 4 * body;     // first element after them
      if (j < head) dst[j] = compacted[j];
      if (j < total - tail) dst[tail + j] = compacted[tail + j];
      int4* dst4 = reinterpret_cast<int4*>(dst + head);
      const int32_t* run = compacted + head;
      for (unsigned k = j; k < body; k += T)
        dst4[k] = make_int4(run[4 * k], run[4 * k + 1], run[4 * k + 2], run[4 * k + 3]);
      bulk::fence_proxy_async_shared();  // as v06: the next bulk copy overwrites the stage
      if (j == 0 && t == tiles - 1) *count = static_cast<unsigned long long>(offset) + total;
      bulk::arrive(&empty[s]);
    }
  }
}

// Launches paired_kernel<ALIGNED> on one resident wave of blocks (at most one per claim), on the
// header, the group arrays and the statuses of lookback's layout after them (v10's workspace).
// Nothing is cleared before the launch.
template <bool ALIGNED>
cudaError_t launch_pipeline(const int32_t* in, int32_t* out, unsigned long long* count, size_t n,
                            void* ws, cudaStream_t stream) {
  constexpr size_t kSmem = v06::kStages * size_t(v06::stage_vecs<ALIGNED>) * sizeof(int4);
  auto kernel = paired_kernel<ALIGNED>;
  const cudaError_t e =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem));
  if (e != cudaSuccess) return e;
  static const size_t resident =  // once: the occupancy query is too slow for a timed launch
      resident_grid(reinterpret_cast<const void*>(kernel), v06::kBlockThreads, kSmem);
  const size_t tiles = ceil_div(n, v06::kTile), claims = ceil_div(tiles, size_t(kClaimTiles));
  char* const groups = static_cast<char*>(ws) + v10::kHeaderBytes;
  void* const rest = groups + v10::kGroupBytes;
  kernel<<<static_cast<unsigned>(std::min(claims, resident)), v06::kBlockThreads, kSmem, stream>>>(
      in, out, count, n, static_cast<unsigned>(tiles), static_cast<unsigned*>(ws),
      reinterpret_cast<scan::lookback::Status*>(groups), scan::lookback::tile_status(rest));
  return cudaGetLastError();
}

// The copy_if launcher contract (copy_if/copy_if.h), as v10's (the same workspace, paths and
// errors), with this file's pipeline where above_uses_pipeline(n).
inline cudaError_t launch(const int32_t* in, int32_t* out, unsigned long long* count, size_t n,
                          void* ws, cudaStream_t stream) {
  if (n <= v08::kSingleBlockMax) return v08::launch(in, out, count, n, ws, stream);
  if (!above_uses_pipeline(n))
    return v08::launch(in, out, count, n,
                       static_cast<char*>(ws) + v10::kHeaderBytes + v10::kGroupBytes, stream);
  if (reinterpret_cast<uintptr_t>(in) % 16 == 0)
    return launch_pipeline<true>(in, out, count, n, ws, stream);
  return launch_pipeline<false>(in, out, count, n, ws, stream);
}

}  // namespace ladder::copy_if::lab_paired
