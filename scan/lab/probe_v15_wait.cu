// scan/lab/probe_v15_wait.cu — what do scan v15's status words cost: their clear, and the
// look-ahead's waits for lower tiles? Not part of the binary. v15's look-ahead warp
// (scan::lookback::advance_to) sums the published aggregates of every tile before the block's next
// one; a tile not yet reduced by its block ends a window's run and is read again on the next round
// trip. This probe times v15's kernel (shipped shape, aligned input) on the same input as:
//   shipped (memset)     v15::launch: the workspace cleared by a memset inside the timed interval;
//   PDL clear            the clear a kernel (lookback::clear_for_dependent_kernel) and the
//                        pipeline its programmatic dependent, both timed;
//   cleared before       the memset enqueued before the timed interval (and before the L2 flush);
//   published            every tile's aggregate already published: a second workspace, filled by
//                        one untimed v15 run on this input, of which only the 16-byte tile counter
//                        is cleared; the look-ahead never waits for a tile;
//   ", warm"             as the two above, with the status words read back into L2 after the
//                        flush (probe_timing::touch, untimed), where a clear inside the timed
//                        interval leaves them; without it every status read misses L2.
// "cleared before, warm" against "shipped" is what the clear costs; "published, warm" against
// "cleared before, warm" what the waits for lower tiles cost. Also cudaMemcpy of the bytes (the
// copy ceiling), CUB's InclusiveSum and v14 (one-tile blocks, which scan v16 runs between one and
// twelve v15 tiles per SM). At 2^28, 2^26, 2^24, 2^23, 2^22 and 2^20 int32; three interleaved
// rounds of 31-launch medians, timed as the benchmark times (common/probe_timer.cuh), every
// output compared with CUB's (the copy's with its input).
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_wait.cu common/device.cu -o p && ./p
// (or `cmake --build <build> --target scan_probe_v15_wait`; scan/lab/LAB_NOTES.md reads its
// output).
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

#include "common/device.h"
#include "common/probe_timer.cuh"
#include "scan/lookback.cuh"
#include "scan/v14_bulk_staged.cuh"
#include "scan/v15_warp_specialized.cuh"

using namespace ladder;
using namespace ladder::scan;

namespace {

// v15's launch for the shipped shape and aligned input: the specialized kernel on one resident
// wave of blocks. PDL = false: no workspace clear (the caller's `before` or a previous run leaves
// it as the variant needs). PDL = true: the clear is lookback::clear_for_dependent_kernel (at most
// one 256-thread block an SM) and the pipeline is launched as its programmatic dependent.
template <bool PDL>
cudaError_t launch(const int32_t* in, int32_t* out, size_t n, void* ws, cudaStream_t stream) {
  using namespace v15;
  constexpr size_t kSmem = kStages * size_t(stage_vecs<kWarps, kVectors, true>) * sizeof(int4);
  auto kernel = specialized_kernel<kWarps, kVectors, kStages, kWindow, true, PDL>;
  cudaError_t e =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem));
  if (e != cudaSuccess) return e;
  static const size_t resident =
      resident_grid(reinterpret_cast<const void*>(kernel), kBlockThreads<kWarps>, kSmem);
  const size_t tiles = ceil_div(n, size_t(kTile));
  if (PDL) {
    const size_t words = lookback::workspace_bytes(tiles) / 8;
    const size_t blocks = std::min(ceil_div(words, size_t(256)), size_t(current_sm_count()));
    lookback::clear_for_dependent_kernel<<<unsigned(blocks), 256, 0, stream>>>(
        static_cast<unsigned long long*>(ws), words);
  }
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(static_cast<unsigned>(std::min(tiles, resident)));
  cfg.blockDim = dim3(kBlockThreads<kWarps>);
  cfg.dynamicSmemBytes = kSmem;
  cfg.stream = stream;
  cudaLaunchAttribute attr[1] = {};
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = attr;
  cfg.numAttrs = PDL ? 1 : 0;
  return cudaLaunchKernelEx(&cfg, kernel, in, out, n, static_cast<unsigned>(tiles),
                            lookback::tile_counter(ws), lookback::tile_status(ws));
}

}  // namespace

int main() {
  const size_t max_n = size_t(1) << 28;
  int32_t *in, *out, *want;
  unsigned long long *scratch, *sink;
  void *ws, *ws_published;
  if (cudaMalloc(&in, max_n * 4) || cudaMalloc(&out, max_n * 4) || cudaMalloc(&want, max_n * 4) ||
      cudaMalloc(&scratch, 8) || cudaMalloc(&sink, 8) || cudaMalloc(&ws, 64 << 20) ||
      cudaMalloc(&ws_published, 64 << 20)) {
    printf("cudaMalloc failed\n");
    return 1;
  }
  cudaStream_t st;
  cudaStreamCreate(&st);
  probe_timing::Timer timer(st);
  size_t cub_bytes = 0;
  cub::DeviceScan::InclusiveSum(nullptr, cub_bytes, in, out, int(max_n));
  void* cub_tmp;
  cudaMalloc(&cub_tmp, cub_bytes);

  struct Case {
    const char* name;
    bool checked;  // a scan, compared with CUB's
    std::function<cudaError_t(size_t)> run;
    std::function<void(size_t)> before;  // enqueued before the L2 flush, outside the timing
    std::function<void(size_t)> warm;    // enqueued after the flush, outside the timing
  };
  auto nothing = [](size_t) {};
  auto warm_statuses =
      [&](void* w) {  // the status words into L2, as a clear inside would leave them
        return [&, w](size_t n) { probe_timing::touch(w, v15::workspace_bytes(n), sink, st); };
      };
  std::vector<Case> cases = {
      {"cudaMemcpy", false,
       [&](size_t n) { return cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDefault, st); }, nothing,
       nothing},
      {"cub InclusiveSum", true,
       [&](size_t n) {
         size_t b = cub_bytes;
         return cub::DeviceScan::InclusiveSum(cub_tmp, b, in, out, int(n), st);
       },
       nothing, nothing},
      {"v14 (one-tile blocks)", true, [&](size_t n) { return v14::launch(in, out, n, ws, st); },
       nothing, nothing},
      {"v15 shipped (memset)", true, [&](size_t n) { return v15::launch(in, out, n, ws, st); },
       nothing, nothing},
      {"v15 PDL clear", true, [&](size_t n) { return launch<true>(in, out, n, ws, st); }, nothing,
       nothing},
      {"v15 cleared before", true, [&](size_t n) { return launch<false>(in, out, n, ws, st); },
       [&](size_t n) { cudaMemsetAsync(ws, 0, v15::workspace_bytes(n), st); }, nothing},
      {"v15 cleared before, warm", true,
       [&](size_t n) { return launch<false>(in, out, n, ws, st); },
       [&](size_t n) { cudaMemsetAsync(ws, 0, v15::workspace_bytes(n), st); }, warm_statuses(ws)},
      {"v15 published", true, [&](size_t n) { return launch<false>(in, out, n, ws_published, st); },
       [&](size_t) { cudaMemsetAsync(ws_published, 0, 16, st); },  // the tile counter only
       nothing},
      {"v15 published, warm", true,
       [&](size_t n) { return launch<false>(in, out, n, ws_published, st); },
       [&](size_t) { cudaMemsetAsync(ws_published, 0, 16, st); }, warm_statuses(ws_published)},
  };
  for (int lg : {28, 26, 24, 23, 22, 20}) {
    const size_t n = size_t(1) << lg;
    std::vector<int32_t> h(n);
    uint32_t x = 2024;
    for (auto& v : h) {
      x = x * 1664525u + 1013904223u;
      v = int32_t(x >> 24) - 128;
    }
    cudaMemcpy(in, h.data(), n * 4, cudaMemcpyDefault);
    size_t b = cub_bytes;
    cub::DeviceScan::InclusiveSum(cub_tmp, b, in, want, int(n), st);
    const cudaError_t fill = v15::launch(in, out, n, ws_published, st);  // every aggregate
    cudaStreamSynchronize(st);
    printf("n = 2^%d (statuses filled: %s); us: median of 31 launches\n", lg,
           cudaGetErrorString(fill));
    {  // the check rejects a wrong answer: tile 1's published aggregate one too large, refilled
      lookback::Status* s1 = lookback::tile_status(ws_published) + 1;
      lookback::Status w = 0;
      cudaMemcpy(&w, s1, 8, cudaMemcpyDefault);
      const lookback::Status bad_w = w + 1;
      cudaMemcpy(s1, &bad_w, 8, cudaMemcpyDefault);
      cudaMemsetAsync(ws_published, 0, 16, st);
      launch<false>(in, out, n, ws_published, st);
      printf("control: tile 1's aggregate off by one -> mismatches %llu (must be > 0)\n",
             probe_timing::mismatches(out, want, n, scratch, st));
      v15::launch(in, out, n, ws_published, st);
    }
    std::vector<std::vector<float>> us(cases.size());
    for (int round = 0; round < 3; ++round)
      for (size_t c = 0; c < cases.size(); ++c) {
        cudaMemsetAsync(out, 0, n * 4, st);
        cudaError_t err = cudaSuccess;
        const float t = timer.median_us_warmed(
            [&] {
              const cudaError_t e = cases[c].run(n);
              if (e != cudaSuccess) err = e;
            },
            [&] { cases[c].before(n); }, [&] { cases[c].warm(n); });
        const unsigned long long bad = probe_timing::mismatches(
            out, cases[c].checked ? want : in, n, scratch, st);  // a copy: against its input
        if (err == cudaSuccess) err = cudaGetLastError();
        us[c].push_back(t);
        printf("round %d  %-28s %8.2f us  mismatches %llu  %s\n", round, cases[c].name, t, bad,
               cudaGetErrorString(err));
      }
    printf("summary 2^%d (median of the three rounds; per cent of cudaMemcpy's speed)\n", lg);
    std::vector<float> med(cases.size());
    for (size_t c = 0; c < cases.size(); ++c) {
      std::sort(us[c].begin(), us[c].end());
      med[c] = us[c][1];
    }
    for (size_t c = 0; c < cases.size(); ++c)
      printf("  %-28s %8.2f us  %6.1f%%\n", cases[c].name, med[c], 100.0 * med[0] / med[c]);
  }
  return 0;
}
