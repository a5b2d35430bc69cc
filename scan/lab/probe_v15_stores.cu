// scan/lab/probe_v15_stores.cu — the H200's copy ceiling, items 1-5 of the lab notes' "Next to
// try" list: is the gap in how v15 moves data, and do its stores, its tile schedule or an L2 hint
// on its loads close it? Not part of the binary. At n = 2^28 int32 (aligned), times, interleaved
// over three rounds (each a median of 31 launches, timed as the benchmark times: L2 flushed,
// stream held, common/probe_timer.cuh):
//   cudaMemcpy of the bytes, int4 copy kernels (2 to 16 loads a thread; plain, __ldg, or
//   load_once + __stcs), CUB's
//   InclusiveSum, shipped v15 (scan/v15_warp_specialized.cuh), and this file's copy of v15's
//   kernel with one MODE bit or more set:
//     kPlain   plain 16-byte stores instead of __stcs;
//     kBulk    the scan-store squad writes the scanned tile back into its stage and one thread
//              bulk-stores it (cp.async.bulk.global.shared::cta, waiting for the read before the
//              stage is freed), as CCCL's warp-specialized scan stores its tiles;
//     kStatic  block b takes tiles b, b + grid, ... (no atomic claim; one resident wave);
//     kEvict   the tile loads carry an L2 evict_first policy (createpolicy + .L2::cache_hint);
//     kCopy    no scan: the pipeline copies its input (reduce and look-ahead warps only hand over),
//              a copy shaped like v15;
//     kAlign   the stages start on a 128-byte boundary of shared memory (the dynamic array
//              declared __align__(128)); without it they start where v15's do, 32 bytes past one
//              (the 1 KiB the system reserves a block, then 1,056 bytes of static shared memory).
// Every scan's whole output is compared with CUB's, every copy's with its input (mismatch counts).
// `./p small` times instead the kernel's shapes with less in flight an SM: tiles of 4, 8 or 16 KB
// (fewer 128-element chunks than lanes below 16 KB), 3 to 12 stages, and a cap on blocks an SM
// (launch's per_sm).
// `./p align` times the kAlign bit against v15 as shipped, alone and with the other bits;
// `./p align-shapes` the shapes of `small` again, aligned and with plain stores (blocks an SM: what
// fits, as labelled).
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o p && ./p
// Run on an H200 on 2026-11-29: results/logs/h200-probes-32f22b4-2026-11-29/
// (scan/lab/LAB_NOTES.md, "The list, run").
#include <cub/device/device_scan.cuh>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "common/bulk_copy.cuh"
#include "common/device.h"
#include "common/load.cuh"
#include "common/probe_timer.cuh"
#include "scan/lookback.cuh"
#include "scan/v09_ptx_predicated.cuh"
#include "scan/v15_warp_specialized.cuh"

using namespace ladder;
using namespace ladder::scan;

namespace probe {

enum : unsigned { kPlain = 1, kBulk = 2, kStatic = 4, kEvict = 8, kCopy = 16, kAlign = 32 };

__device__ __forceinline__ unsigned long long evict_first_policy() {
  unsigned long long p;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(p));
  return p;
}

__device__ __forceinline__ void load_hinted(void* dst, const void* src, unsigned bytes,
                                            unsigned long long* bar, unsigned long long policy) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bulk::smem_addr(bar)),
               "r"(bytes)
               : "memory");
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], "
      "[%1], %2, [%3], %4;" ::"r"(bulk::smem_addr(dst)),
      "l"(src), "r"(bytes), "r"(bulk::smem_addr(bar)), "l"(policy)
      : "memory");
}

__device__ __forceinline__ void store_bulk(void* dst, const void* src, unsigned bytes) {
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst),
               "r"(bulk::smem_addr(src)), "r"(bytes)
               : "memory");
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}

// v15's specialized_kernel (aligned input only), with the MODE bits above.
template <unsigned W, unsigned V, unsigned NS, unsigned WIN, unsigned MODE>
__global__ void __launch_bounds__(v15::kBlockThreads<W>, 1)
    kernel(const int32_t* __restrict__ in, int32_t* __restrict__ out, size_t n, unsigned tiles,
           unsigned* counter, lookback::Status* status) {
  constexpr unsigned T = W * 32;
  constexpr unsigned kVecs = T * V;
  constexpr size_t kTileElems = size_t(kVecs) * 4;
  constexpr unsigned kChunks = V * W;
  static_assert(kChunks % 32 == 0 || 32 % kChunks == 0, "chunks a lane, or lanes a chunk");
  constexpr unsigned kPerLane = kChunks >= 32 ? kChunks / 32 : 1;
  extern __shared__ int4 stage_data16[];
  extern __shared__ __align__(128) int4 stage_data128[];
  int4* const stage_data = (MODE & kAlign) ? stage_data128 : stage_data16;
  __shared__ alignas(8) unsigned long long full[NS], claimed[NS], reduced[NS], prefixed[NS],
      empty[NS];
  __shared__ unsigned tile_of[NS];
  __shared__ int32_t chunk_prefix[NS][kChunks];
  __shared__ int32_t tile_prefix[NS];
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (threadIdx.x == 0) {
    for (unsigned s = 0; s < NS; ++s) {
      bulk::barrier_init(&full[s], 32);
      bulk::barrier_init(&claimed[s], 1);
      bulk::barrier_init(&reduced[s], 32);
      bulk::barrier_init(&prefixed[s], 1);
      bulk::barrier_init(&empty[s], T);
    }
  }
  __syncthreads();
  if (warp == 2 * W) {
    unsigned long long policy = 0;
    if constexpr (MODE & kEvict) policy = evict_first_policy();
    for (unsigned i = 0;; ++i) {
      const unsigned s = i % NS, round = i / NS;
      if (round > 0) bulk::wait(&empty[s], (round - 1) & 1);
      unsigned t = 0;
      if constexpr (MODE & kStatic) {
        t = blockIdx.x + i * gridDim.x;
      } else {
        if (lane == 0) t = atomicAdd(counter, 1u);
        t = __shfl_sync(0xffffffffu, t, 0);
      }
      if (lane == 0) {
        tile_of[s] = t;
        bulk::arrive(&claimed[s]);
      }
      if (t >= tiles) {
        bulk::arrive(&full[s]);
        break;
      }
      const size_t base = size_t(t) * kTileElems;
      int4* dst = stage_data + size_t(s) * kVecs;
      if (base + kTileElems <= n) {
        if (lane == 0) {
          if constexpr (MODE & kEvict)
            load_hinted(dst, in + base, unsigned(kVecs * 16), &full[s], policy);
          else
            bulk::load(dst, in + base, unsigned(kVecs * 16), &full[s]);
        } else {
          bulk::arrive(&full[s]);
        }
      } else {
        int32_t* d = reinterpret_cast<int32_t*>(dst);
        for (size_t k = lane; k < kTileElems; k += 32) d[k] = base + k < n ? in[base + k] : 0;
        bulk::fence_proxy_async_shared();
        bulk::arrive(&full[s]);
      }
    }
  } else if (warp == 2 * W + 1) {
    size_t counted = 0;
    int32_t sum = 0;
    for (unsigned i = 0;; ++i) {
      const unsigned s = i % NS, round = i / NS;
      bulk::wait(&claimed[s], round & 1);
      const size_t t = tile_of[s];
      if (t >= tiles) break;
      if constexpr (!(MODE & kCopy)) lookback::advance_to<WIN>(status, t, counted, sum);
      if (lane == 0) {
        tile_prefix[s] = sum;
        bulk::arrive(&prefixed[s]);
      }
    }
  } else if (warp < W) {
    for (unsigned i = 0;; ++i) {
      const unsigned s = i % NS, round = i / NS;
      bulk::wait(&full[s], round & 1);
      const unsigned t = tile_of[s];
      if (t >= tiles) {
        if (warp == 0) bulk::arrive(&reduced[s]);
        break;
      }
      if constexpr (MODE & kCopy) {
        if (warp == 0) bulk::arrive(&reduced[s]);
        continue;
      }
      const int4* src = stage_data + size_t(s) * kVecs;
#pragma unroll 8
      for (unsigned u = 0; u < V; ++u) {
        const int4 x = src[u * T + threadIdx.x];
        const int32_t c = __reduce_add_sync(0xffffffffu, x.x + x.y + x.z + x.w);
        if (lane == 0) chunk_prefix[s][u * W + warp] = c;
      }
      asm volatile("bar.sync 1, %0;" ::"n"(T) : "memory");
      if (warp == 0) {
        int32_t total;
        if constexpr (kChunks >= 32) {
          int32_t v[kPerLane], mine = 0;
#pragma unroll
          for (unsigned k = 0; k < kPerLane; ++k)
            mine += v[k] = chunk_prefix[s][lane * kPerLane + k];
          const int32_t incl = v09::scan_warp(mine);
          int32_t run = incl - mine;
#pragma unroll
          for (unsigned k = 0; k < kPerLane; ++k) {
            chunk_prefix[s][lane * kPerLane + k] = run;
            run += v[k];
          }
          total = __shfl_sync(0xffffffffu, incl, 31);
        } else {  // tiles below 16 KB: fewer chunks than lanes
          const int32_t mine = lane < kChunks ? chunk_prefix[s][lane] : 0;
          const int32_t incl = v09::scan_warp(mine);
          if (lane < kChunks) chunk_prefix[s][lane] = incl - mine;
          total = __shfl_sync(0xffffffffu, incl, 31);
        }
        if (lane == 0) lookback::publish(status + t, lookback::kAggregate, total);
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
      bulk::wait(&prefixed[s], round & 1);
      const int32_t prefix = tile_prefix[s];
      int4* src = stage_data + size_t(s) * kVecs;
      const size_t base = size_t(t) * kTileElems;
      const bool whole = base + kTileElems <= n;
      int4* dst = reinterpret_cast<int4*>(out + base);
#pragma unroll 4
      for (unsigned u = 0; u < V; ++u) {
        int4 x = src[u * T + j];
        if constexpr (!(MODE & kCopy)) {
          x.y += x.x;
          x.z += x.y;
          x.w += x.z;
          const int32_t incl = v09::scan_warp(x.w);
          const int32_t add = prefix + chunk_prefix[s][u * W + w] + (incl - x.w);
          x.x += add;
          x.y += add;
          x.z += add;
          x.w += add;
        }
        if (whole) {
          if constexpr (MODE & kBulk)
            src[u * T + j] = x;
          else if constexpr (MODE & kPlain)
            dst[u * T + j] = x;
          else
            __stcs(dst + u * T + j, x);
        } else {
          const size_t e = base + 4 * (size_t(u) * T + j);
          if (e + 0 < n) out[e + 0] = x.x;
          if (e + 1 < n) out[e + 1] = x.y;
          if (e + 2 < n) out[e + 2] = x.z;
          if (e + 3 < n) out[e + 3] = x.w;
        }
      }
      if constexpr (MODE & kBulk) {
        if (whole) {
          // Generic-proxy writes to the stage, then an async-proxy read of it: each writer fences,
          // the squad meets, one thread stores and waits until the stage has been read.
          bulk::fence_proxy_async_shared();
          asm volatile("bar.sync 2, %0;" ::"n"(T) : "memory");
          if (j == 0) store_bulk(dst, src, unsigned(kVecs * 16));
          // The next bulk load into this stage (async proxy) follows these generic writes too.
        }
      }
      bulk::arrive(&empty[s]);
    }
  }
}

// per_sm: blocks an SM (0: as many as fit, one resident wave).
template <unsigned MODE, unsigned W = 4, unsigned V = 8, unsigned NS = 6, unsigned WIN = 8>
cudaError_t launch(const int32_t* in, int32_t* out, size_t n, void* ws, cudaStream_t stream,
                   unsigned per_sm = 0) {
  constexpr size_t kTileElems = size_t(W) * 32 * V * 4;
  constexpr size_t kSmem = NS * size_t(W) * 32 * V * sizeof(int4);
  const size_t tiles = ceil_div(n, kTileElems);
  cudaError_t e = cudaMemsetAsync(ws, 0, lookback::workspace_bytes(tiles), stream);
  if (e != cudaSuccess) return e;
  auto k = kernel<W, V, NS, WIN, MODE>;
  e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem));
  if (e != cudaSuccess) return e;
  static const size_t resident = [&] {
    const size_t r = resident_grid(reinterpret_cast<const void*>(k), v15::kBlockThreads<W>, kSmem);
    printf("kernel<W %u, V %u, NS %u, WIN %u, MODE %u>: grid %zu\n", W, V, NS, WIN, MODE, r);
    return r;
  }();
  const size_t grid = std::min(tiles, per_sm ? size_t(per_sm) * current_sm_count() : resident);
  k<<<static_cast<unsigned>(grid), v15::kBlockThreads<W>, kSmem, stream>>>(
      in, out, n, static_cast<unsigned>(tiles), lookback::tile_counter(ws),
      lookback::tile_status(ws));
  return cudaGetLastError();
}

// A tile-contiguous int4 copy: one resident wave of 256-thread blocks, U int4 per thread a trip.
// HINT 0: plain loads and stores; 1: ld.global.nc (__ldg), plain stores; 2: load_once
// (ld.global.nc.L1::no_allocate) and __stcs (st.global.cs).
template <int U, int HINT>
__global__ void copy_kernel(const int4* __restrict__ in, int4* __restrict__ out, size_t n4) {
  constexpr size_t kTile = size_t(U) * 256;
  size_t base = size_t(blockIdx.x) * kTile;
  for (; base + kTile <= n4; base += size_t(gridDim.x) * kTile) {
    int4 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const size_t i = base + u * 256 + threadIdx.x;
      v[u] = HINT == 2 ? load_once(in + i) : HINT == 1 ? __ldg(in + i) : in[i];
    }
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const size_t i = base + u * 256 + threadIdx.x;
      if (HINT == 2)
        __stcs(out + i, v[u]);
      else
        out[i] = v[u];
    }
  }
  for (size_t i = base + threadIdx.x; i < n4; i += 256) out[i] = in[i];
}

template <int U, int HINT>
void copy(const int4* in, int4* out, size_t n4, cudaStream_t st) {
  static const unsigned grid =
      unsigned(resident_grid(reinterpret_cast<const void*>(copy_kernel<U, HINT>), 256, 0));
  copy_kernel<U, HINT><<<grid, 256, 0, st>>>(in, out, n4);
}

}  // namespace probe

int main(int argc, char** argv) {
  const size_t n = size_t(1) << 28;
  int32_t *in, *out, *want;
  void* ws;
  unsigned long long* scratch;
  if (cudaMalloc(&in, n * 4) || cudaMalloc(&out, n * 4) || cudaMalloc(&want, n * 4) ||
      cudaMalloc(&ws, 64 << 20) || cudaMalloc(&scratch, 8)) {
    printf("cudaMalloc failed\n");
    return 1;
  }
  std::vector<int32_t> h(n);
  uint32_t x = 12345;
  for (auto& v : h) {
    x = x * 1664525u + 1013904223u;
    v = int32_t(x >> 28) - 8;
  }
  cudaMemcpy(in, h.data(), n * 4, cudaMemcpyDefault);
  cudaStream_t st;
  cudaStreamCreate(&st);
  probe_timing::Timer timer(st);
  size_t tb = 0;
  cub::DeviceScan::InclusiveSum(nullptr, tb, in, out, int(n));
  void* cub_tmp;
  cudaMalloc(&cub_tmp, tb);
  cub::DeviceScan::InclusiveSum(cub_tmp, tb, in, want, int(n), st);
  cudaStreamSynchronize(st);
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);

  struct Case {
    const char* name;
    bool copy;  // output should equal the input (else CUB's scan)
    std::function<void()> run;
  };
  const int4* in4 = reinterpret_cast<const int4*>(in);
  int4* out4 = reinterpret_cast<int4*>(out);
  std::vector<Case> cases = {
      {"cudaMemcpy", true, [&] { cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDefault, st); }},
      {"copy kernel 4/thread, plain", true, [&] { probe::copy<4, 0>(in4, out4, n / 4, st); }},
      {"copy kernel 4/thread, __ldg", true, [&] { probe::copy<4, 1>(in4, out4, n / 4, st); }},
      {"copy kernel 4/thread, load_once+__stcs", true,
       [&] { probe::copy<4, 2>(in4, out4, n / 4, st); }},
      {"copy kernel 8/thread, plain", true, [&] { probe::copy<8, 0>(in4, out4, n / 4, st); }},
      {"copy kernel 8/thread, __ldg", true, [&] { probe::copy<8, 1>(in4, out4, n / 4, st); }},
      {"copy kernel 16/thread, plain", true, [&] { probe::copy<16, 0>(in4, out4, n / 4, st); }},
      {"copy kernel 2/thread, plain", true, [&] { probe::copy<2, 0>(in4, out4, n / 4, st); }},
      {"v15 pipeline as a copy (kCopy)", true,
       [&] { probe::launch<probe::kCopy>(in, out, n, ws, st); }},
      {"v15 pipeline copy, bulk stores", true,
       [&] { probe::launch<probe::kCopy | probe::kBulk>(in, out, n, ws, st); }},
      {"v15 pipeline copy, plain stores", true,
       [&] { probe::launch<probe::kCopy | probe::kPlain>(in, out, n, ws, st); }},
      {"cub InclusiveSum", false,
       [&] { cub::DeviceScan::InclusiveSum(cub_tmp, tb, in, out, int(n), st); }},
      {"v15 shipped", false, [&] { v15::launch(in, out, n, ws, st); }},
      {"v15 copy of the kernel (MODE 0)", false, [&] { probe::launch<0>(in, out, n, ws, st); }},
      {"v15 plain stores", false, [&] { probe::launch<probe::kPlain>(in, out, n, ws, st); }},
      {"v15 bulk stores", false, [&] { probe::launch<probe::kBulk>(in, out, n, ws, st); }},
      {"v15 static schedule", false, [&] { probe::launch<probe::kStatic>(in, out, n, ws, st); }},
      {"v15 evict_first loads", false, [&] { probe::launch<probe::kEvict>(in, out, n, ws, st); }},
      {"v15 bulk + static + evict_first", false,
       [&] { probe::launch<probe::kBulk | probe::kStatic | probe::kEvict>(in, out, n, ws, st); }},
      {"v15 plain + static", false,
       [&] { probe::launch<probe::kPlain | probe::kStatic>(in, out, n, ws, st); }},
  };
  if (argc > 1 && std::string(argv[1]) == "small") {  // fewer bytes in flight an SM
    using probe::launch;
    constexpr unsigned P = probe::kPlain;
    cases = {
        {"cudaMemcpy", true, [&] { cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDefault, st); }},
        {"v15 shipped (16 KB x 6, 2/SM: 192 KB)", false, [&] { v15::launch(in, out, n, ws, st); }},
        {"16 KB x 6, 1/SM (96 KB)", false, [&] { launch<0, 4, 8, 6>(in, out, n, ws, st, 1); }},
        {"16 KB x 3, 4/SM (192 KB)", false, [&] { launch<0, 4, 8, 3>(in, out, n, ws, st); }},
        {"16 KB x 3, 2/SM (96 KB)", false, [&] { launch<0, 4, 8, 3>(in, out, n, ws, st, 2); }},
        {"16 KB x 3, 3/SM (144 KB)", false, [&] { launch<0, 4, 8, 3>(in, out, n, ws, st, 3); }},
        {"8 KB x 6, 4/SM (192 KB)", false, [&] { launch<0, 4, 4, 6>(in, out, n, ws, st); }},
        {"8 KB x 6, 3/SM (144 KB)", false, [&] { launch<0, 4, 4, 6>(in, out, n, ws, st, 3); }},
        {"8 KB x 6, 2/SM (96 KB)", false, [&] { launch<0, 4, 4, 6>(in, out, n, ws, st, 2); }},
        {"8 KB x 12, 2/SM (192 KB)", false, [&] { launch<0, 4, 4, 12>(in, out, n, ws, st); }},
        {"8 KB x 4, 3/SM (96 KB)", false, [&] { launch<0, 4, 4, 4>(in, out, n, ws, st, 3); }},
        {"8 KB (2w) x 6, 4/SM (192 KB)", false, [&] { launch<0, 2, 8, 6>(in, out, n, ws, st); }},
        {"8 KB (2w) x 6, 2/SM (96 KB)", false, [&] { launch<0, 2, 8, 6>(in, out, n, ws, st, 2); }},
        {"4 KB x 8, 6/SM (192 KB)", false, [&] { launch<0, 4, 2, 8>(in, out, n, ws, st); }},
        {"4 KB x 8, 3/SM (96 KB)", false, [&] { launch<0, 4, 2, 8>(in, out, n, ws, st, 3); }},
        {"4 KB x 12, 4/SM (192 KB)", false, [&] { launch<0, 4, 2, 12>(in, out, n, ws, st); }},
        {"8 KB x 6, 2/SM, plain stores", false, [&] { launch<P, 4, 4, 6>(in, out, n, ws, st, 2); }},
        {"8 KB x 6, 3/SM, plain stores", false, [&] { launch<P, 4, 4, 6>(in, out, n, ws, st, 3); }},
    };
  }
  if (argc > 1 && std::string(argv[1]) == "align") {  // the stages on a 128-byte boundary
    using probe::launch;
    constexpr unsigned A = probe::kAlign, P = probe::kPlain, B = probe::kBulk, C = probe::kCopy;
    cases = {
        {"cudaMemcpy", true, [&] { cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDefault, st); }},
        {"cub InclusiveSum", false,
         [&] { cub::DeviceScan::InclusiveSum(cub_tmp, tb, in, out, int(n), st); }},
        {"v15 shipped", false, [&] { v15::launch(in, out, n, ws, st); }},
        {"v15 copy of the kernel (MODE 0)", false, [&] { launch<0>(in, out, n, ws, st); }},
        {"v15 aligned stages", false, [&] { launch<A>(in, out, n, ws, st); }},
        {"v15 aligned, plain stores", false, [&] { launch<A | P>(in, out, n, ws, st); }},
        {"v15 aligned, bulk stores", false, [&] { launch<A | B>(in, out, n, ws, st); }},
        {"v15 pipeline as a copy", true, [&] { launch<C>(in, out, n, ws, st); }},
        {"v15 pipeline as a copy, aligned", true, [&] { launch<C | A>(in, out, n, ws, st); }},
        {"v15 aligned, window 16", false, [&] { launch<A, 4, 8, 6, 16>(in, out, n, ws, st); }},
    };
  }
  if (argc > 1 && std::string(argv[1]) == "align-shapes") {  // the shapes again, stages aligned
    using probe::launch;
    constexpr unsigned AP = probe::kAlign | probe::kPlain;
    cases = {
        {"cudaMemcpy", true, [&] { cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDefault, st); }},
        {"v15 shipped (16 KB x 6, 2/SM)", false, [&] { v15::launch(in, out, n, ws, st); }},
        {"16 KB x 6, 2/SM, aligned + plain", false,
         [&] { launch<AP, 4, 8, 6>(in, out, n, ws, st); }},
        {"16 KB x 5, 2/SM", false, [&] { launch<AP, 4, 8, 5>(in, out, n, ws, st); }},
        {"16 KB x 4, 3/SM", false, [&] { launch<AP, 4, 8, 4>(in, out, n, ws, st); }},
        {"16 KB x 3, 4/SM", false, [&] { launch<AP, 4, 8, 3>(in, out, n, ws, st); }},
        {"16 KB x 2, 6/SM", false, [&] { launch<AP, 4, 8, 2>(in, out, n, ws, st); }},
        {"16 KB (8w) x 6, 2/SM", false, [&] { launch<AP, 8, 4, 6>(in, out, n, ws, st); }},
        {"8 KB x 12, 2/SM", false, [&] { launch<AP, 4, 4, 12>(in, out, n, ws, st); }},
        {"8 KB x 8, 3/SM", false, [&] { launch<AP, 4, 4, 8>(in, out, n, ws, st); }},
        {"8 KB x 6, 4/SM", false, [&] { launch<AP, 4, 4, 6>(in, out, n, ws, st); }},
        {"32 KB x 3, 2/SM", false, [&] { launch<AP, 4, 16, 3>(in, out, n, ws, st); }},
    };
  }
  printf("n = 2^28 int32 (%zu bytes each way), %d SMs; us: median of 31 launches\n", n * 4, sms);
  std::vector<std::vector<float>> us(cases.size());
  for (int round = 0; round < 3; ++round)
    for (size_t c = 0; c < cases.size(); ++c) {
      cudaMemsetAsync(out, 0, n * 4, st);
      const float t = timer.median_us(cases[c].run);
      const unsigned long long bad =
          probe_timing::mismatches(out, cases[c].copy ? in : want, n, scratch, st);
      const cudaError_t err = cudaGetLastError();
      us[c].push_back(t);
      printf("round %d  %-36s %8.2f us  %7.1f GB/s  mismatches %llu  %s\n", round, cases[c].name, t,
             8.0 * n / t / 1e3, bad, cudaGetErrorString(err));
    }
  printf("\nsummary (median of the three rounds; %% of cudaMemcpy's median)\n");
  std::vector<float> med(cases.size());
  for (size_t c = 0; c < cases.size(); ++c) {
    std::sort(us[c].begin(), us[c].end());
    med[c] = us[c][1];
  }
  for (size_t c = 0; c < cases.size(); ++c)
    printf("%-36s %8.2f us  %6.1f%%\n", cases[c].name, med[c], 100.0 * med[0] / med[c]);
  return 0;
}
