// reduce/reduce.cu — the reduce ladder's registry and its Runner.
//
// Every version file is included here and listed once, in ladder order; the benchmark, the
// tests and `cuda-ladder --list` all read this list.
#include <algorithm>
#include <limits>

#include "common/device.h"
#include "common/input_cache.h"
#include "reduce/cub_baseline.cuh"
#include "reduce/reduce.h"
#include "reduce/v00_serial.cuh"
#include "reduce/v01_interleaved_divergent.cuh"
#include "reduce/v02_strided_index.cuh"
#include "reduce/v03_sequential_addressing.cuh"
#include "reduce/v04_first_add_during_load.cuh"
#include "reduce/v05_unroll_last_warp.cuh"
#include "reduce/v06_complete_unroll.cuh"
#include "reduce/v07_grid_stride.cuh"
#include "reduce/v08_warp_shuffle.cuh"
#include "reduce/v09_vectorized.cuh"
#include "reduce/v10_single_pass.cuh"
#include "reduce/v11_tiled_loads.cuh"
#include "reduce/v12_size_dispatch.cuh"
// Your own rungs' files (a reader's, not yet the ladder's): reduce/mine.inc, first part.
#define LADDER_MINE_FILES
#include "reduce/mine.inc"
#undef LADDER_MINE_FILES

namespace ladder::reduce {
namespace {

// One problem's input on the device, with its reference, shared through the input cache by
// every version that runs on it.
struct Data {
  Problem problem;
  Reference ref;
  DeviceBuffer input;
  size_t bytes() const { return input.bytes(); }
};

size_t input_bytes(const Problem& p) { return (p.offset + p.n) * sizeof(float); }

// The device buffer is allocated first, so a size the GPU cannot hold fails at once with a
// clear message; the input is then generated and copied in 64 MiB pieces, so host memory does
// not grow with n.
std::shared_ptr<const Data> data_for(const Problem& p) {
  return input_cache().get<Data>({"reduce", "", p}, [&] {
    SplitMix64 rng(p.seed);
    fill(nullptr, 0, p.dist, rng);  // an unknown distribution throws before any allocation
    auto d = std::make_shared<Data>();
    d->problem = p;
    d->input = DeviceBuffer(input_bytes(p));
    std::vector<float> piece(std::min<size_t>(p.n, size_t(1) << 24));
    for (size_t done = 0; done < p.n;) {
      const size_t count = std::min(piece.size(), p.n - done);
      fill(piece.data(), count, p.dist, rng, done);
      accumulate(d->ref, piece.data(), count);
      upload(d->input.as<float>() + p.offset + done, piece.data(), count * sizeof(float));
      done += count;
    }
    return d;
  });
}

class ReduceRunner final : public Runner {
 public:
  ReduceRunner(const Problem& p, Launcher launcher, WorkspaceFn workspace)
      : data_(data_for(p)),
        launcher_(launcher),
        workspace_(workspace(p.n), /*zero=*/true),
        out_(sizeof(float)) {}

  size_t workspace_bytes() const override { return workspace_.bytes(); }

  void poison(cudaStream_t stream) override {
    LADDER_CUDA_TRY(cudaMemsetAsync(out_.get(), 0xff, sizeof(float), stream));  // NaN bits
  }

  cudaError_t launch(cudaStream_t stream) override {
    return launcher_(data_->input.as<const float>() + data_->problem.offset, out_.as<float>(),
                     data_->problem.n, workspace_.get(), stream);
  }

  CheckResult check(cudaStream_t stream) override {
    float got = 0;
    LADDER_CUDA_TRY(cudaStreamSynchronize(stream));
    LADDER_CUDA_TRY(cudaMemcpy(&got, out_.get(), sizeof(float), cudaMemcpyDefault));
    return check_sum(got, data_->ref);
  }

 private:
  std::shared_ptr<const Data> data_;
  Launcher launcher_;
  DeviceBuffer workspace_;
  DeviceBuffer out_;
};

Version entry(const VersionDoc& doc, Launcher launcher, WorkspaceFn workspace,
              size_t max_n = std::numeric_limits<size_t>::max()) {
  Version v;
  v.op = "reduce";
  v.doc = doc;
  v.baseline = doc.index < 0;
  v.max_n = max_n;
  v.make = [launcher, workspace](const Problem& p) -> std::unique_ptr<Runner> {
    return std::make_unique<ReduceRunner>(p, launcher, workspace);
  };
  v.device_bytes = [workspace](const Problem& p) {
    return input_bytes(p) + workspace(p.n) + sizeof(float);
  };
  return v;
}

}  // namespace

Operator make_operator() {
  Operator op;
  op.name = "reduce";
  op.description = "sum of n float32 values";
  op.bytes_formula = "4n (each input read once)";
  op.bytes_moved = bytes_moved;
  op.distributions = distributions();
  op.test_sizes = {0,
                   1,
                   31,
                   32,
                   33,
                   255,
                   256,
                   257,
                   1000,
                   v12::kSingleBlockMax,
                   v12::kSingleBlockMax + 1,
                   (1u << 20) + 7,
                   kLadderSize};
  op.huge_distributions = {"uniform", "one_per_256"};  // the second checks exactly
  op.versions = {
      entry(v00::kDoc, v00::launch, v00::workspace_bytes, v00::kMaxN),
      entry(v01::kDoc, v01::launch, v01::workspace_bytes),
      entry(v02::kDoc, v02::launch, v02::workspace_bytes),
      entry(v03::kDoc, v03::launch, v03::workspace_bytes),
      entry(v04::kDoc, v04::launch, v04::workspace_bytes),
      entry(v05::kDoc, v05::launch, v05::workspace_bytes),
      entry(v06::kDoc, v06::launch, v06::workspace_bytes),
      entry(v07::kDoc, v07::launch, v07::workspace_bytes),
      entry(v08::kDoc, v08::launch, v08::workspace_bytes),
      entry(v09::kDoc, v09::launch, v09::workspace_bytes),
      entry(v10::kDoc, v10::launch, v10::workspace_bytes),
      entry(v11::kDoc, v11::launch, v11::workspace_bytes),
      with_dispatch(entry(v12::kDoc, v12::launch, v12::workspace_bytes),
                    [] {
                      return std::vector<size_t>{v12::kSmallBlockMax, v12::kSingleBlockMax};
                    }),
// Your own rungs, after the ladder's top rung: reduce/mine.inc, second part.
#include "reduce/mine.inc"
      entry(cub_baseline::kDoc, cub_baseline::launch, cub_baseline::workspace_bytes),
  };
  return op;
}

cudaError_t best_sum(const float* in, float* out, size_t n, void* ws, cudaStream_t stream) {
  return v12::launch(in, out, n, ws, stream);
}
size_t best_sum_workspace_bytes(size_t n) { return v12::workspace_bytes(n); }
cudaError_t cub_sum(const float* in, float* out, size_t n, void* ws, cudaStream_t stream) {
  return cub_baseline::launch(in, out, n, ws, stream);
}
size_t cub_sum_workspace_bytes(size_t n) { return cub_baseline::workspace_bytes(n); }

}  // namespace ladder::reduce
