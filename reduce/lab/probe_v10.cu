// reduce/lab/probe_v10.cu — a standalone probe used to choose v10's configuration.
// Not part of the binary. Times single-pass variants and CUB at 2^28 and 25.6M, L2 flushed
// (read of 2 x L2) before every launch, median of 60 launches.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. reduce/lab/probe_v10.cu -o probe && ./probe
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "common/warp_reduce.cuh"

using namespace ladder;

enum Load { kPlain, kStreaming, kNoAllocate };

template <Load L>
__device__ __forceinline__ float4 load4(const float4* p) {
  if constexpr (L == kStreaming) return __ldcs(p);
  if constexpr (L == kNoAllocate) {
    float4 v;
    asm volatile("ld.global.nc.L1::no_allocate.v4.f32 {%0,%1,%2,%3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p));
    return v;
  }
  return *p;
}

// TILED: a trip reads UNROLL*BS consecutive float4 per block (thread i: i + u*BS);
// else the UNROLL loads of a trip are a grid stride apart.
template <unsigned BS, int UNROLL, bool TILED, Load L>
__global__ void kern(const float* __restrict__ in, float* out, size_t n, float* partial,
                     unsigned* done) {
  __shared__ bool is_last;
  const float4* body = reinterpret_cast<const float4*>(in);
  const size_t n4 = n / 4;
  float acc[UNROLL] = {};
  if (TILED) {
    const size_t tile = size_t(UNROLL) * BS;
    size_t base = size_t(blockIdx.x) * tile;
    for (; base + tile <= n4; base += size_t(gridDim.x) * tile) {
      float4 v[UNROLL];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) v[u] = load4<L>(body + base + u * BS + threadIdx.x);
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) acc[u] += (v[u].x + v[u].y) + (v[u].z + v[u].w);
    }
    for (size_t i = base + threadIdx.x; i < n4; i += BS) {
      float4 v = body[i];
      acc[0] += (v.x + v.y) + (v.z + v.w);
    }
  } else {
    const size_t stride = size_t(gridDim.x) * BS;
    size_t i = size_t(blockIdx.x) * BS + threadIdx.x;
    for (; i + (UNROLL - 1) * stride < n4; i += UNROLL * stride) {
      float4 v[UNROLL];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) v[u] = load4<L>(body + i + u * stride);
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) acc[u] += (v[u].x + v[u].y) + (v[u].z + v[u].w);
    }
    for (; i < n4; i += stride) {
      float4 v = body[i];
      acc[0] += (v.x + v.y) + (v.z + v.w);
    }
  }
  float sum = 0;
#pragma unroll
  for (int u = 0; u < UNROLL; ++u) sum += acc[u];
  sum = block_reduce_sum<BS>(sum);
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = sum;
    __threadfence();
    is_last = atomicAdd(done, 1u) == gridDim.x - 1;
    if (is_last) __threadfence();
  }
  __syncthreads();
  if (!is_last) return;
  float t = 0;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += BS) t += __ldcg(&partial[b]);
  t = block_reduce_sum<BS>(t);
  if (threadIdx.x == 0) {
    *out = t;
    *done = 0;
  }
}

__global__ void flush(const int4* b, size_t w, int* s) {
  int a = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < w;
       i += size_t(gridDim.x) * blockDim.x) {
    int4 v = b[i];
    a ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (a == 0x7fffffff) *s = a;
}

struct Env {
  float* in;
  float* out;
  float* partial;
  unsigned* done;
  int4* fl;
  size_t flw;
  int* sink;
  cudaEvent_t a, b;
};

template <typename F>
float median_us(Env& e, F&& launch) {
  std::vector<float> t;
  for (int i = 0; i < 61; ++i) {
    flush<<<528, 512>>>(e.fl, e.flw, e.sink);
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

template <unsigned BS, int UNROLL, bool TILED, Load L>
void probe(Env& e, size_t n, const char* name, int blocks_per_sm_cap = 64) {
  int per_sm = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kern<BS, UNROLL, TILED, L>, BS, 0);
  per_sm = std::min(per_sm, blocks_per_sm_cap);
  const unsigned grid = 132 * per_sm;
  float us = median_us(
      e, [&] { kern<BS, UNROLL, TILED, L><<<grid, BS>>>(e.in, e.out, n, e.partial, e.done); });
  float got;
  cudaMemcpy(&got, e.out, 4, cudaMemcpyDefault);
  printf("n=%-10zu %-34s grid=%5u  %8.2f us  %7.1f GB/s  sum=%.1f  %s\n", n, name, grid, us,
         4.0 * n / us / 1e3, got, cudaGetErrorString(cudaGetLastError()));
}

int main() {
  Env e{};
  const size_t N = size_t(1) << 28;
  cudaMalloc(&e.in, N * 4);
  std::vector<float> h(N, 1.0f);
  cudaMemcpy(e.in, h.data(), N * 4, cudaMemcpyDefault);
  cudaMalloc(&e.out, 4);
  cudaMalloc(&e.partial, 1 << 20);
  cudaMalloc(&e.done, 4);
  cudaMemset(e.done, 0, 4);
  e.flw = 2 * 62914560 / 16;
  cudaMalloc(&e.fl, e.flw * 16);
  cudaMemset(e.fl, 0, e.flw * 16);
  cudaMalloc(&e.sink, 4);
  cudaEventCreate(&e.a);
  cudaEventCreate(&e.b);
  for (size_t n : {N, size_t(25600000)}) {
    for (int rep = 0; rep < 2; ++rep) {
      size_t tb = 0;
      cub::DeviceReduce::Sum(nullptr, tb, e.in, e.out, int(n));
      void* tmp;
      cudaMalloc(&tmp, tb);
      float us = median_us(e, [&] { cub::DeviceReduce::Sum(tmp, tb, e.in, e.out, int(n)); });
      printf("n=%-10zu %-34s             %8.2f us  %7.1f GB/s\n", n, "cub", us, 4.0 * n / us / 1e3);
      cudaFree(tmp);
      probe<256, 4, false, kPlain>(e, n, "256x4 stride plain (current)");
      probe<256, 8, false, kPlain>(e, n, "256x8 stride plain");
      probe<256, 2, false, kPlain>(e, n, "256x2 stride plain");
      probe<512, 4, false, kPlain>(e, n, "512x4 stride plain");
      probe<256, 4, false, kStreaming>(e, n, "256x4 stride ldcs");
      probe<256, 4, false, kNoAllocate>(e, n, "256x4 stride L1::no_allocate");
      probe<256, 4, true, kPlain>(e, n, "256x4 tiled plain");
      probe<256, 8, true, kPlain>(e, n, "256x8 tiled plain");
      probe<256, 4, true, kNoAllocate>(e, n, "256x4 tiled no_allocate");
      probe<256, 8, true, kNoAllocate>(e, n, "256x8 tiled no_allocate");
      probe<512, 8, true, kNoAllocate>(e, n, "512x8 tiled no_allocate");
      probe<256, 4, false, kPlain>(e, n, "256x4 stride plain 4/SM", 4);
      probe<256, 8, true, kNoAllocate>(e, n, "256x8 tiled no_alloc 4/SM", 4);
    }
  }
}
