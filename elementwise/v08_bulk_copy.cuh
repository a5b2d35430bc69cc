// elementwise/v08_bulk_copy.cuh — elementwise v08 (add_f32): both inputs staged through shared
// memory by bulk copies, the tile sized for the bytes in flight an SM needs.
// Technique: one tile of 256 x ITEMS elements a block. One thread copies the block's slice of x
// and of addend into shared memory with two cp.async.bulk copies (the SM's TMA, in its plain
// form) completing on one mbarrier; then each thread adds ITEMS pairs from shared memory and
// stores them 4 bytes at a time, coalesced across the block. ITEMS is the fewest that keeps 48 KiB
// of loads in flight per SM at the kernel's occupancy (kBytesInFlight): 3 floats a thread.
// Changes from v05: the loads leave the registers: the TMA moves each input's slice as one
// request, and the tile is sized by Little's law rather than the vector width. On the H200 v05's
// register tiles stayed 0.5% to 1.3% behind CUB for add_f32 from 2^27 up; v08 is level.
// Remains (bottleneck): at large sizes the memory system. Below 2^26 elements v05 is the faster
// rung on the H200 (by 0.7% to 9% from 2^16 to 2^25); v09 takes each where it wins. The
// tile is sharp: 32 KiB in flight is 9% to 15% slower, 64 KiB 0.6% to 1.2% slower
// (elementwise/lab/LAB_NOTES.md, "add_f32: bulk copies (v08)").
// Source: NVIDIA CCCL, cub::DeviceTransform, its bulk-copy algorithm (Algorithm::ublkcp in
// cub/device/dispatch/kernels/transform.cuh, tile choice in dispatch_transform.cuh and
// tuning_transform.cuh, arch_to_min_bytes_in_flight).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/bulk_copy.cuh"
#include "common/device.h"
#include "common/registry.h"
#include "elementwise/ops.cuh"

namespace ladder::elementwise::v08 {

inline constexpr VersionDoc kDoc = {
    8, "v08_bulk_copy", "Bulk copies stage both inputs; the tile sized for bytes in flight",
    /*technique*/
    "One tile of 256 x k elements a block. One thread issues two cp.async.bulk copies (x's and "
    "addend's slices of the tile) into 128-byte-aligned shared memory, completing on one "
    "mbarrier; every thread then adds k pairs from shared memory and stores them, coalesced. k "
    "is the fewest elements a thread whose tiles keep 48 KiB of loads in flight per SM at the "
    "kernel's occupancy (3 for two float inputs at 8 blocks an SM).",
    /*changes*/
    "v05 loads each input into registers with 16-byte vector loads, one tile of 256 x 4 a "
    "block. Here the SM's TMA moves each input's slice in one request, and the tile is sized "
    "for Little's law instead of the vector width. add_f32 only: it is the operator whose v05 "
    "stayed 0.5% to 1.3% behind CUB from 2^27 up on the H200.",
    /*remains*/
    "At large sizes the memory system. Below 2^26 elements v05 is the faster rung on the H200 "
    "(v09 takes each where it wins). The tile is sharp: 32 KiB in flight is 9% to 15% slower, "
    "64 KiB 0.6% to 1.2% slower. Hopper only (needs sm_90 code).",
    /*source*/
    "NVIDIA CCCL, cub::DeviceTransform's bulk-copy algorithm (Algorithm::ublkcp, "
    "arch_to_min_bytes_in_flight)"};

inline constexpr unsigned kThreads = 256;
// Bytes of loads an SM keeps in flight: CUB's arch_to_min_bytes_in_flight for sm_90 and later.
inline constexpr unsigned kBytesInFlight = 48 * 1024;
inline constexpr int kMaxItems = 8;  // elements a thread, of each input

// The shared memory of one stage, in bytes, for tiles of `tile` floats: the tile, 16 bytes more
// for a slice that starts past a 16-byte boundary (it is copied from the boundary below), rounded
// up to bulk::kStageAlign so that the second stage starts aligned too.
__host__ __device__ constexpr unsigned stage_bytes(unsigned tile) {
  return (tile * 4 + 16 + bulk::kStageAlign - 1) / bulk::kStageAlign * bulk::kStageAlign;
}

// What the launcher works out once for a call, so that the kernel's issuing thread does no
// arithmetic before its copies (each block makes one round trip to memory, and every cycle before
// the copy is issued is a cycle of that trip; address checks there cost v08 2.5% on the H200).
// sx, sa: how many floats x and addend start past a 16-byte boundary; every tile of either starts
// the same distance past one, because a tile is a multiple of 4 floats. A bulk copy moves whole
// 16-byte words, so a tile is copied from the word that holds its first element to the end of the
// word that holds its last; only the first tile's words, and the last two tiles', can reach outside
// the arrays.
struct Plan {
  unsigned sx = 0, sa = 0;
  bool first_direct = false;  // tile 0 starts inside a word that begins before x or addend
  unsigned bulk_end = 0;      // tiles from here on end inside a word that runs past either array
};

// The tiles that read global memory directly instead of by bulk copy: tile 0 when first_direct,
// and every tile from bulk_end on (the last one, or the last two when the last holds fewer
// elements than the words of the one before reach into it). A caller's compute-sanitizer run
// (memcheck, initcheck) holds the kernel to reading only the arrays' own bytes.
inline Plan plan(const float* x, const float* addend, size_t n, unsigned tile) {
  Plan pl;
  pl.sx = bulk::shift_of(x);
  pl.sa = bulk::shift_of(addend);
  pl.first_direct = pl.sx != 0 || pl.sa != 0;
  const size_t tiles = ceil_div(n, size_t(tile));
  // The last tile's copy ends at element n, rounded up to a word of each array.
  const bool last_ok = bulk::shift_of(x + n) == 0 && bulk::shift_of(addend + n) == 0;
  // A full tile's copy ends (4 - s) % 4 floats past the tile, s being the array's sx or sa.
  const size_t pad = std::max((4 - pl.sx) % 4, (4 - pl.sa) % 4);
  if (last_ok)
    pl.bulk_end = unsigned(tiles);
  else if (tiles >= 2 && (tiles - 1) * tile + pad <= n)
    pl.bulk_end = unsigned(tiles - 1);
  else
    pl.bulk_end = unsigned(tiles >= 2 ? tiles - 2 : 0);
  return pl;
}

// y[i] = x[i] + addend[i] for the ITEMS x 256 elements of tile blockIdx.x (fewer in the last
// tile). x, addend and y may have any 4-byte alignment: each input's slice is copied from the
// 16-byte boundary at or below its first element and read sx (sa) floats into its stage. Tiles
// that Plan marks direct read global memory instead. Dynamic shared memory:
// 2 x stage_bytes(256 x ITEMS). Needs sm_90 (bulk copies).
template <int ITEMS>
__global__ void __launch_bounds__(kThreads)
    add_kernel(const float* __restrict__ x, const float* __restrict__ addend, float* __restrict__ y,
               size_t n, Plan pl) {
  constexpr unsigned kTile = kThreads * ITEMS;
  extern __shared__ __align__(bulk::kStageAlign) unsigned char smem[];
  __shared__ unsigned long long bar;
  const size_t first = size_t(blockIdx.x) * kTile;
  const unsigned num = blockIdx.x + 1 == gridDim.x ? unsigned(n - first) : kTile;
  y += first;
  if (blockIdx.x >= pl.bulk_end || (blockIdx.x == 0 && pl.first_direct)) {
#pragma unroll 1
    for (int j = 0; j < ITEMS; ++j) {
      const unsigned i = j * kThreads + threadIdx.x;
      if (i < num) y[i] = AddOp{}(x[first + i], addend[first + i]);
    }
    return;
  }
  float* stage_x = reinterpret_cast<float*>(smem);
  float* stage_a = reinterpret_cast<float*>(smem + stage_bytes(kTile));
  // One thread initialises the barrier (two arrivals: bulk::load arrives as it announces its
  // bytes) and issues both copies at once; the others wait for the barrier after
  // __syncthreads(), which orders the initialisation before their waits. CUB's order.
  if (threadIdx.x == 0) {
    bulk::barrier_init(&bar, 2);
    bulk::load(stage_x, x + first - pl.sx, ((pl.sx + num) * 4 + 15) & ~15u, &bar);
    bulk::load(stage_a, addend + first - pl.sa, ((pl.sa + num) * 4 + 15) & ~15u, &bar);
  }
  __syncthreads();
  bulk::wait(&bar, 0);
  // Not unrolled: the loop is store-bound, and CUB's measurements found unrolling no faster.
#pragma unroll 1
  for (int j = 0; j < ITEMS; ++j) {
    const unsigned i = j * kThreads + threadIdx.x;
    if (i < num) y[i] = AddOp{}(stage_x[pl.sx + i], stage_a[pl.sa + i]);
  }
}

using Kernel = void (*)(const float*, const float*, float*, size_t, Plan);
inline constexpr Kernel kKernels[kMaxItems] = {add_kernel<1>, add_kernel<2>, add_kernel<3>,
                                               add_kernel<4>, add_kernel<5>, add_kernel<6>,
                                               add_kernel<7>, add_kernel<8>};

// The elements a thread for this GPU: the fewest (1 to kMaxItems) at which the kernel's blocks
// an SM, each holding 256 x items elements of both inputs, keep kBytesInFlight in flight. Any
// value is correct; it only sets the speed. kMaxItems if the occupancy query fails.
inline int choose_items() {
  for (int items = 1; items <= kMaxItems; ++items) {
    int blocks = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kKernels[items - 1], kThreads,
                                                      2 * stage_bytes(kThreads * items)) !=
        cudaSuccess)
      return kMaxItems;
    if (size_t(blocks) * kThreads * items * 2 * sizeof(float) >= kBytesInFlight) return items;
  }
  return kMaxItems;
}

// The add_f32 launcher (elementwise/elementwise.h's contract). Errors: cudaErrorNotSupported
// unless the GPU runs sm_90 code of this binary (current_device_runs_sm90_code);
// cudaErrorInvalidValue past (2^31 - 1) tiles (about 1.6e12 elements); else the launch's.
template <Kind K, typename T>
cudaError_t launch(const Args<T>& a, T* out, size_t n, cudaStream_t stream) {
  static_assert(K == Kind::kAdd && sizeof(T) == 4, "v08 is add_f32's rung");
  if (n == 0) return cudaSuccess;
  if (!current_device_runs_sm90_code()) return cudaErrorNotSupported;
  static const int items = choose_items();  // once: the occupancy query is slow to repeat
  const unsigned tile = kThreads * items;
  const size_t grid = ceil_div(n, size_t(tile));
  if (grid > 0x7fffffff) return cudaErrorInvalidValue;
  kKernels[items - 1]<<<unsigned(grid), kThreads, 2 * stage_bytes(tile), stream>>>(
      a.x, a.addend, out, n, plan(a.x, a.addend, n, tile));
  return cudaGetLastError();
}

}  // namespace ladder::elementwise::v08
