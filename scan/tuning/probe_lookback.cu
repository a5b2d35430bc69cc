// scan/tuning/probe_lookback.cu — where a single-pass tile spends its time. Not part of the
// binary: a diagnostic for the scan chapter's open question (why v13/v14 and CUB stop near 72%
// of the copy ceiling). It runs v13's algorithm at n = 2^28 with %globaltimer stamps taken by
// thread 0 of each tile at five points — start, data loaded (after the block's first barrier),
// aggregate published, prefix known, stores issued — and prints the mean and the percentiles of
// each phase over all tiles, the number of tiles in flight over time, and the kernel's time with
// and without the stamps (the stamps cost a little; the phases are what matter).
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/tuning/probe_lookback.cu common/device.cu \
//     -o probe_lookback && ./probe_lookback
#include <algorithm>
#include <cstdio>
#include <vector>

#include "common/device.h"
#include "scan/lookback.cuh"
#include "scan/v13_vectorized_lookback.cuh"
#include "scan/warp_scan.cuh"

using namespace ladder;
using namespace ladder::scan;

__device__ __forceinline__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

constexpr unsigned kStamps = 5;
constexpr unsigned BS = v13::kThreads, VECS = v13::kVectors;

// v13's kernel (aligned, full tiles only: n is a multiple of the tile) with stamps.
__global__ void __launch_bounds__(BS)
    stamped_kernel(const int32_t* __restrict__ in, int32_t* __restrict__ out, unsigned* counter,
                   lookback::Status* status, unsigned long long* stamps) {
  constexpr unsigned kWarps = BS / 32;
  constexpr size_t kTileElems = size_t(BS) * VECS * 4;
  __shared__ int32_t partial[32];
  __shared__ int32_t tile_prefix;
  __shared__ unsigned long long t_published, t_prefix;
  const unsigned long long t0 = now_ns();
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const size_t tile = lookback::next_tile(counter);
  const int4* src = reinterpret_cast<const int4*>(in + tile * kTileElems);
  int4 x[VECS];
#pragma unroll
  for (unsigned u = 0; u < VECS; ++u) x[u] = load_once(src + u * BS + threadIdx.x);
#pragma unroll
  for (unsigned u = 0; u < VECS; ++u) {
    x[u].y += x[u].x;
    x[u].z += x[u].y;
    x[u].w += x[u].z;
    const int32_t incl = warp_scan_inclusive(x[u].w);
    if (lane == 31) partial[u * kWarps + warp] = incl;
    const int32_t excl = incl - x[u].w;
    x[u].x += excl;
    x[u].y += excl;
    x[u].z += excl;
    x[u].w += excl;
  }
  __syncthreads();
  const unsigned long long t_loaded = now_ns();
  if (warp == 0) {
    const int32_t mine = partial[lane];
    const int32_t incl = warp_scan_inclusive(mine);
    partial[lane] = incl - mine;
    const int32_t tile_sum = __shfl_sync(0xffffffffu, incl, 31);
    lookback::Status* st = status + tile;
    if (tile == 0) {
      if (lane == 0) lookback::publish(st, lookback::kPrefix, tile_sum);
      if (lane == 0) t_published = now_ns();
      if (lane == 0) tile_prefix = 0;
    } else {
      if (lane == 0) lookback::publish(st, lookback::kAggregate, tile_sum);
      if (lane == 0) t_published = now_ns();
      const int32_t prefix = lookback::exclusive_prefix(status, tile);
      if (lane == 0) lookback::publish(st, lookback::kPrefix, prefix + tile_sum);
      if (lane == 0) tile_prefix = prefix;
    }
    if (lane == 0) t_prefix = now_ns();
  }
  __syncthreads();
  int4* dst = reinterpret_cast<int4*>(out + tile * kTileElems);
#pragma unroll
  for (unsigned u = 0; u < VECS; ++u) {
    const int32_t add = tile_prefix + partial[u * kWarps + warp];
    x[u].x += add;
    x[u].y += add;
    x[u].z += add;
    x[u].w += add;
    __stcs(dst + u * BS + threadIdx.x, x[u]);
  }
  if (threadIdx.x == 0) {
    unsigned long long* s = stamps + tile * kStamps;
    s[0] = t0;
    s[1] = t_loaded;
    s[2] = t_published;
    s[3] = t_prefix;
    s[4] = now_ns();
  }
}

int main() {
  const size_t n = size_t(1) << 28;
  const size_t tiles = n / v13::kTile;
  DeviceBuffer in(n * 4), out(n * 4), ws(lookback::workspace_bytes(tiles)),
      stamps(tiles * kStamps * 8);
  {
    std::vector<int32_t> h(n, 1);
    upload(in.get(), h.data(), n * 4);
  }
  L2Flusher flusher(query_device(0).l2_bytes);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  auto time_us = [&](auto launch) {
    std::vector<float> t;
    for (int i = 0; i < 21; ++i) {
      flusher.flush(nullptr);
      cudaEventRecord(a);
      launch();
      cudaEventRecord(b);
      cudaEventSynchronize(b);
      float ms;
      cudaEventElapsedTime(&ms, a, b);
      if (i) t.push_back(ms * 1e3f);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
  };
  const float plain = time_us(
      [&] { v13::launch(in.as<const int32_t>(), out.as<int32_t>(), n, ws.get(), nullptr); });
  const float stamped = time_us([&] {
    cudaMemsetAsync(ws.get(), 0, ws.bytes());
    stamped_kernel<<<unsigned(tiles), BS>>>(
        in.as<const int32_t>(), out.as<int32_t>(), lookback::tile_counter(ws.get()),
        lookback::tile_status(ws.get()), stamps.as<unsigned long long>());
  });
  int32_t last = 0;
  cudaMemcpy(&last, out.as<int32_t>() + n - 1, 4, cudaMemcpyDefault);
  printf("v13 %.1f us, stamped %.1f us, last = %d (want %zu), %s\n", plain, stamped, last, n,
         cudaGetErrorString(cudaGetLastError()));

  std::vector<unsigned long long> s(tiles * kStamps);
  cudaMemcpy(s.data(), stamps.get(), s.size() * 8, cudaMemcpyDefault);
  const char* phase[] = {"load + thread/warp scan", "block scan + publish aggregate",
                         "look-back (wait for prefix)", "add + stores issued"};
  for (unsigned p = 0; p < 4; ++p) {
    std::vector<double> d(tiles);
    double sum = 0;
    for (size_t t = 0; t < tiles; ++t)
      sum += d[t] = double(s[t * kStamps + p + 1] - s[t * kStamps + p]);
    std::sort(d.begin(), d.end());
    printf("%-32s mean %8.0f ns  p50 %8.0f  p90 %8.0f  p99 %8.0f\n", phase[p], sum / tiles,
           d[tiles / 2], d[tiles * 9 / 10], d[tiles * 99 / 100]);
  }
  // Tiles in flight: how many tiles have started and not yet finished, sampled over the run.
  unsigned long long first = ~0ull, lastt = 0;
  for (size_t t = 0; t < tiles; ++t) {
    first = std::min(first, s[t * kStamps]);
    lastt = std::max(lastt, s[t * kStamps + 4]);
  }
  std::vector<int> delta(1001, 0);
  const double span = double(lastt - first);
  for (size_t t = 0; t < tiles; ++t) {
    ++delta[size_t(1000 * double(s[t * kStamps] - first) / span)];
    --delta[std::min<size_t>(1000, size_t(1000 * double(s[t * kStamps + 4] - first) / span) + 1)];
  }
  int inflight = 0;
  long long total = 0;
  for (int i = 0; i < 1000; ++i) total += (inflight += delta[i]);
  printf("span %.1f us, mean tiles in flight %.0f (%.1f per SM)\n", span / 1e3,
         double(total) / 1000, double(total) / 1000 / query_device(0).sm_count);
  return 0;
}
