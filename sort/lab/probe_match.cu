// sort/lab/probe_match.cu — a standalone probe toward the rungs past v12 (the first
// probe of sort/lab/LAB_NOTES.md's "Directions toward 0.80x CUB"): how much of a one-sweep pass is
// the match that ranks a tile's keys, measured on CUB's own one-sweep kernel so that only one
// thing changes at a time.
//
// CUB's SortKeys on sm_90 runs AgentRadixSortOnesweep with 384 threads x 19 keys, 8-bit digits
// and RADIX_RANK_MATCH_EARLY_COUNTS_ANY (the match built from per-bit ballots). The probe
// dispatches the same kernel through DispatchRadixSort with its own policy hub, varying:
//   rank    MATCH_EARLY_COUNTS_ANY (CUB's), or MATCH_EARLY_COUNTS_ATOMIC_OR (each key ORs its
//           lane bit into a shared word per digit: one atomic a key, whatever the digit width)
//   items   keys a thread (the tile is 384 x items)
// beside CUB's SortKeys as shipped and sort v12. Wider digits cannot be tried this way: CUB's
// one-sweep kernel keeps its tile state in static shared memory, capped at 48 KB, and with 11-bit
// digits ptxas (CUDA 13.0) asks for 124,576 bytes (ANY) and 214,688 (ATOMIC_OR) at 384 threads,
// and still 58,016 and 82,592 at 128: a three-pass rung needs its own kernel, with dynamic
// shared memory. Every variant's output is compared with SortKeys' key by key, after a run into
// a poisoned buffer; a variant that does not sort correctly is reported and not timed. Timed as the
// benchmark times (L2 flushed, the stream held by a blocking kernel, median of 21). Not part of the
// binary.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. sort/lab/probe_match.cu common/device.cu \
//     -o probe_match && ./probe_match [log2 n, default 28]
//
// Source: CUB (NVIDIA CCCL 3.0), cub/agent/agent_radix_sort_onesweep.cuh,
// cub/block/block_radix_rank.cuh (BlockRadixRankMatchEarlyCounts), and
// cub/device/dispatch/tuning/tuning_radix_sort.cuh (the sm_90 policy this one copies); A. Adinets
// and D. Merrill, "Onesweep: A Faster Least Significant Digit Radix Sort for GPUs", 2022.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/dispatch/dispatch_radix_sort.cuh>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/device.h"
#include "common/probe_timer.cuh"
#include "sort/lab/probe_common.cuh"
#include "sort/v12_large_tiles.cuh"

using namespace ladder;
using namespace ladder::sort::tuning;
using probe_timing::Timer;

namespace {

using Offset = unsigned long long;  // what SortKeys uses for a 64-bit count
using BaseHub = cub::detail::radix::policy_hub<uint32_t, cub::NullType, Offset>;

// CUB's sm_90 policy with the one-sweep pass replaced: BITS-bit digits, ITEMS keys a thread,
// ranking RANK. Everything else (the single-tile and segmented paths, unused at these sizes) is
// CUB's.
template <int BITS, int THREADS, int ITEMS, cub::RadixRankAlgorithm RANK>
struct Hub {
  struct Policy : cub::ChainedPolicy<900, Policy, Policy>, BaseHub::Policy900 {
    using cub::ChainedPolicy<900, Policy, Policy>::Invoke;
    using ActivePolicy = Policy;
    static constexpr bool ONESWEEP = true;
    static constexpr int ONESWEEP_RADIX_BITS = BITS;
    using HistogramPolicy = cub::AgentRadixSortHistogramPolicy<128, 16, 1, uint32_t, BITS>;
    using ExclusiveSumPolicy = cub::AgentRadixSortExclusiveSumPolicy<256, BITS>;
    using OnesweepPolicy = cub::AgentRadixSortOnesweepPolicy<THREADS, ITEMS, uint32_t, 1, RANK,
                                                             cub::BLOCK_SCAN_RAKING_MEMOIZE,
                                                             cub::RADIX_SORT_STORE_DIRECT, BITS>;
  };
  using MaxPolicy = Policy;
};

template <typename H>
using Dispatch = cub::DispatchRadixSort<cub::SortOrder::Ascending, uint32_t, cub::NullType, Offset,
                                        cub::detail::identity_decomposer_t, H>;

struct Env {
  size_t n = 0;
  uint32_t *in = nullptr, *out = nullptr, *want = nullptr;
  unsigned long long* scratch = nullptr;
  Timer* timer = nullptr;
  float cub_us = 0;
};

__global__ void fill_keys(uint32_t* k, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    k[i] = mix((i + 1) * 0x9e3779b97f4a7c15ull);
}

void row(const Env& e, const std::string& name, float us) {
  std::printf("%-44s %9.1f us  %5.3fx CUB  %6.1f Gkeys/s\n", name.c_str(), us, us / e.cub_us,
              e.n / us / 1e3);
}

// One hub: workspace, a checked run, then the timing.
template <int BITS, int THREADS, int ITEMS, cub::RadixRankAlgorithm RANK>
void probe(Env& e, const char* rank_name) {
  using D = Dispatch<Hub<BITS, THREADS, ITEMS, RANK>>;
  const std::string name = std::string(rank_name) + ", " + std::to_string(BITS) + "-bit, " +
                           std::to_string(THREADS) + " x " + std::to_string(ITEMS);
  cudaStream_t s = e.timer->stream();
  size_t bytes = 0;
  cub::DoubleBuffer<uint32_t> keys(e.in, e.out);
  cub::DoubleBuffer<cub::NullType> none;
  if (D::Dispatch(nullptr, bytes, keys, none, e.n, 0, 32, false, s) != cudaSuccess) {
    std::printf("%-44s dispatch failed (workspace query)\n", name.c_str());
    cudaGetLastError();
    return;
  }
  void* ws = nullptr;
  cudaMalloc(&ws, bytes);
  auto run = [&] {
    cub::DoubleBuffer<uint32_t> k(e.in, e.out);
    D::Dispatch(ws, bytes, k, none, e.n, 0, 32, false, s);
  };
  cudaMemsetAsync(e.out, 0xa5, e.n * sizeof(uint32_t), s);
  run();
  const cudaError_t err = cudaStreamSynchronize(s);
  const unsigned long long bad =
      err == cudaSuccess ? probe_timing::mismatches(e.out, e.want, e.n, e.scratch, s) : e.n;
  if (err != cudaSuccess || bad != 0) {
    std::printf("%-44s WRONG: %llu of %zu keys differ from SortKeys' (%s)\n", name.c_str(), bad,
                e.n, cudaGetErrorString(err));
    cudaGetLastError();
  } else {
    row(e, name, e.timer->median_us(run, 21));
  }
  cudaFree(ws);
}

}  // namespace

int main(int argc, char** argv) {
  const int log2n = argc > 1 ? std::atoi(argv[1]) : 28;
  Env e;
  e.n = size_t(1) << log2n;
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  Timer timer(s);
  e.timer = &timer;
  cudaMalloc(&e.in, e.n * 4);
  cudaMalloc(&e.out, e.n * 4);
  cudaMalloc(&e.want, e.n * 4);
  cudaMalloc(&e.scratch, sizeof(unsigned long long));
  fill_keys<<<1024, 256>>>(e.in, e.n);
  cudaDeviceSynchronize();

  // The baseline: SortKeys as the benchmark calls it (64-bit count).
  size_t cub_bytes = 0;
  cub::DeviceRadixSort::SortKeys(nullptr, cub_bytes, e.in, e.want, static_cast<long long>(e.n));
  void* cub_ws = nullptr;
  cudaMalloc(&cub_ws, cub_bytes);
  auto cub_run = [&] {
    cub::DeviceRadixSort::SortKeys(cub_ws, cub_bytes, e.in, e.want, static_cast<long long>(e.n), 0,
                                   32, s);
  };
  e.cub_us = timer.median_us(cub_run, 21);
  std::printf("n = 2^%d uniform keys, %s\n", log2n, query_device(0).name.c_str());
  row(e, "CUB SortKeys (as shipped)", e.cub_us);

  // Sort v12 on the same keys, checked the same way.
  {
    const size_t ws_bytes = sort::v12::workspace_bytes(e.n);
    void* ws = nullptr;
    cudaMalloc(&ws, ws_bytes);
    cudaMemset(ws, 0, ws_bytes);  // zeroed once, as the benchmark's Runner does
    auto run = [&] { sort::v12::launch(e.in, e.out, e.n, ws, s); };
    cudaMemsetAsync(e.out, 0xa5, e.n * sizeof(uint32_t), s);
    run();
    const unsigned long long bad = probe_timing::mismatches(e.out, e.want, e.n, e.scratch, s);
    if (bad)
      std::printf("sort v12: WRONG, %llu keys differ\n", bad);
    else
      row(e, "sort v12", timer.median_us(run, 21));
    cudaFree(ws);
  }

  constexpr auto kAny = cub::RADIX_RANK_MATCH_EARLY_COUNTS_ANY;
  constexpr auto kOr = cub::RADIX_RANK_MATCH_EARLY_COUNTS_ATOMIC_OR;
  probe<8, 384, 19, kAny>(e, "ANY (CUB's own hub, rebuilt)");
  probe<8, 384, 19, kOr>(e, "ATOMIC_OR");
  probe<8, 384, 15, kOr>(e, "ATOMIC_OR");
  probe<8, 384, 23, kOr>(e, "ATOMIC_OR");
  // 11-bit digits do not build (the header says why).

  cudaFree(cub_ws);
  cudaFree(e.in);
  cudaFree(e.out);
  cudaFree(e.want);
  cudaFree(e.scratch);
  return 0;
}
