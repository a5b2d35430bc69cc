// scan/scan.cu — the scan ladder's registry and its Runner.
//
// Every version file is included here and listed once, in ladder order; the benchmark, the
// tests and `cuda-ladder --list` all read this list.
#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>

#include "common/device.h"
#include "common/input_cache.h"
#include "common/parallel.h"
#include "scan/cub_baseline.cuh"
#include "scan/scan.h"
#include "scan/v00_serial.cuh"
#include "scan/v01_scan_then_fan.cuh"
#include "scan/v02_shared_memory.cuh"
#include "scan/v03_warp_organized.cuh"
#include "scan/v04_kogge_stone.cuh"
#include "scan/v05_zero_padding.cuh"
#include "scan/v06_recursive.cuh"
#include "scan/v07_blelloch.cuh"
#include "scan/v08_warp_shuffle.cuh"
#include "scan/v09_ptx_predicated.cuh"
#include "scan/v10_reduce_then_scan.cuh"
#include "scan/v11_two_pass.cuh"
#include "scan/v12_decoupled_lookback.cuh"
#include "scan/v13_vectorized_lookback.cuh"
#include "scan/v14_bulk_staged.cuh"
#include "scan/v15_warp_specialized.cuh"
#include "scan/v16_size_dispatch.cuh"
#include "scan/v17_aged_lookahead.cuh"
#include "scan/v18_epoch_statuses.cuh"
// Your own rungs' files (a reader's, not yet the ladder's): scan/mine.inc, first part.
#define LADDER_MINE_FILES
#include "scan/mine.inc"
#undef LADDER_MINE_FILES

namespace ladder::scan {
namespace {

// One problem's input, on the host (the check recomputes the reference from it) and on the
// device, shared through the input cache by every version that runs on it.
struct Data {
  Problem problem;
  std::vector<int32_t> host;
  DeviceBuffer input;
  size_t bytes() const { return host.size() * sizeof(int32_t) + input.bytes(); }
};

size_t input_bytes(const Problem& p) { return (p.offset + p.n) * sizeof(int32_t); }

std::shared_ptr<const Data> data_for(const Problem& p) {
  return input_cache().get<Data>({"scan", "", p}, [&] {
    generate(0, p.dist, p.seed);  // an unknown distribution throws before any allocation
    auto d = std::make_shared<Data>();
    d->problem = p;
    // Device first: a size the GPU cannot hold fails at once, before seconds of generation.
    d->input = DeviceBuffer(input_bytes(p));
    d->host = generate(p.n, p.dist, p.seed);
    upload(d->input.as<int32_t>() + p.offset, d->host.data(), p.n * sizeof(int32_t));
    return d;
  });
}

class ScanRunner final : public Runner {
 public:
  ScanRunner(const Problem& p, Launcher launcher, WorkspaceFn workspace)
      : data_(data_for(p)),
        launcher_(launcher),
        out_(std::max<size_t>(p.n, 1) * sizeof(int32_t)),
        workspace_(workspace(p.n), /*zero=*/true) {}

  size_t workspace_bytes() const override { return workspace_.bytes(); }

  void poison(cudaStream_t stream) override {
    LADDER_CUDA_TRY(cudaMemsetAsync(out_.get(), 0xa5, out_.bytes(), stream));
  }

  std::vector<std::pair<const void*, size_t>> outputs() const override {
    return {{out_.get(), out_.bytes()}};
  }

  cudaError_t launch(cudaStream_t stream) override {
    return launcher_(data_->input.as<const int32_t>() + data_->problem.offset, out_.as<int32_t>(),
                     data_->problem.n, workspace_.get(), stream);
  }

  // Downloads the output and checks it on every core: the input is cut into 64 chunks, the
  // chunks' sums are added up in parallel, and each chunk is then checked from its own carry.
  // The first mismatch by index is reported.
  CheckResult check(cudaStream_t stream) override {
    LADDER_CUDA_TRY(cudaStreamSynchronize(stream));
    const size_t n = data_->problem.n;
    const int32_t* got = download(out_.as<const int32_t>(), n);
    const int32_t* in = data_->host.data();
    constexpr size_t kChunks = 64;
    const size_t chunk = ceil_div(std::max<size_t>(n, 1), kChunks);
    std::vector<int64_t> carry(kChunks + 1, 0);
    parallel_for(
        kChunks,
        [&](size_t kb, size_t ke) {
          for (size_t k = kb; k < ke; ++k)
            for (size_t i = k * chunk; i < std::min(n, (k + 1) * chunk); ++i) carry[k + 1] += in[i];
        },
        1);
    for (size_t k = 0; k < kChunks; ++k) carry[k + 1] += carry[k];  // carry[k]: sum before k
    std::vector<CheckResult> results(kChunks);
    parallel_for(
        kChunks,
        [&](size_t kb, size_t ke) {
          for (size_t k = kb; k < ke; ++k) {
            const size_t begin = std::min(n, k * chunk), end = std::min(n, begin + chunk);
            int64_t running = carry[k];
            results[k] = check_piece(in + begin, got + begin, end - begin, begin, running);
          }
        },
        1);
    CheckResult total;
    total.ok = true;
    for (const CheckResult& r : results) {
      total.max_err += r.max_err;
      if (!r.ok && total.ok) {
        total.ok = false;
        total.message = r.message;
      }
    }
    return total;
  }

 private:
  std::shared_ptr<const Data> data_;
  Launcher launcher_;
  DeviceBuffer out_;
  DeviceBuffer workspace_;
};

// Every entry's launcher and workspace size by slug (raw_version).
std::map<std::string, RawVersion>& raw_versions() {
  static std::map<std::string, RawVersion> by_slug;
  return by_slug;
}

Version entry(const VersionDoc& doc, Launcher launcher, WorkspaceFn workspace,
              size_t max_n = std::numeric_limits<size_t>::max()) {
  raw_versions()[doc.slug] = {launcher, workspace};
  Version v;
  v.op = "scan";
  v.doc = doc;
  v.baseline = doc.index < 0;
  v.max_n = max_n;
  v.make = [launcher, workspace](const Problem& p) -> std::unique_ptr<Runner> {
    return std::make_unique<ScanRunner>(p, launcher, workspace);
  };
  v.device_bytes = [workspace](const Problem& p) {
    return input_bytes(p) + std::max<size_t>(p.n, 1) * sizeof(int32_t) + workspace(p.n);
  };
  return v;
}

}  // namespace

Operator make_operator() {
  Operator op;
  op.name = "scan";
  op.description = "inclusive prefix sum of n int32 values";
  op.bytes_formula = "8n (each input read once, each output written once)";
  op.bytes_moved = bytes_moved;
  op.distributions = distributions();
  op.test_sizes = {
      0, 1, 31, 32, 33, 1023, 1024, 1025, v16::kSingleBlockMax + 1, (1u << 20) + 7, kLadderSize};
  op.versions = {
      entry(v00::kDoc, v00::launch, v00::workspace_bytes, v00::kMaxN),
      entry(v01::kDoc, v01::launch, v01::workspace_bytes, v01::kMaxN),
      entry(v02::kDoc, v02::launch, v02::workspace_bytes, v02::kMaxN),
      entry(v03::kDoc, v03::launch, v03::workspace_bytes, v03::kMaxN),
      entry(v04::kDoc, v04::launch, v04::workspace_bytes, v04::kMaxN),
      entry(v05::kDoc, v05::launch, v05::workspace_bytes, v05::kMaxN),
      entry(v06::kDoc, v06::launch, v06::workspace_bytes),
      entry(v07::kDoc, v07::launch, v07::workspace_bytes),
      entry(v08::kDoc, v08::launch, v08::workspace_bytes),
      entry(v09::kDoc, v09::launch, v09::workspace_bytes),
      entry(v10::kDoc, v10::launch, v10::workspace_bytes),
      entry(v11::kDoc, v11::launch, v11::workspace_bytes),
      entry(v12::kDoc, v12::launch, v12::workspace_bytes),
      entry(v13::kDoc, v13::launch, v13::workspace_bytes),
      entry(v14::kDoc, v14::launch, v14::workspace_bytes),
      hopper_only(entry(v15::kDoc, v15::launch, v15::workspace_bytes)),
      with_dispatch(entry(v16::kDoc, v16::launch, v16::workspace_bytes), v16::dispatch_bounds),
      with_dispatch(entry(v17::kDoc, v17::launch, v17::workspace_bytes), v16::dispatch_bounds),
      with_dispatch(entry(v18::kDoc, v18::launch, v18::workspace_bytes), v16::dispatch_bounds),
// Your own rungs, after the ladder's top rung: scan/mine.inc, second part.
#include "scan/mine.inc"
      entry(cub_baseline::kDoc, cub_baseline::launch, cub_baseline::workspace_bytes),
  };
  return op;
}

RawVersion raw_version(const std::string& slug) {
  operators();  // the registry, built once, has called entry() for every version
  const auto it = raw_versions().find(slug);
  if (it == raw_versions().end()) throw std::invalid_argument("no scan version " + slug);
  return it->second;
}

cudaError_t lookback_scan(const int32_t* in, int32_t* out, size_t n, void* ws,
                          cudaStream_t stream) {
  return v13::launch(in, out, n, ws, stream);
}
size_t lookback_scan_workspace_bytes(size_t n) { return v13::workspace_bytes(n); }

}  // namespace ladder::scan
