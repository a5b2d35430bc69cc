// sort/lab/probe_sc_window.cu — a standalone probe (sort/lab/LAB_NOTES.md): sort v14's passes with
// wider look-back windows for the short-circuited tiles (v08's SC_WINDOW, 8 as shipped). On keys
// with few distinct values, every pass after the first is nearly all short-circuited tiles: each
// tile loads its keys, checks they share one digit, looks back for that digit's count in all
// earlier tiles and copies itself. A look-back step loads SC_WINDOW predecessors' words at once and
// can finish only at a tile that has published its inclusive count, so the inclusive counts can
// move forward by at most SC_WINDOW tiles a step; with 23,831 tiles at 2^28 and an L2 round trip a
// step, that alone is a pass's worth of time (sort/lab/LAB_NOTES.md, "What binds few and uniform").
// This probe times SC_WINDOW = 8, 16 and 32 on `few` keys (16 distinct values, as the benchmark's
// input), uniform keys and "sorted" keys, at 2^28 and 25.6M, beside CUB's SortKeys, every output
// compared with CUB's; timed as the benchmark times (L2 flushed, the stream held, median of 21).
// Not part of the binary.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. --expt-relaxed-constexpr sort/lab/probe_sc_window.cu
//     common/device.cu -o probe_sc_window && ./probe_sc_window [N DIST]
// With N and DIST (uniform, few or sorted) it sorts that one input once with CUB and once with
// v14, checks v14's output, and stops: for Nsight Compute over both sorts' kernels.
//
// Source: sort v08 (the short circuit and its window), v14 (the passes); D. Merrill and M. Garland,
// "Single-pass Parallel Prefix Scan with Decoupled Look-back", 2016.
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstdio>
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

// Keys: uniform (a hash of the index), few (one of 16 hashed values, picked by a hash of the
// index) or "sorted" (the index itself, scaled to the 32-bit range: evenly spaced keys, not
// the benchmark's `sorted` input, which is sorted random keys).
__global__ void fill(uint32_t* k, size_t n, int dist) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    const uint32_t h = mix((i + 1) * 0x9e3779b97f4a7c15ull);
    k[i] = dist == 0   ? h
           : dist == 1 ? mix(0x1234567ull + (h % 16))
                       : static_cast<uint32_t>((i * 0xffffffffull) / n);
  }
}

// v14's passes with SC_WINDOW (v14::launch runs exactly these where n is at least v12's
// large-tile bound).
template <unsigned SC_WINDOW>
cudaError_t passes(const uint32_t* in, uint32_t* out, size_t n, void* ws, cudaStream_t s) {
  constexpr unsigned kOpt = v14::kAheadSixteenths << kPrefetchAheadShift;
  return probe_passes<false, v10::NarrowStatus, kOpt, v12::kThreads, v12::kItems, v12::kMinBlocks,
                      v06::kWindow, SC_WINDOW>(in, nullptr, out, nullptr, n, ws, s,
                                               v09::striped_histogram);
}

}  // namespace

int main(int argc, char** argv) {
  const size_t n_max = size_t(1) << 28;
  uint32_t *in, *out, *want;
  for (uint32_t** p : {&in, &out, &want}) cudaMalloc(p, n_max * 4);
  unsigned long long* bad;
  cudaMalloc(&bad, 8);
  size_t cub_bytes = 0;
  cub::DeviceRadixSort::SortKeys(nullptr, cub_bytes, in, out, static_cast<long long>(n_max));
  const size_t ws_bytes = std::max(cub_bytes, v14::workspace_bytes(n_max));
  void* ws;
  cudaMalloc(&ws, ws_bytes);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  probe_timing::Timer timer(s);
  std::printf("%s\n", query_device(0).name.c_str());
  unsigned long long all_wrong = 0;
  const char* names[] = {"uniform", "few", "sorted"};
  if (argc > 2) {  // one input, each sort once
    const size_t n = std::min<size_t>(std::stoull(argv[1]), n_max);
    int dist = 0;
    while (dist < 3 && std::string(names[dist]) != argv[2]) ++dist;
    if (dist == 3) {
      std::fprintf(stderr, "unknown input '%s' (uniform, few, sorted)\n", argv[2]);
      return 2;
    }
    fill<<<1024, 256, 0, s>>>(in, n, dist);
    size_t b = cub_bytes;
    cub::DeviceRadixSort::SortKeys(ws, b, in, want, static_cast<long long>(n), 0, 32, s);
    v14::launch(in, out, n, ws, s);
    const unsigned long long w = probe_timing::mismatches(out, want, n, bad, s);
    std::printf("n = %zu, %s: v14's keys that differ from CUB's: %llu\n", n, names[dist], w);
    return w == 0 ? 0 : 1;
  }
  for (size_t n : {n_max, size_t(25600000)}) {
    for (int dist : {1, 0, 2}) {
      fill<<<1024, 256, 0, s>>>(in, n, dist);
      auto cub_sort = [&](uint32_t* o) {
        size_t b = cub_bytes;
        return cub::DeviceRadixSort::SortKeys(ws, b, in, o, static_cast<long long>(n), 0, 32, s);
      };
      cub_sort(want);
      const float cub_us = timer.median_us([&] { cub_sort(out); }, 21);
      std::printf("n = %zu, %-7s CUB SortKeys %9.1f us\n", n, names[dist], cub_us);
      auto variant = [&](const char* name, auto launch) {
        cudaMemsetAsync(out, 0xa5, n * 4, s);
        const cudaError_t e = launch(in, out, n, ws, s);
        const unsigned long long w = probe_timing::mismatches(out, want, n, bad, s);
        all_wrong += w;
        const float us = timer.median_us([&] { launch(in, out, n, ws, s); }, 21);
        std::printf("  %-34s %9.1f us  %.3fx CUB  %llu keys differ (%s)\n", name, us, us / cub_us,
                    w, cudaGetErrorString(e));
      };
      variant("v14 as registered", v14::launch);
      variant("v14's passes, window 8 (shipped)", passes<8>);
      variant("v14's passes, window 16", passes<16>);
      variant("v14's passes, window 32", passes<32>);
    }
  }
  // The check must be able to fail: one key of the last sorted output changed.
  cudaStreamSynchronize(s);
  uint32_t one = 0;
  cudaMemcpy(&one, out + 12345, 4, cudaMemcpyDeviceToHost);
  one ^= 1u << 7;
  cudaMemcpy(out + 12345, &one, 4, cudaMemcpyHostToDevice);
  std::printf("one key changed: %llu found (want 1)\n",
              probe_timing::mismatches(out, want, size_t(25600000), bad, s));
  return all_wrong == 0 ? 0 : 1;
}
