// elementwise/lab/probe_gelu.cu — a standalone probe for the GELU rungs' data movement.
// Not part of the binary. At n = 2^28 (fp32 and fp16), L2 flushed before every launch, median of
// 40 launches, it times: v03's grid-stride loop (one 16-byte vector per thread per step), the
// same with U vectors per thread loaded before any is used, one tile per block with U vectors
// per thread, the same with streaming (evict-first) loads and stores, a bulk-copy (TMA) staged
// tile per block, cub::DeviceTransform and a device-to-device copy of the same bytes. Every
// variant's output is compared with v03's on the device.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. elementwise/lab/probe_gelu.cu common/device.cu \
//     -o probe_gelu && ./probe_gelu
#include <cub/device/device_transform.cuh>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "common/device.h"
#include "elementwise/ops.cuh"
#include "elementwise/v03_vectorized.cuh"
#include "elementwise/v04_half2.cuh"

using namespace ladder;
using namespace ladder::elementwise;

namespace {

template <typename T>
struct alignas(16) Vec {
  T v[16 / sizeof(T)];
};

// 16 bytes of GELU: float goes element by element, half two at a time through __half2.
template <typename T>
__device__ __forceinline__ Vec<T> gelu16(const Vec<T>& x) {
  Vec<T> r;
  if constexpr (sizeof(T) == 4) {
#pragma unroll
    for (int k = 0; k < 4; ++k) r.v[k] = GeluOp{}(x.v[k]);
  } else {
    const __half2* a = reinterpret_cast<const __half2*>(x.v);
    __half2* b = reinterpret_cast<__half2*>(r.v);
#pragma unroll
    for (int k = 0; k < 4; ++k) b[k] = GeluOp{}(a[k]);
  }
  return r;
}

template <bool STREAM>
__device__ __forceinline__ int4 load16(const int4* p) {
  if constexpr (STREAM) return __ldcs(p);
  return *p;
}
template <bool STREAM>
__device__ __forceinline__ void store16(int4* p, int4 v) {
  if constexpr (STREAM)
    __stcs(p, v);
  else
    *p = v;
}

// Grid-stride, U vectors per thread loaded before any is used.
template <typename T, int U, bool STREAM>
__global__ void __launch_bounds__(256) stride_kernel(const T* x, T* y, size_t vecs) {
  const int4* in = reinterpret_cast<const int4*>(x);
  int4* out = reinterpret_cast<int4*>(y);
  const size_t stride = size_t(gridDim.x) * 256;
  for (size_t j = size_t(blockIdx.x) * 256 + threadIdx.x; j < vecs; j += stride * U) {
    int4 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u)
      if (j + u * stride < vecs) v[u] = load16<STREAM>(in + j + u * stride);
#pragma unroll
    for (int u = 0; u < U; ++u) {
      if (j + u * stride >= vecs) break;
      Vec<T> r = gelu16(*reinterpret_cast<Vec<T>*>(&v[u]));
      store16<STREAM>(out + j + u * stride, *reinterpret_cast<int4*>(&r));
    }
  }
}

// One tile of 256 x U vectors per block (vecs a multiple of that).
template <typename T, int U, bool STREAM>
__global__ void __launch_bounds__(256) tile_kernel(const T* x, T* y) {
  const int4* in = reinterpret_cast<const int4*>(x) + size_t(blockIdx.x) * 256 * U;
  int4* out = reinterpret_cast<int4*>(y) + size_t(blockIdx.x) * 256 * U;
  int4 v[U];
#pragma unroll
  for (int u = 0; u < U; ++u) v[u] = load16<STREAM>(in + u * 256 + threadIdx.x);
#pragma unroll
  for (int u = 0; u < U; ++u) {
    Vec<T> r = gelu16(*reinterpret_cast<Vec<T>*>(&v[u]));
    store16<STREAM>(out + u * 256 + threadIdx.x, *reinterpret_cast<int4*>(&r));
  }
}

__device__ __forceinline__ unsigned smem_addr(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// One tile per block, staged in shared memory by one bulk copy (cp.async.bulk, the TMA's 1-D
// form) that completes on an mbarrier; then each thread computes from shared memory and stores.
template <typename T, int BYTES, bool STREAM>
__global__ void __launch_bounds__(256) bulk_kernel(const T* x, T* y) {
  __shared__ alignas(128) int4 tile[BYTES / 16];
  __shared__ alignas(8) unsigned long long bar;
  const char* src = reinterpret_cast<const char*>(x) + size_t(blockIdx.x) * BYTES;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_addr(&bar)));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(&bar)),
                 "r"(BYTES)
                 : "memory");
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::
            "r"(smem_addr(tile)),
        "l"(src), "r"(BYTES), "r"(smem_addr(&bar))
        : "memory");
  }
  __syncthreads();  // the barrier is initialised before anyone waits on it
  unsigned done = 0;
  while (!done)
    asm volatile(
        "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, "
        "p; }"
        : "=r"(done)
        : "r"(smem_addr(&bar))
        : "memory");
  int4* out = reinterpret_cast<int4*>(y) + size_t(blockIdx.x) * (BYTES / 16);
#pragma unroll
  for (int u = 0; u < BYTES / 16 / 256; ++u) {
    const int4 v = tile[u * 256 + threadIdx.x];
    Vec<T> r = gelu16(*reinterpret_cast<const Vec<T>*>(&v));
    store16<STREAM>(out + u * 256 + threadIdx.x, *reinterpret_cast<int4*>(&r));
  }
}

__global__ void count_mismatch(const int4* a, const int4* b, size_t vecs, unsigned long long* bad) {
  unsigned long long local = 0;
  for (size_t j = size_t(blockIdx.x) * blockDim.x + threadIdx.x; j < vecs;
       j += size_t(gridDim.x) * blockDim.x) {
    const int4 p = a[j], q = b[j];
    local += (p.x != q.x) + (p.y != q.y) + (p.z != q.z) + (p.w != q.w);
  }
  if (local) atomicAdd(bad, local);
}

struct Env {
  L2Flusher* flusher;
  cudaEvent_t a, b;
  int4 *ref, *out;
  size_t vecs;
  double bytes;
  unsigned long long* bad;
};

template <typename F>
float median_us(Env& e, F&& launch) {
  std::vector<float> t;
  for (int i = 0; i < 41; ++i) {
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

template <typename F>
void probe(Env& e, const char* name, F&& launch, bool compare = true) {
  cudaMemset(e.out, 0x7b, e.vecs * 16);
  const float us = median_us(e, launch);
  unsigned long long bad = 0;
  if (compare) {
    cudaMemset(e.bad, 0, 8);
    count_mismatch<<<1024, 256>>>(e.ref, e.out, e.vecs, e.bad);
    cudaMemcpy(&bad, e.bad, 8, cudaMemcpyDefault);
  }
  printf("%-34s %8.2f us  %7.1f GB/s  mismatches=%llu  %s\n", name, us, e.bytes / us / 1e3, bad,
         cudaGetErrorString(cudaGetLastError()));
}

template <typename T>
void run(const char* type) {
  const size_t n = size_t(1) << 28;
  const size_t vecs = n * sizeof(T) / 16;
  DeviceBuffer x(n * sizeof(T)), ref(n * sizeof(T)), out(n * sizeof(T)), bad(8);
  {  // inputs: a ramp over [-8, 8), exact in either type
    std::vector<T> h(n);
    for (size_t i = 0; i < n; ++i) h[i] = T(float(int(i % 4096) - 2048) / 256.0f);
    upload(x.get(), h.data(), n * sizeof(T));
  }
  L2Flusher flusher(query_device(0).l2_bytes);
  Env e{&flusher,
        nullptr,
        nullptr,
        ref.as<int4>(),
        out.as<int4>(),
        vecs,
        2.0 * n * sizeof(T),
        bad.as<unsigned long long>()};
  cudaEventCreate(&e.a);
  cudaEventCreate(&e.b);
  const T* xp = x.as<const T>();
  T* yp = out.as<T>();
  Args<T> args{};
  args.x = xp;
  printf("--- %s GELU, n = 2^28 (%.0f MB moved)\n", type, e.bytes / 1e6);
  // the reference: the ladder's own best rung for this type
  if constexpr (sizeof(T) == 4)
    v03::launch<Kind::kGelu, T>(args, ref.as<T>(), n, nullptr);
  else
    v04::launch<Kind::kGelu>(args, ref.as<T>(), n, nullptr);
  cudaDeviceSynchronize();
  probe(
      e, "copy (cudaMemcpyAsync D2D)",
      [&] { cudaMemcpyAsync(yp, xp, n * sizeof(T), cudaMemcpyDefault); }, false);
  if constexpr (sizeof(T) == 4)
    probe(e, "v03 (ladder)", [&] { v03::launch<Kind::kGelu, T>(args, yp, n, nullptr); });
  else
    probe(e, "v04 (ladder)", [&] { v04::launch<Kind::kGelu>(args, yp, n, nullptr); });
  probe(
      e, "cub::DeviceTransform", [&] { cub::DeviceTransform::Transform(xp, yp, n, GeluOp{}); },
      sizeof(T) == 4);  // CUB's fp16 goes element by element in float: not bitwise v04's
  const unsigned resident =
      unsigned(resident_grid((const void*)stride_kernel<T, 1, false>, 256, 0));
  probe(e, "stride U=1 resident",
        [&] { stride_kernel<T, 1, false><<<resident, 256>>>(xp, yp, vecs); });
  probe(e, "stride U=2 resident",
        [&] { stride_kernel<T, 2, false><<<resident, 256>>>(xp, yp, vecs); });
  probe(e, "stride U=4 resident",
        [&] { stride_kernel<T, 4, false><<<resident, 256>>>(xp, yp, vecs); });
  probe(e, "stride U=4 resident stream",
        [&] { stride_kernel<T, 4, true><<<resident, 256>>>(xp, yp, vecs); });
  probe(e, "stride U=2 2x resident",
        [&] { stride_kernel<T, 2, false><<<2 * resident, 256>>>(xp, yp, vecs); });
  probe(e, "tile U=1", [&] { tile_kernel<T, 1, false><<<unsigned(vecs / 256), 256>>>(xp, yp); });
  probe(e, "tile U=2", [&] { tile_kernel<T, 2, false><<<unsigned(vecs / 512), 256>>>(xp, yp); });
  probe(e, "tile U=4", [&] { tile_kernel<T, 4, false><<<unsigned(vecs / 1024), 256>>>(xp, yp); });
  probe(e, "tile U=8", [&] { tile_kernel<T, 8, false><<<unsigned(vecs / 2048), 256>>>(xp, yp); });
  probe(e, "tile U=4 stream",
        [&] { tile_kernel<T, 4, true><<<unsigned(vecs / 1024), 256>>>(xp, yp); });
  probe(e, "tile U=8 stream",
        [&] { tile_kernel<T, 8, true><<<unsigned(vecs / 2048), 256>>>(xp, yp); });
  probe(e, "bulk 8 KB",
        [&] { bulk_kernel<T, 8192, false><<<unsigned(vecs * 16 / 8192), 256>>>(xp, yp); });
  probe(e, "bulk 16 KB",
        [&] { bulk_kernel<T, 16384, false><<<unsigned(vecs * 16 / 16384), 256>>>(xp, yp); });
  probe(e, "bulk 16 KB stream",
        [&] { bulk_kernel<T, 16384, true><<<unsigned(vecs * 16 / 16384), 256>>>(xp, yp); });
  probe(e, "bulk 32 KB",
        [&] { bulk_kernel<T, 32768, false><<<unsigned(vecs * 16 / 32768), 256>>>(xp, yp); });
}

}  // namespace

int main() {
  run<float>("fp32");
  run<__half>("fp16");
  return 0;
}
