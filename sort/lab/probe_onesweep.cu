// sort/lab/probe_onesweep.cu — a standalone probe used to choose v06's shape. Not part of the
// binary. At n = 2^28 uniform keys it times whole sorts (L2 flushed before each, median of 21):
// v05, v06 with look-back windows of 1..16 tiles, several tile shapes, match.any.sync against
// ballots, CUB's SortKeys, and the histogram kernels alone; every output is compared with CUB's,
// key by key, on the device.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. sort/lab/probe_onesweep.cu common/device.cu \
//     -o probe && ./probe
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "common/device.h"
#include "sort/lab/probe_common.cuh"
#include "sort/v05_onesweep.cuh"
#include "sort/v06_onesweep_ballot.cuh"

using namespace ladder;
using namespace ladder::sort::tuning;
using namespace ladder::sort;

struct Env {
  uint32_t *in, *out, *want;
  unsigned long long* mismatches;
  void* ws;
  size_t ws_bytes;
  L2Flusher* flusher;
  cudaEvent_t a, b;
};

__global__ void fill_uniform(uint32_t* k, size_t n, uint32_t salt) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ull ^ salt;  // splitmix64
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    k[i] = static_cast<uint32_t>(x ^ (x >> 31));
  }
}

template <typename F>
float median_us(Env& e, F&& launch) {
  std::vector<float> t;
  for (int i = 0; i < 22; ++i) {
    e.flusher->flush(nullptr);
    cudaEventRecord(e.a);
    launch();
    cudaEventRecord(e.b);
    cudaEventSynchronize(e.b);
    float ms;
    cudaEventElapsedTime(&ms, e.a, e.b);
    if (i) t.push_back(ms * 1e3f);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

void report(Env& e, size_t n, const char* name, float us, float cub_us) {
  cudaMemset(e.mismatches, 0, 8);
  count_mismatches<<<1024, 256>>>(e.out, e.want, n, e.mismatches);
  unsigned long long bad = ~0ull;
  cudaMemcpy(&bad, e.mismatches, 8, cudaMemcpyDefault);
  printf("%-34s %9.1f us  %6.2f Gkeys/s  %5.3fx cub  mismatches=%llu  %s\n", name, us, n / us / 1e3,
         cub_us > 0 ? us / cub_us : 1.0, bad, cudaGetErrorString(cudaGetLastError()));
  cudaMemset(e.out, 0, n * 4);
}

template <unsigned THREADS, unsigned ITEMS, unsigned WINDOW, unsigned MATCH_EVERY = 0,
          unsigned MIN_BLOCKS = 1>
void probe(Env& e, size_t n, const char* name, float cub_us) {
  if (v06::workspace_bytes_for<THREADS, ITEMS>(n, false) > e.ws_bytes) {
    printf("%-34s workspace too small\n", name);
    return;
  }
  int regs = 0;
  cudaFuncAttributes attr{};
  if (cudaFuncGetAttributes(
          &attr, v06::onesweep_kernel<THREADS, ITEMS, WINDOW, false, MATCH_EVERY, MIN_BLOCKS>) ==
      cudaSuccess)
    regs = attr.numRegs;
  int blocks = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &blocks, v06::onesweep_kernel<THREADS, ITEMS, WINDOW, false, MATCH_EVERY, MIN_BLOCKS>,
      THREADS, 0);
  const float us = median_us(e, [&] {
    v06::launch_shape<THREADS, ITEMS, WINDOW, false, MATCH_EVERY, MIN_BLOCKS>(
        e.in, nullptr, e.out, nullptr, n, e.ws, nullptr);
  });
  char label[96];
  snprintf(label, sizeof label, "%s [%d regs, %d blk/SM]", name, regs, blocks);
  report(e, n, label, us, cub_us);
}

template <unsigned ITEMS, bool BLOCKED, bool RUNS, unsigned MIN_BLOCKS = 1>
void hist_shape(Env& e, size_t n, const std::string& tag, const char* what) {
  const float us = median_us(e, [&] {
    cudaMemsetAsync(e.ws, 0, 4096 + 256);
    v06::histogram_kernel<v06::kHistThreads, ITEMS, BLOCKED, RUNS, MIN_BLOCKS>
        <<<132 * 8, v06::kHistThreads>>>(e.in, n, static_cast<unsigned*>(e.ws) + 64);
  });
  int regs = 0;
  cudaFuncAttributes attr{};
  if (cudaFuncGetAttributes(
          &attr, v06::histogram_kernel<v06::kHistThreads, ITEMS, BLOCKED, RUNS, MIN_BLOCKS>) ==
      cudaSuccess)
    regs = attr.numRegs;
  printf("%-34s %9.1f us  (%s, %u keys a thread, %d regs)\n",
         ("v06 histogram_kernel" + tag).c_str(), us, what, ITEMS, regs);
}

void hist(Env& e, size_t n, const std::string& tag) {
  hist_shape<16, false, false>(e, n, tag, "striped, as d068be6");
  hist_shape<16, true, false>(e, n, tag, "blocked, as b42794a");
  hist_shape<8, true, false>(e, n, tag, "blocked");
  hist_shape<4, true, false>(e, n, tag, "blocked");
  hist_shape<4, true, true>(e, n, tag, "blocked, runs");
  hist_shape<8, true, true>(e, n, tag, "blocked, runs");
  hist_shape<8, true, true, 8>(e, n, tag, "blocked, runs, 8 blocks/SM");
  hist_shape<16, true, true>(e, n, tag, "blocked, runs");
  hist_shape<v06::kHistItems, true, true, v06::kHistMinBlocks>(e, n, tag, "shipped");
}

int main(int argc, char** argv) {
  const bool only_inputs = argc > 1 && std::string(argv[1]) == "inputs";
  Env e{};
  const size_t n = size_t(1) << 28;
  cudaMalloc(&e.in, n * 4);
  cudaMalloc(&e.out, n * 4);
  cudaMalloc(&e.want, n * 4);
  cudaMalloc(&e.mismatches, 8);
  e.ws_bytes = std::max(v05::workspace_bytes(n), size_t(3) << 30);
  cudaMalloc(&e.ws, e.ws_bytes);
  L2Flusher flusher(query_device(0).l2_bytes);
  e.flusher = &flusher;
  cudaEventCreate(&e.a);
  cudaEventCreate(&e.b);
  fill_uniform<<<1024, 256>>>(e.in, n, 12345u);

  size_t cub_bytes = 0;
  cub::DeviceRadixSort::SortKeys(nullptr, cub_bytes, e.in, e.want, n);
  const float cub_us =
      median_us(e, [&] { cub::DeviceRadixSort::SortKeys(e.ws, cub_bytes, e.in, e.want, n); });
  cudaMemcpy(e.out, e.want, n * 4, cudaMemcpyDefault);
  report(e, n, "cub SortKeys, size_t count", cub_us, cub_us);
  {  // the same call with an int count (32-bit offsets), as most callers write it
    size_t bytes32 = 0;
    cub::DeviceRadixSort::SortKeys(nullptr, bytes32, e.in, e.out, int(n));
    const float us =
        median_us(e, [&] { cub::DeviceRadixSort::SortKeys(e.ws, bytes32, e.in, e.out, int(n)); });
    report(e, n, "cub SortKeys, int count", us, cub_us);
  }

  for (int rep = 0; rep < (only_inputs ? 0 : 2); ++rep) {
    float us = median_us(e, [&] { v05::launch(e.in, e.out, n, e.ws, nullptr); });
    report(e, n, "v05 (256x16, window 1)", us, cub_us);
    us = median_us(e, [&] {
      cudaMemsetAsync(e.ws, 0, 4096 + 256);
      v05::histogram_kernel<<<1056, 256>>>(e.in, n, static_cast<unsigned*>(e.ws) + 64);
    });
    printf("%-34s %9.1f us  (memset 4 KB + histogram of all 4 digits)\n", "v05 histogram_kernel",
           us);
    us = median_us(e, [&] { cudaMemsetAsync(e.ws, 0, v06::zeroed_bytes(n)); });
    printf("%-34s %9.1f us  (%zu bytes)\n", "v06 status memset", us, v06::zeroed_bytes(n));

    us = median_us(e, [&] {
      cudaMemsetAsync(e.ws, 0, 4096 + 256);
      v06::histogram_kernel<v06::kHistThreads, v06::kHistItems, true, true, v06::kHistMinBlocks>
          <<<132 * 8, v06::kHistThreads>>>(e.in, n, static_cast<unsigned*>(e.ws) + 64);
    });
    printf("%-34s %9.1f us  (memset 4 KB + histogram of all 4 digits)\n", "v06 histogram_kernel",
           us);
    probe<256, 16, 8, 1>(e, n, "v06 256x16 w8 match.any", cub_us);
    probe<256, 16, 8>(e, n, "v06 256x16 w8 ballots", cub_us);
    probe<256, 16, 8, 4>(e, n, "v06 256x16 w8 match 1 in 4", cub_us);
    probe<256, 16, 8, 3>(e, n, "v06 256x16 w8 match 1 in 3", cub_us);
    probe<256, 16, 8, 2>(e, n, "v06 256x16 w8 match 1 in 2", cub_us);
    probe<256, 16, 4>(e, n, "v06 256x16 w4 ballots", cub_us);
    probe<256, 16, 8, 0, 4>(e, n, "v06 256x16 w8 4 blocks", cub_us);
    probe<256, 16, 4, 0, 4>(e, n, "v06 256x16 w4 4 blocks", cub_us);
    probe<256, 20, 4, 0, 3>(e, n, "v06 256x20 w4 3 blocks", cub_us);
    probe<256, 24, 4, 0, 3>(e, n, "v06 256x24 w4 3 blocks (shipped)", cub_us);
    probe<256, 24, 2, 0, 3>(e, n, "v06 256x24 w2 3 blocks", cub_us);
    probe<256, 24, 8, 0, 3>(e, n, "v06 256x24 w8 3 blocks", cub_us);
    probe<256, 28, 4, 0, 3>(e, n, "v06 256x28 w4 3 blocks", cub_us);
    probe<256, 32, 4, 0, 2>(e, n, "v06 256x32 w4 2 blocks", cub_us);
    probe<256, 20, 4>(e, n, "v06 256x20 w4 ballots", cub_us);
    probe<256, 24, 4>(e, n, "v06 256x24 w4 ballots", cub_us);
    probe<256, 24, 8>(e, n, "v06 256x24 w8 ballots", cub_us);
    probe<256, 24, 4, 0, 4>(e, n, "v06 256x24 w4 4 blocks", cub_us);
    probe<256, 24, 4, 4>(e, n, "v06 256x24 w4 match 1 in 4", cub_us);
    probe<256, 32, 4>(e, n, "v06 256x32 w4 ballots", cub_us);
    probe<384, 16, 4>(e, n, "v06 384x16 w4 ballots", cub_us);
    probe<384, 20, 4>(e, n, "v06 384x20 w4 ballots", cub_us);
    probe<512, 16, 4>(e, n, "v06 512x16 w4 ballots", cub_us);
  }

  // Uniform against already sorted keys (CUB's output above), for the shipped shape and the
  // histogram kernel alone. `./probe inputs` runs
  // only this part.
  for (int sorted = 0; sorted < 2; ++sorted) {
    if (sorted) e.in = e.want;  // sorting sorted keys must give them back
    const std::string tag = sorted ? " sorted" : " uniform";
    hist(e, n, tag);
    probe<256, 24, 4, 0, 3>(e, n, ("v06 shipped" + tag).c_str(), cub_us);
  }
}
