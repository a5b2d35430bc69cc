// reduce/lab/probe_load_hint.cu — why v11 trails CUB on one H200 from 2^28 (issue 53's 1.01x
// target). v11's loop (thread_sum_tiled) with v10's finish, at four grid sizes and with its
// load_once (ld.global.nc.L1::no_allocate) swapped for a plain __ldg (CUB's LOAD_LDG), against
// cub::DeviceReduce::Sum; event-timed medians of R interleaved launches, a 256 MB memset before
// each (not the harness's read flush). Build from the tree's root:
//   nvcc -std=c++17 --expt-relaxed-constexpr -arch=sm_90 -O3 -I. -o t reduce/lab/probe_load_hint.cu
//   && ./t 11
// Written and run by a research helper on 2026-11-29 (its event timings were not kept; the ncu
// run of the same binary is results/logs/h200-reduce-probe-2026-11-29/ncu-probe_load_hint.csv).
// Timed again with 31 repetitions on another H200:
// results/logs/h200-probes-32f22b4-2026-11-29/probe_load_hint_31.txt. Its memset between launches
// is not the harness's flush; under the harness's the hint costs nothing (reduce/lab/LAB_NOTES.md).
#include <algorithm>
#include <cstdio>
#include <cub/cub.cuh>
#include "reduce/v11_tiled_loads.cuh"
using namespace ladder;
template <int H>
__global__ void K(const float* __restrict__ in, float* out, size_t n, float* p, unsigned* d) {
  const float4* b = (const float4*)in;
  size_t n4 = n / 4, s = size_t(blockIdx.x) * 1024;
  float a[4] = {};
  for (; s + 1024 <= n4; s += size_t(gridDim.x) * 1024) {
    float4 v[4];
#pragma unroll
    for (int u = 0; u < 4; u++)
      v[u] = H ? load_once(b + s + u * 256 + threadIdx.x) : __ldg(b + s + u * 256 + threadIdx.x);
#pragma unroll
    for (int u = 0; u < 4; u++) a[u] += (v[u].x + v[u].y) + (v[u].z + v[u].w);
  }
  for (size_t i = s + threadIdx.x; i < n4; i += 256) {
    float4 v = load_once(b + i);
    a[0] += (v.x + v.y) + (v.z + v.w);
  }
  reduce::v10::finish_in_last_block<256>(block_reduce_sum<256>(a[0] + a[1] + a[2] + a[3]), out, p,
                                         d);
}
int main(int c, char** v) {
  int R = std::clamp(c > 1 ? atoi(v[1]) : 11, 1, 64), sm, o;  // repetitions (T holds 64)
  cudaDeviceGetAttribute(&sm, cudaDevAttrMultiProcessorCount, 0);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&o, K<1>, 256, 0);
  int F = sm * o;
  float *x, *y, *f, *w;
  size_t N = size_t(1) << 30, tb = 0;
  cudaMalloc(&x, N * 4);
  cudaMemset(x, 0x3c, N * 4);
  cudaMalloc(&f, 256 << 20);
  cudaMalloc(&w, 1 << 20);
  cudaMemset(w, 0, 1 << 20);
  cudaMalloc(&y, 64);
  cub::DeviceReduce::Sum(nullptr, tb, x, y, int(1 << 28));
  printf("sm %d occ %d full %d cubtmp %zu\n", sm, o, F, tb);
  void* t;
  cudaMalloc(&t, tb << 3);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  int G[] = {F, 5 * F, F, 2 * F, 0, F / 2};
  const char* nm[] = {"v11 grid F",  "v11 grid 5F", "v11 ldg(no hint) F",
                      "v11 grid 2F", "cub",         "v11 grid F/2"};
  for (int lg : {28, 30}) {
    size_t n = size_t(1) << lg;
    float T[6][64];
    for (int r = 0; r < R; r++)
      for (int k = 0; k < 6; k++) {
        cudaMemsetAsync(f, r, 256 << 20);
        cudaEventRecord(e0);
        if (k == 4) {
          size_t b = tb << 3;
          cub::DeviceReduce::Sum(t, b, x, y, int(std::min(n, size_t(INT_MAX))));
        } else if (k == 2)
          K<0><<<G[k], 256>>>(x, y, n, w + 4, (unsigned*)w);
        else
          K<1><<<G[k], 256>>>(x, y, n, w + 4, (unsigned*)w);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        cudaEventElapsedTime(&T[k][r], e0, e1);
      }
    for (int k = 0; k < 6; k++) {
      std::sort(T[k], T[k] + R);
      float m = T[k][R / 2] * 1e3f;
      printf("2^%d %-20s med %8.2f us min %8.2f  %.1f GB/s\n", lg, nm[k], m, T[k][0] * 1e3f,
             n * 4 / m / 1e3);
    }
  }
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
