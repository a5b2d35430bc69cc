// sort/lab/probe_pairs_interleaved.cu — a standalone probe (sort/lab/LAB_NOTES.md, pairs at 2^28):
// do the pairs' passes gain when their ping-pong buffer holds each (key, value) pair in one 8-byte
// word? probe_pairs_shape's "pairskew" mode showed a pass's time depending on where the values'
// buffer lies against the keys' (the two are written at the same positions at about the same time);
// with one buffer of pairs there is no second buffer to collide with, and a pair is one 8-byte
// store.
//
// The pass is sort v12's for pairs (256 threads x 40 pairs, two blocks an SM, 32-bit look-back
// words, v09's histogram): v06's ranking and look-back, copied here with a write-out that can read
// and write pairs. IN_PAIRED: the pass reads its keys as the low halves of 8-byte pairs (the
// values, the high halves, are read again after the ranking, from L2); OUT_PAIRED: it stages keys
// and values side by side (90 KB of shared memory a block) and writes each pair with one 8-byte
// store. Otherwise keys and values come from and go to two buffers, as in v12.
// Layouts of the four passes: "separate" (v12's: in -> buf -> out -> buf -> out, two buffers
// each); "paired A" (passes 1 and 3 write one buffer of pairs, passes 2 and 4 the caller's two
// buffers; the same workspace); "paired B" (passes 1 to 3 write buffers of pairs, two of them in
// the workspace, and only the last pass the caller's). Against v12's pairs as registered and
// CUB's SortPairs, at 2^27 and 2^28 uniform keys (values 0, 1, 2, ...) and three placements of the
// workspace, timed as the benchmark times (common/probe_timer.cuh), every output (keys and values)
// compared with CUB's. Not part of the binary.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. sort/lab/probe_pairs_interleaved.cu common/device.cu \
//     -o probe_pairs_interleaved && ./probe_pairs_interleaved
//
// Source: A. Adinets and D. Merrill, "Onesweep: A Faster Least Significant Digit Radix Sort for
// GPUs", 2022 (the pass); storing a key and its value as one word is the array-of-structures
// layout that key-value sorts such as CUB's DeviceRadixSort avoid in their interface.
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "common/device.h"
#include "common/probe_timer.cuh"
#include "sort/lab/probe_common.cuh"
#include "sort/v10_narrow_status.cuh"

using namespace ladder;
using namespace ladder::sort;
using namespace ladder::sort::tuning;

namespace {

constexpr unsigned kThreads = 256, kItems = 40, kMinBlocks = 2;
constexpr unsigned kTile = kThreads * kItems;
constexpr unsigned kWarps = kThreads / 32;
using v06::kDigits;
using SW = v10::NarrowStatus;

struct Storage {
  union {
    unsigned warp_hist[kWarps][kDigits];
    uint32_t keys[kTile];
  } s;
  uint32_t vals[kTile];  // OUT_PAIRED: the values staged beside their keys
  unsigned offset[kDigits];
  unsigned warp_sums[kDigits / 32];
  unsigned tile_slot;
};

extern __shared__ __align__(16) unsigned char pass_storage[];

// One pass of sort v12's pairs (v06::rank_and_scatter's steps) with paired or separate buffers.
// kin/vin: the separate input (IN_PAIRED false); pin: the paired input (IN_PAIRED true); likewise
// for the output.
template <bool IN_PAIRED, bool OUT_PAIRED>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
    pairs_pass(const uint32_t* __restrict__ kin, const uint32_t* __restrict__ vin,
               const uint2* __restrict__ pin, uint32_t* __restrict__ kout,
               uint32_t* __restrict__ vout, uint2* __restrict__ pout, size_t n, unsigned pass,
               unsigned* counter, SW::Word* status, const unsigned* bases) {
  Storage& st = *reinterpret_cast<Storage*>(pass_storage);
  auto& s = st.s;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (threadIdx.x == 0) st.tile_slot = atomicAdd(counter, 1u);
  for (unsigned i = lane; i < kDigits; i += 32) s.warp_hist[warp][i] = 0;
  __syncthreads();
  const size_t tile = st.tile_slot;
  const size_t base = tile * kTile;
  const bool full = base + kTile <= n;
  const size_t first = base + size_t(warp) * kItems * 32 + lane;
  auto key_at = [&](size_t i) -> uint32_t { return IN_PAIRED ? pin[i].x : kin[i]; };
  auto value_at = [&](size_t i) -> uint32_t { return IN_PAIRED ? pin[i].y : vin[i]; };

  uint32_t key[kItems];
#pragma unroll
  for (unsigned j = 0; j < kItems; ++j)
    key[j] = full || first + j * 32 < n ? key_at(first + j * 32) : 0xffffffffu;

  v06::Ranks<kItems> rank;
#pragma unroll
  for (unsigned j = 0; j < kItems; ++j) {
    const unsigned d = v06::digit_at(key[j], pass);
    const unsigned peers = v06::match_digit(d);
    const unsigned upto = __popc(peers & v06::lanemask_le());
    const unsigned leader = 31 - __clz(peers);
    const unsigned old = v06::leader_fetch_add(&s.warp_hist[warp][d], upto, lane == leader);
    rank.set(j, __shfl_sync(0xffffffffu, old, leader) + upto - 1);
  }
  __syncthreads();

  const unsigned d = threadIdx.x;
  unsigned count = 0;
  if (d < kDigits) {
#pragma unroll
    for (unsigned w = 0; w < kWarps; ++w) {
      const unsigned c = s.warp_hist[w][d];
      s.warp_hist[w][d] = count;
      count += c;
    }
    SW::publish(status + tile * kDigits + d, tile == 0 ? SW::prefix(pass) : SW::aggregate(pass),
                count);
  }
  const unsigned start = v06::digit_exclusive_scan<kThreads>(count, st.warp_sums);
  if (d < kDigits) {
#pragma unroll
    for (unsigned w = 0; w < kWarps; ++w) s.warp_hist[w][d] += start;
  }
  __syncthreads();
#pragma unroll
  for (unsigned j = 0; j < kItems; ++j) rank.add(j, s.warp_hist[warp][v06::digit_at(key[j], pass)]);
  __syncthreads();  // warp_hist is dead: its bytes become the keys' staging

#pragma unroll
  for (unsigned j = 0; j < kItems; ++j) s.keys[rank.get(j)] = key[j];
  if constexpr (OUT_PAIRED) {
#pragma unroll
    for (unsigned j = 0; j < kItems; ++j)
      if (full || first + j * 32 < n) st.vals[rank.get(j)] = value_at(first + j * 32);
  }
  if (d < kDigits) {
    const unsigned before = v06::look_back<v06::kWindow, SW>(status, tile, d, pass, count);
    st.offset[d] = bases[d] + before - start;
  }
  __syncthreads();

  const unsigned in_tile = full ? kTile : static_cast<unsigned>(n - base);
  unsigned packed[(kItems + 3) / 4] = {};  // separate output: each position's digit, a byte each
#pragma unroll
  for (unsigned j = 0; j < kItems; ++j) {
    const unsigned i = j * kThreads + threadIdx.x;
    if (full || i < in_tile) {
      const uint32_t k = s.keys[i];
      const unsigned dk = v06::digit_at(k, pass);
      const unsigned to = i + st.offset[dk];
      if constexpr (OUT_PAIRED) {
        pout[to] = make_uint2(k, st.vals[i]);
      } else {
        kout[to] = k;
        packed[j / 4] |= dk << (8 * (j % 4));
      }
    }
  }
  if constexpr (!OUT_PAIRED) {  // v12's values: the same trip through the same staging buffer
    __syncthreads();
#pragma unroll
    for (unsigned j = 0; j < kItems; ++j)
      if (full || first + j * 32 < n) s.keys[rank.get(j)] = value_at(first + j * 32);
    __syncthreads();
#pragma unroll
    for (unsigned j = 0; j < kItems; ++j) {
      const unsigned i = j * kThreads + threadIdx.x;
      if (full || i < in_tile)
        vout[i + st.offset[(packed[j / 4] >> (8 * (j % 4))) & 0xffu]] = s.keys[i];
    }
  }
}

// The passes' buffers: separate (two arrays) or paired (one array of 8-byte pairs).
struct Buf {
  uint32_t* k = nullptr;
  uint32_t* v = nullptr;
  uint2* p = nullptr;
};

template <bool IN_PAIRED, bool OUT_PAIRED>
void launch_pass(const Buf& in, const Buf& out, size_t n, unsigned pass, unsigned* counter,
                 SW::Word* status, const unsigned* bases, cudaStream_t s) {
  const auto kernel = pairs_pass<IN_PAIRED, OUT_PAIRED>;
  static const cudaError_t attr = cudaFuncSetAttribute(
      kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(sizeof(Storage)));
  (void)attr;
  const unsigned tiles = static_cast<unsigned>((n + kTile - 1) / kTile);
  kernel<<<tiles, kThreads, sizeof(Storage), s>>>(in.k, in.v, in.p, out.k, out.v, out.p, n, pass,
                                                  counter, status, bases);
}

// LAYOUT 0: separate (v12's); 1: paired A; 2: paired B (see the header). ws: workspace_bytes(n).
size_t workspace_bytes(size_t n) {
  return v06::round256(v06::zeroed_bytes<kThreads, kItems>(n)) +
         v06::round256(v06::kPasses * kDigits * 4 + v06::kPasses * 4) + 2 * v06::round256(n * 8);
}

template <int LAYOUT>
cudaError_t sort_pairs(const uint32_t* kin, const uint32_t* vin, uint32_t* kout, uint32_t* vout,
                       size_t n, void* ws, cudaStream_t stream) {
  const size_t tiles = (n + kTile - 1) / kTile;
  char* p = static_cast<char*>(ws);
  unsigned* counters = reinterpret_cast<unsigned*>(p);
  unsigned* hist = reinterpret_cast<unsigned*>(p + 256);
  SW::Word* status = reinterpret_cast<SW::Word*>(p + 256 + v06::kPasses * kDigits * 4);
  const size_t zeroed = 256 + v06::kPasses * kDigits * 4 + tiles * kDigits * sizeof(SW::Word);
  char* q = p + v06::round256(v06::zeroed_bytes<kThreads, kItems>(n));
  unsigned* bases = reinterpret_cast<unsigned*>(q);
  unsigned* check = bases + v06::kPasses * kDigits;
  q += v06::round256(v06::kPasses * kDigits * 4 + v06::kPasses * 4);
  // The separate layout's two buffers, or the paired layouts' one or two.
  Buf caller_in{const_cast<uint32_t*>(kin), const_cast<uint32_t*>(vin), nullptr};
  Buf caller_out{kout, vout, nullptr};
  Buf sep{reinterpret_cast<uint32_t*>(q), reinterpret_cast<uint32_t*>(q + v06::round256(n * 4)),
          nullptr};
  Buf pair1{nullptr, nullptr, reinterpret_cast<uint2*>(q)};
  Buf pair2{nullptr, nullptr, reinterpret_cast<uint2*>(q + v06::round256(n * 8))};
  cudaError_t e = cudaMemsetAsync(ws, 0, zeroed, stream);
  if (e == cudaSuccess) e = v09::striped_histogram(kin, n, hist, stream);
  if (e != cudaSuccess) return e;
  v08::bases_check_kernel<<<1, kDigits, 0, stream>>>(hist, bases, check);
  auto b = [&](unsigned pass) { return bases + pass * kDigits; };
  if constexpr (LAYOUT == 0) {
    launch_pass<false, false>(caller_in, sep, n, 0, counters + 0, status, b(0), stream);
    launch_pass<false, false>(sep, caller_out, n, 1, counters + 1, status, b(1), stream);
    launch_pass<false, false>(caller_out, sep, n, 2, counters + 2, status, b(2), stream);
    launch_pass<false, false>(sep, caller_out, n, 3, counters + 3, status, b(3), stream);
  } else if constexpr (LAYOUT == 1) {
    launch_pass<false, true>(caller_in, pair1, n, 0, counters + 0, status, b(0), stream);
    launch_pass<true, false>(pair1, caller_out, n, 1, counters + 1, status, b(1), stream);
    launch_pass<false, true>(caller_out, pair1, n, 2, counters + 2, status, b(2), stream);
    launch_pass<true, false>(pair1, caller_out, n, 3, counters + 3, status, b(3), stream);
  } else {
    launch_pass<false, true>(caller_in, pair1, n, 0, counters + 0, status, b(0), stream);
    launch_pass<true, true>(pair1, pair2, n, 1, counters + 1, status, b(1), stream);
    launch_pass<true, true>(pair2, pair1, n, 2, counters + 2, status, b(2), stream);
    launch_pass<true, false>(pair1, caller_out, n, 3, counters + 3, status, b(3), stream);
  }
  return cudaGetLastError();
}

cudaError_t v12_pairs(const uint32_t* kin, const uint32_t* vin, uint32_t* kout, uint32_t* vout,
                      size_t n, void* ws, cudaStream_t s) {
  return v08::launch_passes<true, SW, v06::kPackedDigits, 256, 40, 2>(kin, vin, kout, vout, n, ws,
                                                                      s, v09::striped_histogram);
}

struct Variant {
  const char* name;
  cudaError_t (*sort)(const uint32_t*, const uint32_t*, uint32_t*, uint32_t*, size_t, void*,
                      cudaStream_t);
};

}  // namespace

int main() {
  const std::vector<Variant> variants = {
      {"v12's pairs (as registered)", v12_pairs},
      {"separate (this probe's copy of v12's)", sort_pairs<0>},
      {"paired A (passes 1, 3 write pairs)", sort_pairs<1>},
      {"paired B (passes 1-3 write pairs)", sort_pairs<2>},
  };
  const size_t cap = size_t(1) << 28;
  uint32_t *kin, *vin, *kout, *vout, *kwant, *vwant;
  for (uint32_t** p : {&kin, &vin, &kout, &vout, &kwant, &vwant}) cudaMalloc(p, cap * 4);
  unsigned long long* bad;
  cudaMalloc(&bad, 8);
  size_t cub_bytes = 0;
  cub::DeviceRadixSort::SortPairs(nullptr, cub_bytes, kin, kout, vin, vout,
                                  static_cast<long long>(cap));
  const size_t shift_max = size_t(640) << 20;
  const size_t ws_bytes =
      std::max({cub_bytes, workspace_bytes(cap), v08::workspace_bytes_for<256, 40>(cap, true)});
  void* ws0;
  if (cudaMalloc(&ws0, ws_bytes + shift_max) != cudaSuccess) {
    printf("out of memory\n");
    return 1;
  }
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  probe_timing::Timer timer(stream);
  fill_pairs<<<1024, 256>>>(kin, vin, cap);
  cudaDeviceSynchronize();
  printf("%s; shared memory a block, paired output: %zu bytes\n", query_device(0).name.c_str(),
         sizeof(Storage));
  for (size_t n : {size_t(1) << 27, cap}) {
    for (size_t shift : {size_t(0), size_t(192) << 20, shift_max}) {
      void* ws = static_cast<char*>(ws0) + shift;
      auto cub_sort = [&](uint32_t* ko, uint32_t* vo) {
        size_t bytes = cub_bytes;
        cub::DeviceRadixSort::SortPairs(ws, bytes, kin, ko, vin, vo, static_cast<long long>(n), 0,
                                        32, stream);
      };
      cub_sort(kwant, vwant);
      const float cub_us = timer.median_us([&] { cub_sort(kout, vout); }, 11);
      printf("ws+%zu MiB n=%9zu  cub %8.1f us\n", shift >> 20, n, cub_us);
      for (const Variant& v : variants) {
        cudaError_t err = cudaSuccess;
        auto run = [&] {
          const cudaError_t e = v.sort(kin, vin, kout, vout, n, ws, stream);
          if (e != cudaSuccess) err = e;
        };
        const float us = timer.median_us(run, 11);
        cudaMemsetAsync(kout, 0xa5, n * 4, stream);
        cudaMemsetAsync(vout, 0xa5, n * 4, stream);
        run();
        const unsigned long long wrong = probe_timing::mismatches(kout, kwant, n, bad, stream) +
                                         probe_timing::mismatches(vout, vwant, n, bad, stream);
        printf("ws+%zu MiB n=%9zu  %-40s %8.1f us  %.3fx cub  mismatches %llu  %s\n", shift >> 20,
               n, v.name, us, us / cub_us, wrong, cudaGetErrorString(err));
      }
    }
  }
  return 0;
}
