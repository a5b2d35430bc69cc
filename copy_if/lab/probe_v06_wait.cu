// copy_if/lab/probe_v06_wait.cu — what do copy_if v06's status words cost: their clear, and the
// look-ahead's waits for lower tiles? Not part of the binary. v06's look-ahead warp
// (scan::lookback::advance_to) sums the published counts of every tile before the block's next
// one; a tile not yet counted by its block ends a window's run and is read again on the next
// round trip. This probe times v06's kernel (aligned input) on the same input as:
//   shipped (memset)     v06::launch: the workspace cleared by a memset inside the timed interval;
//   PDL clear            the clear a kernel (scan::lookback::clear_for_dependent_kernel) and the
//                        pipeline its programmatic dependent, both timed;
//   cleared before       the memset enqueued before the timed interval (and before the L2 flush);
//   published            every tile's count already published: a second workspace, filled by one
//                        untimed v06 run on this input, of which only the 16-byte tile counter is
//                        cleared; the look-ahead never waits for a tile;
//   ", warm"             as the two above, with the status words read back into L2 after the
//                        flush (probe_timing::touch, untimed), where a clear inside the timed
//                        interval leaves them; without it every status read misses L2.
// "cleared before, warm" against "shipped" is what the clear costs; "published, warm" against
// "cleared before, warm" what the waits for lower tiles cost; v07 (the same pipeline with no
// look-ahead; its order is not CUB's) against "published, warm" what is left of the look-ahead:
// its round trips. Also CUB's DeviceSelect::If. At 2^28 (keep1, keep50, keep99), 2^26, 2^24 and
// 2^22 (keep50); three interleaved rounds of 31-launch medians, timed as the benchmark times
// (common/probe_timer.cuh), every ordered output compared with CUB's (count and elements), v07's
// by its count.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. copy_if/lab/probe_v06_wait.cu common/device.cu -o p && ./p
// (or `cmake --build <build> --target copy_if_probe_v06_wait`; copy_if/lab/LAB_NOTES.md reads its
// output).
#include <cub/device/device_select.cuh>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

#include "common/device.h"
#include "common/probe_timer.cuh"
#include "copy_if/v06_warp_specialized.cuh"
#include "copy_if/v07_pipelined_unordered.cuh"

using namespace ladder;
using namespace ladder::copy_if;

namespace {

// v06's launch for aligned input: the specialized kernel on one resident wave of blocks.
// PDL = false: no workspace clear (the caller's `before` or a previous run leaves it as the
// variant needs). PDL = true: the clear is scan::lookback::clear_for_dependent_kernel (at most one
// 256-thread block an SM) and the pipeline is launched as its programmatic dependent.
template <bool PDL>
cudaError_t launch(const int32_t* in, int32_t* out, unsigned long long* count, size_t n, void* ws,
                   cudaStream_t stream) {
  using namespace v06;
  constexpr size_t kSmem = kStages * size_t(stage_vecs<true>) * sizeof(int4);
  auto kernel = specialized_kernel<true, PDL>;
  const cudaError_t e =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem));
  if (e != cudaSuccess) return e;
  static const size_t resident =
      resident_grid(reinterpret_cast<const void*>(kernel), kBlockThreads, kSmem);
  const size_t tiles = ceil_div(n, kTile);
  if (PDL) {
    const size_t words = workspace_bytes(n) / 8;
    const size_t blocks = std::min(ceil_div(words, size_t(256)), size_t(current_sm_count()));
    scan::lookback::clear_for_dependent_kernel<<<unsigned(blocks), 256, 0, stream>>>(
        static_cast<unsigned long long*>(ws), words);
  }
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(static_cast<unsigned>(std::min(tiles, resident)));
  cfg.blockDim = dim3(kBlockThreads);
  cfg.dynamicSmemBytes = kSmem;
  cfg.stream = stream;
  cudaLaunchAttribute attr[1] = {};
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = attr;
  cfg.numAttrs = PDL ? 1 : 0;
  return cudaLaunchKernelEx(&cfg, kernel, in, out, count, n, static_cast<unsigned>(tiles),
                            scan::lookback::tile_counter(ws), scan::lookback::tile_status(ws));
}

}  // namespace

int main() {
  const size_t max_n = size_t(1) << 28;
  int32_t *in, *out, *want;
  unsigned long long *count, *want_count, *scratch, *sink;
  void *ws, *ws_published;
  if (cudaMalloc(&in, max_n * 4) || cudaMalloc(&out, max_n * 4) || cudaMalloc(&want, max_n * 4) ||
      cudaMalloc(&count, 8) || cudaMalloc(&want_count, 8) || cudaMalloc(&scratch, 8) ||
      cudaMalloc(&sink, 8) || cudaMalloc(&ws, 64 << 20) || cudaMalloc(&ws_published, 64 << 20)) {
    printf("cudaMalloc failed\n");
    return 1;
  }
  cudaStream_t st;
  cudaStreamCreate(&st);
  probe_timing::Timer timer(st);
  size_t cub_bytes = 0;
  cub::DeviceSelect::If(nullptr, cub_bytes, in, want, want_count, int64_t(max_n), KeepPositive{});
  void* cub_tmp;
  cudaMalloc(&cub_tmp, cub_bytes);

  struct Case {
    const char* name;
    bool ordered;
    std::function<cudaError_t(size_t)> run;
    std::function<void(size_t)> before;  // enqueued before the L2 flush, outside the timing
    std::function<void(size_t)> warm;    // enqueued after the flush, outside the timing
  };
  auto nothing = [](size_t) {};
  auto warm_statuses =
      [&](void* w) {  // the status words into L2, as a clear inside would leave them
        return [&, w](size_t n) { probe_timing::touch(w, v06::workspace_bytes(n), sink, st); };
      };
  auto clear = [&](size_t n) { cudaMemsetAsync(ws, 0, v06::workspace_bytes(n), st); };
  auto clear_counter = [&](size_t) { cudaMemsetAsync(ws_published, 0, 16, st); };
  std::vector<Case> cases = {
      {"cub DeviceSelect::If", true,
       [&](size_t n) {
         size_t b = cub_bytes;
         return cub::DeviceSelect::If(cub_tmp, b, in, out, count, int64_t(n), KeepPositive{}, st);
       },
       nothing, nothing},
      {"v07 (no look-ahead)", false,
       [&](size_t n) { return v07::launch(in, out, count, n, ws, st); }, nothing, nothing},
      {"v06 shipped (memset)", true,
       [&](size_t n) { return v06::launch(in, out, count, n, ws, st); }, nothing, nothing},
      {"v06 PDL clear", true, [&](size_t n) { return launch<true>(in, out, count, n, ws, st); },
       nothing, nothing},
      {"v06 cleared before", true,
       [&](size_t n) { return launch<false>(in, out, count, n, ws, st); }, clear, nothing},
      {"v06 cleared before, warm", true,
       [&](size_t n) { return launch<false>(in, out, count, n, ws, st); }, clear,
       warm_statuses(ws)},
      {"v06 published", true,
       [&](size_t n) { return launch<false>(in, out, count, n, ws_published, st); }, clear_counter,
       nothing},
      {"v06 published, warm", true,
       [&](size_t n) { return launch<false>(in, out, count, n, ws_published, st); }, clear_counter,
       warm_statuses(ws_published)},
  };
  struct Input {
    int lg;
    unsigned per100;  // kept per hundred
  };
  const Input inputs[] = {{28, 1}, {28, 50}, {28, 99}, {26, 50}, {24, 50}, {22, 50}};
  for (const Input& input : inputs) {
    const size_t n = size_t(1) << input.lg;
    std::vector<int32_t> h(n);
    uint32_t x = 12345 + input.per100;
    for (auto& v : h) {
      x = x * 1664525u + 1013904223u;
      const uint32_t y = x >> 2;
      v = (x % 100) < input.per100 ? int32_t(1 + y % (1u << 30)) : -int32_t(y % (1u << 30));
    }
    cudaMemcpy(in, h.data(), n * 4, cudaMemcpyDefault);
    size_t b = cub_bytes;
    cub::DeviceSelect::If(cub_tmp, b, in, want, want_count, int64_t(n), KeepPositive{}, st);
    // every tile's count published in ws_published: one whole v06 run on this input
    const cudaError_t fill = v06::launch(in, out, count, n, ws_published, st);
    unsigned long long kept = 0;
    cudaStreamSynchronize(st);
    cudaMemcpy(&kept, want_count, 8, cudaMemcpyDefault);
    printf("n = 2^%d, keep%u: %llu kept (statuses filled: %s); us: median of 31 launches\n",
           input.lg, input.per100, kept, cudaGetErrorString(fill));
    {  // the check rejects a wrong answer: tile 1's published count one too many, then refilled
      scan::lookback::Status* s1 = scan::lookback::tile_status(ws_published) + 1;
      scan::lookback::Status w = 0;
      cudaMemcpy(&w, s1, 8, cudaMemcpyDefault);
      const scan::lookback::Status bad_w = w + 1;
      cudaMemcpy(s1, &bad_w, 8, cudaMemcpyDefault);
      cudaMemsetAsync(ws_published, 0, 16, st);
      launch<false>(in, out, count, n, ws_published, st);
      printf("control: tile 1's count off by one -> mismatches %llu (must be > 0)\n",
             probe_timing::mismatches(out, want, kept, scratch, st));
      v06::launch(in, out, count, n, ws_published, st);
    }
    std::vector<std::vector<float>> us(cases.size());
    for (int round = 0; round < 3; ++round)
      for (size_t c = 0; c < cases.size(); ++c) {
        cudaMemsetAsync(out, 0, n * 4, st);
        cudaMemsetAsync(count, 0xff, 8, st);
        cudaError_t err = cudaSuccess;
        const float t = timer.median_us_warmed(
            [&] {
              const cudaError_t e = cases[c].run(n);
              if (e != cudaSuccess) err = e;
            },
            [&] { cases[c].before(n); }, [&] { cases[c].warm(n); });
        cudaStreamSynchronize(st);
        unsigned long long got = 0;
        cudaMemcpy(&got, count, 8, cudaMemcpyDefault);
        const unsigned long long bad =
            cases[c].ordered ? probe_timing::mismatches(out, want, kept, scratch, st) : 0;
        if (err == cudaSuccess) err = cudaGetLastError();
        us[c].push_back(t);
        printf("round %d  %-28s %8.2f us  count %s  mismatches %llu%s  %s\n", round, cases[c].name,
               t, got == kept ? "ok" : "WRONG", bad, cases[c].ordered ? "" : " (count only)",
               cudaGetErrorString(err));
      }
    printf("summary 2^%d keep%u (median of the three rounds; bytes: n reads + kept writes)\n",
           input.lg, input.per100);
    for (size_t c = 0; c < cases.size(); ++c) {
      std::sort(us[c].begin(), us[c].end());
      const float m = us[c][1];
      printf("  %-28s %8.2f us  %7.1f GB/s\n", cases[c].name, m, (4.0 * n + 4.0 * kept) / m / 1e3);
    }
  }
  return 0;
}
