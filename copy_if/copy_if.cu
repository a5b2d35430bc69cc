// copy_if/copy_if.cu — the copy_if ladder's registry and its Runner.
//
// Every version file is included here and listed once, in ladder order; the benchmark, the
// tests and `cuda-ladder --list` all read this list.
#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>

#include "common/device.h"
#include "common/input_cache.h"
#include "copy_if/copy_if.h"
#include "copy_if/cub_baseline.cuh"
#include "copy_if/v00_serial.cuh"
#include "copy_if/v01_global_atomic.cuh"
#include "copy_if/v02_block_atomic.cuh"
#include "copy_if/v03_warp_aggregated.cuh"
#include "copy_if/v04_flags_scan_scatter.cuh"
#include "copy_if/v05_single_pass.cuh"
#include "copy_if/v06_warp_specialized.cuh"
#include "copy_if/v07_pipelined_unordered.cuh"
#include "copy_if/v08_size_dispatch.cuh"
#include "copy_if/v09_epoch_statuses.cuh"
#include "copy_if/v10_group_sums.cuh"
// Your own rungs' files (a reader's, not yet the ladder's): copy_if/mine.inc, first part.
#define LADDER_MINE_FILES
#include "copy_if/mine.inc"
#undef LADDER_MINE_FILES

namespace ladder::copy_if {
namespace {

// One problem's input on the host and the device, and the reference output, shared through the
// input cache by every version that runs on it.
struct Data {
  Problem problem;
  std::vector<int32_t> host;
  std::vector<int32_t> want;         // std::copy_if of host
  std::vector<int32_t> want_sorted;  // want in ascending order, for the unordered rungs' exact
                                     // check (empty above kExactMultiset: fingerprints)
  DeviceBuffer input;
  size_t bytes() const {
    return (host.size() + want.size() + want_sorted.size()) * sizeof(int32_t) + input.bytes();
  }
};

size_t input_bytes(const Problem& p) { return (p.offset + p.n) * sizeof(int32_t); }

std::shared_ptr<const Data> data_for(const Problem& p) {
  return input_cache().get<Data>({"copy_if", "", p}, [&] {
    generate(0, p.dist, p.seed);  // an unknown distribution throws before any allocation
    auto d = std::make_shared<Data>();
    d->problem = p;
    // Device first: a size the GPU cannot hold fails at once, before seconds of generation.
    d->input = DeviceBuffer(input_bytes(p));
    d->host = generate(p.n, p.dist, p.seed);
    d->want = reference(d->host);
    if (d->want.size() <= kExactMultiset) d->want_sorted = sorted_values(d->want);
    upload(d->input.as<int32_t>() + p.offset, d->host.data(), p.n * sizeof(int32_t));
    return d;
  });
}

class CopyIfRunner final : public Runner {
 public:
  CopyIfRunner(const Problem& p, Launcher launcher, WorkspaceFn workspace, bool ordered)
      : data_(data_for(p)),
        launcher_(launcher),
        ordered_(ordered),
        out_(std::max<size_t>(p.n, 1) * sizeof(int32_t)),
        count_(sizeof(unsigned long long)),
        workspace_(workspace(p.n), /*zero=*/true) {}

  size_t workspace_bytes() const override { return workspace_.bytes(); }
  double bytes_moved() const override {
    return copy_if::bytes_moved(data_->problem.n, data_->want.size());
  }

  void poison(cudaStream_t stream) override {
    LADDER_CUDA_TRY(cudaMemsetAsync(out_.get(), 0xa5, out_.bytes(), stream));
    LADDER_CUDA_TRY(cudaMemsetAsync(count_.get(), 0xff, count_.bytes(), stream));
  }

  std::vector<std::pair<const void*, size_t>> outputs() const override {
    return {{count_.get(), count_.bytes()}, {out_.get(), out_.bytes()}};
  }

  cudaError_t launch(cudaStream_t stream) override {
    return launcher_(data_->input.as<const int32_t>() + data_->problem.offset, out_.as<int32_t>(),
                     count_.as<unsigned long long>(), data_->problem.n, workspace_.get(), stream);
  }

  // Copies the count back first, as a user must to know how much output there is, then that
  // many values.
  CheckResult check(cudaStream_t stream) override {
    LADDER_CUDA_TRY(cudaStreamSynchronize(stream));
    unsigned long long count = 0;
    LADDER_CUDA_TRY(cudaMemcpy(&count, count_.get(), sizeof(count), cudaMemcpyDefault));
    if (count > data_->problem.n) {
      CheckResult c;
      c.max_err = static_cast<double>(count);
      c.message = "count: got " + std::to_string(count) +
                  ", more than n = " + std::to_string(data_->problem.n) + " (want " +
                  std::to_string(data_->want.size()) + ")";
      return c;
    }
    const int32_t* got = download(out_.as<const int32_t>(), count);
    return ordered_
               ? check_ordered(data_->want, got, count)
               : check_unordered(data_->want, got, count,
                                 data_->want_sorted.empty() ? nullptr : data_->want_sorted.data());
  }

 private:
  std::shared_ptr<const Data> data_;
  Launcher launcher_;
  bool ordered_;
  DeviceBuffer out_;
  DeviceBuffer count_;
  DeviceBuffer workspace_;
};

// Every entry's launcher and workspace size by slug (raw_version).
std::map<std::string, RawVersion>& raw_versions() {
  static std::map<std::string, RawVersion> by_slug;
  return by_slug;
}

Version entry(const VersionDoc& doc, Launcher launcher, WorkspaceFn workspace, bool ordered,
              size_t max_n = std::numeric_limits<size_t>::max()) {
  raw_versions()[doc.slug] = {launcher, workspace};
  Version v;
  v.op = "copy_if";
  v.doc = doc;
  v.baseline = doc.index < 0;
  v.max_n = max_n;
  v.keeps_order = ordered;
  v.make = [launcher, workspace, ordered](const Problem& p) -> std::unique_ptr<Runner> {
    return std::make_unique<CopyIfRunner>(p, launcher, workspace, ordered);
  };
  v.device_bytes = [workspace](const Problem& p) {
    return input_bytes(p) + std::max<size_t>(p.n, 1) * sizeof(int32_t) +
           sizeof(unsigned long long) + workspace(p.n);
  };
  return v;
}

constexpr bool kOrdered = true, kUnordered = false;

}  // namespace

Operator make_operator() {
  Operator op;
  op.name = "copy_if";
  op.description = "stream compaction: keep the int32 values x > 0";
  op.bytes_formula =
      "4n + 4 kept + 8 (each input read once, each kept value and the count "
      "written once)";
  op.bytes_moved = [](size_t n) { return bytes_moved(n, n / 2); };  // nominal: half kept
  op.distributions = distributions();
  op.bench_distributions = {"keep50", "keep1", "keep99"};
  op.test_sizes = {0, 1, 31, 32, 33, 1000, v08::kSingleBlockMax + 1, (1u << 20) + 7, kLadderSize};
  op.versions = {
      entry(v00::kDoc, v00::launch, v00::workspace_bytes, kOrdered, v00::kMaxN),
      entry(v01::kDoc, v01::launch, v01::workspace_bytes, kUnordered),
      entry(v02::kDoc, v02::launch, v02::workspace_bytes, kUnordered),
      entry(v03::kDoc, v03::launch, v03::workspace_bytes, kUnordered),
      entry(v04::kDoc, v04::launch, v04::workspace_bytes, kOrdered, v04::kMaxN),
      entry(v05::kDoc, v05::launch, v05::workspace_bytes, kOrdered, v05::kMaxN),
      hopper_only(entry(v06::kDoc, v06::launch, v06::workspace_bytes, kOrdered, v06::kMaxN)),
      hopper_only(entry(v07::kDoc, v07::launch, v07::workspace_bytes, kUnordered)),
      with_dispatch(entry(v08::kDoc, v08::launch, v08::workspace_bytes, kOrdered, v08::kMaxN),
                    v08::dispatch_bounds),
      with_dispatch(entry(v09::kDoc, v09::launch, v09::workspace_bytes, kOrdered, v09::kMaxN),
                    v09::dispatch_bounds),
      with_dispatch(entry(v10::kDoc, v10::launch, v10::workspace_bytes, kOrdered, v10::kMaxN),
                    v10::dispatch_bounds),
// Your own rungs, after the ladder's top rung: copy_if/mine.inc, second part.
#include "copy_if/mine.inc"
      entry(cub_baseline::kDoc, cub_baseline::launch, cub_baseline::workspace_bytes, kOrdered),
  };
  return op;
}

GroupSumsLayout group_sums_layout() {
  return {v10::kHeaderBytes, v10::kGroupArrayWords, v10::kGroupStride, v10::kGroup, v06::kTile};
}

RawVersion raw_version(const std::string& slug) {
  operators();  // the registry, built once, has called entry() for every version
  const auto it = raw_versions().find(slug);
  if (it == raw_versions().end()) throw std::invalid_argument("no copy_if version " + slug);
  return it->second;
}

}  // namespace ladder::copy_if
