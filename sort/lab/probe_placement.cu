// sort/lab/probe_placement.cu — a standalone probe: which of sort v10's buffers makes its time
// depend on where they lie in memory (sort/lab/probe_layout.cu found v09's and v10's times
// moving with the placement of the output and the workspace while CUB's did not). At n = 2^28
// uniform keys it places the output, the ping-pong buffer and the look-back words independently
// in one pool, moves one of them at a time, and times each kernel of v10's sort (events between
// launches, L2 flushed before each sort, median of 9); CUB's SortKeys with its output at the same
// place and its temporary storage at the ping-pong buffer's, as a whole. Not part of the binary.
// Every output is compared with CUB's on the device.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. sort/lab/probe_placement.cu common/device.cu \
//     -o probe_placement && ./probe_placement
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "common/device.h"
#include "sort/lab/probe_common.cuh"
#include "sort/v10_narrow_status.cuh"

using namespace ladder;
using namespace ladder::sort;
using namespace ladder::sort::tuning;

__global__ void fill(uint32_t* k, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    k[i] = mix((i + 1) * 0x9e3779b97f4a7c15ull);
}

constexpr size_t kN = size_t(1) << 28, kMiB = size_t(1) << 20;
constexpr unsigned kT = v06::kThreads, kI = v06::kItems;
constexpr int kStages = 6;  // memset + histogram + bases, pass 0..3, CUB
const char* kNames[kStages] = {"prep", "pass0", "pass1", "pass2", "pass3", "cub"};

struct Env {
  uint32_t *in, *want;
  char* pool;
  size_t pool_bytes;
  unsigned *small, *counters, *hist, *bases, *check;
  unsigned long long* bad;
  void* cub_tmp;  // placed like the ping-pong buffer
  size_t cub_bytes;
  L2Flusher* flusher;
  cudaEvent_t ev[6];
};

// One v10 sort with the output at pool + out, the ping-pong buffer at pool + buf and the
// look-back words at pool + status (byte offsets).
void sort_once(Env& e, uint32_t* out, uint32_t* buf, uint32_t* status) {
  const size_t tiles = ceil_div(kN, size_t(kT) * kI);
  cudaEventRecord(e.ev[0]);
  cudaMemsetAsync(e.small, 0, 256 + 4096);
  cudaMemsetAsync(status, 0, tiles * 256 * 4);
  v09::striped_histogram(e.in, kN, e.hist, nullptr);
  v08::bases_check_kernel<<<1, 256>>>(e.hist, e.bases, e.check);
  cudaEventRecord(e.ev[1]);
  const uint32_t* src = e.in;
  for (unsigned p = 0; p < 4; ++p) {
    uint32_t* dst = p % 2 ? out : buf;
    v08::onesweep_kernel<kT, kI, v06::kWindow, false, v06::kMinBlocks, v08::kScWindow,
                         v10::NarrowStatus><<<static_cast<unsigned>(tiles), kT>>>(
        src, nullptr, dst, nullptr, kN, p, e.counters + p, status, e.bases + p * 256, e.check + p);
    cudaEventRecord(e.ev[2 + p]);
    src = dst;
  }
}

void place(Env& e, const char* what, size_t out_off, size_t buf_off, size_t status_off) {
  uint32_t* out = reinterpret_cast<uint32_t*>(e.pool + out_off);
  uint32_t* buf = reinterpret_cast<uint32_t*>(e.pool + buf_off);
  uint32_t* status = reinterpret_cast<uint32_t*>(e.pool + status_off);
  std::vector<float> t[kStages + 1];
  for (int r = 0; r < 10; ++r) {
    e.flusher->flush(nullptr);
    sort_once(e, out, buf, status);
    cudaEventSynchronize(e.ev[5]);
    float total = 0;
    for (int s = 0; s < 5; ++s) {
      float ms = 0;
      cudaEventElapsedTime(&ms, e.ev[s], e.ev[s + 1]);
      if (r) t[s].push_back(ms * 1e3f);
      total += ms * 1e3f;
    }
    if (r) t[kStages].push_back(total);
  }
  cudaMemset(e.bad, 0, 8);
  count_mismatches<<<1024, 256>>>(out, e.want, kN, e.bad);
  unsigned long long bad_v10 = ~0ull;
  cudaMemcpy(&bad_v10, e.bad, 8, cudaMemcpyDefault);
  for (int r = 0; r < 10; ++r) {  // CUB: output where v10's is, temporary storage at buf
    e.flusher->flush(nullptr);
    cudaEventRecord(e.ev[0]);
    cub::DeviceRadixSort::SortKeys(buf, e.cub_bytes, e.in, out, kN);
    cudaEventRecord(e.ev[1]);
    cudaEventSynchronize(e.ev[1]);
    float ms = 0;
    cudaEventElapsedTime(&ms, e.ev[0], e.ev[1]);
    if (r) t[5].push_back(ms * 1e3f);
  }
  cudaMemset(e.bad, 0, 8);
  count_mismatches<<<1024, 256>>>(out, e.want, kN, e.bad);
  unsigned long long bad_cub = ~0ull;
  cudaMemcpy(&bad_cub, e.bad, 8, cudaMemcpyDefault);
  printf("%-12s out %5zu buf %5zu status %5zu MiB |", what, out_off / kMiB, buf_off / kMiB,
         status_off / kMiB);
  for (int s = 0; s <= kStages; ++s) {
    std::sort(t[s].begin(), t[s].end());
    printf(" %s %7.1f", s < kStages ? kNames[s] : "v10", t[s][t[s].size() / 2]);
  }
  printf("  mismatches %llu %llu  %s\n", bad_v10, bad_cub, cudaGetErrorString(cudaGetLastError()));
}

int main() {
  Env e{};
  cudaMalloc(&e.in, kN * 4);
  cudaMalloc(&e.want, kN * 4);
  cudaMalloc(&e.bad, 8);
  cudaMalloc(&e.small, 256 + 4096 + 4096 + 64);
  e.counters = e.small;
  e.hist = e.small + 64;
  e.bases = e.small + 64 + 1024;
  e.check = e.bases + 1024;
  cub::DeviceRadixSort::SortKeys(nullptr, e.cub_bytes, e.in, e.want, kN);
  e.pool_bytes = size_t(6) << 30;
  cudaMalloc(&e.pool, e.pool_bytes);
  L2Flusher flusher(query_device(0).l2_bytes);
  e.flusher = &flusher;
  for (auto& ev : e.ev) cudaEventCreate(&ev);
  fill<<<1024, 256>>>(e.in, kN);
  cub::DeviceRadixSort::SortKeys(e.pool, e.cub_bytes, e.in, e.want, kN);
  printf("%s, n = 2^28 uniform keys; offsets in the pool; times in us\n",
         query_device(0).name.c_str());
  // Base: out at 0, buf (CUB's temporary storage is a little larger than the keys) at 2 GiB,
  // status at 4.125 GiB; then one of them moved at a time, by up to 960 MiB, never overlapping.
  const size_t out0 = 0, buf0 = 2048 * kMiB, st0 = 4224 * kMiB;
  place(e, "base", out0, buf0, st0);
  for (size_t d : {size_t(2), size_t(64), size_t(448), size_t(960)}) {
    place(e, "move out", out0 + d * kMiB, buf0 + 0, st0);
    place(e, "move buf", out0, buf0 + d * kMiB, st0 + 0);
    place(e, "move status", out0, buf0, st0 + d * kMiB);
  }
  place(e, "base again", out0, buf0, st0);
  return 0;
}
