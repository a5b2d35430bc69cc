// sort/v06_onesweep_window.cuh — sort v06: one-sweep radix sort whose look-back reads a window
// of predecessor tiles per step.
// Technique: v05's passes (rank a tile, look back per digit, scatter runs), with each digit's
// look-back issuing kWindow independent loads per step instead of one dependent load; bigger
// tiles; the last tile padded with 0xffffffff keys instead of a valid flag per key.
// Remains (bottleneck): the match per key and the two shared-memory round trips per key
// (ranking, staging); the scattered stores of short digit runs.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/device.h"
#include "common/registry.h"
#include "scan/lookback.cuh"   // status words: publish, peek
#include "scan/warp_scan.cuh"  // warp_scan_inclusive
#include "sort/radix_rank.cuh"
#include "sort/v05_onesweep.cuh"  // bases_kernel

namespace ladder::sort::v06 {

inline constexpr VersionDoc kDoc = {
    6, "v06_onesweep_window",
    "One-sweep radix sort, look-back over a window of tiles, padded last tile",
    /*technique*/
    "v05's kernels: one histogram pass for the four digits, then one pass per digit that draws "
    "a tile in start order, ranks it by the digit, publishes each digit's tile count, looks "
    "back for the earlier tiles' counts and writes each digit's run. Each digit's look-back "
    "now loads the status words of kWindow predecessor tiles at once and adds them up to the "
    "nearest inclusive prefix, so a step back costs one round trip to L2 for kWindow tiles "
    "instead of one. Tiles hold 256 threads x kItems keys; the last tile is padded with "
    "0xffffffff keys, which rank last (digit 255, last in input order) and are never stored, "
    "so no key carries a valid flag. The rank counters and the staging buffer share shared "
    "memory; the status words of all four passes share one region, told apart by a pass tag.",
    /*changes*/
    "v05 stepped back one tile per L2 round trip: with hundreds of tiles in flight, the "
    "nearest inclusive prefix is many tiles back, and every step was a dependent load. A "
    "window of kWindow loads per step shortens that chain kWindow times. The warp ranking "
    "uses the highest matching lane as leader (one popc gives rank and count) and one shared "
    "atomicAdd; the workspace holds one key buffer instead of two (the output is the other) "
    "and a quarter of the status words.",
    /*remains*/
    "The match and the shared-memory atomic per key, the barrier between ranking and "
    "staging, and the stores: a 4096-key tile has 16 keys per digit on average, so each run "
    "is a 64-byte store that seldom fills whole 32-byte sectors.",
    /*source*/
    "Adinets & Merrill 2022 (Onesweep); Merrill & Garland 2016 (decoupled look-back with a "
    "window); CUB's BlockRadixRankMatchEarlyCounts (leader = highest matching lane)"};

inline constexpr unsigned kDigits = radix::kDigits;
inline constexpr unsigned kPasses = 4;
inline constexpr size_t kMaxN = 0xffffffffu;  // positions and counts travel as 32-bit sums
// The registered shape (chosen with sort/tuning/probe_onesweep.cu on the H200).
inline constexpr unsigned kThreads = 256;
inline constexpr unsigned kItems = 16;
inline constexpr unsigned kWindow = 8;

using scan::lookback::Status;
// The status word's flag is pass * 4 + kind. A word left by an earlier pass (or zero) has
// another flag and reads as "nothing published yet" in this pass.
inline constexpr unsigned kAggregate = scan::lookback::kAggregate;  // 1: the tile's own count
inline constexpr unsigned kPrefix = scan::lookback::kPrefix;  // 2: count of tiles up to this one
__host__ __device__ constexpr unsigned flag_of(unsigned pass, unsigned kind) {
  return pass * 4 + kind;
}

// The lanes of the warp whose `bits`-bit label equals this lane's: one ballot per bit, each
// lane keeping the ballot where its bit is set and the complement where it is clear. Eight votes
// and eight logic ops (all on the integer pipes) replace match.any.sync, which goes through the
// shared-memory (MIO) pipe and, for 8-bit labels, costs more than the votes; CUB's MatchAny
// makes the same trade. All 32 lanes must call it.
template <unsigned kBits>
__device__ __forceinline__ unsigned match_bits(unsigned label) {
  unsigned peers = 0xffffffffu;
#pragma unroll
  for (unsigned b = 0; b < kBits; ++b) {
    const bool set = (label >> b) & 1u;
    const unsigned vote = __ballot_sync(0xffffffffu, set);
    peers &= set ? vote : ~vote;
  }
  return peers;
}

__device__ __forceinline__ unsigned lanemask_le() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_le;" : "=r"(m));
  return m;
}

// Counts every digit of every key: hist[pass][digit] (kPasses x 256 uint32, zeroed). Each
// thread loads ITEMS keys (striped over the block: coalesced) before it counts any, so a block
// has THREADS x ITEMS loads in flight; v05's kernel had one per thread and ran at a quarter of
// the copy's speed. A warp whose lanes all hold one digit (sorted runs, equal keys) adds once.
template <unsigned THREADS, unsigned ITEMS>
__global__ void __launch_bounds__(THREADS)
    histogram_kernel(const uint32_t* __restrict__ keys, size_t n, unsigned* hist) {
  __shared__ unsigned h[kPasses][kDigits];
  for (unsigned i = threadIdx.x; i < kPasses * kDigits; i += THREADS) (&h[0][0])[i] = 0;
  __syncthreads();
  constexpr size_t kChunk = size_t(THREADS) * ITEMS;
  for (size_t base = blockIdx.x * kChunk; base < n; base += gridDim.x * kChunk) {
    uint32_t key[ITEMS];
    bool valid[ITEMS];
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j) {
      const size_t i = base + j * THREADS + threadIdx.x;
      valid[j] = i < n;
      key[j] = valid[j] ? keys[i] : 0;
    }
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j) {
      const unsigned lanes = __popc(__ballot_sync(0xffffffffu, valid[j]));
#pragma unroll
      for (unsigned p = 0; p < kPasses; ++p) {
        const unsigned d = radix::digit_of(key[j], 8 * p);
        const unsigned first = __shfl_sync(0xffffffffu, d, 0);  // every lane, before any branch
        if (__all_sync(0xffffffffu, !valid[j] || d == first)) {
          if (threadIdx.x % 32 == 0) atomicAdd(&h[p][d], lanes);
        } else if (valid[j]) {
          atomicAdd(&h[p][d], 1u);
        }
      }
    }
  }
  __syncthreads();
  for (unsigned i = threadIdx.x; i < kPasses * kDigits; i += THREADS)
    if ((&h[0][0])[i]) atomicAdd(hist + i, (&h[0][0])[i]);
}
inline constexpr unsigned kHistThreads = 256, kHistItems = 16;

// Exclusive scan of the 256 digit counts held by threads 0..255 (the others pass 0 and get 0).
// Every thread of the block calls it (two barriers). warp_sums: 8 words of shared memory.
template <unsigned THREADS>
__device__ __forceinline__ unsigned digit_exclusive_scan(unsigned v, unsigned* warp_sums) {
  constexpr unsigned kDigitWarps = kDigits / 32;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  unsigned incl = 0;
  if (warp < kDigitWarps) {
    incl = static_cast<unsigned>(scan::warp_scan_inclusive(static_cast<int32_t>(v)));
    if (lane == 31) warp_sums[warp] = incl;
  }
  __syncthreads();
  if (warp == 0) {
    const unsigned w = lane < kDigitWarps ? warp_sums[lane] : 0;
    const unsigned wi = static_cast<unsigned>(scan::warp_scan_inclusive(static_cast<int32_t>(w)));
    if (lane < kDigitWarps) warp_sums[lane] = wi;
  }
  __syncthreads();
  if (warp >= kDigitWarps) return 0;
  return incl - v + (warp ? warp_sums[warp - 1] : 0);
}

// One digit pass over n keys (n <= kMaxN), THREADS x ITEMS keys per tile.
//   counter  this pass's tile counter (zeroed)
//   status   tiles x 256 status words shared by the four passes (zeroed before pass 0)
//   bases    this pass's 256 global digit starts (bases_kernel)
// PAIRS: the values travel with their keys.
// MATCH_ANY: rank with match.any.sync instead of match_bits (kept for the probe's comparison).
template <unsigned THREADS, unsigned ITEMS, unsigned WINDOW, bool PAIRS, bool MATCH_ANY = false>
__global__ void __launch_bounds__(THREADS)
    onesweep_kernel(const uint32_t* __restrict__ keys_in, const uint32_t* __restrict__ vals_in,
                    uint32_t* __restrict__ keys_out, uint32_t* __restrict__ vals_out, size_t n,
                    unsigned pass, unsigned* counter, Status* status, const unsigned* bases) {
  static_assert(THREADS % 32 == 0 && THREADS >= kDigits, "one thread per digit value");
  constexpr unsigned kWarps = THREADS / 32;
  constexpr unsigned kTile = THREADS * ITEMS;
  // Ranking uses warp_hist; once every rank is known the same bytes stage the sorted tile.
  __shared__ union {
    unsigned warp_hist[kWarps][kDigits];  // per warp: count, then offset, of each digit
    uint32_t keys[kTile];
  } s;
  __shared__ uint32_t staged_vals[PAIRS ? kTile : 1];
  __shared__ unsigned offset[kDigits];  // staged position i of digit d goes to i + offset[d]
  __shared__ unsigned warp_sums[kDigits / 32];
  __shared__ unsigned tile_slot;

  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const unsigned shift = 8 * pass;
  if (threadIdx.x == 0) tile_slot = atomicAdd(counter, 1u);
  for (unsigned i = lane; i < kDigits; i += 32) s.warp_hist[warp][i] = 0;
  __syncthreads();
  const size_t tile = tile_slot;
  const size_t base = tile * kTile;
  const bool full = base + kTile <= n;

  // Item j of lane l of warp w: tile element (w * ITEMS + j) * 32 + l, coalesced per item; a
  // warp's items in order, lanes in order, are input order.
  uint32_t key[ITEMS];
  const size_t first = base + size_t(warp) * ITEMS * 32 + lane;
  if (full) {
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j) key[j] = keys_in[first + j * 32];
  } else {
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j)
      key[j] = first + j * 32 < n ? keys_in[first + j * 32] : 0xffffffffu;
  }

  // Rank within the warp: the lanes holding the same digit, the highest of them bumps the warp's
  // counter for the digit by their number (its popc over lanes <= itself is that number).
  unsigned rank[ITEMS];
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) {
    const unsigned d = radix::digit_of(key[j], shift);
    const unsigned peers = MATCH_ANY ? __match_any_sync(0xffffffffu, d) : match_bits<8>(d);
    const unsigned upto = __popc(peers & lanemask_le());
    const unsigned leader = 31 - __clz(peers);
    unsigned old = 0;
    if (lane == leader) old = atomicAdd(&s.warp_hist[warp][d], upto);
    rank[j] = __shfl_sync(0xffffffffu, old, leader) + upto - 1;
  }
  __syncthreads();

  // Thread d: digit d's count over the warps (turned into exclusive per-warp offsets), published
  // at once so that later tiles can add it; then the tile's digit starts.
  const unsigned d = threadIdx.x;
  unsigned count = 0;
  if (d < kDigits) {
#pragma unroll
    for (unsigned w = 0; w < kWarps; ++w) {
      const unsigned c = s.warp_hist[w][d];
      s.warp_hist[w][d] = count;
      count += c;
    }
    scan::lookback::publish<unsigned>(status + tile * kDigits + d,
                                      flag_of(pass, tile == 0 ? kPrefix : kAggregate), count);
  }
  const unsigned start = digit_exclusive_scan<THREADS>(count, warp_sums);
  if (d < kDigits) {
#pragma unroll
    for (unsigned w = 0; w < kWarps; ++w) s.warp_hist[w][d] += start;
  }
  __syncthreads();
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) rank[j] += s.warp_hist[warp][radix::digit_of(key[j], shift)];
  __syncthreads();  // warp_hist is dead: its bytes become the staging buffer

#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) s.keys[rank[j]] = key[j];
  if constexpr (PAIRS) {
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j)
      if (full || first + j * 32 < n) staged_vals[rank[j]] = vals_in[first + j * 32];
  }

  // Thread d: the number of keys with digit d in all earlier tiles. Each step loads WINDOW
  // status words (tiles t, t-1, ..., t-WINDOW+1) at once, then adds them nearest first up to and
  // including the nearest inclusive prefix, waiting only on the words it adds.
  if (d < kDigits) {
    const unsigned aggregate = flag_of(pass, kAggregate), prefix = flag_of(pass, kPrefix);
    unsigned before = 0;
    if (tile > 0) {
      long long t = static_cast<long long>(tile) - 1;
      bool done = false;
      while (!done) {
        Status word[WINDOW];
#pragma unroll
        for (unsigned k = 0; k < WINDOW; ++k)
          word[k] = t >= k ? scan::lookback::peek(status + (t - k) * kDigits + d)
                           : Status(prefix) << 32;  // before tile 0: an empty prefix
#pragma unroll
        for (unsigned k = 0; k < WINDOW; ++k) {
          if (done) break;
          unsigned f = static_cast<unsigned>(word[k] >> 32);
          while (f != aggregate && f != prefix) {  // not yet published in this pass
            word[k] = scan::lookback::peek(status + (t - k) * kDigits + d);
            f = static_cast<unsigned>(word[k] >> 32);
          }
          before += static_cast<unsigned>(word[k]);
          done = f == prefix;
        }
        t -= WINDOW;
      }
      scan::lookback::publish<unsigned>(status + tile * kDigits + d, prefix, before + count);
    }
    offset[d] = bases[d] + before - start;  // modulo 2^32; every true position is below n
  }
  __syncthreads();

  // Write out: consecutive threads take consecutive staged keys, so each digit's run is stored
  // by consecutive lanes. The padding of the last tile sits at positions >= the tile's keys.
  const unsigned in_tile = full ? kTile : static_cast<unsigned>(n - base);
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) {
    const unsigned i = j * THREADS + threadIdx.x;
    if (full || i < in_tile) {
      const uint32_t k = s.keys[i];
      const size_t dst = i + offset[radix::digit_of(k, shift)];
      keys_out[dst] = k;
      if constexpr (PAIRS) vals_out[dst] = staged_vals[i];
    }
  }
}

template <unsigned THREADS, unsigned ITEMS>
constexpr size_t tile_keys() {
  return size_t(THREADS) * ITEMS;
}
inline size_t round256(size_t b) { return (b + 255) / 256 * 256; }
// Workspace: [counters 16 B | hist 4 KB | status tiles x 256 words] (zeroed per call), bases
// 4 KB, one key buffer, and for pairs one value buffer.
template <unsigned THREADS = kThreads, unsigned ITEMS = kItems>
size_t zeroed_bytes(size_t n) {
  const size_t tiles = std::max<size_t>(ceil_div(n, tile_keys<THREADS, ITEMS>()), 1);
  return 256 + kPasses * kDigits * 4 + tiles * kDigits * sizeof(Status);
}
template <unsigned THREADS = kThreads, unsigned ITEMS = kItems>
size_t workspace_bytes_for(size_t n, bool pairs) {
  return round256(zeroed_bytes<THREADS, ITEMS>(n)) + kPasses * kDigits * 4 +
         (pairs ? 2 : 1) * round256(n * sizeof(uint32_t));
}
inline size_t workspace_bytes(size_t n) { return workspace_bytes_for(n, false); }
inline size_t workspace_bytes_pairs(size_t n) { return workspace_bytes_for(n, true); }

// The four passes ping-pong between the workspace buffer and `out`: in -> buffer -> out ->
// buffer -> out.
template <unsigned THREADS, unsigned ITEMS, unsigned WINDOW, bool PAIRS, bool MATCH_ANY = false>
cudaError_t launch_shape(const uint32_t* keys_in, const uint32_t* vals_in, uint32_t* keys_out,
                         uint32_t* vals_out, size_t n, void* ws, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  constexpr size_t kTile = tile_keys<THREADS, ITEMS>();
  const size_t tiles = ceil_div(n, kTile);
  char* p = static_cast<char*>(ws);
  unsigned* counters = reinterpret_cast<unsigned*>(p);
  unsigned* hist = reinterpret_cast<unsigned*>(p + 256);
  Status* status = reinterpret_cast<Status*>(p + 256 + kPasses * kDigits * 4);
  char* q = p + round256(zeroed_bytes<THREADS, ITEMS>(n));
  unsigned* bases = reinterpret_cast<unsigned*>(q);
  q += kPasses * kDigits * 4;
  uint32_t* key_buf = reinterpret_cast<uint32_t*>(q);
  uint32_t* val_buf = PAIRS ? reinterpret_cast<uint32_t*>(q + round256(n * 4)) : nullptr;
  cudaError_t e = cudaMemsetAsync(ws, 0, zeroed_bytes<THREADS, ITEMS>(n), stream);
  if (e != cudaSuccess) return e;
  const auto histogram = histogram_kernel<kHistThreads, kHistItems>;
  static const size_t resident = resident_grid((const void*)histogram, kHistThreads, 0);
  const unsigned hist_grid = static_cast<unsigned>(
      std::clamp<size_t>(ceil_div(n, size_t(kHistThreads) * kHistItems), 1, resident));
  histogram<<<hist_grid, kHistThreads, 0, stream>>>(keys_in, n, hist);
  v05::bases_kernel<<<1, v05::kThreads, 0, stream>>>(hist, bases);
  const uint32_t* ksrc = keys_in;
  const uint32_t* vsrc = vals_in;
  for (unsigned pass = 0; pass < kPasses; ++pass) {
    uint32_t* kdst = pass % 2 ? keys_out : key_buf;
    uint32_t* vdst = pass % 2 ? vals_out : val_buf;
    onesweep_kernel<THREADS, ITEMS, WINDOW, PAIRS, MATCH_ANY>
        <<<static_cast<unsigned>(tiles), THREADS, 0, stream>>>(
            ksrc, vsrc, kdst, vdst, n, pass, counters + pass, status, bases + pass * kDigits);
    ksrc = kdst;
    vsrc = vdst;
  }
  return cudaGetLastError();
}

inline cudaError_t launch(const uint32_t* in, uint32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  return launch_shape<kThreads, kItems, kWindow, false>(in, nullptr, out, nullptr, n, ws, stream);
}

inline cudaError_t launch_pairs(const uint32_t* keys_in, const uint32_t* vals_in,
                                uint32_t* keys_out, uint32_t* vals_out, size_t n, void* ws,
                                cudaStream_t stream) {
  return launch_shape<kThreads, kItems, kWindow, true>(keys_in, vals_in, keys_out, vals_out, n, ws,
                                                       stream);
}

}  // namespace ladder::sort::v06
