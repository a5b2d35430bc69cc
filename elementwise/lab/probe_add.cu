// elementwise/lab/probe_add.cu — a standalone probe of add_f32's tile at the large sizes. Not
// part of the binary. The large sweep has v05 (one tile of 256 x 4 floats a block, one 16-byte
// vector of each input a thread) at 1.011-1.013x cub::DeviceTransform's time from 2^29 to 2^31 on
// the H200, where GELU (one input) is below CUB. This times, at 2^29 and 2^30, L2 flushed before
// every launch, median of 21 launches: v05's launcher, one tile a block with T threads and U
// vectors of each input a thread (all loads issued before the first add), and CUB's call as
// elementwise/cub_baseline.cuh makes it. Every variant's output is compared with CUB's.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. -I/usr/local/cuda/include/cccl
//     elementwise/lab/probe_add.cu common/device.cu -o probe_add && ./probe_add
#include <cub/device/device_transform.cuh>

#include <cstdio>

#include "common/device.h"
#include "common/probe_timer.cuh"
#include "elementwise/ops.cuh"
#include "elementwise/v05_primitives.cuh"

using namespace ladder;
using namespace ladder::elementwise;

namespace {

// One tile of THREADS x U 16-byte vectors a block; vector u of a thread is at
// tile + (u * THREADS + thread) * 4 floats (each u coalesced across the block). n a multiple of
// the tile (the probe's sizes are).
template <int THREADS, int U>
__global__ void __launch_bounds__(THREADS)
    tile_kernel(const float4* __restrict__ x, const float4* __restrict__ a,
                float4* __restrict__ out) {
  const size_t base = size_t(blockIdx.x) * THREADS * U + threadIdx.x;
  float4 vx[U], va[U];
#pragma unroll
  for (int u = 0; u < U; ++u) vx[u] = x[base + u * THREADS];
#pragma unroll
  for (int u = 0; u < U; ++u) va[u] = a[base + u * THREADS];
#pragma unroll
  for (int u = 0; u < U; ++u)
    out[base + u * THREADS] =
        make_float4(vx[u].x + va[u].x, vx[u].y + va[u].y, vx[u].z + va[u].z, vx[u].w + va[u].w);
}

}  // namespace

int main() {
  cudaSetDevice(0);
  const size_t max_n = size_t(1) << 30;
  float *x = nullptr, *a = nullptr, *out = nullptr, *ref = nullptr;
  unsigned long long* scratch = nullptr;
  cudaMalloc(&x, max_n * 4);
  cudaMalloc(&a, max_n * 4);
  cudaMalloc(&out, max_n * 4);
  cudaMalloc(&ref, max_n * 4);
  cudaMalloc(&scratch, 8);
  probe_timing::fill_pattern(x, max_n, 7);
  probe_timing::fill_pattern(a, max_n, 11);
  cudaStream_t s;
  cudaStreamCreate(&s);
  {
    probe_timing::Timer timer(s);
    for (int lg : {29, 30}) {
      const size_t n = size_t(1) << lg;
      auto cub_call = [&] {
        cub::DeviceTransform::Transform(::cuda::std::make_tuple(x, a), ref, int(n), AddOp{}, s);
      };
      const float cub_us = timer.median_us(cub_call, 21);
      std::printf("n=2^%d: cub %.1f us (%.3f TB/s)\n", lg, cub_us, 12.0 * n / cub_us / 1e6);
      auto report = [&](const char* name, float us) {
        const unsigned long long bad = probe_timing::mismatches(out, ref, n, scratch, s);
        std::printf("  %-22s %8.1f us  %.4fx cub  %s\n", name, us, us / cub_us,
                    bad ? "OUTPUT DIFFERS" : "output matches");
        cudaMemsetAsync(out, 0, n * 4, s);
      };
      Args<float> args;
      args.x = x;
      args.addend = a;
      report("v05 launcher",
             timer.median_us([&] { v05::launch<Kind::kAdd>(args, out, n, s); }, 21));
      auto tile = [&](auto threads_c, auto u_c, const char* name) {
        constexpr int T = decltype(threads_c)::value, U = decltype(u_c)::value;
        const unsigned grid = unsigned(n / (size_t(T) * U * 4));
        report(name, timer.median_us(
                         [&] {
                           tile_kernel<T, U><<<grid, T, 0, s>>>(reinterpret_cast<const float4*>(x),
                                                                reinterpret_cast<const float4*>(a),
                                                                reinterpret_cast<float4*>(out));
                         },
                         21));
      };
      using std::integral_constant;
      tile(integral_constant<int, 256>{}, integral_constant<int, 1>{}, "tile 256 x 1");
      tile(integral_constant<int, 256>{}, integral_constant<int, 2>{}, "tile 256 x 2");
      tile(integral_constant<int, 256>{}, integral_constant<int, 4>{}, "tile 256 x 4");
      tile(integral_constant<int, 128>{}, integral_constant<int, 1>{}, "tile 128 x 1");
      tile(integral_constant<int, 128>{}, integral_constant<int, 2>{}, "tile 128 x 2");
      tile(integral_constant<int, 512>{}, integral_constant<int, 1>{}, "tile 512 x 1");
      tile(integral_constant<int, 1024>{}, integral_constant<int, 1>{}, "tile 1024 x 1");
      std::printf("  cub again %.1f us\n", timer.median_us(cub_call, 21));
    }
  }
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
