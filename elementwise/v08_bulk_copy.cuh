// elementwise/v08_bulk_copy.cuh — elementwise v08 (add_f32): both inputs staged through shared
// memory by bulk copies, the tile sized for the bytes in flight an SM needs.
// Technique: one tile of 256 x kItems elements a block. One thread copies the block's slice of x
// and of addend into shared memory with two cp.async.bulk copies (the Hopper TMA's plain form)
// completing on one mbarrier; then each thread adds kItems pairs from shared memory and stores
// them, 4 bytes at a time, coalesced across the block. The tile is the smallest that keeps 48 KiB
// of loads in flight per SM at the kernel's occupancy (kBytesInFlight): 3 floats a thread.
// Changes from v05: the loads leave the registers and the load/store unit: the copy engine moves
// each input's slice as one request. On the H200, v05's register tiles of every shape stayed about
// 1% behind CUB for add_f32 from 2^28 up; this is level with it.
// Remains (bottleneck): the memory system. The tile is sharp: a third smaller (32 KiB in flight)
// is 12% slower on the H200, a third larger (64 KiB) about 0.6% slower
// (elementwise/lab/LAB_NOTES.md, "add_f32: bulk copies").
// Source: NVIDIA CCCL, cub::DeviceTransform, its bulk-copy algorithm (Algorithm::ublkcp in
// cub/device/dispatch/kernels/transform.cuh, tile choice in dispatch_transform.cuh and
// tuning_transform.cuh, arch_to_min_bytes_in_flight).
#pragma once

#include <cuda_runtime.h>

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
    "block. Here the copy engine moves each input's slice in one request, and the tile is sized "
    "for Little's law instead of the vector width. add_f32 only: it is the operator whose v05 "
    "stayed about 1% behind CUB from 2^28 up on the H200.",
    /*remains*/
    "The memory system. The tile is sharp: a third smaller is 12% slower on the H200, a third "
    "larger about 0.6% slower. Hopper only (needs sm_90 code).",
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

// Whether the 16-byte words that hold elements [first, first + num) of `p` lie inside its n
// elements. A bulk copy moves whole 16-byte words, so a slice that starts or ends inside a word is
// copied from the word's start or to its end; that is safe only where those bytes are the
// array's own (compute-sanitizer's memcheck and initcheck hold the kernel to it).
__device__ __forceinline__ bool words_inside(const float* p, size_t first, unsigned num, size_t n) {
  const uintptr_t lo = reinterpret_cast<uintptr_t>(p + first) & ~uintptr_t(15);
  const uintptr_t hi = (reinterpret_cast<uintptr_t>(p + first + num) + 15) & ~uintptr_t(15);
  return lo >= reinterpret_cast<uintptr_t>(p) && hi <= reinterpret_cast<uintptr_t>(p + n);
}

// y[i] = x[i] + addend[i] for the `items` x 256 elements of tile blockIdx.x (fewer in the last
// tile). x, addend and y may have any 4-byte alignment: a slice whose first element is `sx`
// floats past a 16-byte boundary is copied from that boundary and read `sx` floats into its
// stage. A tile whose copies would reach past either array (the first tile of an unaligned view,
// the last tile when n is not a multiple of 4) reads global memory directly instead. Dynamic
// shared memory: 2 x stage_bytes(256 x items). Needs sm_90 (bulk copies).
__global__ void __launch_bounds__(kThreads)
    add_kernel(const float* __restrict__ x, const float* __restrict__ addend, float* __restrict__ y,
               size_t n, int items) {
  extern __shared__ __align__(bulk::kStageAlign) unsigned char smem[];
  __shared__ unsigned long long bar;
  const unsigned tile = kThreads * static_cast<unsigned>(items);
  const size_t first = size_t(blockIdx.x) * tile;
  const unsigned num = n - first < tile ? static_cast<unsigned>(n - first) : tile;
  y += first;
  if (!words_inside(x, first, num, n) || !words_inside(addend, first, num, n)) {
#pragma unroll 1
    for (int j = 0; j < items; ++j) {
      const unsigned i = j * kThreads + threadIdx.x;
      if (i < num) y[i] = AddOp{}(x[first + i], addend[first + i]);
    }
    return;
  }
  const float* src_x = x + first;
  const float* src_a = addend + first;
  const unsigned sx = static_cast<unsigned>(reinterpret_cast<uintptr_t>(src_x) % 16) / 4;
  const unsigned sa = static_cast<unsigned>(reinterpret_cast<uintptr_t>(src_a) % 16) / 4;
  float* stage_x = reinterpret_cast<float*>(smem);
  float* stage_a = reinterpret_cast<float*>(smem + stage_bytes(tile));
  // Two arrivals: bulk::load arrives as it announces its bytes, once for each input.
  if (threadIdx.x == 0) bulk::barrier_init(&bar, 2);
  __syncthreads();
  if (threadIdx.x == 0) {
    bulk::load(stage_x, src_x - sx, ((sx + num) * 4 + 15) / 16 * 16, &bar);
    bulk::load(stage_a, src_a - sa, ((sa + num) * 4 + 15) / 16 * 16, &bar);
  }
  bulk::wait(&bar, 0);
  // Not unrolled: the loop is store-bound, and CUB's measurements found unrolling no faster.
#pragma unroll 1
  for (int j = 0; j < items; ++j) {
    const unsigned i = j * kThreads + threadIdx.x;
    if (i < num) y[i] = AddOp{}(stage_x[sx + i], stage_a[sa + i]);
  }
}

// The elements a thread for this GPU: the fewest (1 to kMaxItems) at which the kernel's blocks
// an SM, each holding 256 x items elements of both inputs, keep kBytesInFlight in flight. Any
// value is correct; it only sets the speed. kMaxItems if the occupancy query fails.
inline int choose_items() {
  for (int items = 1; items <= kMaxItems; ++items) {
    int blocks = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &blocks, add_kernel, kThreads, 2 * stage_bytes(kThreads * items)) != cudaSuccess)
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
  const size_t tile = size_t(kThreads) * items;
  const size_t grid = ceil_div(n, tile);
  if (grid > 0x7fffffff) return cudaErrorInvalidValue;
  add_kernel<<<static_cast<unsigned>(grid), kThreads, 2 * stage_bytes(unsigned(tile)), stream>>>(
      a.x, a.addend, out, n, items);
  return cudaGetLastError();
}

}  // namespace ladder::elementwise::v08
