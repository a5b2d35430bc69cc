// scan/lab/probe_pdl.cu — a standalone probe: what programmatic dependent launch saves in the
// middle sizes, where scan v16 runs v13 (below one v15 tile per SM) and copy_if v08 runs v05,
// and a status memset precedes every launch. Variants of scan v13 and copy_if v05 at 2^15 ...
// 2^23 elements, against CUB's InclusiveSum and DeviceSelect::If (the suite's baseline calls):
//   memset:  v13 as shipped: cudaMemsetAsync of the workspace, then the kernel;
//   pdl:     a clearing kernel that lets its dependent start at once
//            (griddepcontrol.launch_dependents), then v13 launched with
//            cudaLaunchAttributeProgrammaticStreamSerialization, waiting (griddepcontrol.wait)
//            before its first workspace access: the launch and block start-up of the scan
//            overlap the clear, as newer CCCL releases launch CUB's scan on sm_90;
//   pre:     the kernel alone, the workspace cleared before the timed region (not a valid
//            scan call: the lower bound of what removing the clear could save).
// Each is timed as the benchmark times it: the stream held by a blocking kernel while the start
// event, the launches and the stop event are enqueued, L2 flushed before, median of 51. Every
// output is compared with CUB's on the device. Not part of the binary.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_pdl.cu common/device.cu \
//     -o probe_pdl && ./probe_pdl
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "common/device.h"
#include "common/probe_timer.cuh"
#include "copy_if/cub_baseline.cuh"
#include "copy_if/v05_single_pass.cuh"
#include "scan/v13_vectorized_lookback.cuh"

using namespace ladder;
using namespace ladder::scan;

__global__ void fill(int32_t* x, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    x[i] = static_cast<int32_t>((i * 2654435761u) % 17) - 8;
}

// Zeroes `words` 16-byte words; lets the dependent grid launch first thing.
__global__ void clear_kernel(uint4* ws, size_t words) {
  asm volatile("griddepcontrol.launch_dependents;");
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < words;
       i += size_t(gridDim.x) * blockDim.x)
    ws[i] = make_uint4(0, 0, 0, 0);
}

int32_t *in, *out, *want;
unsigned long long *count, *want_count;
void* ws;
void* cub_ws;
size_t cub_bytes = size_t(64) << 20;
unsigned long long* bad;
cudaStream_t stream;
probe_timing::Timer* timer;

template <typename F>
float median_us(F&& run) {
  return timer->median_us(run, 51);
}

// Elements of out[0, m) that differ from want[0, m).
unsigned long long mismatches(size_t m) {
  return probe_timing::mismatches(out, want, m, bad, stream);
}

// The clear as a kernel that lets its dependent start at once, then `kernel` launched as its
// programmatic dependent.
template <typename Kernel, typename... Args>
cudaError_t clear_then(size_t ws_bytes, size_t grid, unsigned block, Kernel kernel, Args... args) {
  const size_t words = ceil_div(ws_bytes, size_t(16));
  clear_kernel<<<static_cast<unsigned>(std::min<size_t>(ceil_div(words, size_t(256)), 132)), 256, 0,
                 stream>>>(static_cast<uint4*>(ws), words);
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(static_cast<unsigned>(grid));
  cfg.blockDim = dim3(block);
  cfg.stream = stream;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  return cudaLaunchKernelEx(&cfg, kernel, args...);
}

// The kernel alone, its workspace cleared before the start event.
template <typename F>
float median_pre_us(size_t ws_bytes, F&& launch) {
  return timer->median_us(
      launch, [&] { cudaMemsetAsync(ws, 0, ws_bytes, stream); }, 51);
}

cudaError_t err = cudaSuccess;
void keep(cudaError_t e) {
  if (e != cudaSuccess) err = e;
}

// Times CUB (`cub_run`, which also writes want), then each variant of ours, and checks each
// variant's output (`check`: the number of wrong elements) after a run into a poisoned buffer.
template <typename Cub, typename Memset, typename Pdl, typename Pre, typename Check>
void compare(const char* op, int k, size_t ws_bytes, Cub cub_run, Memset memset_run, Pdl pdl_run,
             Pre pre_run, Check check) {
  const float cub_us = median_us(cub_run);
  cudaStreamSynchronize(stream);
  cudaMemcpy(want, out, (size_t(1) << k) * 4, cudaMemcpyDefault);
  cudaMemcpy(want_count, count, 8, cudaMemcpyDefault);
  float us[3];
  unsigned long long wrong[3];
  int i = 0;
  auto one = [&](auto run, float t) {
    us[i] = t;
    cudaMemsetAsync(out, 0xa5, (size_t(1) << k) * 4, stream);
    cudaMemsetAsync(count, 0xa5, 8, stream);
    run();
    wrong[i++] = check();
  };
  one(memset_run, median_us(memset_run));
  one(pdl_run, median_us(pdl_run));
  one(
      [&] {
        cudaMemsetAsync(ws, 0, ws_bytes, stream);
        pre_run();
      },
      median_pre_us(ws_bytes, pre_run));
  printf(
      "%-7s n=2^%d  cub %6.2f us | memset %6.2f (%.3fx)  pdl %6.2f (%.3fx)  pre %6.2f "
      "(%.3fx) | wrong %llu %llu %llu  %s\n",
      op, k, cub_us, us[0], us[0] / cub_us, us[1], us[1] / cub_us, us[2], us[2] / cub_us, wrong[0],
      wrong[1], wrong[2], cudaGetErrorString(err));
}

int main() {
  const size_t cap = size_t(1) << 23;
  cudaMalloc(&in, cap * 4);
  cudaMalloc(&out, cap * 4);
  cudaMalloc(&want, cap * 4);
  cudaMalloc(&count, 8);
  cudaMalloc(&want_count, 8);
  cudaMalloc(&ws, std::max(v13::workspace_bytes(cap), copy_if::v05::workspace_bytes(cap)));
  cudaMalloc(&cub_ws, cub_bytes);
  cudaMalloc(&bad, 8);
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  probe_timing::Timer t(stream);
  timer = &t;
  fill<<<256, 256>>>(in, cap);  // values -8 ... 8: about half positive (copy_if keeps > 0)
  cudaDeviceSynchronize();
  printf("%s\n", query_device(0).name.c_str());
  for (int k = 15; k <= 23; ++k) {
    const size_t n = size_t(1) << k;
    const size_t tiles = ceil_div(n, v13::kTile);
    compare(
        "scan", k, v13::workspace_bytes(n),
        [&] {
          size_t b = cub_bytes;
          keep(cub::DeviceScan::InclusiveSum(cub_ws, b, in, out, static_cast<int>(n), stream));
        },
        [&] { keep(v13::launch(in, out, n, ws, stream)); },
        [&] {
          keep(clear_then(v13::workspace_bytes(n), tiles, v13::kThreads,
                          v13::single_pass_kernel<true, v13::kThreads, v13::kVectors,
                                                  v13::kStreamingStores, true>,
                          static_cast<const int32_t*>(in), out, n, lookback::tile_counter(ws),
                          lookback::tile_status(ws)));
        },
        [&] {
          v13::single_pass_kernel<true><<<static_cast<unsigned>(tiles), v13::kThreads, 0, stream>>>(
              in, out, n, lookback::tile_counter(ws), lookback::tile_status(ws));
          keep(cudaGetLastError());
        },
        [&] { return mismatches(n); });
  }
  for (int k = 15; k <= 23; ++k) {
    const size_t n = size_t(1) << k;
    const size_t tiles = ceil_div(n, copy_if::v05::kTile);
    const size_t ws_bytes = copy_if::v05::workspace_bytes(n);
    compare(
        "copy_if", k, ws_bytes,
        [&] { keep(copy_if::cub_baseline::launch(in, out, count, n, cub_ws, stream)); },
        [&] { keep(copy_if::v05::launch(in, out, count, n, ws, stream)); },
        [&] {
          keep(clear_then(ws_bytes, tiles, copy_if::v05::kThreads,
                          copy_if::v05::single_pass_kernel<true, true>,
                          static_cast<const int32_t*>(in), out, count, n,
                          lookback::tile_counter(ws), lookback::tile_status(ws)));
        },
        [&] {
          copy_if::v05::single_pass_kernel<true>
              <<<static_cast<unsigned>(tiles), copy_if::v05::kThreads, 0, stream>>>(
                  in, out, count, n, lookback::tile_counter(ws), lookback::tile_status(ws));
          keep(cudaGetLastError());
        },
        [&] {
          unsigned long long got = 0, w = 0;
          cudaStreamSynchronize(stream);
          cudaMemcpy(&got, count, 8, cudaMemcpyDefault);
          cudaMemcpy(&w, want_count, 8, cudaMemcpyDefault);
          return got != w ? ~0ull : mismatches(w);
        });
  }
  return 0;
}
