// sort/lab/probe_hybrid.cu — a standalone probe (sort/lab/LAB_NOTES.md): a hybrid radix sort of
// 32-bit keys in three passes over DRAM instead of four. (0) One read of the keys counts their top
// 16 bits (65,536 bins: a packed 16-bit counter per bin in each block's shared memory, 128 KB);
// the bins' starts follow. (1) An MSD pass by the top 8 bits (v14's pass, digit 3), (2) a pass by
// bits 16-23 whose positions come from the 16-bit starts (v14's pass with kBucketBases: the
// input is grouped by the top digit, so the look-back's count of a digit before a key, less that
// digit's keys in lower buckets, places the key within its bucket), (3) each of the 65,536 buckets
// of equal top 16 bits (about 4,096 keys each at 2^28 uniform keys) sorted in place by one block
// in shared memory on its low 16 bits (v07's one-block sort, two passes), read and written
// coalesced. Keys only need no stability across passes (equal keys are equal).
// Bytes a key: 4 (count) + 8 + 8 + 8 = 28, against 36 for four LSD passes and the histogram.
// Only inputs whose 16-bit buckets all fit one block take this road; the probe checks that on
// the GPU (a bucket over capacity, or a counter that wraps, is reported) and times uniform and
// sorted uniform keys, each compared with CUB's SortKeys key by key, beside CUB and sort v14.
// Timed as the benchmark times (common/probe_timer.cuh: L2 flushed, the stream held, median).
// Not part of the binary.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. sort/lab/probe_hybrid.cu common/device.cu \
//     -o probe_hybrid && ./probe_hybrid [log2 n, default 28]
//
// Source: E. Stehle and H.-A. Jacobsen, "A Memory Bandwidth-Efficient Hybrid Radix Sort on
// GPUs", SIGMOD 2017 (MSD passes, then on-chip sorts of the buckets); sort v14's passes and
// v07's one-block sort.
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/device.h"
#include "common/probe_timer.cuh"
#include "sort/lab/probe_common.cuh"
#include "sort/lab/probe_options.cuh"
#include "sort/v14_l2_prefetch.cuh"

using namespace ladder;
using namespace ladder::sort;
using namespace ladder::sort::tuning;

namespace {

constexpr unsigned kBins = 65536;
constexpr unsigned kHistThreads = 1024;

// Counts keys[0, n) by their top 16 bits into partial[blockIdx.x * 32768 + bin / 2] (two 16-bit
// counts a word, the odd bin high). A count that wraps sets *bad (bit 0). n % 4 == 0 and keys
// 16-byte aligned (the probe's). One block an SM.
__global__ void __launch_bounds__(kHistThreads, 1)
    hist16_kernel(const uint32_t* __restrict__ keys, size_t n, unsigned* partial, unsigned* bad) {
  extern __shared__ unsigned h[];
  for (unsigned i = threadIdx.x; i < kBins / 2; i += kHistThreads) h[i] = 0;
  __syncthreads();
  const uint4* k4 = reinterpret_cast<const uint4*>(keys);
  const size_t vecs = n / 4;
  bool wrapped = false;
  auto add = [&](unsigned bin, unsigned c) {
    const unsigned sh = (bin & 1) * 16;
    const unsigned old = atomicAdd(&h[bin >> 1], c << sh);
    wrapped |= ((old >> sh) & 0xffffu) + c > 0xffffu;
  };
  // Four keys; where every active lane's four keys share one bin (sorted input, one key value),
  // the lowest lane adds them all with one atomic instead of 128 atomics on one address.
  auto count4 = [&](const uint4& q) {
    const unsigned m = __activemask();
    const unsigned b0 = q.x >> 16;
    const bool same4 = (q.y >> 16) == b0 && (q.z >> 16) == b0 && (q.w >> 16) == b0;
    const unsigned lead = __shfl_sync(m, b0, __ffs(m) - 1);
    if (__all_sync(m, same4 && b0 == lead)) {
      if ((threadIdx.x % 32) == unsigned(__ffs(m) - 1)) add(b0, 4 * __popc(m));
    } else {
      add(b0, 1), add(q.y >> 16, 1), add(q.z >> 16, 1), add(q.w >> 16, 1);
    }
  };
  constexpr unsigned kUnroll = 4;
  const size_t stride = size_t(gridDim.x) * kHistThreads;
  size_t v = blockIdx.x * size_t(kHistThreads) + threadIdx.x;
  for (; v + (kUnroll - 1) * stride < vecs; v += kUnroll * stride) {
    uint4 q[kUnroll];
#pragma unroll
    for (unsigned u = 0; u < kUnroll; ++u) q[u] = __ldcs(k4 + v + u * stride);
#pragma unroll
    for (unsigned u = 0; u < kUnroll; ++u) count4(q[u]);
  }
  for (; v < vecs; v += stride) count4(__ldcs(k4 + v));
  if (__syncthreads_or(wrapped) && threadIdx.x == 0) atomicOr(bad, 1u);
  for (unsigned i = threadIdx.x; i < kBins / 2; i += kHistThreads)
    partial[blockIdx.x * (kBins / 2) + i] = h[i];
}

// Block t (256 of them), thread d: bin b = t * 256 + d. hist[b] = the blocks' counts summed;
// rowpre[b] = the counts of bins t * 256 .. b - 1; rowsum[t]; *maxbin = the largest bin.
__global__ void __launch_bounds__(256)
    reduce16_kernel(const unsigned* partial, unsigned blocks, unsigned* hist, unsigned* rowpre,
                    unsigned* rowsum, unsigned* maxbin) {
  __shared__ unsigned warp_sums[8];
  const unsigned b = blockIdx.x * 256 + threadIdx.x;
  unsigned c = 0;
  for (unsigned k = 0; k < blocks; ++k)
    c += (partial[k * (kBins / 2) + b / 2] >> ((b & 1) * 16)) & 0xffffu;
  hist[b] = c;
  const unsigned pre = radix::block_exclusive_scan(c, warp_sums);
  rowpre[b] = pre;
  if (threadIdx.x == 255) rowsum[blockIdx.x] = pre + c;
  unsigned m = c;
  for (unsigned o = 16; o; o /= 2) m = max(m, __shfl_xor_sync(0xffffffffu, m, o));
  if (threadIdx.x % 32 == 0) atomicMax(maxbin, m);
}

// One block of 256. bases8[t]: the start of top digit t (pass 1's bases). start16[b]: bin b's
// start. base16[b] = start16[b] - (keys with digit d = b % 256 and top digit below b / 256):
// pass 2's bases (kBucketBases).
__global__ void __launch_bounds__(256)
    starts16_kernel(const unsigned* hist, const unsigned* rowpre, const unsigned* rowsum,
                    unsigned* bases8, unsigned* start16, unsigned* base16) {
  __shared__ unsigned warp_sums[8];
  __shared__ unsigned top_start[256];
  const unsigned t = threadIdx.x;
  const unsigned s = radix::block_exclusive_scan(rowsum[t], warp_sums);
  top_start[t] = s;
  bases8[t] = s;
  __syncthreads();
  const unsigned d = threadIdx.x;
  unsigned col = 0;
#pragma unroll 8
  for (unsigned u = 0; u < 256; ++u) {
    const unsigned b = u * 256 + d;
    const unsigned st = top_start[u] + rowpre[b];
    start16[b] = st;
    base16[b] = st - col;
    col += hist[b];
  }
}

// Block g sorts bucket g (keys with top 16 bits g: data[start16[g], + hist[g])) in place by its
// low 16 bits: v07's one-block sort, passes 0 and 1. hist[g] <= THREADS * ITEMS, or *bad |= 2.
template <unsigned THREADS, unsigned ITEMS, unsigned MIN_BLOCKS>
__global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
    bucket_sort_kernel(uint32_t* data, const unsigned* start16, const unsigned* hist,
                       unsigned* bad) {
  constexpr unsigned kWarps = THREADS / 32, kSlots = THREADS * ITEMS;
  constexpr unsigned kDigitWarps = v06::kDigits / 32;
  __shared__ uint32_t sk[kSlots];
  __shared__ unsigned warp_hist[kWarps][v06::kDigits];
  __shared__ unsigned warp_sums[kDigitWarps];
  const unsigned g = blockIdx.x;
  const unsigned n = hist[g];
  if (n <= 1) return;
  if (n > kSlots) {
    if (threadIdx.x == 0) atomicOr(bad, 2u);
    return;
  }
  uint32_t* keys = data + start16[g];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  uint32_t key[ITEMS];
  const unsigned first = warp * ITEMS * 32 + lane;
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) {
    const unsigned e = first + j * 32;
    key[j] = e < n ? keys[e] : 0xFFFFFFFFu;  // padding sorts last (stably: after real keys)
  }
  for (unsigned pass = 0; pass < 2; ++pass) {
    for (unsigned i = lane; i < v06::kDigits; i += 32) warp_hist[warp][i] = 0;
    __syncwarp();
    unsigned rank[ITEMS];
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j) {
      const unsigned d = v06::digit_at(key[j], pass);
      const unsigned peers = v06::match_digit(d);
      const unsigned upto = __popc(peers & v06::lanemask_le());
      const unsigned leader = 31 - __clz(peers);
      const unsigned old = v06::leader_fetch_add(&warp_hist[warp][d], upto, lane == leader);
      rank[j] = __shfl_sync(0xffffffffu, old, leader) + upto - 1;
    }
    __syncthreads();
    const unsigned d = threadIdx.x;
    unsigned count = 0, incl = 0;
    if (d < v06::kDigits) {
#pragma unroll
      for (unsigned w = 0; w < kWarps; ++w) {
        const unsigned c = warp_hist[w][d];
        warp_hist[w][d] = count;
        count += c;
      }
      incl = static_cast<unsigned>(scan::warp_scan_inclusive(static_cast<int32_t>(count)));
      if (lane == 31) warp_sums[warp] = incl;
    }
    __syncthreads();
    if (warp == 0) {
      const unsigned w = lane < kDigitWarps ? warp_sums[lane] : 0;
      const unsigned wi = static_cast<unsigned>(scan::warp_scan_inclusive(static_cast<int32_t>(w)));
      if (lane < kDigitWarps) warp_sums[lane] = wi;
    }
    __syncthreads();
    if (d < v06::kDigits) {
      const unsigned start = incl - count + (warp ? warp_sums[warp - 1] : 0);
#pragma unroll
      for (unsigned w = 0; w < kWarps; ++w) warp_hist[w][d] += start;
    }
    __syncthreads();
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j)
      sk[rank[j] + warp_hist[warp][v06::digit_at(key[j], pass)]] = key[j];
    __syncthreads();
    if (pass == 0) {
#pragma unroll
      for (unsigned j = 0; j < ITEMS; ++j) key[j] = sk[first + j * 32];
    }
  }
  // Write out from shared memory, consecutive threads consecutive keys.
  for (unsigned e = threadIdx.x; e < n; e += THREADS) keys[e] = sk[e];
}

// bucket_sort_kernel with three changes. (a) ATOMIC0: the first pass (bits 0-7) ranks each key
// by one shared atomicAdd on its digit's counter, which is not stable; only the second pass (bits
// 8-15) must be, and it keeps the ballots. The input's order within a bucket means nothing, so an
// unstable first pass still sorts. The counters are padded (digit d at d + d / 16) so that digits
// 32 apart, as sorted keys give, do not share a bank. The padding slots hold the bucket's own
// top 16 bits and 0xffff, a value a real key may have: whichever of the equal values lands in
// the first n slots, the output is the same. (b) A bucket already in order (every key no larger
// than the next: sorted input) is left as it is. (c) ITEMS is chosen per launch for the input size.
template <unsigned THREADS, unsigned ITEMS, unsigned MIN_BLOCKS, bool ATOMIC0>
__global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
    bucket_sort2_kernel(uint32_t* data, const unsigned* start16, const unsigned* hist,
                        unsigned* bad) {
  constexpr unsigned kWarps = THREADS / 32, kSlots = THREADS * ITEMS;
  constexpr unsigned kDigitWarps = v06::kDigits / 32;
  __shared__ uint32_t sk[kSlots];
  __shared__ unsigned warp_hist[kWarps][v06::kDigits];
  __shared__ unsigned cnt[v06::kDigits + v06::kDigits / 16];
  __shared__ unsigned warp_sums[kDigitWarps];
  const unsigned g = blockIdx.x;
  const unsigned n = hist[g];
  if (n <= 1) return;
  if (n > kSlots) {
    if (threadIdx.x == 0) atomicOr(bad, 2u);
    return;
  }
  uint32_t* keys = data + start16[g];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const uint32_t pad = (g << 16) | 0xffffu;
  uint32_t key[ITEMS];
  const unsigned first = warp * ITEMS * 32 + lane;
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) {
    const unsigned e = first + j * 32;
    key[j] = e < n ? keys[e] : pad;
  }
  // In order already? Each key against the one after it in input order.
  {
    bool ordered = true;
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j) {
      const uint32_t next_lane = __shfl_down_sync(0xffffffffu, key[j], 1);
      const uint32_t next_item = __shfl_sync(0xffffffffu, key[j + 1 < ITEMS ? j + 1 : j], 0);
      const uint32_t next = lane < 31 ? next_lane : (j + 1 < ITEMS ? next_item : key[j]);
      ordered &= key[j] <= next;
    }
    // Across warps: warp w's last key against warp w + 1's first.
    if (lane == 0) sk[warp] = key[0];
    __syncthreads();
    if (lane == 31 && warp + 1 < kWarps) ordered &= key[ITEMS - 1] <= sk[warp + 1];
    if (__syncthreads_and(ordered)) return;
  }
  const unsigned d = threadIdx.x;
  for (unsigned pass = 0; pass < 2; ++pass) {
    unsigned rank[ITEMS];
    if (ATOMIC0 && pass == 0) {
      if (d < v06::kDigits) cnt[d + d / 16] = 0;
      __syncthreads();
#pragma unroll
      for (unsigned j = 0; j < ITEMS; ++j) {
        const unsigned dd = v06::digit_at(key[j], 0);
        rank[j] = atomicAdd(&cnt[dd + dd / 16], 1u);
      }
      __syncthreads();
      unsigned start = 0;
      if (d < v06::kDigits) {
        const unsigned c = cnt[d + d / 16];
        const unsigned incl =
            static_cast<unsigned>(scan::warp_scan_inclusive(static_cast<int32_t>(c)));
        if (lane == 31) warp_sums[warp] = incl;
        start = incl - c;
      }
      __syncthreads();
      if (warp == 0) {
        const unsigned w = lane < kDigitWarps ? warp_sums[lane] : 0;
        const unsigned wi =
            static_cast<unsigned>(scan::warp_scan_inclusive(static_cast<int32_t>(w)));
        if (lane < kDigitWarps) warp_sums[lane] = wi;
      }
      __syncthreads();
      if (d < v06::kDigits) cnt[d + d / 16] = start + (warp ? warp_sums[warp - 1] : 0);
      __syncthreads();
#pragma unroll
      for (unsigned j = 0; j < ITEMS; ++j) {
        const unsigned dd = v06::digit_at(key[j], 0);
        sk[rank[j] + cnt[dd + dd / 16]] = key[j];
      }
      __syncthreads();
    } else {
      for (unsigned i = lane; i < v06::kDigits; i += 32) warp_hist[warp][i] = 0;
      __syncwarp();
#pragma unroll
      for (unsigned j = 0; j < ITEMS; ++j) {
        const unsigned dd = v06::digit_at(key[j], pass);
        const unsigned peers = v06::match_digit(dd);
        const unsigned upto = __popc(peers & v06::lanemask_le());
        const unsigned leader = 31 - __clz(peers);
        const unsigned old = v06::leader_fetch_add(&warp_hist[warp][dd], upto, lane == leader);
        rank[j] = __shfl_sync(0xffffffffu, old, leader) + upto - 1;
      }
      __syncthreads();
      unsigned count = 0, incl = 0;
      if (d < v06::kDigits) {
#pragma unroll
        for (unsigned w = 0; w < kWarps; ++w) {
          const unsigned c = warp_hist[w][d];
          warp_hist[w][d] = count;
          count += c;
        }
        incl = static_cast<unsigned>(scan::warp_scan_inclusive(static_cast<int32_t>(count)));
        if (lane == 31) warp_sums[warp] = incl;
      }
      __syncthreads();
      if (warp == 0) {
        const unsigned w = lane < kDigitWarps ? warp_sums[lane] : 0;
        const unsigned wi =
            static_cast<unsigned>(scan::warp_scan_inclusive(static_cast<int32_t>(w)));
        if (lane < kDigitWarps) warp_sums[lane] = wi;
      }
      __syncthreads();
      if (d < v06::kDigits) {
        const unsigned start = incl - count + (warp ? warp_sums[warp - 1] : 0);
#pragma unroll
        for (unsigned w = 0; w < kWarps; ++w) warp_hist[w][d] += start;
      }
      __syncthreads();
#pragma unroll
      for (unsigned j = 0; j < ITEMS; ++j)
        sk[rank[j] + warp_hist[warp][v06::digit_at(key[j], pass)]] = key[j];
      __syncthreads();
    }
    if (pass == 0) {
#pragma unroll
      for (unsigned j = 0; j < ITEMS; ++j) key[j] = sk[first + j * 32];
    }
  }
  for (unsigned e = threadIdx.x; e < n; e += THREADS) keys[e] = sk[e];
}

// Key i: one of 16 values (a hash of i % 16).
__global__ void fill_few(uint32_t* k, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    k[i] = mix((i % 16 + 1) * 0x9e3779b97f4a7c15ull);
}

struct Hybrid {
  size_t n = 0, tiles = 0;
  unsigned blocks = 0;
  unsigned *partial, *hist, *rowpre, *rowsum, *maxbin, *bad, *bases8, *start16, *base16;
  unsigned *counters, *check;
  uint32_t* buf;
  v10::NarrowStatus::Word* status;
  size_t status_bytes = 0;

  explicit Hybrid(size_t n_) : n(n_) {
    tiles = ceil_div(n, v12::kTile);
    blocks = static_cast<unsigned>(current_sm_count());
    cudaMalloc(&partial, size_t(blocks) * kBins / 2 * 4);
    for (unsigned** p : {&hist, &rowpre, &start16, &base16}) cudaMalloc(p, kBins * 4);
    for (unsigned** p : {&rowsum, &bases8}) cudaMalloc(p, 256 * 4);
    cudaMalloc(&maxbin, 16);
    bad = maxbin + 1;
    cudaMalloc(&counters, 256);
    check = counters + 8;
    status_bytes = tiles * v06::kDigits * 4;
    cudaMalloc(&status, status_bytes);
    cudaMalloc(&buf, n * 4);
    cudaFuncSetAttribute(hist16_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kBins * 2);
  }

  // Stage 0 (counting) only, or up to and including pass `upto` (1..3).
  template <unsigned THREADS, unsigned ITEMS, unsigned MIN_BLOCKS = 1, int KIND = 0>
  void run(const uint32_t* in, uint32_t* out, cudaStream_t s, int upto = 3) {
    cudaMemsetAsync(counters, 0, 256, s);  // tile counters, maxbin's word is separate
    cudaMemsetAsync(maxbin, 0, 16, s);
    // Look-back words: flag 1 reads as unpublished in pass 3 (odd) and is overwritten by it.
    cudaMemsetAsync(status, 0x01, status_bytes, s);
    hist16_kernel<<<blocks, kHistThreads, kBins * 2, s>>>(in, n, partial, bad);
    reduce16_kernel<<<256, 256, 0, s>>>(partial, blocks, hist, rowpre, rowsum, maxbin);
    starts16_kernel<<<1, 256, 0, s>>>(hist, rowpre, rowsum, bases8, start16, base16);
    if (upto < 1) return;
    constexpr unsigned kOpt = v14::kAheadSixteenths << kPrefetchAheadShift;
    const auto pass_a = probe_kernel<v12::kThreads, v12::kItems, v06::kWindow, false,
                                     v12::kMinBlocks, v08::kScWindow, v10::NarrowStatus, kOpt>;
    const auto pass_b =
        probe_kernel<v12::kThreads, v12::kItems, v06::kWindow, false, v12::kMinBlocks,
                     v08::kScWindow, v10::NarrowStatus, kOpt | kBucketBases>;
    pass_a<<<static_cast<unsigned>(tiles), v12::kThreads, 0, s>>>(
        in, nullptr, buf, nullptr, n, 3, counters + 0, status, bases8, check, v06::Portion{});
    if (upto < 2) return;
    pass_b<<<static_cast<unsigned>(tiles), v12::kThreads, 0, s>>>(
        buf, nullptr, out, nullptr, n, 2, counters + 1, status, base16, check, v06::Portion{});
    if (upto < 3) return;
    if constexpr (KIND == 0)
      bucket_sort_kernel<THREADS, ITEMS, MIN_BLOCKS>
          <<<kBins, THREADS, 0, s>>>(out, start16, hist, bad);
    else
      bucket_sort2_kernel<THREADS, ITEMS, MIN_BLOCKS, KIND == 2>
          <<<kBins, THREADS, 0, s>>>(out, start16, hist, bad);
  }
};

}  // namespace

int main(int argc, char** argv) {
  const int log2n = argc > 1 ? std::atoi(argv[1]) : 28;
  const size_t n = size_t(1) << log2n;
  uint32_t *in, *out, *want, *sorted_in;
  for (uint32_t** p : {&in, &out, &want, &sorted_in}) cudaMalloc(p, n * 4);
  unsigned long long* bad;
  cudaMalloc(&bad, 8);
  size_t cub_bytes = 0;
  cub::DeviceRadixSort::SortKeys(nullptr, cub_bytes, in, out, static_cast<long long>(n));
  const size_t ws_bytes = std::max(cub_bytes, v14::workspace_bytes(n));
  void* ws;
  cudaMalloc(&ws, ws_bytes);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  probe_timing::Timer timer(s);
  fill_pairs<<<1024, 256>>>(in, out, n);  // keys: a hash of the index (out is overwritten)
  cudaDeviceSynchronize();
  Hybrid hy(n);
  std::printf("n = 2^%d uniform keys, %s, %zu tiles, %u counting blocks\n", log2n,
              query_device(0).name.c_str(), hy.tiles, hy.blocks);
  auto cub_sort = [&](const uint32_t* i, uint32_t* o) {
    size_t b = cub_bytes;
    return cub::DeviceRadixSort::SortKeys(ws, b, i, o, static_cast<long long>(n), 0, 32, s);
  };
  cub_sort(in, want);
  cudaMemcpyAsync(sorted_in, want, n * 4, cudaMemcpyDeviceToDevice, s);
  unsigned long long all_wrong = 0;
  auto checked = [&](const char* name, const uint32_t* input, auto launch) {
    cudaMemsetAsync(out, 0xa5, n * 4, s);
    cudaMemsetAsync(hy.maxbin, 0, 16, s);
    launch(input, out);
    const cudaError_t e = cudaGetLastError();
    const unsigned long long w = probe_timing::mismatches(out, want, n, bad, s);
    unsigned flags[2] = {};
    cudaMemcpy(flags, hy.maxbin, 8, cudaMemcpyDeviceToHost);
    all_wrong += w;
    const float us = timer.median_us([&] { launch(input, out); }, 21);
    std::printf("%-44s %9.1f us  %llu keys differ, largest bucket %u, flags %u (%s)\n", name, us, w,
                flags[0], flags[1], cudaGetErrorString(e));
    return us;
  };
  const float copy_us =
      timer.median_us([&] { cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDeviceToDevice, s); }, 21);
  std::printf("copy of the keys (cudaMemcpyAsync)           %9.1f us\n", copy_us);
  const float cub_us =
      checked("CUB SortKeys", in, [&](const uint32_t* i, uint32_t* o) { cub_sort(i, o); });
  const float v14_us =
      checked("sort v14", in, [&](const uint32_t* i, uint32_t* o) { v14::launch(i, o, n, ws, s); });
  // Hybrid, cumulative stages (only the whole sort is checked; the stages leave out unsorted).
  for (int upto = 0; upto < 3; ++upto) {
    const float us = timer.median_us([&] { hy.run<512, 10>(in, out, s, upto); }, 21);
    std::printf("hybrid through stage %d                       %9.1f us\n", upto, us);
  }
  auto report = [&](const char* name, float us) {
    std::printf("   %-41s %.3fx CUB, %.3fx v14\n", name, us / cub_us, us / v14_us);
  };
  auto variant = [&](const char* name, auto launch) { report(name, checked(name, in, launch)); };
  variant("hybrid, buckets 256 x 18, 4 an SM",
          [&](const uint32_t* i, uint32_t* o) { hy.run<256, 18, 4>(i, o, s); });
  variant("hybrid3, ballots, 256 x 18, 4",
          [&](const uint32_t* i, uint32_t* o) { hy.run<256, 18, 4, 1>(i, o, s); });
  variant("hybrid3 + atomic pass 0, 256 x 18, 4",
          [&](const uint32_t* i, uint32_t* o) { hy.run<256, 18, 4, 2>(i, o, s); });
  variant("hybrid3 + atomic pass 0, 256 x 18, 5",
          [&](const uint32_t* i, uint32_t* o) { hy.run<256, 18, 5, 2>(i, o, s); });
  variant("hybrid3 + atomic pass 0, 256 x 10, 6 (2^27)",
          [&](const uint32_t* i, uint32_t* o) { hy.run<256, 10, 6, 2>(i, o, s); });
  // Sorted uniform keys.
  const float cub_sorted = checked("CUB SortKeys, sorted input", sorted_in,
                                   [&](const uint32_t* i, uint32_t* o) { cub_sort(i, o); });
  const float v14_sorted =
      checked("sort v14, sorted input", sorted_in,
              [&](const uint32_t* i, uint32_t* o) { v14::launch(i, o, n, ws, s); });
  for (int upto = 0; upto < 3; ++upto) {
    const float us = timer.median_us([&] { hy.run<256, 18, 5, 2>(sorted_in, out, s, upto); }, 21);
    std::printf("hybrid through stage %d, sorted input         %9.1f us\n", upto, us);
  }
  const float hy_sorted =
      checked("hybrid3 + atomic 256 x 18, 5, sorted input", sorted_in,
              [&](const uint32_t* i, uint32_t* o) { hy.run<256, 18, 5, 2>(i, o, s); });
  std::printf("   sorted: hybrid %.3fx CUB, v14 %.3fx CUB\n", hy_sorted / cub_sorted,
              v14_sorted / cub_sorted);
  // Few distinct keys (16 values): the counting must refuse the road (a 16-bit count wraps in
  // some block, or a bucket exceeds a block's slots), which is what a rung's fallback would read.
  fill_few<<<1024, 256, 0, s>>>(sorted_in, n);
  cudaMemsetAsync(hy.maxbin, 0, 16, s);
  hy.run<256, 18, 4, 2>(sorted_in, out, s, 0);
  unsigned few_flags[2] = {};
  cudaMemcpyAsync(few_flags, hy.maxbin, 8, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  std::printf("16 distinct keys, counting only: largest bucket %u (as counted), wrapped %u\n",
              few_flags[0], few_flags[1] & 1);
  checked("CUB SortKeys again (drift check)", in,
          [&](const uint32_t* i, uint32_t* o) { cub_sort(i, o); });
  return all_wrong == 0 ? 0 : 1;
}
