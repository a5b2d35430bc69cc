// sort/sort.cu — the sort ladders' registry and their Runners: "sort" (keys) and "sort_pairs"
// (key-value pairs, the best rung and CUB).
//
// Every version file is included here and listed once, in ladder order; the benchmark, the
// tests and `cuda-ladder --list` all read this list.
#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>

#include <thrust/execution_policy.h>
#include <thrust/sequence.h>

#include "common/device.h"
#include "common/input_cache.h"
#include "common/parallel.h"
#include "sort/cub_baseline.cuh"
#include "sort/sort.h"
#include "sort/v00_serial.cuh"
#include "sort/v01_bitonic_global.cuh"
#include "sort/v02_bitonic_shared.cuh"
#include "sort/v03_merge_sort.cuh"
#include "sort/v04_radix_lsd.cuh"
#include "sort/v05_onesweep.cuh"
#include "sort/v06_onesweep_ballot.cuh"
#include "sort/v07_small_n_dispatch.cuh"
#include "sort/v08_short_circuit.cuh"
#include "sort/v09_striped_histogram.cuh"
#include "sort/v10_narrow_status.cuh"
#include "sort/v11_merge_small.cuh"
#include "sort/v12_large_tiles.cuh"
#include "sort/v13_more_warps.cuh"
#include "sort/v14_l2_prefetch.cuh"
#include "sort/v15_counted_ahead.cuh"
#include "sort/v16_top_digits_first.cuh"
#include "sort/v17_constant_buckets.cuh"
// Your own rungs' files (a reader's, not yet the ladder's): sort/mine.inc, first part.
#define LADDER_MINE_FILES
#include "sort/mine.inc"
#undef LADDER_MINE_FILES

namespace ladder::sort {
namespace {

// One problem's keys on the host and the device, and the sorted reference, shared through the
// input cache by every version that runs on it, of sort and of sort_pairs alike.
struct Keys {
  Problem problem;
  HostVector<uint32_t> host;
  HostVector<uint32_t> want;
  DeviceBuffer keys;
  size_t bytes() const { return (host.size() + want.size()) * sizeof(uint32_t) + keys.bytes(); }
};

// sort_pairs' input: the keys above and the values 0..n-1 on the device.
struct Data {
  std::shared_ptr<const Keys> keys;
  DeviceBuffer values;
  size_t bytes() const { return values.bytes(); }  // the keys are their own entry
};

size_t keys_bytes(const Problem& p) { return (p.offset + p.n) * sizeof(uint32_t); }

std::shared_ptr<const Keys> keys_for(const Problem& p) {
  return input_cache().get<Keys>({"sort", "keys", p}, [&] {
    generate(0, p.dist, p.seed);  // an unknown distribution throws before any allocation
    auto d = std::make_shared<Keys>();
    d->problem = p;
    d->keys = DeviceBuffer(keys_bytes(p));
    d->host.resize(p.n);  // left unwritten: generated and sorted on every core
    d->want.resize(p.n);
    generate_into(d->host.data(), p.n, p.dist, p.seed);
    reference_into(d->host.data(), p.n, d->want.data());
    upload(d->keys.as<uint32_t>() + p.offset, d->host.data(), p.n * sizeof(uint32_t));
    return d;
  });
}

std::shared_ptr<const Data> data_for(const Problem& p, bool pairs) {
  // The keys first, so that they are in use (not freed to make room) when the pairs' values
  // are made: sort_pairs then reuses the keys sort's benchmarks generated.
  std::shared_ptr<const Keys> keys = keys_for(p);
  return input_cache().get<Data>({"sort", pairs ? "pairs" : "keys", p}, [&] {
    auto d = std::make_shared<Data>();
    d->keys = keys;
    if (pairs) {
      d->values = DeviceBuffer(keys_bytes(p));
      uint32_t* values = d->values.as<uint32_t>() + p.offset;  // 0, 1, ..., n - 1, made here
      thrust::sequence(thrust::device, values, values + p.n, 0u);
      LADDER_CUDA_TRY(cudaDeviceSynchronize());
    }
    return d;
  });
}

class SortRunner final : public Runner {
 public:
  SortRunner(const Problem& p, Launcher keys, PairsLauncher pairs, WorkspaceFn workspace)
      : data_(data_for(p, pairs != nullptr)),
        keys_(keys),
        pairs_(pairs),
        out_keys_(std::max<size_t>(p.n, 1) * sizeof(uint32_t)),
        out_vals_(pairs ? std::max<size_t>(p.n, 1) * sizeof(uint32_t) : 0),
        workspace_(workspace(p.n), /*zero=*/true) {}

  size_t workspace_bytes() const override { return workspace_.bytes(); }
  double bytes_moved() const override {
    return pairs_ ? bytes_moved_pairs(keys().problem.n) : sort::bytes_moved(keys().problem.n);
  }

  void poison(cudaStream_t stream) override {
    LADDER_CUDA_TRY(cudaMemsetAsync(out_keys_.get(), 0xa5, out_keys_.bytes(), stream));
    if (pairs_) LADDER_CUDA_TRY(cudaMemsetAsync(out_vals_.get(), 0xa5, out_vals_.bytes(), stream));
  }

  std::vector<std::pair<const void*, size_t>> outputs() const override {
    if (pairs_) return {{out_keys_.get(), out_keys_.bytes()}, {out_vals_.get(), out_vals_.bytes()}};
    return {{out_keys_.get(), out_keys_.bytes()}};
  }

  cudaError_t launch(cudaStream_t stream) override {
    const size_t off = keys().problem.offset, n = keys().problem.n;
    if (pairs_)
      return pairs_(keys().keys.as<const uint32_t>() + off,
                    data_->values.as<const uint32_t>() + off, out_keys_.as<uint32_t>(),
                    out_vals_.as<uint32_t>(), n, workspace_.get(), stream);
    return keys_(keys().keys.as<const uint32_t>() + off, out_keys_.as<uint32_t>(), n,
                 workspace_.get(), stream);
  }

  CheckResult check(cudaStream_t stream) override {
    LADDER_CUDA_TRY(cudaStreamSynchronize(stream));
    const size_t n = keys().problem.n;
    const uint32_t* got = download(out_keys_.as<const uint32_t>(), n, 0);
    if (!pairs_) return check_keys(keys().want.data(), keys().want.size(), got);
    const uint32_t* vals = download(out_vals_.as<const uint32_t>(), n, 1);
    return check_pairs(keys().host.data(), keys().want.data(), keys().want.size(), got, vals);
  }

 private:
  const Keys& keys() const { return *data_->keys; }
  std::shared_ptr<const Data> data_;
  Launcher keys_;
  PairsLauncher pairs_;
  DeviceBuffer out_keys_, out_vals_;
  DeviceBuffer workspace_;
};

Version entry(const std::string& op, const VersionDoc& doc, Launcher keys, PairsLauncher pairs,
              WorkspaceFn workspace, size_t max_n = std::numeric_limits<size_t>::max()) {
  Version v;
  v.op = op;
  v.doc = doc;
  v.baseline = doc.index < 0;
  v.max_n = max_n;
  v.make = [keys, pairs, workspace](const Problem& p) -> std::unique_ptr<Runner> {
    return std::make_unique<SortRunner>(p, keys, pairs, workspace);
  };
  v.device_bytes = [pairs, workspace](const Problem& p) {
    const size_t out = std::max<size_t>(p.n, 1) * sizeof(uint32_t);
    return (pairs ? 2 : 1) * (keys_bytes(p) + out) + workspace(p.n);
  };
  return v;
}

}  // namespace

Operator make_operator() {
  Operator op;
  op.name = "sort";
  op.description = "ascending sort of n uint32 keys";
  op.bytes_formula =
      "32n: one read and one write of the keys per pass of an 8-bit-digit radix sort (4 passes)";
  op.bytes_moved = bytes_moved;
  op.distributions = distributions();
  op.bench_distributions = {"uniform", "sorted", "few"};
  // At 2^31 + 17 (the opt-in huge tests): uniform keys take v17's hybrid road (v16's), few its
  // third road, whose count holds 32-bit totals. At 2^32 + 5 v17 sorts two parts of about
  // 2^31 keys on those roads and merges them (sort/merge_parts.cuh).
  op.huge_distributions = {"uniform", "few"};
  op.test_sizes = {0, 1, 2, 31, 33, 1000, (1u << 20) + 7, kLadderSize};
  const std::string s = "sort";
  op.versions = {
      entry(s, v00::kDoc, v00::launch, nullptr, v00::workspace_bytes, v00::kMaxN),
      entry(s, v01::kDoc, v01::launch, nullptr, v01::workspace_bytes, v01::kMaxN),
      entry(s, v02::kDoc, v02::launch, nullptr, v02::workspace_bytes, v02::kMaxN),
      entry(s, v03::kDoc, v03::launch, nullptr, v03::workspace_bytes, v03::kMaxN),
      entry(s, v04::kDoc, v04::launch, nullptr, v04::workspace_bytes, v04::kMaxN),
      entry(s, v05::kDoc, v05::launch, nullptr, v05::workspace_bytes, v05::kMaxN),
      entry(s, v06::kDoc, v06::launch, nullptr, v06::workspace_bytes, v06::kMaxN),
      with_dispatch(entry(s, v07::kDoc, v07::launch, nullptr, v07::workspace_bytes, v07::kMaxN),
                    v07::dispatch_bounds),
      with_dispatch(entry(s, v08::kDoc, v08::launch, nullptr, v08::workspace_bytes, v08::kMaxN),
                    v08::dispatch_bounds),
      with_dispatch(entry(s, v09::kDoc, v09::launch, nullptr, v09::workspace_bytes, v09::kMaxN),
                    v09::dispatch_bounds),
      with_dispatch(entry(s, v10::kDoc, v10::launch, nullptr, v10::workspace_bytes, v10::kMaxN),
                    v10::dispatch_bounds),
      with_dispatch(entry(s, v11::kDoc, v11::launch, nullptr, v11::workspace_bytes, v11::kMaxN),
                    v11::dispatch_bounds),
      with_dispatch(entry(s, v12::kDoc, v12::launch, nullptr, v12::workspace_bytes, v12::kMaxN),
                    v12::dispatch_bounds),
      with_dispatch(entry(s, v13::kDoc, v13::launch, nullptr, v13::workspace_bytes, v13::kMaxN),
                    v13::dispatch_bounds),
      with_dispatch(entry(s, v14::kDoc, v14::launch, nullptr, v14::workspace_bytes, v14::kMaxN),
                    v14::dispatch_bounds),
      with_dispatch(entry(s, v15::kDoc, v15::launch, nullptr, v15::workspace_bytes, v15::kMaxN),
                    v15::dispatch_bounds),
      with_dispatch(entry(s, v16::kDoc, v16::launch, nullptr, v16::workspace_bytes, v16::kMaxN),
                    v16::dispatch_bounds),
      with_dispatch(entry(s, v17::kDoc, v17::launch, nullptr, v17::workspace_bytes, v17::kMaxN),
                    v17::dispatch_bounds),
// Your own rungs, after the ladder's top rung: sort/mine.inc, second part.
#include "sort/mine.inc"
      entry(s, cub_baseline::kDoc, cub_baseline::launch, nullptr, cub_baseline::workspace_bytes),
      entry(s, cub_baseline::kMergeDoc, cub_baseline::launch_merge, nullptr,
            cub_baseline::merge_workspace_bytes),
  };
  return op;
}

cudaError_t digit_histogram(const std::string& kernel, const uint32_t* keys, size_t n,
                            unsigned* hist) {
  cudaError_t e;
  if (kernel == "v06")
    e = v08::v06_histogram(keys, n, hist, nullptr);
  else if (kernel == "v09-16")
    e = v09::launch_striped<16>(keys, n, hist, nullptr);
  else if (kernel == "v09-32")
    e = v09::launch_striped<32>(keys, n, hist, nullptr);
  else
    throw std::invalid_argument("digit_histogram: unknown kernel '" + kernel + "'");
  return e != cudaSuccess ? e : cudaDeviceSynchronize();
}

Operator make_pairs_operator() {
  Operator op;
  op.name = "sort_pairs";
  op.description = "stable ascending sort of n (uint32 key, uint32 value) pairs by key";
  op.bytes_formula = "64n: one read and one write of keys and values per pass (4 passes)";
  op.variant_of = "sort";
  op.bytes_moved = bytes_moved_pairs;
  op.distributions = distributions();
  op.bench_distributions = {"uniform"};
  op.test_sizes = {0, 1, 2, 31, 33, 1000, (1u << 20) + 7, kLadderSize};
  const std::string s = "sort_pairs";
  op.versions = {
      entry(s, v05::kDoc, nullptr, v05::launch_pairs, v05::workspace_bytes_pairs, v05::kMaxN),
      entry(s, v06::kDoc, nullptr, v06::launch_pairs, v06::workspace_bytes_pairs, v06::kMaxN),
      with_dispatch(
          entry(s, v07::kDoc, nullptr, v07::launch_pairs, v07::workspace_bytes_pairs, v07::kMaxN),
          v07::dispatch_bounds),
      with_dispatch(
          entry(s, v08::kDoc, nullptr, v08::launch_pairs, v08::workspace_bytes_pairs, v08::kMaxN),
          v08::dispatch_bounds),
      with_dispatch(
          entry(s, v09::kDoc, nullptr, v09::launch_pairs, v09::workspace_bytes_pairs, v09::kMaxN),
          v09::dispatch_bounds),
      with_dispatch(
          entry(s, v10::kDoc, nullptr, v10::launch_pairs, v10::workspace_bytes_pairs, v10::kMaxN),
          v10::dispatch_bounds),
      with_dispatch(
          entry(s, v12::kDoc, nullptr, v12::launch_pairs, v12::workspace_bytes_pairs, v12::kMaxN),
          v12::dispatch_bounds_pairs),
      with_dispatch(
          // The problem's values are the pairs' 32-bit input indices, so it stops at 2^32 - 1
          // pairs, though launch_pairs takes up to v16::kMaxNPairs (its road past 2^32 - 1 is
          // tested with a lowered bound: LADDER_SORT_PART_KEYS).
          entry(s, v16::kDoc, nullptr, v16::launch_pairs, v16::workspace_bytes_pairs, v16::kMaxN),
          v16::dispatch_bounds_pairs),
      entry(s, cub_baseline::kPairsDoc, nullptr, cub_baseline::launch_pairs,
            cub_baseline::pairs_workspace_bytes),
  };
  return op;
}

}  // namespace ladder::sort
