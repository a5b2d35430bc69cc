// copy_if/lab/probe_v06_epoch.cu — does scan v18's epoch form (statuses tagged with the launch's
// epoch, no workspace clear) pay for copy_if v06 as it does for scan? Not part of the binary. v06
// clears its workspace with a memset inside the timed interval; against the memset before the
// timing, the clear cost it 3.3 to 4.5 µs from 2^24 to 2^28 on the H200 (copy_if/lab/LAB_NOTES.md,
// "What v06's status words cost"), a share that grows as n falls. This probe times, on the same
// input and with the benchmark's timing (common/probe_timer.cuh: L2 flushed, 31-launch medians,
// three interleaved rounds):
//   cub DeviceSelect::If   the baseline;
//   v06 shipped (memset)   v06::launch;
//   v06 cleared before     v06's kernel with the memset enqueued before the L2 flush, outside the
//                          timing: what no clear at all would give, if tagging cost nothing;
//   v06 epoch (no clear)   copy_if v09's pipeline (v06's kernel with scan v18's epoch statuses;
//                          at its first run, 2026-12-01, the same code was v06's kernel with a
//                          TAGGED template parameter) on a workspace of its own, zeroed once at
//                          the start of the program and never cleared again (the control below
//                          only sets its epoch word back): counter[0] the claim counter,
//                          counter[1] the epoch, then v09's layout;
//   v07 (no look-ahead)    the same pipeline unordered (its count checked, not its order);
//   v08 (its path for n)   v08::launch: v06 shipped from 16 v06 tiles per SM, v05 (after its
//                          clearing kernel, as the programmatic dependent) from 3 to 16 v05 tiles
//                          per SM (added for `mid`, after the first run).
// After each input's rounds it prints the epoch workspace's counter (must be 0) and epoch.
// At 2^28 (keep1, keep50, keep99), 2^26 and 2^24 (keep50), in that order on the same workspaces
// (with the argument `mid`: 2^23, 2^22 and 2^21, keep50, the sizes where v08 and v09 run v05;
// with `sizes N1,N2,...`: those n, keep50, for v09's upper bound; seeds as for lg 0),
// so the epoch form also meets statuses left by a larger n. Every ordered output is compared
// with CUB's (count and elements). A control per input must fail: the epoch set back by one
// before a launch on this input, right after a launch on the previous input (other counts; before
// the first input, one launch on zeros), so that that launch's statuses pass for new ones.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. copy_if/lab/probe_v06_epoch.cu common/device.cu -o p && ./p
// (or `cmake --build <build> --target copy_if_probe_v06_epoch`).
#include <cub/device/device_select.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "common/device.h"
#include "common/probe_timer.cuh"
#include "copy_if/v06_warp_specialized.cuh"
#include "copy_if/v07_pipelined_unordered.cuh"
#include "copy_if/v08_size_dispatch.cuh"
#include "copy_if/v09_epoch_statuses.cuh"

using namespace ladder;
using namespace ladder::copy_if;

namespace {

// v06's kernel (aligned input) on one resident wave of blocks, nothing cleared; ws is lookback's
// layout, zero at launch.
cudaError_t launch_plain(const int32_t* in, int32_t* out, unsigned long long* count, size_t n,
                         void* ws, cudaStream_t stream) {
  using namespace v06;
  constexpr size_t kSmem = kStages * size_t(stage_vecs<true>) * sizeof(int4);
  auto kernel = specialized_kernel<true, false>;
  const cudaError_t e =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem));
  if (e != cudaSuccess) return e;
  static const size_t resident =
      resident_grid(reinterpret_cast<const void*>(kernel), kBlockThreads, kSmem);
  const size_t tiles = ceil_div(n, kTile);
  kernel<<<static_cast<unsigned>(std::min(tiles, resident)), kBlockThreads, kSmem, stream>>>(
      in, out, count, n, static_cast<unsigned>(tiles), scan::lookback::tile_counter(ws),
      scan::lookback::tile_status(ws));
  return cudaGetLastError();
}
// v09's pipeline (aligned input); ws: two unsigned words (counter, epoch) in v09's 16-byte header,
// then the statuses.
cudaError_t launch_epoch(const int32_t* in, int32_t* out, unsigned long long* count, size_t n,
                         void* ws, cudaStream_t stream) {
  return v09::launch_pipeline<true>(in, out, count, n, ws, stream);
}

}  // namespace

int main(int argc, char** argv) {
  const bool mid = argc > 1 && std::string(argv[1]) == "mid";
  // `sizes N1,N2,...`: those n (elements), keep50, in that order (for v09's upper bound)
  std::vector<size_t> explicit_n;
  if (argc > 2 && std::string(argv[1]) == "sizes")
    for (const char* p = argv[2]; *p;) {
      char* end = nullptr;
      const unsigned long long v = std::strtoull(p, &end, 10);
      if (end == p || v == 0 || v > (1ull << 28)) {
        printf("sizes: expected a comma-separated list of n in [1, 2^28], got %s\n", argv[2]);
        return 2;
      }
      explicit_n.push_back(size_t(v));
      p = *end == ',' ? end + 1 : end;
      if (*end && *end != ',') {
        printf("sizes: unexpected '%c' in %s\n", *end, argv[2]);
        return 2;
      }
    }
  const size_t max_n = size_t(1) << 28;
  int32_t *in, *out, *want;
  unsigned long long *count, *want_count, *scratch;
  void *ws, *ws_epoch;
  if (cudaMalloc(&in, max_n * 4) || cudaMalloc(&out, max_n * 4) || cudaMalloc(&want, max_n * 4) ||
      cudaMalloc(&count, 8) || cudaMalloc(&want_count, 8) || cudaMalloc(&scratch, 8) ||
      cudaMalloc(&ws, 64 << 20) || cudaMalloc(&ws_epoch, 64 << 20)) {
    printf("cudaMalloc failed\n");
    return 1;
  }
  cudaMemset(ws_epoch, 0, 64 << 20);  // once: the epoch form never clears it again
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
  };
  auto nothing = [](size_t) {};
  auto clear = [&](size_t n) { cudaMemsetAsync(ws, 0, v06::workspace_bytes(n), st); };
  const std::vector<Case> cases = {
      {"cub DeviceSelect::If", true,
       [&](size_t n) {
         size_t b = cub_bytes;
         return cub::DeviceSelect::If(cub_tmp, b, in, out, count, int64_t(n), KeepPositive{}, st);
       },
       nothing},
      {"v06 shipped (memset)", true,
       [&](size_t n) { return v06::launch(in, out, count, n, ws, st); }, nothing},
      {"v06 cleared before", true,
       [&](size_t n) { return launch_plain(in, out, count, n, ws, st); }, clear},
      {"v06 epoch (no clear)", true,
       [&](size_t n) { return launch_epoch(in, out, count, n, ws_epoch, st); }, nothing},
      {"v07 (no look-ahead)", false,
       [&](size_t n) { return v07::launch(in, out, count, n, ws, st); }, nothing},
      {"v08 (its path for n)", true,
       [&](size_t n) { return v08::launch(in, out, count, n, ws, st); }, nothing},
  };
  // One launch of the epoch form on an input with nothing kept (zeros), so that the first input's
  // control too finds statuses of other counts under the tag it is set back to.
  cudaMemset(in, 0, max_n * 4);
  launch_epoch(in, out, count, max_n, ws_epoch, st);
  cudaStreamSynchronize(st);
  struct Input {
    int lg;           // n = 2^lg, or `n` where lg is 0
    unsigned per100;  // kept per hundred
    size_t n = 0;
  };
  std::vector<Input> inputs =
      mid ? std::vector<Input>{{23, 50}, {22, 50}, {21, 50}}
          : std::vector<Input>{{28, 1}, {28, 50}, {28, 99}, {26, 50}, {24, 50}};
  if (!explicit_n.empty()) {
    inputs.clear();
    for (size_t v : explicit_n) inputs.push_back({0, 50, v});
  }
  for (const Input& input : inputs) {
    const size_t n = input.lg ? size_t(1) << input.lg : input.n;
    const std::string name = input.lg ? "2^" + std::to_string(input.lg) : std::to_string(n);
    std::vector<int32_t> h(n);
    // (`sizes`: the seed takes n too, so that consecutive inputs differ and the control, which
    // reads the previous input's statuses, can fail; with one seed for all, as first written, each
    // input was a prefix of the next and the control saw 0 mismatches at every size but the first)
    uint32_t x = 12345 + input.per100 + 7 * input.lg + (input.lg ? 0 : uint32_t(n));
    for (auto& v : h) {
      x = x * 1664525u + 1013904223u;
      const uint32_t y = x >> 2;
      v = (x % 100) < input.per100 ? int32_t(1 + y % (1u << 30)) : -int32_t(y % (1u << 30));
    }
    {  // the control: the epoch set back by one, so the previous launch's statuses (the previous
       // input's counts, or none before the first) carry this launch's tag
      unsigned epoch = 0;
      cudaMemcpy(&epoch, static_cast<unsigned*>(ws_epoch) + 1, 4, cudaMemcpyDefault);
      const unsigned back = (epoch - 1) & 0x7fffffffu;
      cudaMemcpy(in, h.data(), n * 4, cudaMemcpyDefault);
      size_t b = cub_bytes;
      cub::DeviceSelect::If(cub_tmp, b, in, want, want_count, int64_t(n), KeepPositive{}, st);
      cudaStreamSynchronize(st);
      unsigned long long kept = 0;
      cudaMemcpy(&kept, want_count, 8, cudaMemcpyDefault);
      {
        cudaMemcpy(static_cast<unsigned*>(ws_epoch) + 1, &back, 4, cudaMemcpyDefault);
        const cudaError_t e = launch_epoch(in, out, count, n, ws_epoch, st);
        const unsigned long long bad = probe_timing::mismatches(out, want, kept, scratch, st);
        printf("control: epoch %u set back to %u -> mismatches %llu (must be > 0), %s, %s\n", epoch,
               back, bad, cudaGetErrorString(e), cudaGetErrorString(cudaGetLastError()));
        launch_epoch(in, out, count, n, ws_epoch, st);  // a clean launch: the next epoch again
        printf("clean launch after it: %s\n", cudaGetErrorString(cudaStreamSynchronize(st)));
      }
      printf("n = %s, keep%u: %llu kept; us: median of 31 launches\n", name.c_str(), input.per100,
             kept);
      std::vector<std::vector<float>> us(cases.size());
      for (int round = 0; round < 3; ++round)
        for (size_t c = 0; c < cases.size(); ++c) {
          cudaMemsetAsync(out, 0, n * 4, st);
          cudaMemsetAsync(count, 0xff, 8, st);
          cudaError_t err = cudaSuccess;
          const float t = timer.median_us(
              [&] {
                const cudaError_t e = cases[c].run(n);
                if (e != cudaSuccess) err = e;
              },
              [&] { cases[c].before(n); });
          cudaStreamSynchronize(st);
          unsigned long long got = 0;
          cudaMemcpy(&got, count, 8, cudaMemcpyDefault);
          const unsigned long long bad =
              cases[c].ordered ? probe_timing::mismatches(out, want, kept, scratch, st) : 0;
          if (err == cudaSuccess) err = cudaGetLastError();
          us[c].push_back(t);
          printf("round %d  %-24s %8.2f us  count %s  mismatches %llu%s  %s\n", round,
                 cases[c].name, t, got == kept ? "ok" : "WRONG", bad,
                 cases[c].ordered ? "" : " (count only)", cudaGetErrorString(err));
        }
      unsigned words[2] = {0, 0};
      cudaMemcpy(words, ws_epoch, 8, cudaMemcpyDefault);
      printf("epoch workspace: counter %u (must be 0), epoch %u\n", words[0], words[1]);
      printf("summary %s keep%u (median of the three rounds; bytes: n reads + kept writes)\n",
             name.c_str(), input.per100);
      for (size_t c = 0; c < cases.size(); ++c) {
        std::sort(us[c].begin(), us[c].end());
        const float m = us[c][1];
        printf("  %-24s %8.2f us  %7.1f GB/s\n", cases[c].name, m,
               (4.0 * n + 4.0 * kept) / m / 1e3);
      }
    }
  }
  return 0;
}
