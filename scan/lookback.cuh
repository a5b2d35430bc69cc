// scan/lookback.cuh — decoupled look-back: the tile-status protocol of single-pass scans.
//
// Introduced by scan v12; scan v13, copy_if and sort use it by name.
//
// A single-pass scan gives each block one tile and needs, before it can write, the sum of every
// tile before its own. Each tile publishes a status word as soon as it knows something:
//   kAggregate  the tile's own sum, known right after its block scan;
//   kPrefix     the inclusive prefix (all tiles up to and including this one), known once the
//               tile has its exclusive prefix.
// A block looks back over its predecessors, 32 at a time, one per lane: it adds aggregates until
// it meets a prefix and stops there. It never waits for a predecessor to finish its own
// look-back, only for it to publish an aggregate, which is why the chain of waits does not
// serialize the tiles (Merrill & Garland 2016).
//
// The status word is 64 bits: the flag in the high half, the 32-bit value in the low half. One
// store publishes both, one load reads both, so no fence is needed between value and flag.
// Stores and loads are .relaxed.gpu: coherent at GPU scope (never served from a stale L1 line).
//
// Forward progress: tiles are numbered in the order blocks *start* (an atomic counter, not
// blockIdx), so every tile a block waits for belongs to a block that is already running, and
// that block waits only on tiles lower still. Tile 0 waits on nothing. By induction every wait
// ends, whatever order the hardware schedules blocks in.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace ladder::scan::lookback {

using Status = unsigned long long;
inline constexpr uint32_t kInvalid = 0;    // nothing published yet (the status array is zeroed)
inline constexpr uint32_t kAggregate = 1;  // value = the tile's own sum
inline constexpr uint32_t kPrefix = 2;     // value = sum of all tiles up to and including it
// Scan v18's and copy_if v09's and v10's statuses are never cleared: their flag is kTagBit | the
// launch's epoch (below 2^31), which no flag above has, so a status of another launch or another
// path never reads as one of this launch's (TaggedWith below).
inline constexpr uint32_t kTagBit = 1u << 31;

// T is the 32-bit value type: int32_t for scan, uint32_t for copy_if's counts (whose sums may
// pass 2^31; unsigned addition wraps modulo 2^32 by definition, so any total below 2^32 is exact).
template <typename T = int32_t>
__device__ __forceinline__ void publish(Status* status, uint32_t flag, T value) {
  const Status word = (Status(flag) << 32) | static_cast<uint32_t>(value);
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(status), "l"(word) : "memory");
}

__device__ __forceinline__ Status peek(const Status* status) {
  Status word;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(word) : "l"(status) : "memory");
  return word;
}

// The sum of tiles [0, tile), in every lane. Called by all 32 lanes of one warp of the block
// that owns `tile` > 0, after that block has published its aggregate. `status` is the array of
// tile statuses (status[t] for tile t).
template <typename T = int32_t>
__device__ __forceinline__ T exclusive_prefix(const Status* status, size_t tile) {
  const unsigned lane = threadIdx.x % 32;
  T prefix = 0;
  long long window = static_cast<long long>(tile) - 1;  // the nearest tile of this window
  while (true) {
    const long long t = window - lane;    // lane 0 looks at the nearest predecessor
    Status word = Status(kPrefix) << 32;  // below tile 0: an empty prefix
    uint32_t flag;
    do {  // wait until every tile of the window has published something
      if (t >= 0) word = peek(status + t);
      flag = static_cast<uint32_t>(word >> 32);
    } while (__any_sync(0xffffffffu, flag == kInvalid));
    T value = static_cast<T>(static_cast<uint32_t>(word));
    const unsigned prefixes = __ballot_sync(0xffffffffu, flag == kPrefix);
    if (prefixes) {
      const unsigned nearest = __ffs(prefixes) - 1;  // stop at the nearest inclusive prefix
      if (lane > nearest) value = 0;
      return prefix + __reduce_add_sync(0xffffffffu, value);
    }
    prefix += __reduce_add_sync(0xffffffffu, value);
    window -= 32;
  }
}

// What the block's look-back warp does with its tile's sum: publish it, look back, publish the
// inclusive prefix. Returns the exclusive prefix of `tile` in every lane. All 32 lanes call it.
template <typename T = int32_t>
__device__ __forceinline__ T publish_and_look_back(Status* status, size_t tile, T tile_sum) {
  const unsigned lane = threadIdx.x % 32;
  if (tile == 0) {
    if (lane == 0) publish(status, kPrefix, tile_sum);
    return 0;
  }
  if (lane == 0) publish(status + tile, kAggregate, tile_sum);
  const T prefix = exclusive_prefix<T>(status, tile);
  if (lane == 0) publish(status + tile, kPrefix, prefix + tile_sum);
  return prefix;
}

// Incremental look-ahead (scan v15, copy_if v06): tiles publish only kAggregate, and the
// look-ahead warp of a persistent block keeps a running sum over all earlier tiles. On entry
// `sum` holds the aggregates of tiles [0, counted); on return, of tiles [0, tile), and counted ==
// tile. Each round trip reads WIN * 32 statuses (all loads issued before any is used) and adds
// the run of published ones from the window's start; an unpublished status ends the run and
// the next round starts there. All 32 lanes call it with the same arguments; every lane gets
// the sum. It waits only on tiles below `tile`. `ready(flag)` says whether a status's flag (its
// high half) is published: by default any flag but kInvalid; scan v18 and copy_if v09, whose
// statuses are never cleared, pass TaggedWith{this launch's tag}.
struct Published {
  __device__ __forceinline__ bool operator()(uint32_t flag) const { return flag != kInvalid; }
};
struct TaggedWith {
  uint32_t tag;
  __device__ __forceinline__ bool operator()(uint32_t flag) const { return flag == tag; }
};
template <unsigned WIN, typename T, typename Ready = Published>
__device__ __forceinline__ void advance_to(const Status* status, size_t tile, size_t& counted,
                                           T& sum, Ready ready = {}) {
  const unsigned lane = threadIdx.x % 32;
  while (counted < tile) {
    Status word[WIN];
#pragma unroll
    for (unsigned j = 0; j < WIN; ++j) {
      const size_t k = counted + 32 * j + lane;
      word[j] = k < tile ? peek(status + k) : 0;
    }
#pragma unroll
    for (unsigned j = 0; j < WIN; ++j) {
      const unsigned done = __ballot_sync(0xffffffffu, ready(uint32_t(word[j] >> 32)));
      const unsigned run = ~done ? __ffs(~done) - 1 : 32;
      const uint32_t v = lane < run ? static_cast<uint32_t>(word[j]) : 0u;
      sum += static_cast<T>(__reduce_add_sync(0xffffffffu, v));
      counted += run;
      if (run < 32) break;
    }
  }
}

// Workspace layout shared by the single-pass kernels: a 16-byte header holding the tile counter,
// then one Status per tile. The whole of it must be zero when the kernel starts.
inline size_t workspace_bytes(size_t tiles) { return 16 + tiles * sizeof(Status); }
inline unsigned* tile_counter(void* ws) { return static_cast<unsigned*>(ws); }
inline Status* tile_status(void* ws) {
  return reinterpret_cast<Status*>(static_cast<char*>(ws) + 16);
}

// Zeroes `words` words at ws (a workspace above: workspace_bytes(tiles) / 8 words of 8 bytes) and,
// first thing, lets the grid launched after it as its programmatic dependent start (PTX
// griddepcontrol.launch_dependents, sm_90; a no-op when compiled for an older GPU). The
// dependent overlaps its launch and block start-up with this clear and waits for it
// (griddepcontrol.wait) before it touches the workspace. Newer CCCL releases launch CUB's init
// and scan kernels so on sm_90 (dispatch_scan.cuh on NVIDIA/cccl's main branch; not the CCCL 3.0.1
// of CUDA 13.0). Grid-stride: any grid and block size. (A template
// so that every file including this header may instantiate it.)
template <typename Word = unsigned long long>
__global__ void clear_for_dependent_kernel(Word* ws, size_t words) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;");
#endif
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < words;
       i += size_t(gridDim.x) * blockDim.x)
    ws[i] = 0;
}

// Takes the next tile in start order (thread 0 draws it; every thread gets it). Uses one word of
// static shared memory and one __syncthreads.
__device__ __forceinline__ size_t next_tile(unsigned* counter) {
  __shared__ unsigned tile;
  if (threadIdx.x == 0) tile = atomicAdd(counter, 1u);
  __syncthreads();
  return tile;
}

}  // namespace ladder::scan::lookback
