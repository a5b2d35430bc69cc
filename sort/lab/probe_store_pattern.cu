// sort/lab/probe_store_pattern.cu — a standalone probe (sort/lab/LAB_NOTES.md): how much of sort
// v12's time at large n is the scatter's store pattern. It times v12's sort of 2^28 uniform keys as
// shipped (v08::launch_passes with the large tiles, 32-bit look-back words and v09's histogram) and
// the same sort with v06::kCoalescedStores, a control in which every pass still loads its tile,
// ranks it with ballots, scans, looks back, stages it by digit and reads each key's offset, but
// writes the staged keys back to the tile's own positions (consecutive, aligned) instead of to
// their digits' runs. The control does not sort, and is not checked; the shipped sort is
// compared with CUB's SortKeys key by key. Beside them, CUB's SortKeys and a copy of the keys.
// Beside them, v12's passes with 16-bit ranks (kRanks16) at shapes with more warps an SM,
// and v14's passes (v12's with the L2 prefetch) as shipped and with the same control.
// Timed as the benchmark times (common/probe_timer.cuh: L2 flushed, the stream held by a blocking
// kernel, median of 21). Per-kernel times: run it under Nsight Compute,
//   ncu --clock-control none -k regex:'onesweep|histogram|Onesweep|Histogram' \
//     --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
//     ./probe_store_pattern 28 once
// ("once": each sort once, untimed). Not part of the binary.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. sort/lab/probe_store_pattern.cu common/device.cu \
//     -o probe_store_pattern && ./probe_store_pattern [log2 n, default 28] [once]
//
// Source: sort v12 (sort/v12_large_tiles.cuh) and v06's pass (sort/v06_onesweep_ballot.cuh);
// the control is this suite's own.
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/device.h"
#include "common/probe_timer.cuh"
#include "sort/lab/probe_common.cuh"
#include "sort/lab/probe_options.cuh"
#include "sort/v12_large_tiles.cuh"
#include "sort/v14_l2_prefetch.cuh"

using namespace ladder;
using namespace ladder::sort;
using namespace ladder::sort::tuning;

namespace {

template <unsigned OPT, unsigned THREADS = v12::kThreads, unsigned ITEMS = v12::kItems,
          unsigned MIN_BLOCKS = v12::kMinBlocks>
cudaError_t v12_passes(const uint32_t* in, uint32_t* out, size_t n, void* ws, cudaStream_t s) {
  return probe_passes<false, v10::NarrowStatus, OPT, THREADS, ITEMS, MIN_BLOCKS>(
      in, nullptr, out, nullptr, n, ws, s, v09::striped_histogram);
}

}  // namespace

int main(int argc, char** argv) {
  const int log2n = argc > 1 ? std::atoi(argv[1]) : 28;
  const bool once = argc > 2 && std::string(argv[2]) == "once";
  const size_t n = size_t(1) << log2n;
  uint32_t *in, *out, *want;
  for (uint32_t** p : {&in, &out, &want}) cudaMalloc(p, n * 4);
  unsigned long long* bad;
  cudaMalloc(&bad, 8);
  size_t cub_bytes = 0;
  cub::DeviceRadixSort::SortKeys(nullptr, cub_bytes, in, out, static_cast<long long>(n));
  const size_t ws_bytes = std::max(cub_bytes, v12::workspace_bytes(n));
  void* ws;
  cudaMalloc(&ws, ws_bytes);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  probe_timing::Timer timer(s);
  fill_pairs<<<1024, 256>>>(in, out, n);  // keys: a hash of the index (out is overwritten)
  cudaDeviceSynchronize();
  std::printf("n = 2^%d uniform keys, %s\n", log2n, query_device(0).name.c_str());
  auto cub_sort = [&](uint32_t* o) {
    size_t b = cub_bytes;
    return cub::DeviceRadixSort::SortKeys(ws, b, in, o, static_cast<long long>(n), 0, 32, s);
  };
  cub_sort(want);
  cudaMemsetAsync(out, 0xa5, n * 4, s);
  v12_passes<0>(in, out, n, ws, s);
  const unsigned long long wrong = probe_timing::mismatches(out, want, n, bad, s);
  std::printf("v12's passes as shipped: %llu keys differ from CUB's (%s)\n", wrong,
              cudaGetErrorString(cudaGetLastError()));
  v12_passes<v06::kCoalescedStores>(in, out, n, ws, s);
  cudaStreamSynchronize(s);
  if (once) return wrong == 0 ? 0 : 1;
  const float copy_us =
      timer.median_us([&] { cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDeviceToDevice, s); }, 21);
  const float cub_us = timer.median_us([&] { cub_sort(out); }, 21);
  const float v12_us = timer.median_us([&] { v12_passes<0>(in, out, n, ws, s); }, 21);
  const float ctl_us =
      timer.median_us([&] { v12_passes<v06::kCoalescedStores>(in, out, n, ws, s); }, 21);
  std::printf("copy of the keys (cudaMemcpyAsync)          %9.1f us\n", copy_us);
  std::printf("CUB SortKeys                                %9.1f us  1.000x CUB\n", cub_us);
  std::printf("v12's passes, as shipped                    %9.1f us  %.3fx CUB\n", v12_us,
              v12_us / cub_us);
  std::printf("v12's passes, stores coalesced (control)    %9.1f us  %.3fx CUB\n", ctl_us,
              ctl_us / cub_us);
  // More warps for the same work: ranks in 16 bits (kRanks16) free ITEMS / 2 registers, so
  // that three blocks of 256 threads, or two of 384, fit an SM. Each variant sorts, and is checked.
  unsigned long long all_wrong = wrong;
  auto variant = [&](const char* name, auto launch) {
    cudaMemsetAsync(out, 0xa5, n * 4, s);
    launch(in, out, n, ws, s);
    const cudaError_t e = cudaGetLastError();
    const unsigned long long w = probe_timing::mismatches(out, want, n, bad, s);
    all_wrong += w;
    const float us = timer.median_us([&] { launch(in, out, n, ws, s); }, 21);
    std::printf("%-43s %9.1f us  %.3fx CUB  %llu keys differ (%s)\n", name, us, us / cub_us, w,
                cudaGetErrorString(e));
  };
  variant("ranks16, 256 x 44, 2 blocks an SM", v12_passes<kRanks16, 256, 44, 2>);
  variant("ranks16, 256 x 40, 3 blocks an SM", v12_passes<kRanks16, 256, 40, 3>);
  variant("ranks16, 256 x 36, 3 blocks an SM", v12_passes<kRanks16, 256, 36, 3>);
  variant("ranks16, 256 x 32, 3 blocks an SM", v12_passes<kRanks16, 256, 32, 3>);
  variant("ranks16, 384 x 28, 2 blocks an SM", v12_passes<kRanks16, 384, 28, 2>);
  variant("ranks16, 384 x 30, 2 blocks an SM", v12_passes<kRanks16, 384, 30, 2>);
  // v14: v12's passes with the prefetch of later tiles' keys into L2, as shipped and with the
  // same control (its stores coalesced: it does not sort, and is not checked).
  constexpr unsigned kV14 = v14::kAheadSixteenths << kPrefetchAheadShift;
  variant("v14's passes, as shipped", v12_passes<kV14>);
  const float v14_ctl_us =
      timer.median_us([&] { v12_passes<kV14 | v06::kCoalescedStores>(in, out, n, ws, s); }, 21);
  std::printf("v14's passes, stores coalesced (control)    %9.1f us  %.3fx CUB\n", v14_ctl_us,
              v14_ctl_us / cub_us);
  variant("v12's passes again (drift check)", v12_passes<0>);
  return all_wrong == 0 ? 0 : 1;
}
