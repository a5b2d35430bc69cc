// sort/lab/probe_short_circuit.cu — a standalone probe for sort v08's short circuit. Not part
// of the binary. At n = 2^28 keys, uniform and `few` (16 distinct values, the benchmark's kind of
// input, drawn on the device), it times each kernel of a sort separately (events between the
// launches, L2 flushed before each sort, median of 11): v06, v08 as shipped, v08 with the check
// or the skipping of absent digits switched off, and v08 with other look-back windows for the
// short-circuited tiles; CUB's SortKeys as a whole. (Its first run, with the check in every pass,
// windows of 16 and 32 too, and every digit looked back for: results/PROVENANCE.md.) Every output
// is compared with CUB's on the device.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. sort/lab/probe_short_circuit.cu common/device.cu \
//     -o probe_sc && ./probe_sc
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "common/device.h"
#include "sort/lab/probe_common.cuh"
#include "sort/v06_onesweep_ballot.cuh"
#include "sort/v08_short_circuit.cuh"
#include "sort/v09_striped_histogram.cuh"

using namespace ladder;
using namespace ladder::sort::tuning;
using namespace ladder::sort;

// few = 0: uniform keys; few = 1: each key one of 16 values drawn from the salt.
__global__ void fill(uint32_t* k, size_t n, uint32_t salt, int few) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    const uint32_t r = mix((i + 1) * 0x9e3779b97f4a7c15ull ^ salt);
    k[i] = few ? mix((r % 16 + 7) * 0x9e3779b97f4a7c15ull ^ salt) : r;
  }
}

constexpr int kStages = 7;  // memset, histogram, bases, pass 0..3
const char* kStageNames[kStages] = {"memset", "hist", "bases", "pass0", "pass1", "pass2", "pass3"};

struct Env {
  size_t n;
  uint32_t *in, *out, *want, *buf;
  unsigned long long* bad;
  unsigned *counters, *hist, *bases, *check;
  v06::Status* status;
  size_t zero_bytes;
  L2Flusher* flusher;
  cudaEvent_t ev[kStages + 1];
};

__global__ void and_modes(unsigned* modes, unsigned mask) { modes[threadIdx.x] &= mask; }

// One sort with v06's kernels (V08 = false) or v08's (SC_WINDOW, and mode_mask: the mode bits of
// bases_check_kernel that stay set), an event before each stage.
template <bool V08, unsigned SC_WINDOW = v08::kScWindow>
void sort_once(Env& e, unsigned mode_mask) {
  constexpr unsigned T = v06::kThreads, I = v06::kItems;
  const unsigned tiles = static_cast<unsigned>(ceil_div(e.n, size_t(T) * I));
  cudaEventRecord(e.ev[0]);
  cudaMemsetAsync(e.counters, 0, e.zero_bytes);
  cudaEventRecord(e.ev[1]);
  v06::histogram_kernel<v06::kHistThreads, v06::kHistItems, true, true, v06::kHistMinBlocks>
      <<<132 * 8, v06::kHistThreads>>>(e.in, e.n, e.hist);
  cudaEventRecord(e.ev[2]);
  v08::bases_check_kernel<<<1, 256>>>(e.hist, e.bases, e.check);
  and_modes<<<1, 4>>>(e.check, mode_mask);
  cudaEventRecord(e.ev[3]);
  const uint32_t* src = e.in;
  for (unsigned p = 0; p < 4; ++p) {
    uint32_t* dst = p % 2 ? e.out : e.buf;
    if constexpr (V08)
      v08::onesweep_kernel<T, I, v06::kWindow, false, v06::kMinBlocks, SC_WINDOW>
          <<<tiles, T>>>(src, nullptr, dst, nullptr, e.n, p, e.counters + p, e.status,
                         e.bases + p * 256, e.check + p);
    else
      v06::onesweep_kernel<T, I, v06::kWindow, false, 0, v06::kMinBlocks><<<tiles, T>>>(
          src, nullptr, dst, nullptr, e.n, p, e.counters + p, e.status, e.bases + p * 256);
    cudaEventRecord(e.ev[4 + p]);
    src = dst;
  }
}

template <typename F>
void time_stages(Env& e, const char* name, F&& run) {
  std::vector<float> t[kStages + 1];
  for (int r = 0; r < 12; ++r) {
    e.flusher->flush(nullptr);
    run();
    cudaEventSynchronize(e.ev[kStages]);
    if (!r) continue;
    float total = 0;
    for (int s = 0; s < kStages; ++s) {
      float ms = 0;
      cudaEventElapsedTime(&ms, e.ev[s], e.ev[s + 1]);
      t[s].push_back(ms * 1e3f);
      total += ms * 1e3f;
    }
    t[kStages].push_back(total);
  }
  cudaMemset(e.bad, 0, 8);
  count_mismatches<<<1024, 256>>>(e.out, e.want, e.n, e.bad);
  unsigned long long bad = ~0ull;
  cudaMemcpy(&bad, e.bad, 8, cudaMemcpyDefault);
  printf("%-30s", name);
  for (int s = 0; s <= kStages; ++s) {
    std::sort(t[s].begin(), t[s].end());
    printf(" %s %7.1f", s < kStages ? kStageNames[s] : "total", t[s][t[s].size() / 2]);
  }
  printf("  us  mismatches=%llu %s\n", bad, cudaGetErrorString(cudaGetLastError()));
  cudaMemset(e.out, 0, e.n * 4);
}

// The histogram kernels alone (memset of the 4 KB of counts + kernel), median of 11, and whether
// the counts equal v06's kernel's.
template <unsigned THREADS, unsigned ITEMS, unsigned COPIES>
void striped(Env& e, unsigned* ref) {
  constexpr size_t kSmem = size_t(v06::kPasses) * 256 * COPIES * 4;
  auto kernel = v09::striped_histogram_kernel<THREADS, ITEMS, COPIES>;
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem));
  const size_t grid = resident_grid((const void*)kernel, THREADS, kSmem);
  std::vector<float> t;
  for (int r = 0; r < 12; ++r) {
    e.flusher->flush(nullptr);
    cudaEventRecord(e.ev[0]);
    cudaMemsetAsync(e.hist, 0, 4096);
    kernel<<<static_cast<unsigned>(grid), THREADS, kSmem>>>(e.in, e.n, e.hist);
    cudaEventRecord(e.ev[1]);
    cudaEventSynchronize(e.ev[1]);
    float ms = 0;
    cudaEventElapsedTime(&ms, e.ev[0], e.ev[1]);
    if (r) t.push_back(ms * 1e3f);
  }
  std::sort(t.begin(), t.end());
  std::vector<unsigned> a(1024), b(1024);
  cudaMemcpy(a.data(), e.hist, 4096, cudaMemcpyDefault);
  cudaMemcpy(b.data(), ref, 4096, cudaMemcpyDefault);
  int bad = 0;
  for (int i = 0; i < 1024; ++i) bad += a[i] != b[i];
  printf("striped histogram %4ux%-2u %2u copies  %4zu blocks  %7.1f us  counts differ: %d  %s\n",
         THREADS, ITEMS, COPIES, grid, t[t.size() / 2], bad,
         cudaGetErrorString(cudaGetLastError()));
}

int main() {
  Env e{};
  e.n = size_t(1) << 28;
  const size_t tiles = ceil_div(e.n, size_t(v06::kThreads) * v06::kItems);
  cudaMalloc(&e.in, e.n * 4);
  cudaMalloc(&e.out, e.n * 4);
  cudaMalloc(&e.want, e.n * 4);
  cudaMalloc(&e.buf, e.n * 4);
  cudaMalloc(&e.bad, 8);
  e.zero_bytes = 256 + 4096 + tiles * 256 * 8;
  char* z = nullptr;
  cudaMalloc(&z, e.zero_bytes);
  e.counters = reinterpret_cast<unsigned*>(z);
  e.hist = reinterpret_cast<unsigned*>(z + 256);
  e.status = reinterpret_cast<v06::Status*>(z + 256 + 4096);
  cudaMalloc(&e.bases, 4096 + 16);
  e.check = e.bases + 1024;
  L2Flusher flusher(query_device(0).l2_bytes);
  e.flusher = &flusher;
  for (auto& ev : e.ev) cudaEventCreate(&ev);
  size_t cub_bytes = 0;
  cub::DeviceRadixSort::SortKeys(nullptr, cub_bytes, e.in, e.want, e.n);
  void* cub_ws = nullptr;
  cudaMalloc(&cub_ws, cub_bytes);

  for (int few = 0; few < 2; ++few) {
    fill<<<1024, 256>>>(e.in, e.n, 12345u, few);
    std::vector<float> c;
    for (int r = 0; r < 12; ++r) {
      flusher.flush(nullptr);
      cudaEventRecord(e.ev[0]);
      cub::DeviceRadixSort::SortKeys(cub_ws, cub_bytes, e.in, e.want, e.n);
      cudaEventRecord(e.ev[1]);
      cudaEventSynchronize(e.ev[1]);
      float ms = 0;
      cudaEventElapsedTime(&ms, e.ev[0], e.ev[1]);
      if (r) c.push_back(ms * 1e3f);
    }
    std::sort(c.begin(), c.end());
    printf("== %s keys: cub SortKeys (size_t count) %.1f us\n", few ? "few (16 values)" : "uniform",
           c[c.size() / 2]);
    time_stages(e, "v06", [&] { sort_once<false>(e, 0); });
    unsigned* ref = nullptr;  // v06's counts of these keys
    cudaMalloc(&ref, 4096);
    cudaMemcpy(ref, e.hist, 4096, cudaMemcpyDefault);
    striped<1024, 8, 32>(e, ref);
    striped<1024, 4, 32>(e, ref);
    striped<1024, 16, 32>(e, ref);
    striped<512, 8, 16>(e, ref);
    striped<1024, 8, 16>(e, ref);
    striped<768, 8, 16>(e, ref);
    cudaFree(ref);
    time_stages(e, "v08 shipped", [&] { sort_once<true>(e, 3); });
    time_stages(e, "v08 check off", [&] { sort_once<true>(e, v08::kSomeAbsent); });
    time_stages(e, "v08 every digit looks back", [&] { sort_once<true>(e, v08::kCheck); });
    time_stages(e, "v08 check off, every digit", [&] { sort_once<true>(e, 0); });
    time_stages(e, "v08 sc window 4", [&] { sort_once<true, 4>(e, 3); });
    time_stages(e, "v08 sc window 12", [&] { sort_once<true, 12>(e, 3); });
  }
}
