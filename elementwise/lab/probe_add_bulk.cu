// elementwise/lab/probe_add_bulk.cu — a standalone probe: add_f32 with its two inputs staged
// through shared memory by bulk copies, as cub::DeviceTransform does on sm_90 (Algorithm::ublkcp
// in cub/device/dispatch/kernels/transform.cuh). Not part of the binary. probe_add.cu found no
// register tile of v05's shape within 1% of CUB's call from 2^29 up on the H200; this asks whether
// the bulk copies are what CUB has there, and which tile and store width do best with them.
// Times, L2 flushed before every launch, median of 21 launches, at 2^28, 2^29 and 2^30: CUB's
// call, v05's launcher, and bulk<T, E, W>: one tile of T x E floats of each input a block, both
// copied by one elected thread into 128-byte-aligned stages on one mbarrier, then each thread
// adds E floats W at a time (W = 1: CUB's scalar stores; W = 2, 4: float2, float4 stores).
// bulk<256, 3, 1> is CUB's own choice for two float inputs on sm_90 (the fewest items a thread that
// keep 48 KB of loads in flight an SM). Every variant's output is compared with CUB's.
// Modes: PROBE_V08=1 and PROBE_CROSS=1 (below).
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. elementwise/lab/probe_add_bulk.cu common/device.cu
//     -o probe_add_bulk && ./probe_add_bulk
#include <cub/device/device_transform.cuh>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "common/bulk_copy.cuh"
#include "common/device.h"
#include "common/probe_timer.cuh"
#include "elementwise/ops.cuh"
#include "elementwise/v05_primitives.cuh"
#include "elementwise/v08_bulk_copy.cuh"

using namespace ladder;
using namespace ladder::elementwise;

namespace {

// n a multiple of 4. One block, one tile of up to T * E floats from element blockIdx.x * T * E.
// PAD: bytes added to a stage before it is rounded up to 128 (v08's stages hold 16 more); RT: the
// W = 1 loop runs to the `items` argument (E) instead of the constant (v08's loop).
template <int T, int E, int W, int PAD = 0, bool RT = false>
__global__ void __launch_bounds__(T)
    bulk_kernel(const float* __restrict__ x, const float* __restrict__ a, float* __restrict__ out,
                size_t n, int items) {
  constexpr int kTile = T * E;
  constexpr int kStage = (kTile * 4 + PAD + 127) / 128 * 128;  // bytes
  extern __shared__ __align__(128) unsigned char smem[];
  __shared__ unsigned long long bar;
  float* sx = reinterpret_cast<float*>(smem);
  float* sa = reinterpret_cast<float*>(smem + kStage);
  const size_t first = size_t(blockIdx.x) * kTile;
  const int num = int(n - first < size_t(kTile) ? n - first : size_t(kTile));
  // Two arrivals, one with each copy's expect_tx (bulk::load arrives as it expects).
  if (threadIdx.x == 0) bulk::barrier_init(&bar, 2);
  __syncthreads();
  if (threadIdx.x == 0) {
    bulk::load(sx, x + first, unsigned(num) * 4, &bar);
    bulk::load(sa, a + first, unsigned(num) * 4, &bar);
  }
  bulk::wait(&bar, 0);
  if constexpr (W == 1) {
    const int e = RT ? items : E;
#pragma unroll 1
    for (int j = 0; j < e; ++j) {
      const int i = j * T + threadIdx.x;
      if (i < num) out[first + i] = sx[i] + sa[i];
    }
  } else if constexpr (W == 2) {
    static_assert(E % 2 == 0, "float2 stores need E even");
    const float2* vx = reinterpret_cast<const float2*>(sx);
    const float2* va = reinterpret_cast<const float2*>(sa);
    float2* vo = reinterpret_cast<float2*>(out + first);
#pragma unroll 1
    for (int j = 0; j < E / 2; ++j) {
      const int q = j * T + threadIdx.x;
      if (q * 2 < num) {
        const float2 p = vx[q], r = va[q];
        vo[q] = make_float2(p.x + r.x, p.y + r.y);
      }
    }
  } else {
    static_assert(E % 4 == 0, "float4 stores need E a multiple of 4");
    const float4* vx = reinterpret_cast<const float4*>(sx);
    const float4* va = reinterpret_cast<const float4*>(sa);
    float4* vo = reinterpret_cast<float4*>(out + first);
#pragma unroll
    for (int j = 0; j < E / 4; ++j) {
      const int q = j * T + threadIdx.x;
      if (q * 4 < num) {
        const float4 p = vx[q], r = va[q];
        vo[q] = make_float4(p.x + r.x, p.y + r.y, p.z + r.z, p.w + r.w);
      }
    }
  }
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
    // PROBE_CROSS=1: where v05 and v08 cross. CUB's call, v05's and v08's launchers at every
    // power of two from 2^16 to 2^28 and at 25,600,000, median of 51 launches, then exit. (From
    // 768 elements up CUB picks the same tile whatever size it first ran at, so the order of the
    // sizes does not matter.) Written for a dispatching rung; not yet run.
    if (std::getenv("PROBE_CROSS") != nullptr) {
      std::vector<size_t> sizes;
      for (int lg = 16; lg <= 28; ++lg) sizes.push_back(size_t(1) << lg);
      sizes.push_back(25600000);
      Args<float> args;
      args.x = x;
      args.addend = a;
      for (const size_t n : sizes) {
        const float cub_us = timer.median_us(
            [&] {
              cub::DeviceTransform::Transform(::cuda::std::make_tuple(x, a), ref, int(n), AddOp{},
                                              s);
            },
            51);
        const float v05_us = timer.median_us([&] { v05::launch<Kind::kAdd>(args, out, n, s); }, 51);
        const unsigned long long bad05 = probe_timing::mismatches(out, ref, n, scratch, s);
        cudaMemsetAsync(out, 0, n * 4, s);  // so that v08's check sees only what v08 wrote
        const float v08_us = timer.median_us([&] { v08::launch<Kind::kAdd>(args, out, n, s); }, 51);
        const unsigned long long bad08 = probe_timing::mismatches(out, ref, n, scratch, s);
        cudaMemsetAsync(out, 0, n * 4, s);
        std::printf(
            "n=%zu: cub %.2f us, v05 %.2f (%.4fx cub)%s, v08 %.2f (%.4fx cub)%s, v08/v05 %.4f\n", n,
            cub_us, v05_us, v05_us / cub_us, bad05 ? " DIFFERS" : "", v08_us, v08_us / cub_us,
            bad08 ? " DIFFERS" : "", v08_us / v05_us);
      }
    }
    const bool cross_mode = std::getenv("PROBE_CROSS") != nullptr;
    // PROBE_V08=1: v08's launcher against the probe's own CUB-shaped kernel and the two ways
    // v08's kernel differs from it (stages 16 bytes longer, the loop's count a run-time value).
    // PROBE_LG=18,20 sets the sizes (log2) of the default and PROBE_V08 modes.
    const bool v08_mode = std::getenv("PROBE_V08") != nullptr;
    std::vector<int> lgs = v08_mode ? std::vector<int>{27, 30} : std::vector<int>{28, 29, 30};
    if (const char* e = std::getenv("PROBE_LG")) {
      lgs.clear();
      for (const char* p = e; *p != '\0';) {
        char* end = nullptr;
        lgs.push_back(int(std::strtol(p, &end, 10)));
        p = *end == ',' ? end + 1 : end;
        if (end == p && *p != '\0') break;
      }
    }
    for (int lg : cross_mode ? std::vector<int>{} : lgs) {
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
      auto bulk5 = [&](auto t_c, auto e_c, auto w_c, auto pad_c, auto rt_c) {
        constexpr int T = decltype(t_c)::value, E = decltype(e_c)::value, W = decltype(w_c)::value;
        constexpr int PAD = decltype(pad_c)::value;
        constexpr bool RT = decltype(rt_c)::value;
        constexpr int kTile = T * E;
        const unsigned smem = 2 * ((kTile * 4 + PAD + 127) / 128 * 128);
        if (smem > 48 * 1024)
          cudaFuncSetAttribute(bulk_kernel<T, E, W, PAD, RT>,
                               cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
        const unsigned grid = unsigned((n + kTile - 1) / kTile);
        char name[40];
        std::snprintf(name, sizeof name, "bulk %d x %d, w%d%s%s", T, E, W, PAD ? " pad" : "",
                      RT ? " rt" : "");
        report(
            name,
            timer.median_us(
                [&] { bulk_kernel<T, E, W, PAD, RT><<<grid, T, smem, s>>>(x, a, out, n, E); }, 21));
      };
      auto bulk = [&](auto t_c, auto e_c, auto w_c) {
        bulk5(t_c, e_c, w_c, std::integral_constant<int, 0>{}, std::false_type{});
      };
      using std::integral_constant;
      if (v08_mode) {
        using I256 = integral_constant<int, 256>;
        using I3 = integral_constant<int, 3>;
        using I1 = integral_constant<int, 1>;
        using Pad = integral_constant<int, 16>;
        report("v08 launcher",
               timer.median_us([&] { v08::launch<Kind::kAdd>(args, out, n, s); }, 21));
        bulk(I256{}, I3{}, I1{});
        bulk5(I256{}, I3{}, I1{}, Pad{}, std::false_type{});
        bulk5(I256{}, I3{}, I1{}, integral_constant<int, 0>{}, std::true_type{});
        bulk5(I256{}, I3{}, I1{}, Pad{}, std::true_type{});
        report("v08 launcher again",
               timer.median_us([&] { v08::launch<Kind::kAdd>(args, out, n, s); }, 21));
        std::printf("  cub again %.1f us\n", timer.median_us(cub_call, 21));
        continue;
      }
      bulk(integral_constant<int, 256>{}, integral_constant<int, 1>{}, integral_constant<int, 1>{});
      bulk(integral_constant<int, 256>{}, integral_constant<int, 2>{}, integral_constant<int, 1>{});
      bulk(integral_constant<int, 256>{}, integral_constant<int, 2>{}, integral_constant<int, 2>{});
      bulk(integral_constant<int, 256>{}, integral_constant<int, 3>{}, integral_constant<int, 1>{});
      bulk(integral_constant<int, 256>{}, integral_constant<int, 4>{}, integral_constant<int, 4>{});
      bulk(integral_constant<int, 128>{}, integral_constant<int, 2>{}, integral_constant<int, 1>{});
      bulk(integral_constant<int, 128>{}, integral_constant<int, 3>{}, integral_constant<int, 1>{});
      bulk(integral_constant<int, 128>{}, integral_constant<int, 4>{}, integral_constant<int, 1>{});
      bulk(integral_constant<int, 128>{}, integral_constant<int, 6>{}, integral_constant<int, 1>{});
      bulk(integral_constant<int, 128>{}, integral_constant<int, 4>{}, integral_constant<int, 4>{});
      bulk(integral_constant<int, 512>{}, integral_constant<int, 2>{}, integral_constant<int, 1>{});
      bulk(integral_constant<int, 512>{}, integral_constant<int, 3>{}, integral_constant<int, 1>{});
      bulk(integral_constant<int, 1024>{}, integral_constant<int, 1>{},
           integral_constant<int, 1>{});
      std::printf("  cub again %.1f us\n", timer.median_us(cub_call, 21));
    }
  }
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
