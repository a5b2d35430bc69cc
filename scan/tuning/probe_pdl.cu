// scan/tuning/probe_pdl.cu — a standalone probe: what programmatic dependent launch saves in the
// middle sizes, where scan v16 runs v13 (below one v15 tile per SM) and a status memset precedes
// every launch. Variants of v13 at 2^15 ... 2^22 elements, against CUB's InclusiveSum:
//   memset:  v13 as shipped: cudaMemsetAsync of the workspace, then the kernel;
//   pdl:     a clearing kernel that lets its dependent start at once
//            (griddepcontrol.launch_dependents), then v13 launched with
//            cudaLaunchAttributeProgrammaticStreamSerialization, waiting (griddepcontrol.wait)
//            before its first workspace access: the launch and block start-up of the scan
//            overlap the clear, as CUB's init and scan kernels do on sm_90;
//   pre:     the kernel alone, the workspace cleared before the timed region (not a valid
//            scan call: the lower bound of what removing the clear could save).
// Each is timed as the benchmark times it: the stream held by a blocking kernel while the start
// event, the launches and the stop event are enqueued, L2 flushed before, median of 51. Every
// output is compared with CUB's on the device. Not part of the binary.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/tuning/probe_pdl.cu common/device.cu \
//     -o probe_pdl && ./probe_pdl
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "common/device.h"
#include "scan/v13_vectorized_lookback.cuh"

using namespace ladder;
using namespace ladder::scan;

__global__ void fill(int32_t* x, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    x[i] = static_cast<int32_t>((i * 2654435761u) % 17) - 8;
}

__global__ void count_mismatches(const int32_t* a, const int32_t* b, size_t n,
                                 unsigned long long* count) {
  unsigned long long c = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    c += a[i] != b[i];
  if (c) atomicAdd(count, c);
}

// Zeroes `words` 16-byte words; lets the dependent grid launch first thing.
__global__ void clear_kernel(uint4* ws, size_t words) {
  asm volatile("griddepcontrol.launch_dependents;");
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < words;
       i += size_t(gridDim.x) * blockDim.x)
    ws[i] = make_uint4(0, 0, 0, 0);
}

int32_t *in, *out, *want;
void* ws;
void* cub_ws;
size_t cub_bytes = size_t(64) << 20;
unsigned long long* bad;
cudaStream_t stream;
L2Flusher* flusher;
StreamBlocker* blocker;
cudaEvent_t ev_a, ev_b;

template <typename F>
float median_us(F&& run) {
  run();
  std::vector<float> t;
  for (int r = 0; r < 51; ++r) {
    flusher->flush(stream);
    blocker->block(stream);
    cudaEventRecord(ev_a, stream);
    run();
    cudaEventRecord(ev_b, stream);
    blocker->release();
    cudaEventSynchronize(ev_b);
    float ms = 0;
    cudaEventElapsedTime(&ms, ev_a, ev_b);
    t.push_back(ms * 1000);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

unsigned long long mismatches(size_t n) {
  cudaStreamSynchronize(stream);
  cudaMemset(bad, 0, 8);
  count_mismatches<<<256, 256>>>(out, want, n, bad);
  unsigned long long c = 0;
  cudaMemcpy(&c, bad, 8, cudaMemcpyDefault);
  return c;
}

cudaError_t launch_pdl(size_t n) {
  const size_t tiles = ceil_div(n, v13::kTile);
  const size_t words = ceil_div(v13::workspace_bytes(n), size_t(16));
  clear_kernel<<<static_cast<unsigned>(std::min<size_t>(ceil_div(words, size_t(256)), 132)), 256, 0,
                 stream>>>(static_cast<uint4*>(ws), words);
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(static_cast<unsigned>(tiles));
  cfg.blockDim = dim3(v13::kThreads);
  cfg.stream = stream;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  return cudaLaunchKernelEx(
      &cfg,
      v13::single_pass_kernel<true, v13::kThreads, v13::kVectors, v13::kStreamingStores, true>,
      static_cast<const int32_t*>(in), out, n, lookback::tile_counter(ws),
      lookback::tile_status(ws));
}

cudaError_t launch_pre(size_t n) {
  const size_t tiles = ceil_div(n, v13::kTile);
  v13::single_pass_kernel<true><<<static_cast<unsigned>(tiles), v13::kThreads, 0, stream>>>(
      in, out, n, lookback::tile_counter(ws), lookback::tile_status(ws));
  return cudaGetLastError();
}

int main() {
  const size_t cap = size_t(1) << 22;
  cudaMalloc(&in, cap * 4);
  cudaMalloc(&out, cap * 4);
  cudaMalloc(&want, cap * 4);
  cudaMalloc(&ws, v13::workspace_bytes(cap));
  cudaMalloc(&cub_ws, cub_bytes);
  cudaMalloc(&bad, 8);
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  cudaEventCreate(&ev_a);
  cudaEventCreate(&ev_b);
  L2Flusher f(query_device(0).l2_bytes);
  flusher = &f;
  StreamBlocker sb;
  blocker = &sb;
  fill<<<256, 256>>>(in, cap);
  cudaDeviceSynchronize();
  printf("%s\n", query_device(0).name.c_str());
  for (int k = 15; k <= 22; ++k) {
    const size_t n = size_t(1) << k;
    size_t b = cub_bytes;
    cub::DeviceScan::InclusiveSum(cub_ws, b, in, want, static_cast<int>(n), stream);
    const float cub_us = median_us([&] {
      size_t bb = cub_bytes;
      cub::DeviceScan::InclusiveSum(cub_ws, bb, in, out, static_cast<int>(n), stream);
    });
    cudaError_t err = cudaSuccess;
    auto keep = [&](cudaError_t e) {
      if (e != cudaSuccess) err = e;
    };
    const float memset_us = median_us([&] { keep(v13::launch(in, out, n, ws, stream)); });
    cudaMemsetAsync(out, 0xa5, n * 4, stream);
    keep(v13::launch(in, out, n, ws, stream));
    const unsigned long long bad_memset = mismatches(n);
    const float pdl_us = median_us([&] { keep(launch_pdl(n)); });
    cudaMemsetAsync(out, 0xa5, n * 4, stream);
    keep(launch_pdl(n));
    const unsigned long long bad_pdl = mismatches(n);
    // pre: the clear happens before the start event (outside the timed region).
    std::vector<float> t;
    for (int r = 0; r < 51; ++r) {
      cudaMemsetAsync(ws, 0, v13::workspace_bytes(n), stream);
      flusher->flush(stream);
      blocker->block(stream);
      cudaEventRecord(ev_a, stream);
      keep(launch_pre(n));
      cudaEventRecord(ev_b, stream);
      blocker->release();
      cudaEventSynchronize(ev_b);
      float ms = 0;
      cudaEventElapsedTime(&ms, ev_a, ev_b);
      t.push_back(ms * 1000);
    }
    std::sort(t.begin(), t.end());
    const float pre_us = t[t.size() / 2];
    const unsigned long long bad_pre = mismatches(n);
    printf(
        "n=2^%d  cub %6.2f us | memset %6.2f (%.3fx)  pdl %6.2f (%.3fx)  pre %6.2f (%.3fx) | "
        "mismatches %llu %llu %llu  %s\n",
        k, cub_us, memset_us, memset_us / cub_us, pdl_us, pdl_us / cub_us, pre_us, pre_us / cub_us,
        bad_memset, bad_pdl, bad_pre, cudaGetErrorString(err));
  }
  return 0;
}
