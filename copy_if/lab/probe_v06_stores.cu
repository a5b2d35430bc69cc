// copy_if/lab/probe_v06_stores.cu — what keeps copy_if v06 from the H200's copy ceiling at 2^28:
// its stores, or its status words? Not part of the binary. At 2^28, keep50, the frozen run has v06
// (through v08) at 87.6% of the copy ceiling, and v07 (the same pipeline, an atomic for each
// tile's output range, no look-ahead) about five points higher (copy_if/lab/LAB_NOTES.md). Both
// store the compacted run with 4-byte stores. This probe times one copy of v06's kernel (aligned
// input only) with three things switched:
//   LOOK   how a tile gets its output offset: v06's incremental look-ahead over 8-byte status
//          words (flag and count), the same over 4-byte words (count + 1, 0 = not yet: a tile's
//          count is at most 4096, so half the bytes a round trip), or v07's atomic (unordered);
//   WIN    statuses a lane reads a round trip (8 as shipped when this probe was written, 16
//          since: one round trip a tile at 2^28);
//   STORE  the compacted run's stores: 4-byte `__stcs` (shipped then), 4-byte plain, or 16-byte
//          plain or `__stcs` (the run's head and tail, up to three elements each, 4-byte; the body
//          from the 16-byte boundary of the destination, each int4 read from the stage as four
//          words).
// against v06 and v07 as shipped, CUB's DeviceSelect::If and `cudaMemcpy` of the same bytes (4n +
// 4 kept, as the benchmark's bytes_moved counts them: a copy of half as many bytes), at 2^28
// (keep1, keep50, keep99), 2^26 and 2^24 (keep50); three interleaved rounds of 31-launch medians,
// timed as the benchmark times (common/probe_timer.cuh). Every ordered output is compared with
// CUB's (elements and count), also with the output one element off 16-byte alignment (untimed);
// unordered ones by their count. A control flips one output element and must see one mismatch.
// PROBE_PADS=1: the stages at 0, 16, 64, 128 and 512 bytes past a 1024-byte boundary of shared
// memory; PROBE_ALIGNED=1: the variants above, all on a 128-byte boundary; PROBE_PAIR=1: the run's
// 16-byte stores with each int4 read from the stage as two aligned int4 and a select
// (bulk::staged_int4: no bank conflict) against the four 4-byte reads, for v06 and v07 (run on an
// H200: results/logs/h200-session17-2026-11-30/call-a/); PROBE_THROTTLE=1: the
// shipped v06 shape and v07's with the producer keeping at most THR bulk copies in flight;
// PROBE_QUARTERS=1: the same with quarter-tile copies, THR counting quarters (run on an H200:
// results/logs/h200-session20-2026-11-30/call-1/); PROBE_CLUSTER=1: v06's shape with one
// streaming look-ahead for each thread-block cluster of two blocks (kCluster, kClusterNap), as
// scan/lab/probe_v15_stores.cu's kStream with kHandLate (run on an H200:
// results/logs/h200-session23-2026-11-30/call-7/ and call-8/); with PROBE_CLUSTER_Q4=1 too, the
// cluster form and v06's shape on quarter tiles, at most four in flight a block (call-9/).
// PROBE_AGE=1: v06's shape with scan v17's aged look-ahead (template parameter AGE), on whole tiles
// and on quarter tiles with at most four or six in flight.
// `./p I`: input I only.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. copy_if/lab/probe_v06_stores.cu common/device.cu -o p &&
//   ./p
#include <cub/device/device_select.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "common/bulk_copy.cuh"
#include "common/device.h"
#include "common/globaltimer.cuh"
#include "common/probe_timer.cuh"
#include "copy_if/v06_warp_specialized.cuh"
#include "copy_if/v07_pipelined_unordered.cuh"
#include "scan/lab/cluster.cuh"
#include "scan/lookback.cuh"
#include "scan/warp_scan.cuh"

using namespace ladder;
using namespace ladder::copy_if;

namespace probe {

constexpr unsigned W = 4, V = 8, NS = 6, T = W * 32, kThreads = (2 * W + 2) * 32;
constexpr size_t kTile = size_t(T) * V * 4;
// kCluster: the 8-byte statuses, read by one look-ahead for a thread-block cluster of C blocks (its
// rank 0's), which streams them and answers every member's claims (scan's probe, kStream with
// kHandLate and kStAsync: claims handed over by st.async once the tile is counted)
// kClusterNap: kCluster with a 100 ns sleep when no member waits, or a round trip stops short.
enum Look { kAtomic = 0, kStatus64 = 1, kStatus32 = 2, kCluster = 3, kClusterNap = 4 };
__host__ __device__ constexpr bool is_cluster(int look) {
  return look == kCluster || look == kClusterNap;
}
enum Store { kScalarStcs = 0, kScalarPlain = 1, kVecPlain = 2, kVecStcs = 3, kVecPair = 4 };
// int4 from one stage to the next: the tile, and for kVecPair one spare 128-byte line, so that the
// pair of aligned reads behind the run's last int4 stays inside the stage.
template <int STORE>
constexpr unsigned kStageVecs = T* V + (STORE == kVecPair ? 8 : 0);

__device__ __forceinline__ void publish32(unsigned* s, unsigned v) {
  asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(s), "r"(v) : "memory");
}
__device__ __forceinline__ unsigned peek32(const unsigned* s) {
  unsigned v;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(s) : "memory");
  return v;
}
// scan::lookback::advance_to over 4-byte words holding count + 1 (0: not yet published).
template <unsigned WIN>
__device__ __forceinline__ void advance_to32(const unsigned* status, size_t tile, size_t& counted,
                                             unsigned& sum) {
  const unsigned lane = threadIdx.x % 32;
  while (counted < tile) {
    unsigned word[WIN];
#pragma unroll
    for (unsigned j = 0; j < WIN; ++j) {
      const size_t k = counted + 32 * j + lane;
      word[j] = k < tile ? peek32(status + k) : 0u;
    }
#pragma unroll
    for (unsigned j = 0; j < WIN; ++j) {
      const unsigned ready = __ballot_sync(0xffffffffu, word[j] != 0u);
      const unsigned run = ~ready ? __ffs(~ready) - 1 : 32;
      sum += __reduce_add_sync(0xffffffffu, lane < run ? word[j] - 1u : 0u);
      counted += run;
      if (run < 32) break;
    }
  }
}

// Thread-block clusters (kCluster): scan/lab/cluster.cuh.
using namespace ladder::lab;

template <bool STCS, typename X>
__device__ __forceinline__ void put(X* p, X v) {
  if constexpr (STCS)
    __stcs(p, v);
  else
    *p = v;
}

// v06's kernel (ALIGNED input), LOOK / WIN / STORE as in the header.
// PAD < 0: the stages start at the dynamic shared memory's base, declared as v06 declares it;
// else at PAD bytes past a base declared 1024-byte aligned. `where` (if not null): block 0 writes
// the stages' shared-memory address there.
// THR > 0: the producer claims and loads a tile only once the load THR tiles back has landed (at
// most THR bulk copies in flight a block, every stage still in use). QUARTERS: each whole tile is
// four quarter-tile bulk copies, each on its own mbarrier, and THR counts quarters (a sliding
// window), as scan/lab/probe_v15_stores.cu's kPieces.
// C: with kCluster, the blocks of a cluster (launched in clusters of C).
// AGE > 0 (kStatus64 only): the look-ahead of a tile waits until its own count is published
// (`reduced`), then until AGE ns after that (the reduce warp's %globaltimer), before it reads the
// statuses below it: scan v17's aged look-ahead (scan/lab/LAB_NOTES.md, "A look-ahead that waits
// for its statuses to age").
template <int LOOK, unsigned WIN, int STORE, int PAD = -1, unsigned THR = 0, bool QUARTERS = false,
          unsigned C = 1, unsigned AGE = 0>
__global__ void __launch_bounds__(kThreads, 1)
    kernel(const int32_t* __restrict__ in, int32_t* __restrict__ out, unsigned long long* count,
           size_t n, unsigned tiles, unsigned* counter, void* status_words, unsigned* where) {
  namespace lb = scan::lookback;
  extern __shared__ int4 dyn16[];
  extern __shared__ __align__(1024) int4 dyn1024[];
  int4* const stage_data = PAD < 0 ? dyn16 : dyn1024 + (PAD < 0 ? 0 : PAD) / 16;
  __shared__ alignas(8) unsigned long long full[NS], claimed[NS], reduced[NS], prefixed[NS],
      empty[NS], piece[NS][4];
  __shared__ unsigned tile_of[NS];
  __shared__ unsigned chunk_offset[NS][32];
  __shared__ unsigned tile_count[NS];
  __shared__ unsigned long long published_at[AGE ? NS : 1];  // AGE: when the count was published
  static_assert(AGE == 0 || LOOK == kStatus64, "AGE: 8-byte statuses, one look-ahead a block");
  // v06's offsets are 32-bit (n < 2^32), v07's 64-bit (its atomic count); as shipped.
  __shared__ std::conditional_t<LOOK == kAtomic, unsigned long long, unsigned> tile_offset[NS];
  lb::Status* status64 = static_cast<lb::Status*>(status_words);
  unsigned* status32 = static_cast<unsigned*>(status_words);
  static_assert(is_cluster(LOOK) == (C > 1), "kCluster: clusters of C > 1 blocks");
  // kCluster, used in rank 0: member m's handed-over tiles, a ring of NS, and their barriers
  __shared__ unsigned look_c[C][NS];
  __shared__ alignas(8) unsigned long long claimed_c[C][NS];

  const KeepPositive keep;
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (threadIdx.x == 0) {
    for (unsigned s = 0; s < NS; ++s) {
      for (unsigned q = 0; q < 4; ++q) bulk::barrier_init(&piece[s][q], 1);
      bulk::barrier_init(&full[s], 32);
      bulk::barrier_init(&claimed[s], 1);
      bulk::barrier_init(&reduced[s], 32);
      bulk::barrier_init(&prefixed[s], 1);
      bulk::barrier_init(&empty[s], T);
    }
    if constexpr (C > 1)
      for (unsigned m = 0; m < C; ++m)
        for (unsigned s = 0; s < NS; ++s) {
          bulk::barrier_init(&claimed_c[m][s], 1);
          arm4(&claimed_c[m][s]);  // the first hand-over into each slot
        }
  }
  __syncthreads();
  if constexpr (C > 1) cluster_sync();  // every member's barriers initialized
  const unsigned crank = C > 1 ? cluster_rank() : 0;
  if (where && blockIdx.x == 0 && threadIdx.x == 0)
    *where = unsigned(__cvta_generic_to_shared(stage_data));

  if (warp == 2 * W) {
    for (unsigned i = 0;; ++i) {
      const unsigned s = i % NS, round = i / NS;
      if (round > 0) bulk::wait(&empty[s], (round - 1) & 1);
      if constexpr (THR > 0 && !QUARTERS) {
        if (i >= THR) bulk::wait(&full[(i - THR) % NS], ((i - THR) / NS) & 1);
      }
      unsigned t = 0;
      if (lane == 0) t = atomicAdd(counter, 1u);
      t = __shfl_sync(0xffffffffu, t, 0);
      if (lane == 0) {
        tile_of[s] = t;
        bulk::arrive(&claimed[s]);
      }
      if (t >= tiles) {
        bulk::arrive(&full[s]);
        break;
      }
      const size_t base = size_t(t) * kTile;
      int4* dst = stage_data + size_t(s) * kStageVecs<STORE>;
      if (QUARTERS && base + kTile <= n) {
        for (unsigned q = 0; q < 4; ++q) {
          if constexpr (THR > 0) {
            const unsigned g = 4 * i + q;
            if (g >= THR) {
              const unsigned h = g - THR;
              bulk::wait(&piece[(h / 4) % NS][h % 4], ((h / 4) / NS) & 1);
            }
          }
          if (lane == 0)
            bulk::load(dst + q * (T * V / 4), in + base + q * (kTile / 4),
                       unsigned(T * V * sizeof(int4) / 4), &piece[s][q]);
        }
        bulk::arrive(&full[s]);
      } else if (base + kTile <= n) {
        if (lane == 0)
          bulk::load(dst, in + base, unsigned(T * V * sizeof(int4)), &full[s]);
        else
          bulk::arrive(&full[s]);
      } else {
        int32_t* d = reinterpret_cast<int32_t*>(dst);
        for (size_t k = lane; k < kTile; k += 32) d[k] = base + k < n ? in[base + k] : 0;
        bulk::fence_proxy_async_shared();
        if (QUARTERS && lane < 4) bulk::arrive(&piece[s][lane]);
        bulk::arrive(&full[s]);
      }
    }
  } else if (warp == 2 * W + 1) {
    if constexpr (is_cluster(LOOK)) {
      // rank 0: the cluster's look-ahead, a round trip serving every member's oldest claim
      if (crank == 0) {
        unsigned next[C] = {};
        unsigned live = (1u << C) - 1;
        size_t counted = 0;
        unsigned sum = 0;
        while (live) {
          unsigned h = ~0u;  // lane m: member m's oldest unanswered tile, ~0u if none handed yet
#pragma unroll
          for (unsigned m = 0; m < C; ++m)
            if (lane == m && ((live >> m) & 1) &&
                test_local(&claimed_c[m][next[m] % NS], (next[m] / NS) & 1))
              h = *static_cast<volatile unsigned*>(&look_c[m][next[m] % NS]);
          unsigned head[C];
          bool any = false;
          size_t hi = 0;
#pragma unroll
          for (unsigned m = 0; m < C; ++m) {
            head[m] = __shfl_sync(0xffffffffu, h, m);
            if (head[m] == ~0u) continue;
            if (head[m] >= tiles || head[m] < counted) {  // an end mark, or a tile already passed
              if (head[m] < tiles) {  // every status in [head, counted) is published
                unsigned back = 0;
                for (size_t k = head[m] + lane; k < counted; k += 32)
                  back += unsigned(uint32_t(lb::peek(status64 + k)));
                const unsigned p = sum - __reduce_add_sync(0xffffffffu, back);
                if (lane == 0) {
                  arm4(&claimed_c[m][next[m] % NS]);
                  send_async(&tile_offset[next[m] % NS], &prefixed[next[m] % NS], m, p);
                }
              } else {
                live &= ~(1u << m);
              }
              ++next[m];
              head[m] = ~0u;
              continue;
            }
            any = true;
            hi = hi > head[m] ? hi : size_t(head[m]);
          }
          if (!any) {
            if (LOOK == kClusterNap) __nanosleep(100);
            continue;
          }
          // one round trip: the statuses from `counted` up to the highest waiting tile
          lb::Status w64[WIN];
#pragma unroll
          for (unsigned j = 0; j < WIN; ++j) {
            const size_t k = counted + 32 * j + lane;
            w64[j] = k < hi ? lb::peek(status64 + k) : 0;
          }
          unsigned word[WIN], rdy[WIN];
#pragma unroll
          for (unsigned j = 0; j < WIN; ++j) {
            word[j] = uint32_t(w64[j]);
            rdy[j] = __ballot_sync(0xffffffffu, uint32_t(w64[j] >> 32) != lb::kInvalid);
          }
          unsigned len = 0;  // statuses published without a gap from `counted`
#pragma unroll
          for (unsigned j = 0; j < WIN; ++j) {
            const unsigned run = ~rdy[j] ? __ffs(~rdy[j]) - 1 : 32;
            len += run;
            if (run < 32) break;
          }
#pragma unroll
          for (unsigned m = 0; m < C; ++m) {  // answer each tile the run reaches
            if (head[m] == ~0u || head[m] > counted + len) continue;
            const unsigned below = unsigned(head[m] - counted);
            unsigned part = 0;
#pragma unroll
            for (unsigned j = 0; j < WIN; ++j)
              if (32 * j + lane < below) part += word[j];
            const unsigned p = sum + __reduce_add_sync(0xffffffffu, part);
            if (lane == 0) {
              arm4(&claimed_c[m][next[m] % NS]);
              send_async(&tile_offset[next[m] % NS], &prefixed[next[m] % NS], m, p);
            }
            ++next[m];
          }
          unsigned all = 0;
#pragma unroll
          for (unsigned j = 0; j < WIN; ++j)
            if (32 * j + lane < len) all += word[j];
          sum += __reduce_add_sync(0xffffffffu, all);
          counted += len;
          if (LOOK == kClusterNap && len < 32 * WIN && counted < hi) __nanosleep(100);
        }
      }
    } else if constexpr (LOOK != kAtomic) {
      size_t counted = 0;
      unsigned sum = 0;
      for (unsigned i = 0;; ++i) {
        const unsigned s = i % NS, round = i / NS;
        bulk::wait(&claimed[s], round & 1);
        const size_t t = tile_of[s];
        if (t >= tiles) break;
        if constexpr (AGE > 0) {  // the stage is held until this warp's offset: no phase missed
          bulk::wait(&reduced[s], round & 1);
          const unsigned long long ready = published_at[s] + AGE;
          while (globaltimer_ns() < ready) __nanosleep(100);
        }
        if constexpr (LOOK == kStatus64)
          lb::advance_to<WIN>(status64, t, counted, sum);
        else
          advance_to32<WIN>(status32, t, counted, sum);
        if (lane == 0) {
          tile_offset[s] = sum;
          bulk::arrive(&prefixed[s]);
        }
      }
    }
  } else if (warp < W) {
    for (unsigned i = 0;; ++i) {
      const unsigned s = i % NS, round = i / NS;
      bulk::wait(&full[s], round & 1);
      const unsigned t = tile_of[s];
      if (t >= tiles) {
        if (is_cluster(LOOK) && warp == 0 && lane == 0)  // the end mark, to the look-ahead
          send_async(&look_c[crank][i % NS], &claimed_c[crank][i % NS], 0, t);
        if (warp == 0) bulk::arrive(&reduced[s]);
        break;
      }
      if constexpr (QUARTERS) {
        for (unsigned q = 0; q < 4; ++q) bulk::wait(&piece[s][q], round & 1);
      }
      const int4* src = stage_data + size_t(s) * kStageVecs<STORE>;
#pragma unroll
      for (unsigned u = 0; u < V; ++u) {
        const int4 x = src[u * T + threadIdx.x];
        const unsigned c =
            __reduce_add_sync(0xffffffffu, unsigned(keep(x.x)) + keep(x.y) + keep(x.z) + keep(x.w));
        if (lane == 0) chunk_offset[s][u * W + warp] = c;
      }
      asm volatile("bar.sync 1, %0;" ::"n"(T) : "memory");
      if (warp == 0) {
        const int32_t mine = static_cast<int32_t>(chunk_offset[s][lane]);
        const int32_t incl = scan::warp_scan_inclusive(mine);
        chunk_offset[s][lane] = static_cast<unsigned>(incl - mine);
        const unsigned total = static_cast<unsigned>(__shfl_sync(0xffffffffu, incl, 31));
        if (lane == 0) {
          tile_count[s] = total;
          if constexpr (LOOK == kStatus64 || is_cluster(LOOK))
            lb::publish<unsigned>(status64 + t, lb::kAggregate, total);
          if constexpr (AGE > 0) published_at[s] = globaltimer_ns();
          if constexpr (is_cluster(LOOK)) {  // hand the tile over, counted, for its offset
            arm4(&prefixed[s]);
            send_async(&look_c[crank][i % NS], &claimed_c[crank][i % NS], 0, t);
          }
          if constexpr (LOOK == kStatus32) publish32(status32 + t, total + 1u);
        }
        __syncwarp();
        bulk::arrive(&reduced[s]);
      }
    }
  } else {
    const unsigned j = threadIdx.x - T, w = warp - W;
    for (unsigned i = 0;; ++i) {
      const unsigned s = i % NS, round = i / NS;
      bulk::wait(&reduced[s], round & 1);
      const unsigned t = tile_of[s];
      if (t >= tiles) break;
      int4* stage = stage_data + size_t(s) * kStageVecs<STORE>;
      int4 x[V];
      unsigned rank[V];
#pragma unroll
      for (unsigned u = 0; u < V; ++u) {
        x[u] = stage[u * T + j];
        const int32_t c = keep(x[u].x) + keep(x[u].y) + keep(x[u].z) + keep(x[u].w);
        const int32_t incl = scan::warp_scan_inclusive(c);
        rank[u] = chunk_offset[s][u * W + w] + static_cast<unsigned>(incl - c);
      }
      asm volatile("bar.sync 2, %0;" ::"n"(T) : "memory");
      int32_t* compacted = reinterpret_cast<int32_t*>(stage);
#pragma unroll
      for (unsigned u = 0; u < V; ++u) {
        unsigned r = rank[u];
        if (keep(x[u].x)) compacted[r++] = x[u].x;
        if (keep(x[u].y)) compacted[r++] = x[u].y;
        if (keep(x[u].z)) compacted[r++] = x[u].z;
        if (keep(x[u].w)) compacted[r++] = x[u].w;
      }
      const unsigned total = tile_count[s];
      if constexpr (LOOK == kAtomic) {
        if (j == 0) tile_offset[s] = atomicAdd(count, static_cast<unsigned long long>(total));
        asm volatile("bar.sync 2, %0;" ::"n"(T) : "memory");
      } else {
        asm volatile("bar.sync 2, %0;" ::"n"(T) : "memory");
        bulk::wait(&prefixed[s], round & 1);
      }
      const auto offset = tile_offset[s];
      int32_t* dst = out + offset;
      if constexpr (STORE == kScalarStcs || STORE == kScalarPlain) {
        for (unsigned k = j; k < total; k += T) put<STORE == kScalarStcs>(dst + k, compacted[k]);
      } else {
        const unsigned a = unsigned(reinterpret_cast<uintptr_t>(dst) / 4) & 3u;
        const unsigned head = min((4u - a) & 3u, total);
        const unsigned body = (total - head) / 4;
        const unsigned tail = head + 4 * body;
        if (j < head) put<STORE == kVecStcs>(dst + j, compacted[j]);
        if (j < total - tail) put<STORE == kVecStcs>(dst + tail + j, compacted[tail + j]);
        int4* d4 = reinterpret_cast<int4*>(dst + head);
        const int32_t* c = compacted + head;
        for (unsigned k = j; k < body; k += T) {
          if constexpr (STORE == kVecPair) {  // two aligned int4 reads and a select
            const int4* st4 = reinterpret_cast<const int4*>(compacted);
            const int4 v = head == 0 ? st4[k] : bulk::staged_int4<true>(st4, head, k);
            put<false>(d4 + k, v);
          } else {
            const int4 v = make_int4(c[4 * k], c[4 * k + 1], c[4 * k + 2], c[4 * k + 3]);
            put<STORE == kVecStcs>(d4 + k, v);
          }
        }
      }
      bulk::fence_proxy_async_shared();
      if constexpr (LOOK != kAtomic)
        if (j == 0 && t == tiles - 1) *count = static_cast<unsigned long long>(offset) + total;
      bulk::arrive(&empty[s]);
    }
  }
  if constexpr (C > 1) cluster_sync();  // no member leaves while another may still send to it
}

unsigned* g_where = nullptr;  // set for the check runs: the stages' address is printed

template <int LOOK, unsigned WIN, int STORE, int PAD = -1, unsigned THR = 0, bool QUARTERS = false,
          unsigned C = 1, unsigned AGE = 0>
cudaError_t launch(const int32_t* in, int32_t* out, unsigned long long* count, size_t n, void* ws,
                   cudaStream_t st) {
  const size_t tiles = (n + kTile - 1) / kTile;
  constexpr size_t kSmem = NS * size_t(kStageVecs<STORE>) * sizeof(int4) + (PAD < 0 ? 0 : PAD);
  auto k = kernel<LOOK, WIN, STORE, PAD, THR, QUARTERS, C, AGE>;
  cudaError_t e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem));
  if (e != cudaSuccess) return e;
  static const size_t resident = [&] {
    const size_t r = resident_grid(reinterpret_cast<const void*>(k), kThreads, kSmem);
    cudaFuncAttributes a{};
    cudaFuncGetAttributes(&a, k);
    printf(
        "kernel<%d, %u, %d, %d, %u, %d, %u, %u>: %d registers, %zu static smem bytes, grid %zu\n",
        LOOK, WIN, STORE, PAD, THR, int(QUARTERS), C, AGE, a.numRegs, a.sharedSizeBytes, r);
    return r;
  }();
  const size_t words = LOOK == kStatus32 ? tiles * 4 : LOOK != kAtomic ? tiles * 8 : 0;
  e = cudaMemsetAsync(ws, 0, 16 + words, st);
  if (e == cudaSuccess && LOOK == kAtomic) e = cudaMemsetAsync(count, 0, 8, st);
  if (e != cudaSuccess) return e;
  if constexpr (C > 1) {  // clusters of C blocks: as many as are resident at once
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = C;
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.blockDim = dim3(kThreads);
    cfg.dynamicSmemBytes = kSmem;
    cfg.stream = st;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    static const size_t clusters = [&] {
      cfg.gridDim = dim3(C * 1024);
      int c = 0;
      const cudaError_t oe = cudaOccupancyMaxActiveClusters(&c, k, &cfg);
      printf("clusters of %u: %d resident (%s)\n", C, c, cudaGetErrorString(oe));
      return size_t(c);
    }();
    if (clusters == 0) return cudaErrorInvalidConfiguration;
    cfg.gridDim = dim3(unsigned(std::min((tiles + C - 1) / C, clusters) * C));
    e = cudaLaunchKernelEx(&cfg, k, static_cast<const int32_t*>(in), out, count, n, unsigned(tiles),
                           static_cast<unsigned*>(ws),
                           static_cast<void*>(static_cast<char*>(ws) + 16), g_where);
    if (e != cudaSuccess) return e;
    return cudaGetLastError();
  }
  k<<<unsigned(std::min(tiles, resident)), kThreads, kSmem, st>>>(
      in, out, count, n, unsigned(tiles), static_cast<unsigned*>(ws), static_cast<char*>(ws) + 16,
      g_where);
  return cudaGetLastError();
}

}  // namespace probe

int main(int argc, char** argv) {
  const int only = argc > 1 ? atoi(argv[1]) : -1;  // run one input (its index) only
  const size_t max_n = size_t(1) << 28;
  int32_t *in, *out_base, *want;
  unsigned long long *count, *want_count, *scratch;
  void* ws;
  if (cudaMalloc(&in, max_n * 4) || cudaMalloc(&out_base, max_n * 4 + 16) ||
      cudaMalloc(&want, max_n * 4) || cudaMalloc(&count, 8) || cudaMalloc(&want_count, 8) ||
      cudaMalloc(&scratch, 8) || cudaMalloc(&ws, 64 << 20)) {
    printf("cudaMalloc failed\n");
    return 1;
  }
  cudaStream_t st;
  cudaStreamCreate(&st);
  probe_timing::Timer timer(st);
  size_t cub_bytes = 0;
  cub::DeviceSelect::If(nullptr, cub_bytes, in, want, want_count, int64_t(max_n), KeepPositive{});
  void* cub_tmp;
  cudaMalloc(&cub_tmp, cub_bytes);
  unsigned* where;
  cudaMalloc(&where, 4);
  int32_t* out = out_base;  // the timed runs; the check below also runs out_base + 1

  struct Case {
    std::string name;
    bool ordered;  // elements compared (else the count alone)
    std::function<cudaError_t(int32_t*, size_t)> run;
  };
  using namespace probe;
  std::vector<Case> cases = {
      {"cub DeviceSelect::If", true,
       [&](int32_t* o, size_t n) {
         size_t b = cub_bytes;
         return cub::DeviceSelect::If(cub_tmp, b, in, o, count, int64_t(n), KeepPositive{}, st);
       }},
      {"v06 shipped", true,
       [&](int32_t* o, size_t n) { return v06::launch(in, o, count, n, ws, st); }},
      {"v07 shipped (unordered)", false,
       [&](int32_t* o, size_t n) { return v07::launch(in, o, count, n, ws, st); }},
  };
#define CASE(NAME, ORD, L, WN, S, ...)                                                            \
  cases.push_back({NAME, ORD, [&](int32_t* o, size_t n) {                                         \
                     return launch<L, WN, S __VA_OPT__(, ) __VA_ARGS__>(in, o, count, n, ws, st); \
                   }})
  CASE("s64 w8 scalar stcs (=v06)", true, kStatus64, 8, kScalarStcs);
  CASE("s64 w16 scalar stcs", true, kStatus64, 16, kScalarStcs);
  CASE("s32 w8 scalar stcs", true, kStatus32, 8, kScalarStcs);
  CASE("s32 w16 scalar stcs", true, kStatus32, 16, kScalarStcs);
  CASE("s64 w8 scalar plain", true, kStatus64, 8, kScalarPlain);
  CASE("s64 w8 vec plain", true, kStatus64, 8, kVecPlain);
  CASE("s64 w8 vec stcs", true, kStatus64, 8, kVecStcs);
  CASE("s32 w16 scalar plain", true, kStatus32, 16, kScalarPlain);
  CASE("s32 w16 vec plain", true, kStatus32, 16, kVecPlain);
  CASE("s32 w16 vec stcs", true, kStatus32, 16, kVecStcs);
  CASE("atomic scalar stcs (=v07)", false, kAtomic, 8, kScalarStcs);
  CASE("atomic vec plain", false, kAtomic, 8, kVecPlain);
  if (std::getenv("PROBE_ALIGNED")) {  // every variant with its stages on a 128-byte boundary
    cases.resize(3);
    CASE("s64 w8 scalar stcs pad 0", true, kStatus64, 8, kScalarStcs, 0);
    CASE("s64 w16 scalar stcs pad 0", true, kStatus64, 16, kScalarStcs, 0);
    CASE("s64 w8 vec stcs pad 0", true, kStatus64, 8, kVecStcs, 0);
    CASE("s64 w16 vec stcs pad 0", true, kStatus64, 16, kVecStcs, 0);
    CASE("s64 w16 vec plain pad 0", true, kStatus64, 16, kVecPlain, 0);
    CASE("s32 w16 vec stcs pad 0", true, kStatus32, 16, kVecStcs, 0);
    CASE("s32 w16 vec plain pad 0", true, kStatus32, 16, kVecPlain, 0);
    CASE("atomic scalar stcs pad 0", false, kAtomic, 8, kScalarStcs, 0);
    CASE("atomic vec stcs pad 0", false, kAtomic, 8, kVecStcs, 0);
  }
  if (std::getenv("PROBE_PAIR")) {  // the run's int4 read as two aligned int4 and a select
    cases.resize(3);
    CASE("s64 w16 vec plain pad 0", true, kStatus64, 16, kVecPlain, 0);
    CASE("s64 w16 vec pair pad 0", true, kStatus64, 16, kVecPair, 0);
    CASE("atomic scalar stcs pad 0", false, kAtomic, 8, kScalarStcs, 0);
    CASE("atomic vec plain pad 0", false, kAtomic, 8, kVecPlain, 0);
    CASE("atomic vec pair pad 0", false, kAtomic, 8, kVecPair, 0);
  }
  if (std::getenv("PROBE_THROTTLE")) {  // at most THR bulk copies in flight a block
    cases.resize(3);
    CASE("s64 w16 vec plain pad 0 (=v06)", true, kStatus64, 16, kVecPlain, 0);
    CASE("s64 w16 vec plain pad 0 THR 1", true, kStatus64, 16, kVecPlain, 0, 1);
    CASE("s64 w16 vec plain pad 0 THR 2", true, kStatus64, 16, kVecPlain, 0, 2);
    CASE("s64 w16 vec plain pad 0 THR 3", true, kStatus64, 16, kVecPlain, 0, 3);
    CASE("s64 w16 vec plain pad 0 THR 4", true, kStatus64, 16, kVecPlain, 0, 4);
    CASE("atomic scalar stcs pad 0", false, kAtomic, 8, kScalarStcs, 0);
    CASE("atomic scalar stcs pad 0 THR 2", false, kAtomic, 8, kScalarStcs, 0, 2);
    CASE("atomic scalar stcs pad 0 THR 3", false, kAtomic, 8, kScalarStcs, 0, 3);
  }
  if (std::getenv("PROBE_QUARTERS")) {  // quarter-tile copies, at most THR quarters in flight
    cases.resize(3);
    CASE("s64 w16 vec plain pad 0 (=v06)", true, kStatus64, 16, kVecPlain, 0);
    CASE("s64 w16 vec plain pad 0 Q THR 4", true, kStatus64, 16, kVecPlain, 0, 4, true);
    CASE("s64 w16 vec plain pad 0 Q THR 6", true, kStatus64, 16, kVecPlain, 0, 6, true);
    CASE("s64 w16 vec plain pad 0 Q THR 8", true, kStatus64, 16, kVecPlain, 0, 8, true);
    CASE("atomic scalar stcs pad 0", false, kAtomic, 8, kScalarStcs, 0);
    CASE("atomic scalar stcs pad 0 Q THR 4", false, kAtomic, 8, kScalarStcs, 0, 4, true);
    CASE("atomic scalar stcs pad 0 Q THR 6", false, kAtomic, 8, kScalarStcs, 0, 6, true);
  }
  if (std::getenv("PROBE_CLUSTER")) {  // one look-ahead for each cluster of two blocks
    cases.resize(3);
    CASE("s64 w16 vec plain pad 0 (=v06)", true, kStatus64, 16, kVecPlain, 0);
    CASE("s64 w8 vec plain pad 0", true, kStatus64, 8, kVecPlain, 0);
    CASE("cluster 2 w8 vec plain pad 0", true, kCluster, 8, kVecPlain, 0, 0, false, 2);
    CASE("cluster 2 w16 vec plain pad 0", true, kCluster, 16, kVecPlain, 0, 0, false, 2);
    CASE("cluster 2 w16 nap vec plain pad 0", true, kClusterNap, 16, kVecPlain, 0, 0, false, 2);
    CASE("cluster 2 w16 vec plain pad 0 Q THR 6", true, kCluster, 16, kVecPlain, 0, 6, true, 2);
    CASE("s64 w16 vec plain pad 0 Q THR 6", true, kStatus64, 16, kVecPlain, 0, 6, true);
    if (std::getenv("PROBE_CLUSTER_Q4")) {  // scan's setting: four quarter tiles in flight
      cases.resize(5);                      // CUB, v06, v07, the probe's v06, its windows of 8
      CASE("cluster 2 w16 vec plain pad 0 Q THR 4", true, kCluster, 16, kVecPlain, 0, 4, true, 2);
      CASE("s64 w16 vec plain pad 0 Q THR 4", true, kStatus64, 16, kVecPlain, 0, 4, true);
      CASE("cluster 2 w16 vec plain pad 0", true, kCluster, 16, kVecPlain, 0, 0, false, 2);
      CASE("atomic scalar stcs pad 0", false, kAtomic, 8, kScalarStcs, 0);
    }
    CASE("atomic scalar stcs pad 0", false, kAtomic, 8, kScalarStcs, 0);
  }
  if (std::getenv("PROBE_AGE")) {  // scan v17's aged look-ahead on v06's shape
    cases.resize(3);               // CUB, v06, v07
    CASE("s64 w16 vec plain pad 0 (=v06)", true, kStatus64, 16, kVecPlain, 0);
    CASE("s64 w16 vec plain pad 0 age 1000", true, kStatus64, 16, kVecPlain, 0, 0, false, 1, 1000);
    CASE("s64 w16 vec plain pad 0 age 2000", true, kStatus64, 16, kVecPlain, 0, 0, false, 1, 2000);
    CASE("s64 w16 vec plain pad 0 age 3000", true, kStatus64, 16, kVecPlain, 0, 0, false, 1, 3000);
    CASE("s64 w16 vec plain pad 0 Q THR 4", true, kStatus64, 16, kVecPlain, 0, 4, true);
    CASE("s64 w16 vec plain pad 0 Q THR 4 age 2000", true, kStatus64, 16, kVecPlain, 0, 4, true, 1,
         2000);
    CASE("s64 w16 vec plain pad 0 Q THR 4 age 3000", true, kStatus64, 16, kVecPlain, 0, 4, true, 1,
         3000);
    CASE("s64 w16 vec plain pad 0 Q THR 6", true, kStatus64, 16, kVecPlain, 0, 6, true);
    CASE("s64 w16 vec plain pad 0 Q THR 6 age 2000", true, kStatus64, 16, kVecPlain, 0, 6, true, 1,
         2000);
    CASE("atomic scalar stcs pad 0", false, kAtomic, 8, kScalarStcs, 0);
  }
  if (std::getenv("PROBE_PADS")) {  // where the stages start, on v06's shape
    CASE("s64 w8 scalar stcs pad 0", true, kStatus64, 8, kScalarStcs, 0);
    CASE("s64 w8 scalar stcs pad 16", true, kStatus64, 8, kScalarStcs, 16);
    CASE("s64 w8 scalar stcs pad 64", true, kStatus64, 8, kScalarStcs, 64);
    CASE("s64 w8 scalar stcs pad 128", true, kStatus64, 8, kScalarStcs, 128);
    CASE("s64 w8 scalar stcs pad 512", true, kStatus64, 8, kScalarStcs, 512);
    CASE("s32 w16 vec plain pad 0", true, kStatus32, 16, kVecPlain, 0);
    CASE("s32 w16 vec plain pad 128", true, kStatus32, 16, kVecPlain, 128);
    CASE("atomic scalar stcs pad 0", false, kAtomic, 8, kScalarStcs, 0);
    CASE("atomic scalar stcs pad 16", false, kAtomic, 8, kScalarStcs, 16);
    CASE("atomic scalar stcs pad 128", false, kAtomic, 8, kScalarStcs, 128);
  }
#undef CASE

  struct Input {
    int lg;
    unsigned per100;  // kept per hundred
  };
  const Input inputs[] = {{28, 50}, {28, 1}, {28, 99}, {26, 50}, {24, 50}};
  for (int ii = 0; ii < int(sizeof(inputs) / sizeof(inputs[0])); ++ii) {
    if (only >= 0 && ii != only) continue;
    const Input& input = inputs[ii];
    const size_t n = size_t(1) << input.lg;
    std::vector<int32_t> h(n);
    uint32_t x = 12345 + input.per100;
    for (auto& v : h) {
      x = x * 1664525u + 1013904223u;
      const uint32_t y = x >> 2;
      v = (x % 100) < input.per100 ? int32_t(1 + y % (1u << 30)) : -int32_t(y % (1u << 30));
    }
    cudaMemcpy(in, h.data(), n * 4, cudaMemcpyDefault);
    size_t b = cub_bytes;
    cub::DeviceSelect::If(cub_tmp, b, in, want, want_count, int64_t(n), KeepPositive{}, st);
    unsigned long long kept = 0;
    cudaStreamSynchronize(st);
    cudaMemcpy(&kept, want_count, 8, cudaMemcpyDefault);
    const size_t copy_bytes = (4 * n + 4 * kept) / 2;  // a copy moves twice its size
    printf("n = 2^%d, keep%u: %llu kept; us: median of 31 launches\n", input.lg, input.per100,
           kept);
    // Untimed checks, aligned and one element off alignment, and the control.
    for (size_t c = 0; c < cases.size(); ++c)
      for (int off = 0; off < 2; ++off) {
        int32_t* o = out_base + off;
        cudaMemsetAsync(out_base, 0, n * 4 + 16, st);
        cudaMemsetAsync(where, 0xff, 4, st);
        probe::g_where = where;
        cudaError_t e = cases[c].run(o, n);
        probe::g_where = nullptr;
        cudaStreamSynchronize(st);
        if (e == cudaSuccess) e = cudaGetLastError();
        unsigned long long got = 0;
        cudaMemcpy(&got, count, 8, cudaMemcpyDefault);
        const unsigned long long bad =
            cases[c].ordered ? probe_timing::mismatches(o, want, kept, scratch, st) : 0;
        unsigned w = 0;
        cudaMemcpy(&w, where, 4, cudaMemcpyDefault);
        printf("check %-28s out+%d: count %s, mismatches %llu%s, %s; stages at shared 0x%x\n",
               cases[c].name.c_str(), off, got == kept ? "ok" : "WRONG", bad,
               cases[c].ordered ? "" : " (count only)", cudaGetErrorString(e), w);
        if (c == 1 && off == 1 && kept > 2) {  // control: one element changed must be seen
          int32_t v;
          cudaMemcpy(&v, o + kept / 2, 4, cudaMemcpyDefault);
          v ^= 1;
          cudaMemcpy(o + kept / 2, &v, 4, cudaMemcpyDefault);
          printf("control (one element flipped): mismatches %llu (want 1)\n",
                 probe_timing::mismatches(o, want, kept, scratch, st));
        }
      }
    std::vector<std::vector<float>> us(cases.size() + 1);
    for (int round = 0; round < 3; ++round) {
      us[cases.size()].push_back(timer.median_us(
          [&] { cudaMemcpyAsync(out, in, copy_bytes, cudaMemcpyDeviceToDevice, st); }));
      for (size_t c = 0; c < cases.size(); ++c) {
        cudaError_t err = cudaSuccess;
        const float t = timer.median_us([&] {
          const cudaError_t e = cases[c].run(out, n);
          if (e != cudaSuccess) err = e;
        });
        cudaStreamSynchronize(st);
        unsigned long long got = 0;
        cudaMemcpy(&got, count, 8, cudaMemcpyDefault);
        us[c].push_back(t);
        printf("round %d  %-28s %8.2f us  count %s  %s\n", round, cases[c].name.c_str(), t,
               got == kept ? "ok" : "WRONG", cudaGetErrorString(err));
      }
    }
    for (auto& u : us) std::sort(u.begin(), u.end());
    const float copy = us[cases.size()][1];
    printf("summary 2^%d keep%u (median of the three rounds); cudaMemcpy of %zu bytes %.2f us\n",
           input.lg, input.per100, copy_bytes, copy);
    for (size_t c = 0; c < cases.size(); ++c) {
      const float m = us[c][1];
      printf("  %-28s %8.2f us  %5.1f%% of cudaMemcpy\n", cases[c].name.c_str(), m,
             100.0 * copy / m);
    }
    fflush(stdout);
  }
  return 0;
}
