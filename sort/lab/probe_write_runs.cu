// sort/lab/probe_write_runs.cu — a standalone probe toward the rungs past v14
// (sort/lab/LAB_NOTES.md): what the memory system alone charges for a radix pass's store pattern,
// with no ranking, no scan, no look-back and no shared memory. Not part of the binary.
//
// The pass is a fixed permutation copy of n keys shaped like one pass of an LSD radix sort on
// uniform digits. The keys are cut into tiles of T = C x 11,264 keys (C chunks of v12's tile,
// 256 threads x 44 keys). Each tile holds R runs of L = T / R keys. Run r of tile t goes to
// region r of the output, right after run r of tile t - 1:
//   out[r * (tiles * L) + t * L + o] = in[t * T + r * L + o],  0 <= o < L.
// So the output is written through R write fronts, each advancing L keys a tile: a radix pass
// over D = R equally frequent digits, whose tiles write runs of L keys.
//
// The block works as a one-sweep pass's write-out does. Each thread loads its 44 keys of a chunk
// into registers (key j of thread x is position j * 256 + x), then stores each to its
// destination. So a warp's store covers 32 consecutive positions of the tile, in the tile's order:
// the staged tile of sort v06's write-out. Launched one block per tile, in order, with dynamic
// shared memory that holds occupancy to OCC blocks an SM (2: v12's and v14's shape; 8: a copy's).
//
// Variants: R from 1 (a copy: one run a tile) to 1,024 (runs of 11 keys) at v12's tile; at
// R = 256, tiles of C = 1 ... 16 chunks, so runs of 44 ... 704 keys; each with the stores
// plain, streaming (st.global.cs), with an L2 evict-last or evict-first policy
// (createpolicy + st.global.L2::cache_hint), or bypassing L1 (st.global.L1::no_allocate).
// With uniform digits every run has the same length, so where a run's length in bytes is a
// multiple of 32 every run starts and ends on a sector boundary, which a real sort's runs (of
// random lengths) do not: "pad 1" leaves one unused key after each region, so that the regions'
// runs start at every offset within a sector, as a sort's do.
// Each output is checked against the permutation (every key where the formula puts it).
// Timed as the benchmark times (L2 flushed, the stream held, median of 21).
//
// For the write traffic, run it under Nsight Compute:
//   ncu --clock-control none -k regex:write_runs --metrics \
//     gpu__time_duration.sum,dram__bytes_write.sum,dram__bytes_read.sum,\
//     lts__t_sectors_srcunit_tex_op_write.sum,lts__t_requests_srcunit_tex_op_write.sum
//     ./probe_write_runs once
// ("once": each variant runs once, untimed, after its check).
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. sort/lab/probe_write_runs.cu common/device.cu \
//     -o probe_write_runs && ./probe_write_runs [once]
//
// Source: the write-out of A. Adinets and D. Merrill, "Onesweep: A Faster Least Significant Digit
// Radix Sort for GPUs", 2022 (a tile's keys staged by digit and written as runs); the cache
// policies: the PTX ISA, "createpolicy" and "st" (its .L2::cache_hint and eviction priorities).
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/device.h"
#include "common/probe_timer.cuh"
#include "sort/lab/probe_common.cuh"

using namespace ladder;
using namespace ladder::sort::tuning;
using probe_timing::Timer;

namespace {

constexpr unsigned kThreads = 256, kItems = 44, kChunk = kThreads * kItems;  // v12's tile
constexpr size_t kMaxPad = 4096;  // keys past n that the padded outputs may use

enum Hint : int { kPlain, kStreaming, kEvictLast, kEvictFirst, kNoL1 };
const char* hint_name(int h) {
  switch (h) {
    case kStreaming:
      return "st.global.cs";
    case kEvictLast:
      return "L2 evict_last";
    case kEvictFirst:
      return "L2 evict_first";
    case kNoL1:
      return "L1::no_allocate";
    default:
      return "plain";
  }
}

template <int HINT>
__device__ __forceinline__ void store(uint32_t* p, uint32_t v, uint64_t policy) {
  if constexpr (HINT == kStreaming) {
    __stcs(p, v);
  } else if constexpr (HINT == kEvictLast || HINT == kEvictFirst) {
    asm volatile("st.global.L2::cache_hint.b32 [%0], %1, %2;" ::"l"(p), "r"(v), "l"(policy)
                 : "memory");
  } else if constexpr (HINT == kNoL1) {
    asm volatile("st.global.L1::no_allocate.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  } else {
    *p = v;
  }
}

// One block a tile of `chunks` x kChunk keys, R = runs a tile, L = tile / R keys a run (L a
// whole number; the caller checks). in, out: tiles * tile keys each.
template <int HINT>
__global__ void __launch_bounds__(kThreads)
    write_runs(const uint32_t* __restrict__ in, uint32_t* __restrict__ out, unsigned chunks,
               unsigned run, size_t tiles, unsigned pad) {
  uint64_t policy = 0;
  if constexpr (HINT == kEvictLast)
    asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
  if constexpr (HINT == kEvictFirst)
    asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  const size_t t = blockIdx.x;
  const size_t tile = size_t(chunks) * kChunk, region = tiles * run + pad;
  const uint32_t* src = in + t * tile;
  uint32_t* dst = out + t * run;
  for (unsigned c = 0; c < chunks; ++c) {
    uint32_t k[kItems];
#pragma unroll
    for (unsigned j = 0; j < kItems; ++j) k[j] = src[c * kChunk + j * kThreads + threadIdx.x];
#pragma unroll
    for (unsigned j = 0; j < kItems; ++j) {
      const unsigned i = c * kChunk + j * kThreads + threadIdx.x;  // position in the tile
      const unsigned r = i / run, o = i - r * run;
      store<HINT>(dst + r * region + o, k[j], policy);
    }
  }
}

// The same write-out with the keys staged in shared memory, as a one-sweep pass stages them, and
// shared by a thread block cluster of C blocks (C = 1: each block alone), for D digits (256: 8-bit
// digits; 2,048: 11-bit). Each block holds B = 256 x ITEMS keys; cluster c's tile is C x B keys,
// D runs of L = C x B / D keys. Block b's key at position u of its own B keys has digit
// d = u / (B / D) and rank o = u % (B / D) within it (as if ranked: every digit equally frequent),
// and its staged place in the cluster's tile is s = d * L + b * (B / D) + o: the C blocks' keys of
// one digit side by side, as a cluster's shared counts place them. Block q's shared memory holds
// staged places [q * B, (q + 1) * B), so for C > 1 most keys go to another block's shared memory
// (mapa, then st.shared::cluster). After one cluster barrier each block writes its staged slice,
// D / C whole runs:
//   out[d * (clusters * L) + c * L + b * (B / D) + o] = in[(c * C + b) * B + d * (B / D) + o].
// What this adds to write_runs: the staging's shared-memory round trip, one barrier (a cluster
// barrier for C > 1), and for C > 1 the distributed shared memory traffic; what it buys for
// C > 1: runs C times longer.
template <unsigned C, unsigned D, unsigned ITEMS>
__global__ void __launch_bounds__(kThreads, 2)
    write_runs_staged(const uint32_t* __restrict__ in, uint32_t* __restrict__ out, size_t clusters,
                      unsigned pad) {
  extern __shared__ uint32_t staged[];  // B keys: this block's slice of the cluster's tile
  constexpr unsigned kB = kThreads * ITEMS, kL1 = kB / D, kRun = kL1 * C, kPer = D / C;
  static_assert(kL1 * D == kB && kPer * C == D, "whole runs only");
  unsigned b = 0;
  if constexpr (C > 1) {
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(b));
    // Every block of the cluster has started (its shared memory exists) before any writes to it.
    asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
  }
  const size_t c = blockIdx.x / C;
  const uint32_t* src = in + (c * C + b) * kB;
  uint32_t k[ITEMS];
#pragma unroll
  for (unsigned j = 0; j < ITEMS; ++j) k[j] = src[j * kThreads + threadIdx.x];
  __syncthreads();  // every key in registers first, as a pass has them before it ranks
  if constexpr (C == 1) {
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j) staged[j * kThreads + threadIdx.x] = k[j];
    __syncthreads();
  } else {
    const unsigned local = static_cast<unsigned>(__cvta_generic_to_shared(staged));
    asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
#pragma unroll
    for (unsigned j = 0; j < ITEMS; ++j) {
      const unsigned u = j * kThreads + threadIdx.x, d = u / kL1, o = u - d * kL1;
      const unsigned q = d / kPer, place = (d - q * kPer) * kRun + b * kL1 + o;
      unsigned addr;
      asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(addr) : "r"(local + 4 * place), "r"(q));
      asm volatile("st.shared::cluster.u32 [%0], %1;" ::"r"(addr), "r"(k[j]) : "memory");
    }
    asm volatile(
        "barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::
            : "memory");
  }
  const size_t region = clusters * kRun + pad;
  uint32_t* dst = out + c * kRun;
#pragma unroll 4  // fewer addresses live at once (no spills)
  for (unsigned j = 0; j < ITEMS; ++j) {
    const unsigned i = j * kThreads + threadIdx.x;         // place in this block's slice
    const unsigned d = b * kPer + i / kRun, o = i % kRun;  // digit (run) and place in it
    dst[d * region + o] = staged[i];
  }
}

// Counts places of out (digits regions of clusters * run keys, each followed by pad unused keys)
// whose key is not write_runs_staged's.
__global__ void check_staged(const uint32_t* in, const uint32_t* out, unsigned cl, unsigned digits,
                             unsigned block_keys, size_t clusters, unsigned pad,
                             unsigned long long* wrong) {
  const size_t l1 = block_keys / digits, run = l1 * cl, used = clusters * run, region = used + pad,
               n = region * digits;
  unsigned long long bad = 0;
  for (size_t p = blockIdx.x * size_t(blockDim.x) + threadIdx.x; p < n;
       p += size_t(gridDim.x) * blockDim.x) {
    const size_t d = p / region, rem = p - d * region, c = rem / run, o = rem - c * run;
    if (rem >= used) continue;
    const size_t b = o / l1, o1 = o - b * l1;
    bad += out[p] != in[(c * cl + b) * block_keys + d * l1 + o1];
  }
  if (bad) atomicAdd(wrong, bad);
}

// Counts positions p of out whose key is not the one the permutation puts there.
__global__ void check_runs(const uint32_t* in, const uint32_t* out, unsigned chunks, unsigned run,
                           size_t tiles, unsigned pad, unsigned long long* wrong) {
  const size_t tile = size_t(chunks) * kChunk, used = tiles * run, region = used + pad,
               n = region * (tile / run);
  unsigned long long c = 0;
  for (size_t p = blockIdx.x * size_t(blockDim.x) + threadIdx.x; p < n;
       p += size_t(gridDim.x) * blockDim.x) {
    const size_t r = p / region, rem = p - r * region, t = rem / run, o = rem - t * run;
    if (rem >= used) continue;
    c += out[p] != in[t * tile + r * run + o];
  }
  if (c) atomicAdd(wrong, c);
}

__global__ void fill(uint32_t* k, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    k[i] = mix((i + 1) * 0x9e3779b97f4a7c15ull);
}

void check_cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

template <int HINT>
void launch(const uint32_t* in, uint32_t* out, unsigned chunks, unsigned run, size_t tiles,
            unsigned pad, size_t smem, cudaStream_t s) {
  write_runs<HINT><<<unsigned(tiles), kThreads, smem, s>>>(in, out, chunks, run, tiles, pad);
}

using Launch = void (*)(const uint32_t*, uint32_t*, unsigned, unsigned, size_t, unsigned, size_t,
                        cudaStream_t);
Launch launcher(int hint) {
  switch (hint) {
    case kStreaming:
      return launch<kStreaming>;
    case kEvictLast:
      return launch<kEvictLast>;
    case kEvictFirst:
      return launch<kEvictFirst>;
    case kNoL1:
      return launch<kNoL1>;
    default:
      return launch<kPlain>;
  }
}

// Dynamic shared memory (bytes) that leaves room for `occ` blocks an SM.
size_t smem_for(int occ) {
  int per_sm = 0;
  cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0);
  return size_t(per_sm) / occ - 1024 - 1024;  // the per-block reservation, and a margin
}

}  // namespace

int main(int argc, char** argv) {
  const bool once = argc > 1 && std::string(argv[1]) == "once";
  const size_t n_max = size_t(1) << 28;
  cudaStream_t s;
  check_cuda(cudaStreamCreate(&s), "stream");
  uint32_t *in = nullptr, *out = nullptr;
  unsigned long long* wrong = nullptr;
  check_cuda(cudaMalloc(&in, n_max * 4), "cudaMalloc in");
  check_cuda(cudaMalloc(&out, (n_max + kMaxPad) * 4), "cudaMalloc out");
  check_cuda(cudaMalloc(&wrong, sizeof(*wrong)), "cudaMalloc");
  fill<<<1024, 256, 0, s>>>(in, n_max);
  const void* kernels[] = {(const void*)write_runs<kPlain>, (const void*)write_runs<kStreaming>,
                           (const void*)write_runs<kEvictLast>,
                           (const void*)write_runs<kEvictFirst>, (const void*)write_runs<kNoL1>};
  for (const void* f : kernels)
    check_cuda(
        cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem_for(1))),
        "smem attribute");
  Timer timer(s);
  std::printf("%s, n up to 2^28 keys; a copy reads and writes 8 bytes a key\n",
              query_device(0).name.c_str());

  struct Case {
    unsigned chunks, runs;
    int hint, occ;
    unsigned pad = 0;  // unused keys after each region: its runs' ends fall mid-sector
  };
  std::vector<Case> cases;
  for (int occ : {2, 4})
    for (unsigned r : {1u, 4u, 16u, 64u, 256u, 512u, 1024u}) cases.push_back({1, r, kPlain, occ});
  for (unsigned c : {2u, 4u, 8u, 16u}) cases.push_back({c, 256, kPlain, 2});
  for (int h : {kStreaming, kEvictLast, kEvictFirst, kNoL1}) {
    cases.push_back({1, 256, h, 2});
    cases.push_back({1, 1, h, 2});
  }
  for (unsigned c : {1u, 2u, 4u}) cases.push_back({c, 256, kPlain, 2, 1});
  for (const Case& k : cases) {
    const size_t tile = size_t(k.chunks) * kChunk, tiles = n_max / tile, n = tiles * tile;
    const unsigned run = unsigned(tile / k.runs);
    if (run * size_t(k.runs) != tile) continue;
    const size_t smem = smem_for(k.occ);
    const Launch go = launcher(k.hint);
    int resident = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, kernels[k.hint], kThreads, smem);
    const auto count_wrong = [&] {
      unsigned long long bad = 0;
      cudaMemsetAsync(wrong, 0, sizeof(*wrong), s);
      check_runs<<<1024, 256, 0, s>>>(in, out, k.chunks, run, tiles, k.pad, wrong);
      check_cuda(cudaMemcpyAsync(&bad, wrong, sizeof(bad), cudaMemcpyDeviceToHost, s), "copy");
      check_cuda(cudaStreamSynchronize(s), "check");
      return bad;
    };
    cudaMemsetAsync(out, 0, (n + kMaxPad) * 4, s);
    go(in, out, k.chunks, run, tiles, k.pad, smem, s);
    const unsigned long long bad = count_wrong();
    if (&k == &cases.front()) {  // the check must be able to fail: one key changed, one found
      uint32_t one = 0;
      cudaMemcpy(&one, out + n / 3, 4, cudaMemcpyDeviceToHost);
      one ^= 1;
      cudaMemcpy(out + n / 3, &one, 4, cudaMemcpyHostToDevice);
      std::printf("check's self-test: one key changed, %llu found wrong (want 1)\n", count_wrong());
    }
    float us = 0;
    if (once)
      go(in, out, k.chunks, run, tiles, k.pad, smem, s);
    else
      us = timer.median_us([&] { go(in, out, k.chunks, run, tiles, k.pad, smem, s); }, 21);
    check_cuda(cudaStreamSynchronize(s), "run");
    const double per_2e28 = us * double(n_max) / double(n);
    std::printf(
        "tile %6zu keys (%2u x 256 x 44), %4u runs of %5u keys (%6u B), pad %u, %d blocks an SM, "
        "%-15s: %8.1f us for %zu keys, %8.1f us per 2^28, %7.1f GB/s, wrong %llu\n",
        tile, k.chunks, k.runs, run, run * 4, k.pad, resident, hint_name(k.hint), us, n, per_2e28,
        us > 0 ? 8.0 * double(n) / us / 1e3 : 0.0, bad);
  }
  // The staged write-out, alone (C = 1) and over clusters of C blocks, at 8-bit and 11-bit digits.
  struct Staged {
    unsigned cl, digits, items;
    const void* kernel;
  };
  const Staged staged_cases[] = {
      {1, 256, 44, (const void*)write_runs_staged<1, 256, 44>},
      {2, 256, 44, (const void*)write_runs_staged<2, 256, 44>},
      {4, 256, 44, (const void*)write_runs_staged<4, 256, 44>},
      {1, 2048, 48, (const void*)write_runs_staged<1, 2048, 48>},
      {2, 2048, 48, (const void*)write_runs_staged<2, 2048, 48>},
      {4, 2048, 48, (const void*)write_runs_staged<4, 2048, 48>},
      {8, 2048, 48, (const void*)write_runs_staged<8, 2048, 48>},
  };
  for (unsigned pad : {0u, 1u})
    for (const Staged& st : staged_cases) {
      const unsigned cl = st.cl, bk = kThreads * st.items;
      const void* f = st.kernel;
      check_cuda(
          cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem_for(2))),
          "smem attribute");
      const size_t clusters = n_max / (size_t(cl) * bk), n = clusters * cl * bk;
      cudaLaunchConfig_t config = {};
      config.gridDim = dim3(unsigned(clusters * cl));
      config.blockDim = dim3(kThreads);
      config.dynamicSmemBytes = smem_for(2);
      config.stream = s;
      cudaLaunchAttribute attr[1];
      attr[0].id = cudaLaunchAttributeClusterDimension;
      attr[0].val.clusterDim.x = cl;
      attr[0].val.clusterDim.y = 1;
      attr[0].val.clusterDim.z = 1;
      config.attrs = attr;
      config.numAttrs = 1;
      int resident = 0;
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, f, kThreads, smem_for(2));
      int max_clusters = 0;
      cudaOccupancyMaxActiveClusters(&max_clusters, f, &config);
      const auto go = [&] {
        void* args[] = {&in, &out, const_cast<size_t*>(&clusters), &pad};
        check_cuda(cudaLaunchKernelExC(&config, f, args), "launch");
      };
      const auto count_wrong = [&] {
        unsigned long long bad = 0;
        cudaMemsetAsync(wrong, 0, sizeof(*wrong), s);
        check_staged<<<1024, 256, 0, s>>>(in, out, cl, st.digits, bk, clusters, pad, wrong);
        check_cuda(cudaMemcpyAsync(&bad, wrong, sizeof(bad), cudaMemcpyDeviceToHost, s), "copy");
        check_cuda(cudaStreamSynchronize(s), "check");
        return bad;
      };
      cudaMemsetAsync(out, 0, (n + kMaxPad) * 4, s);
      go();
      const unsigned long long bad = count_wrong();
      if (cl == 2 && pad == 0) {  // the check must be able to fail: one key changed, one found
        uint32_t one = 0;
        cudaMemcpy(&one, out + n / 5, 4, cudaMemcpyDeviceToHost);
        one ^= 0x100;
        cudaMemcpy(out + n / 5, &one, 4, cudaMemcpyHostToDevice);
        std::printf("staged check's self-test: one key changed, %llu found wrong (want 1)\n",
                    count_wrong());
      }
      float us = 0;
      if (once)
        go();
      else
        us = timer.median_us(go, 21);
      check_cuda(cudaStreamSynchronize(s), "run");
      const unsigned run = bk / st.digits * cl;
      std::printf(
          "staged, %4u digits, cluster of %u x 256 x %u (%zu clusters, at most %d resident), runs "
          "of %4u keys (%5u B), pad %u, %d blocks an SM: %8.1f us for %zu keys, %8.1f us per 2^28, "
          "%7.1f GB/s, wrong %llu\n",
          st.digits, cl, st.items, clusters, max_clusters, run, run * 4, pad, resident, us, n,
          us * double(n_max) / double(n), us > 0 ? 8.0 * double(n) / us / 1e3 : 0.0, bad);
    }
  cudaFree(in);
  cudaFree(out);
  cudaFree(wrong);
  return 0;
}
