// sort/lab/probe_persistent.cu — a standalone probe (sort/lab/LAB_NOTES.md): does a one-sweep pass
// gain when its blocks stay resident and draw their next tile as they start the current one? Sort
// v14's source counters had the draw of a tile, the barrier after it and the block's end (its last
// stores draining) at about 7% of the warps' samples. A persistent block hides the draw's atomic
// round trip behind the tile before, and its warps go on to the next tile's loads instead of
// ending.
//
// A first try looped inside sort v08's kernel (`e046737`, v06::kPersistent): the loop made ptxas
// spill 528 bytes a thread at v12's 128-register cap (4 as shipped) and the sort took twice v12's
// time (logs/nvidia-h100-probe-sort-persistent-e046737-2026-11-26.log.gz). Here one tile's work is
// a __noinline__ function, so that its registers are allocated as in the shipped kernel and only
// the loop's few words live across the call; the tile's storage is the launch's dynamic shared
// memory, named at namespace scope so that the function addresses it as shared memory.
//
// Each pass is v14's for uniform keys (v08's kernel skips its short circuit on them: the
// histogram says no pass can use it): v12's tile, 256 threads x 44 keys, two blocks an SM, 32-bit
// look-back words (v10), v09's histogram, and optionally the L2 prefetch of tile t + D
// (kPrefetchAheadShift, D = F/16 of the resident blocks). Variants: v12's and v14's passes as
// registered (v08::launch_passes); the same one-tile function launched one block a tile (the
// noinline call's own cost); persistent blocks with and without the prefetch. Against CUB's
// SortKeys at 2^28 and 25.6M uniform keys and three placements of the workspace, timed as the
// benchmark times (common/probe_timer.cuh), every output compared with CUB's. Not part of the
// binary.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. sort/lab/probe_persistent.cu common/device.cu \
//     -o probe_persistent && ./probe_persistent
//
// Source: the persistent-threads style of K. Gupta, J. A. Stuart and J. D. Owens, "A Study of
// Persistent Threads Style GPU Programming for GPGPU Workloads", InPar 2012; the one-sweep pass of
// A. Adinets and D. Merrill, "Onesweep: A Faster Least Significant Digit Radix Sort for GPUs",
// 2022.
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "common/device.h"
#include "common/probe_timer.cuh"
#include "sort/lab/probe_common.cuh"
#include "sort/lab/probe_options.cuh"
#include "sort/v10_narrow_status.cuh"

using namespace ladder;
using namespace ladder::sort;
using namespace ladder::sort::tuning;

namespace {

constexpr unsigned kThreads = 256, kItems = 44, kMinBlocks = 2;
using v06::kDigits;
constexpr size_t kTile = size_t(kThreads) * kItems;
using SW = v10::NarrowStatus;
using Storage = v06::PassStorage<kThreads, kItems, false>;

extern __shared__ __align__(16) unsigned char tile_storage[];

// One tile's work (the tile in st.tile_slot): the prefetch of tile t + D's keys (AHEAD/16 of the
// resident blocks ahead; 0: none), then v06's ranking, look-back and scatter.
template <unsigned AHEAD>
__device__ __noinline__ void one_tile(const uint32_t* __restrict__ keys_in,
                                      uint32_t* __restrict__ keys_out, size_t n, unsigned pass,
                                      SW::Word* status, const unsigned* bases) {
  Storage& st = *reinterpret_cast<Storage*>(tile_storage);
  if constexpr (AHEAD > 0) {
    unsigned sms;
    asm("mov.u32 %0, %%nsmid;" : "=r"(sms));
    const size_t distance = std::max(1u, sms * kMinBlocks * AHEAD / 16);
    const size_t ahead = (st.tile_slot + distance) * kTile;
    if (threadIdx.x == 0 && ahead < n && reinterpret_cast<uintptr_t>(keys_in) % 16 == 0) {
      const unsigned bytes = static_cast<unsigned>(std::min(n - ahead, size_t{kTile}) * 4) & ~15u;
      if (bytes)
        asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(keys_in + ahead), "r"(bytes)
                     : "memory");
    }
  }
  v06::rank_and_scatter<kThreads, kItems, v06::kWindow, false, 0, SW, 0>(
      st, keys_in, nullptr, keys_out, nullptr, n, pass, status, bases);
}

// One block a tile, each drawing its tile at its start (as v08's kernel does).
template <unsigned AHEAD>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
    tile_kernel(const uint32_t* keys_in, uint32_t* keys_out, size_t n, unsigned pass,
                unsigned* counter, SW::Word* status, const unsigned* bases) {
  Storage& st = *reinterpret_cast<Storage*>(tile_storage);
  v06::draw_tile(st, counter);
  one_tile<AHEAD>(keys_in, keys_out, n, pass, status, bases);
}

// Resident blocks, each looping: thread 0 draws the next tile as the block starts the current one.
// Deadlock-free: the smallest unfinished tile is always being worked on (a tile drawn ahead
// belongs to a block whose current tile is smaller), and its look-back needs only finished tiles.
// EARLY false: the block draws each tile as it starts it (persistent, no draw ahead).
template <unsigned AHEAD, bool EARLY = true>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
    persistent_kernel(const uint32_t* keys_in, uint32_t* keys_out, size_t n, unsigned pass,
                      unsigned* counter, SW::Word* status, const unsigned* bases) {
  Storage& st = *reinterpret_cast<Storage*>(tile_storage);
  const size_t tiles = (n + kTile - 1) / kTile;
  unsigned next = 0;
  if (EARLY && threadIdx.x == 0) next = atomicAdd(counter, 1u);
  for (;;) {
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (threadIdx.x == 0) {
      st.tile_slot = EARLY ? next : atomicAdd(counter, 1u);
      if (EARLY) next = atomicAdd(counter, 1u);
    }
    for (unsigned i = lane; i < kDigits; i += 32) st.s.warp_hist[warp][i] = 0;
    __syncthreads();
    if (st.tile_slot >= tiles) return;
    one_tile<AHEAD>(keys_in, keys_out, n, pass, status, bases);
    __syncthreads();  // every thread is done with this tile's shared words
  }
}

// v08::launch_passes's steps and workspace layout, with this probe's pass kernel.
template <bool PERSISTENT, unsigned AHEAD, bool EARLY = true>
cudaError_t sort_keys(const uint32_t* in, uint32_t* out, size_t n, void* ws, cudaStream_t stream) {
  const size_t tiles = (n + kTile - 1) / kTile;
  using Word = SW::Word;
  char* p = static_cast<char*>(ws);
  unsigned* counters = reinterpret_cast<unsigned*>(p);
  unsigned* hist = reinterpret_cast<unsigned*>(p + 256);
  Word* status = reinterpret_cast<Word*>(p + 256 + v06::kPasses * kDigits * 4);
  const size_t zeroed = 256 + v06::kPasses * kDigits * 4 + tiles * kDigits * sizeof(Word);
  char* q = p + v06::round256(v06::zeroed_bytes<kThreads, kItems>(n));
  unsigned* bases = reinterpret_cast<unsigned*>(q);
  unsigned* check = bases + v06::kPasses * kDigits;
  q += v06::round256(v06::kPasses * kDigits * 4 + v06::kPasses * 4);
  uint32_t* buf = reinterpret_cast<uint32_t*>(q);
  cudaError_t e = cudaMemsetAsync(ws, 0, zeroed, stream);
  if (e == cudaSuccess) e = v09::striped_histogram(in, n, hist, stream);
  if (e != cudaSuccess) return e;
  v08::bases_check_kernel<<<1, kDigits, 0, stream>>>(hist, bases, check);
  const auto kernel = PERSISTENT ? persistent_kernel<AHEAD, EARLY> : tile_kernel<AHEAD>;
  static const size_t resident = resident_grid((const void*)kernel, kThreads, sizeof(Storage));
  const unsigned grid = static_cast<unsigned>(PERSISTENT ? std::min(tiles, resident) : tiles);
  const uint32_t* src = in;
  for (unsigned pass = 0; pass < v06::kPasses; ++pass) {
    uint32_t* dst = pass % 2 ? out : buf;
    kernel<<<grid, kThreads, sizeof(Storage), stream>>>(src, dst, n, pass, counters + pass, status,
                                                        bases + pass * kDigits);
    src = dst;
  }
  return cudaGetLastError();
}

struct Variant {
  const char* name;
  cudaError_t (*sort)(const uint32_t*, uint32_t*, size_t, void*, cudaStream_t);
};

cudaError_t v12_passes(const uint32_t* in, uint32_t* out, size_t n, void* ws, cudaStream_t s) {
  return probe_passes<false, SW, 0, kThreads, kItems, kMinBlocks>(in, nullptr, out, nullptr, n, ws,
                                                                  s, v09::striped_histogram);
}
cudaError_t v14_passes(const uint32_t* in, uint32_t* out, size_t n, void* ws, cudaStream_t s) {
  return probe_passes<false, SW, 2u << kPrefetchAheadShift, kThreads, kItems, kMinBlocks>(
      in, nullptr, out, nullptr, n, ws, s, v09::striped_histogram);
}

}  // namespace

int main() {
  const std::vector<Variant> variants = {
      {"v12's passes (as registered)", v12_passes},
      {"v14's passes (as registered)", v14_passes},
      {"one tile a block, noinline, ahead 2/16", sort_keys<false, 2>},
      {"persistent, no prefetch", sort_keys<true, 0>},
      {"persistent, ahead 2/16", sort_keys<true, 2>},
      {"persistent, ahead 4/16", sort_keys<true, 4>},
      {"persistent, each tile drawn at its start", sort_keys<true, 2, false>},
  };
  const size_t cap = size_t(1) << 28;
  uint32_t *in, *vals, *out, *want;
  for (uint32_t** p : {&in, &vals, &out, &want}) cudaMalloc(p, cap * 4);
  unsigned long long* bad;
  cudaMalloc(&bad, 8);
  size_t cub_bytes = 0;
  cub::DeviceRadixSort::SortKeys(nullptr, cub_bytes, in, out, static_cast<long long>(cap));
  const size_t shift_max = size_t(640) << 20;
  const size_t ws_bytes =
      std::max(cub_bytes, v08::workspace_bytes_for<kThreads, kItems>(cap, false));
  void* ws0;
  if (cudaMalloc(&ws0, ws_bytes + shift_max) != cudaSuccess) {
    printf("out of memory\n");
    return 1;
  }
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  probe_timing::Timer timer(stream);
  fill_pairs<<<1024, 256>>>(in, vals, cap);
  cudaDeviceSynchronize();
  printf("%s\n", query_device(0).name.c_str());
  for (size_t n : {cap, size_t(25600000)}) {
    for (size_t shift : {size_t(0), size_t(192) << 20, shift_max}) {
      void* ws = static_cast<char*>(ws0) + shift;
      auto cub_sort = [&](uint32_t* o) {
        size_t bytes = cub_bytes;
        cub::DeviceRadixSort::SortKeys(ws, bytes, in, o, static_cast<long long>(n), 0, 32, stream);
      };
      cub_sort(want);
      const float cub_us = timer.median_us([&] { cub_sort(out); }, 11);
      printf("ws+%zu MiB n=%9zu  cub %8.1f us\n", shift >> 20, n, cub_us);
      for (const Variant& v : variants) {
        cudaError_t err = cudaSuccess;
        auto run = [&] {
          const cudaError_t e = v.sort(in, out, n, ws, stream);
          if (e != cudaSuccess) err = e;
        };
        const float us = timer.median_us(run, 11);
        cudaMemsetAsync(out, 0xa5, n * 4, stream);
        run();
        const unsigned long long wrong = probe_timing::mismatches(out, want, n, bad, stream);
        printf("ws+%zu MiB n=%9zu  %-40s %8.1f us  %.3fx cub  mismatches %llu  %s\n", shift >> 20,
               n, v.name, us, us / cub_us, wrong, cudaGetErrorString(err));
      }
    }
  }
  return 0;
}
