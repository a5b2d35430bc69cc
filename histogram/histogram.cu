// histogram/histogram.cu — the histogram ladders' registry (int32 and uint8) and their Runner.
//
// Every version file is included here and listed once, in ladder order, for each sample type;
// the benchmark, the tests and `cuda-ladder --list` all read these lists.
#include <algorithm>
#include <limits>
#include <type_traits>

#include "common/device.h"
#include "common/input_cache.h"
#include "histogram/cub_baseline.cuh"
#include "histogram/histogram.h"
#include "histogram/v00_serial.cuh"
#include "histogram/v01_global_atomics.cuh"
#include "histogram/v02_shared_privatized.cuh"
#include "histogram/v03_per_warp.cuh"
#include "histogram/v04_vectorized_match.cuh"
#include "histogram/v05_lane_striped.cuh"
// Your own rungs' files (a reader's, not yet the ladder's): histogram/mine.inc, first part.
#define LADDER_MINE_FILES
#include "histogram/mine.inc"
#undef LADDER_MINE_FILES

namespace ladder::histogram {
namespace {

// One problem's samples on the device with the reference counts, shared through the input
// cache by every version that runs on it. The device buffer is allocated first and the samples
// are generated and copied in 64 MiB pieces (host memory stays flat).
template <typename T>
struct Data {
  Problem problem;
  Counts ref{};
  DeviceBuffer input;
  size_t bytes() const { return input.bytes(); }
};

template <typename T>
size_t input_bytes(const Problem& p) {
  return (p.offset + p.n) * sizeof(T);
}

template <typename T>
std::shared_ptr<const Data<T>> data_for(const Problem& p) {
  return input_cache().get<Data<T>>({"histogram", sizeof(T) == 1 ? "u8" : "i32", p}, [&] {
    auto d = std::make_shared<Data<T>>();
    d->problem = p;
    SplitMix64 rng(p.seed);
    fill(static_cast<T*>(nullptr), 0, p.dist,
         rng);  // an unknown distribution throws before any allocation
    d->input = DeviceBuffer(input_bytes<T>(p));
    std::vector<T> piece(std::min<size_t>(p.n, (size_t(64) << 20) / sizeof(T)));
    for (size_t done = 0; done < p.n;) {
      const size_t count = std::min(piece.size(), p.n - done);
      fill(piece.data(), count, p.dist, rng);
      accumulate(d->ref, piece.data(), count);
      upload(d->input.template as<T>() + p.offset + done, piece.data(), count * sizeof(T));
      done += count;
    }
    return d;
  });
}

template <typename T>
class HistogramRunner final : public Runner {
 public:
  HistogramRunner(const Problem& p, Launcher<T> launcher, WorkspaceFn workspace)
      : data_(data_for<T>(p)),
        launcher_(launcher),
        workspace_(workspace(p.n), /*zero=*/true),
        bins_(kBins * sizeof(unsigned)) {}

  size_t workspace_bytes() const override { return workspace_.bytes(); }

  void poison(cudaStream_t stream) override {
    LADDER_CUDA_TRY(cudaMemsetAsync(bins_.get(), 0xa5, bins_.bytes(), stream));
  }

  cudaError_t launch(cudaStream_t stream) override {
    return launcher_(data_->input.template as<const T>() + data_->problem.offset,
                     bins_.as<unsigned>(), data_->problem.n, workspace_.get(), stream);
  }

  CheckResult check(cudaStream_t stream) override {
    unsigned got[kBins];
    LADDER_CUDA_TRY(cudaStreamSynchronize(stream));
    LADDER_CUDA_TRY(cudaMemcpy(got, bins_.get(), sizeof(got), cudaMemcpyDefault));
    return check_bins(got, data_->ref);
  }

 private:
  std::shared_ptr<const Data<T>> data_;
  Launcher<T> launcher_;
  DeviceBuffer workspace_;
  DeviceBuffer bins_;
};

template <typename T>
Version entry(const char* op, const VersionDoc& doc, Launcher<T> launcher, WorkspaceFn workspace,
              size_t max_n = std::numeric_limits<size_t>::max()) {
  Version v;
  v.op = op;
  v.doc = doc;
  v.baseline = doc.index < 0;
  v.max_n = max_n;
  v.make = [launcher, workspace](const Problem& p) -> std::unique_ptr<Runner> {
    return std::make_unique<HistogramRunner<T>>(p, launcher, workspace);
  };
  v.device_bytes = [workspace](const Problem& p) {
    return input_bytes<T>(p) + workspace(p.n) + kBins * sizeof(unsigned);
  };
  return v;
}

template <typename T>
Operator make_operator(const char* name, const char* description, const char* bytes) {
  Operator op;
  op.name = name;
  op.description = description;
  op.bytes_formula = bytes;
  op.bytes_moved = bytes_moved<T>;
  op.distributions = distributions<T>();
  op.bench_distributions = {"uniform", "skewed", "degenerate"};  // side by side
  op.test_sizes = {0, 1, 31, 32, 33, 1000, (1u << 20) + 7, kLadderSize};
  op.versions = {
      entry<T>(name, v00::kDoc, v00::launch<T>, v00::workspace_bytes, v00::kMaxN),
      entry<T>(name, v01::kDoc, v01::launch<T>, v01::workspace_bytes),
      entry<T>(name, v02::kDoc, v02::launch<T>, v02::workspace_bytes),
      entry<T>(name, v03::kDoc, v03::launch<T>, v03::workspace_bytes),
      entry<T>(name, v04::kDoc, v04::launch<T>, v04::workspace_bytes),
      entry<T>(name, v05::kDoc, v05::launch<T>, v05::workspace_bytes),
// Your own rungs, after the ladder's top rung: histogram/mine.inc, second part.
#include "histogram/mine.inc"
      entry<T>(name, cub_baseline::kDoc, cub_baseline::launch<T>,
               cub_baseline::workspace_bytes_for<T>),
  };
  if constexpr (std::is_same_v<T, int32_t>)  // uint8: the level type makes no difference
    op.versions.push_back(entry<T>(name, cub_baseline::kIntLevelsDoc, cub_baseline::launch<T, int>,
                                   cub_baseline::workspace_bytes_for<T, int>));
  return op;
}

}  // namespace

Operator make_operator_i32() {
  return make_operator<int32_t>("histogram", "256-bin histogram of int32 samples in [0, 256)",
                                "4n (each sample read once)");
}

Operator make_operator_u8() {
  return make_operator<uint8_t>("histogram_u8", "256-bin histogram of uint8 samples",
                                "n (each sample read once)");
}

}  // namespace ladder::histogram
