// common/bench.cpp — implementation of common/bench.h.
#include "common/bench.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <regex>
#include <sstream>

#include "common/input_cache.h"
#include "common/parallel.h"
#include "common/phase_clock.h"
#include "common/registry.h"

namespace ladder {
namespace {

constexpr uint64_t kBenchSeed = 0x5eed;
// Google Benchmark appends this to the name of every benchmark that uses manual time.
const std::string kManualTime = "/manual_time";

struct Harness {
  DeviceFacts facts;
  double copy_gbps = 0;
  double read_gbps = 0;
  bool hot = false;
  bool blocking = true;  // hold the stream until the launch is enqueued (StreamBlocker)
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  std::unique_ptr<L2Flusher> flusher;
  std::unique_ptr<StreamBlocker> blocker;
  int failures = 0;
  std::string broken;  // set once a sticky error has lost the CUDA context
  // Benchmarks already checked before and after timing, with the larger max_err. Google
  // Benchmark calls a benchmark's function once per repetition (and once more to size the
  // iteration count); checking every call cost most of a run's time at 2^28 (two downloads and
  // two CPU references per call), so the checks run on the first call and later calls reuse
  // the verdict. The first call's after-check follows that call's timed launches, so state a
  // version leaves behind between launches is still caught.
  std::map<std::string, double> verified;
  // The Runner of the benchmark being run, kept across those calls for the same reason: its
  // constructor generates the input (and for some operators the reference) and allocates and
  // uploads it, which at 2^28 costs far more than the timed loop of a call. Replaced when the
  // next benchmark starts (the old one freed first), dropped after an error and at the end.
  std::string runner_name;
  std::unique_ptr<Runner> runner;
  std::string inject_fault;  // --inject-fault's regex; empty: none
  bool fault_injected = false;
  // Progress on the console: the operators in run order with their benchmark counts, and the
  // one running now (a line on stderr when the next one starts).
  std::vector<std::pair<std::string, size_t>> op_order;
  std::string current_op;
  size_t total_benchmarks = 0;
  // The same in expected cost (benchmark_cost): the whole run's, and that of the benchmarks done
  double total_cost = 0, cost_done = 0, record_cost = 0;
  bool verbose = false;
  // What each benchmark gave, by its BenchSpec name (--mine's table), and the one running now.
  std::map<std::string, JudgeOutcome> outcomes;
  std::string current_spec;
  // Where the wall time goes: the benchmark being run (its phase totals at its start and the
  // wall time of Google Benchmark's calls of it so far), and the run's sums.
  double run_start = 0;
  std::string record_name;
  PhaseTotals record_start;
  double record_wall = 0;
  size_t benchmarks_done = 0;
  double benchmarks_wall = 0;
  // Benchmarks skipped because they do not fit this GPU (name -> the line that says so).
  std::map<std::string, std::string> skipped;
  std::vector<std::string> skip_order;
  // Digests of outputs that passed a full check, per operator and input (checked_run), and how
  // many checks ran in full or took a passed output's verdict.
  std::map<std::string, std::map<uint64_t, double>> passed_outputs;
  size_t checks_full = 0, checks_reused = 0;
};

Harness& harness() {
  static Harness h;
  return h;
}

std::string seconds_text(double s) {  // 75.3 -> "1m15s", 8.26 -> "8.3s"
  char buf[32];
  if (s < 60)
    std::snprintf(buf, sizeof buf, "%.1fs", s);
  else
    std::snprintf(buf, sizeof buf, "%dm%02ds", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
  return buf;
}

// "sort_pairs/v12_large_tiles/n:2^28/dist:uniform" from the harness's full name (which also
// names the offset and the distribution of single-input operators).
std::string display_name(const Version& version, size_t n, const std::string& dist, size_t offset) {
  std::string size = std::to_string(n);
  if (n > 0 && (n & (n - 1)) == 0) {
    int k = 0;
    while ((size_t(1) << k) != n) ++k;
    size = "2^" + std::to_string(k);
  }
  std::string name = version.name() + "/n:" + size + "/dist:" + dist;
  if (offset > 0) name += "/offset:" + std::to_string(offset);
  return name;
}

// The progress line when the next operator starts: its place, its benchmark count, the time
// so far and, once a fifth of the run's expected cost (and at least five benchmarks) has run,
// an estimate of the rest (estimate_seconds_left): each benchmark weighs what benchmark_cost
// expects of it, so that the operators that move more bytes per benchmark, later in the run,
// are not estimated at the average of the cheaper ones before them.
void report_progress(const std::string& op) {
  Harness& h = harness();
  if (op == h.current_op) return;
  h.current_op = op;
  release_download_slot(1);  // only a pairs check (keys and values at once) uses it
  for (size_t k = 0; k < h.op_order.size(); ++k)
    if (h.op_order[k].first == op) {
      const double elapsed = ScopedPhase::now() - h.run_start;
      std::cerr << "cuda-ladder: [" << k + 1 << "/" << h.op_order.size() << "] " << op << ": "
                << h.op_order[k].second << " benchmark(s), " << seconds_text(elapsed) << " elapsed";
      const double left =
          estimate_seconds_left(elapsed, h.cost_done, h.total_cost, h.benchmarks_done);
      if (left >= 0) std::cerr << ", about " << seconds_text(left) << " left";
      std::cerr << std::endl;
      return;
    }
}

// "; resident 3.1 GB (peak 7.7 GB)" from /proc/self/status (Linux); "" where it cannot be read.
std::string resident_set_text() {
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return "";
  char line[256];
  double rss = -1, peak = -1;
  while (std::fgets(line, sizeof line, f)) {
    double kb = 0;
    if (std::sscanf(line, "VmRSS: %lf", &kb) == 1) rss = kb;
    if (std::sscanf(line, "VmHWM: %lf", &kb) == 1) peak = kb;
  }
  std::fclose(f);
  if (rss < 0 || peak < 0) return "";
  char buf[96];
  std::snprintf(buf, sizeof buf, "; resident %.1f GB (peak %.1f GB)", rss / 1e6, peak / 1e6);
  return buf;
}

// Closes the record of the benchmark that ran last: its --verbose line and the run's sums.
void finish_record() {
  Harness& h = harness();
  if (h.record_name.empty()) return;
  const PhaseTotals d = phase_totals() - h.record_start;
  double phases = 0;
  for (double s : d.seconds) phases += s;
  if (h.verbose) {
    std::ostringstream line;
    line.setf(std::ios::fixed);
    line.precision(2);
    line << "cuda-ladder: " << h.record_name << ": " << h.record_wall << " s";
    for (size_t p = 0; p < d.seconds.size(); ++p)
      line << ", " << phase_name(static_cast<Phase>(p)) << " " << d.seconds[p];
    line << ", other " << std::max(0.0, h.record_wall - phases) << resident_set_text();
    std::cerr << line.str() << std::endl;
  }
  ++h.benchmarks_done;
  h.cost_done += h.record_cost;
  h.benchmarks_wall += h.record_wall;
  h.record_name.clear();
}

// A benchmark that does not apply here (a Hopper-only rung on another GPU, or one that does not
// fit the GPU's free memory): not a failure. Google Benchmark 1.8 marks it "skipped" in the
// JSON; 1.7 has only errors, so there the message starts with "skipped: ", which the scripts
// read the same way.
void skip(benchmark::State& state, const std::string& message) {
  harness().outcomes[harness().current_spec].skipped = true;
#if LADDER_GB_HAS_SKIP_MESSAGE
  state.SkipWithMessage(message.c_str());
#else
  state.SkipWithError(("skipped: " + message).c_str());
#endif
}

std::string gib_text(size_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / double(1 << 30));
  return buf;
}

void fail(benchmark::State& state, const std::string& message) {
  JudgeOutcome& o = harness().outcomes[harness().current_spec];
  if (!o.failed) o.message = message;
  o.failed = true;
  ++harness().failures;
  state.SkipWithError(message.c_str());
}

// The digest of one output: on the host for host memory (pinned or pageable), on the GPU for
// device and managed memory (no copy).
uint64_t output_digest(const std::pair<const void*, size_t>& out, cudaStream_t stream) {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, out.first) != cudaSuccess) {
    cudaGetLastError();  // not sticky
    a.type = cudaMemoryTypeDevice;
  }
  if (a.type == cudaMemoryTypeHost || a.type == cudaMemoryTypeUnregistered)
    return digest(out.first, out.second);
  return device_digest(out.first, out.second, stream);
}

// Poison, launch, check: the correctness gate before and after timing. Where the Runner names
// its output buffers, they are digested first (on the GPU: common/device.h): an output bit for bit
// equal to one that a full check of the same operator and input passed (another version's, or this
// version's before timing) takes that verdict; any other output is checked in full against the
// CPU reference, and its digest remembered if it passes. A wrong output never matches a passed
// one (but with a chance of about 2^-64), so it always meets the full check.
CheckResult checked_run(Runner& runner, cudaStream_t stream, const std::string& input) {
  Harness& h = harness();
  runner.poison(stream);
  LADDER_CUDA_TRY(runner.launch(stream));
  const auto outs = runner.outputs();
  uint64_t key = 0;
  if (!outs.empty()) {
    LADDER_CUDA_TRY(cudaStreamSynchronize(stream));
    for (size_t i = 0; i < outs.size() && i < 2; ++i)
      key = key * 0x9e3779b97f4a7c15ULL ^ output_digest(outs[i], stream);
    const auto known = h.passed_outputs.find(input);
    if (known != h.passed_outputs.end())
      if (const auto m = known->second.find(key); m != known->second.end()) {
        ++h.checks_reused;
        CheckResult same;
        same.ok = true;
        same.max_err = m->second;
        return same;
      }
  }
  CheckResult r = runner.check(stream);
  ++h.checks_full;
  if (r.ok && !outs.empty()) {
    if (h.passed_outputs.count(input) == 0) h.passed_outputs.clear();  // one input at a time
    h.passed_outputs[input][key] = r.max_err;
  }
  return r;
}

// Google Benchmark calls this once to size the iteration count and once per repetition; the
// first call binds the version to its problem and checks it, later calls reuse both.
void run_benchmark(benchmark::State& state, const Operator& op, const Version& version, size_t n,
                   const std::string& dist, size_t offset, const std::string& spec_name) {
  Harness& h = harness();
  const double call_start = ScopedPhase::now();
  h.current_spec = spec_name;
  const std::string shown = display_name(version, n, dist, offset);
  if (shown != h.record_name) {
    finish_record();
    h.record_name = shown;
    h.record_cost = benchmark_cost(op, n);
    h.record_start = phase_totals();
    h.record_wall = 0;
  }
  struct AddWall {  // this call's wall time joins the benchmark's record, however it returns
    double start;
    ~AddWall() { harness().record_wall += ScopedPhase::now() - start; }
  } add_wall{call_start};
  report_progress(op.name);
  if (!h.broken.empty()) {
    fail(state, "not run: " + h.broken);
    return;
  }
  if (version.needs_sm90 && !current_device_runs_sm90_code()) {
    skip(state, sm90_skip_reason());
    return;  // not a failure: the version does not apply to this GPU or this build
  }
  const std::string name = version.name() + "/n:" + std::to_string(n) + "/dist:" + dist +
                           "/offset:" + std::to_string(offset);
  const std::string input_name = verdict_key(op, version, n, dist, offset);
  if (const auto s = h.skipped.find(shown); s != h.skipped.end()) {
    skip(state, s->second);  // decided at the first call
    return;
  }
  try {
    const Problem problem{n, dist, kBenchSeed, offset};
    if (!h.runner || h.runner_name != name) {
      h.runner.reset();  // the previous benchmark's buffers go before this one's are allocated
      h.runner_name.clear();
      const ScopedPhase phase(Phase::kSetup);
      // Does it fit? Inputs other benchmarks left in the cache are freed first where that
      // makes room; a benchmark that still does not fit is skipped, not failed.
      if (version.device_bytes) {
        const size_t need = version.device_bytes(problem) + kDeviceMemoryMargin;
        size_t free = 0, total = 0;
        LADDER_CUDA_TRY(cudaMemGetInfo(&free, &total));
        if (need > free && input_cache().evict_unused() > 0)
          LADDER_CUDA_TRY(cudaMemGetInfo(&free, &total));
        const std::string why = memory_skip_reason(need, free);
        if (!why.empty()) {
          h.skipped[shown] = why;
          h.skip_order.push_back(shown + ": " + why);
          std::cerr << "cuda-ladder: " << shown << ": " << why << std::endl;
          skip(state, why);
          return;
        }
      }
      try {
        h.runner = version.make(problem);
      } catch (const CudaError& e) {
        // Host or device memory the estimate did not foresee (pinned or managed host memory
        // the system will not give, another process's allocations): a skip as well.
        if (e.code() != cudaErrorMemoryAllocation) throw;
        cudaGetLastError();  // an allocation error is not sticky; clear it
        const std::string why =
            std::string("out of memory while allocating (") + e.what() + "): skipped";
        h.skipped[shown] = why;
        h.skip_order.push_back(shown + ": " + why);
        std::cerr << "cuda-ladder: " << shown << ": " << why << std::endl;
        skip(state, why);
        return;
      }
      h.runner_name = name;
    }
    Runner* runner = h.runner.get();

    const auto seen = h.verified.find(name);
    const bool check = seen == h.verified.end();
    double max_err = check ? 0.0 : seen->second;
    if (check) {
      const ScopedPhase phase(Phase::kCheck);
      const CheckResult before = checked_run(*runner, h.stream, input_name);
      if (!before.ok) {
        fail(state, "check before timing failed: " + before.message);
        return;
      }
      max_err = before.max_err;
      if (!h.inject_fault.empty() && !h.fault_injected &&
          std::regex_search(name, std::regex(h.inject_fault))) {
        h.fault_injected = true;  // --inject-fault: fail as a faulty version would
        LADDER_CUDA_TRY(launch_fault_kernel(h.stream));
        LADDER_CUDA_TRY(cudaStreamSynchronize(h.stream));
      }
    } else {
      LADDER_CUDA_TRY(runner->launch(h.stream));  // warm-up launch, as the check gave
    }

    double total_s = 0;
    int64_t iterations = 0;
    std::unique_ptr<ScopedPhase> timed_phase = std::make_unique<ScopedPhase>(Phase::kTimed);
    for (auto _ : state) {
      // The flush, then the stream held until the launch is enqueued, so that the events
      // bracket GPU time alone (common/device.h, StreamBlocker).
      if (!h.hot) h.flusher->flush(h.stream);
      runner->before_timed_launch(h.stream);
      cudaError_t launched = cudaSuccess;
      {
        if (h.blocking && !version.host_waits) h.blocker->block(h.stream);
        const StreamBlocker::Hold hold(*h.blocker);  // released at the end of this scope
        LADDER_CUDA_TRY(cudaEventRecord(h.start, h.stream));
        launched = runner->launch(h.stream);
        LADDER_CUDA_TRY(cudaEventRecord(h.stop, h.stream));
      }
      if (launched != cudaSuccess) {
        fail(state, std::string("launch failed: ") + cudaGetErrorString(launched));
        break;
      }
      LADDER_CUDA_TRY(cudaEventSynchronize(h.stop));
      if (h.blocking && !version.host_waits && h.blocker->timed_out()) {
        fail(state,
             "timing: the stream stayed blocked until the blocker's timeout; the launcher "
             "must not wait on the GPU");
        break;
      }
      float ms = 0;
      LADDER_CUDA_TRY(cudaEventElapsedTime(&ms, h.start, h.stop));
      state.SetIterationTime(ms * 1e-3);
      total_s += ms * 1e-3;
      ++iterations;
    }
    timed_phase.reset();
    if (state.error_occurred()) return;

    if (check) {
      const ScopedPhase phase(Phase::kCheck);
      const CheckResult after = checked_run(*runner, h.stream, input_name);
      if (!after.ok) {
        fail(state, "check after timing failed: " + after.message);
        return;
      }
      max_err = std::max(max_err, after.max_err);
      h.verified[name] = max_err;
    }

    const double seconds = iterations > 0 ? total_s / iterations : 0;
    const double bytes = runner->bytes_moved() >= 0 ? runner->bytes_moved() : op.bytes_moved(n);
    const double gbps = seconds > 0 ? bytes / seconds / 1e9 : 0;
    state.counters["n"] = static_cast<double>(n);
    state.counters["bytes"] = bytes;
    state.counters["GB/s"] = gbps;
    state.counters["Gelem/s"] = seconds > 0 ? n / seconds / 1e9 : 0;
    state.counters["pct_peak"] = h.facts.peak_gbps > 0 ? 100 * gbps / h.facts.peak_gbps : 0;
    state.counters["pct_copy"] = h.copy_gbps > 0 ? 100 * gbps / h.copy_gbps : 0;
    state.counters["pct_read"] = h.read_gbps > 0 ? 100 * gbps / h.read_gbps : 0;
    state.counters["verified"] = 1;
    state.counters["max_err"] = max_err;
    state.counters["workspace_bytes"] = static_cast<double>(runner->workspace_bytes());
    if (seconds > 0) {
      JudgeOutcome& o = h.outcomes[spec_name];
      o.seconds.push_back(seconds);
      o.bytes = bytes;
    }
  } catch (const CudaError& e) {
    fail(state, e.what());
    if (e.sticky()) h.broken = "the CUDA context was lost in " + name + ": " + e.what();
    h.runner_name.clear();  // rebuilt by a later call, if any
    h.runner.reset();
  } catch (const std::exception& e) {
    fail(state, e.what());
    h.runner_name.clear();
    h.runner.reset();
  }
}

std::string version_string(int v) {  // 13000 -> "13.0"
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

}  // namespace

void setup_benchmarks(const Options& options, const std::string& command_line) {
  Harness& h = harness();
  h.run_start = ScopedPhase::now();
  h.verbose = options.verbose;
  LADDER_CUDA_TRY(cudaGetDevice(&h.facts.index));
  h.facts = query_device(h.facts.index);
  h.hot = options.hot;
  h.blocking = !options.no_blocking;
  h.inject_fault = options.inject_fault;
  LADDER_CUDA_TRY(cudaStreamCreateWithFlags(&h.stream, cudaStreamNonBlocking));
  LADDER_CUDA_TRY(cudaEventCreate(&h.start));
  LADDER_CUDA_TRY(cudaEventCreate(&h.stop));
  h.flusher = std::make_unique<L2Flusher>(h.facts.l2_bytes);
  h.blocker = std::make_unique<StreamBlocker>();
  h.copy_gbps = measure_copy_ceiling_gbps(h.stream, *h.flusher, size_t(1) << 30);
  h.read_gbps = measure_read_ceiling_gbps(h.stream, *h.flusher, size_t(1) << 30);

  const DeviceFacts& f = h.facts;
  auto ctx = [](const std::string& k, const std::string& v) { benchmark::AddCustomContext(k, v); };
  ctx("gpu", f.name);
  ctx("gpu_slug", gpu_slug(f.name));
  ctx("device_index", std::to_string(f.index));
  ctx("compute_capability", std::to_string(f.cc_major) + "." + std::to_string(f.cc_minor));
  ctx("sm_count", std::to_string(f.sm_count));
  ctx("l2_bytes", std::to_string(f.l2_bytes));
  ctx("global_mem_bytes", std::to_string(f.global_mem_bytes));
  ctx("sm_clock_mhz", std::to_string(f.sm_clock_khz / 1000));
  ctx("mem_clock_mhz", std::to_string(f.mem_clock_khz / 1000));
  ctx("bus_width_bits", std::to_string(f.bus_width_bits));
  ctx("peak_gbps", fixed(f.peak_gbps, 1));
  ctx("copy_ceiling_gbps", fixed(h.copy_gbps, 1));
  ctx("copy_ceiling_method",
      "1 GiB cudaMemcpyAsync device to device, L2 flushed, median of 15, read + write bytes");
  ctx("read_ceiling_gbps", fixed(h.read_gbps, 1));
  ctx("read_ceiling_method",
      "streaming read of 1 GiB (float4 loads over a resident grid; the fastest of 256, 512 or "
      "1,024 threads a block and 4, 8 or 16 loads in flight a thread), L2 flushed, median of 15 "
      "per shape, bytes read");
  // The host link, where a benchmark crosses it (the transfer operators of the elementwise
  // chapter): 256 MiB pinned copies each way. A failure is reported here, not fatal.
  const std::vector<std::string> link_ops = {"h2d", "d2h", "host_sum", "pipeline_gelu"};
  const bool wants_link =
      options.ops.empty() || std::any_of(options.ops.begin(), options.ops.end(), [&](auto& o) {
        return std::find(link_ops.begin(), link_ops.end(), o) != link_ops.end();
      });
  if (wants_link) {
    try {
      ctx("link_h2d_pinned_gbps", fixed(measure_link_gbps(h.stream, size_t(256) << 20, true), 1));
      ctx("link_d2h_pinned_gbps", fixed(measure_link_gbps(h.stream, size_t(256) << 20, false), 1));
      ctx("link_method",
          "256 MiB cudaMemcpyAsync between pinned host memory and the GPU, "
          "median of 7, bytes moved once");
    } catch (const CudaError& e) {
      ctx("link_h2d_pinned_gbps", std::string("not measured: ") + e.what());
    }
  }
  ctx("driver_version", version_string(f.driver_version));
  ctx("runtime_version", version_string(f.runtime_version));
  ctx("cub_version", cub_version_string());
  ctx("git_commit", git_commit());
  ctx("build_type", LADDER_BUILD_TYPE);
  ctx("cuda_architectures", LADDER_CUDA_ARCHS);
  ctx("device_code", current_device_code().describe());
  ctx("l2_flush", h.hot ? "off (--hot)" : "read of 2 x L2 bytes before every timed iteration");
  ctx("timing", h.blocking ? "CUDA events around each launch, manual time; the stream is held by "
                             "a blocking kernel until the launch and the stop event are "
                             "enqueued, so the host's enqueue time is not counted"
                           : "CUDA events around each launch, manual time; stream not held "
                             "(--no-blocking): the host's enqueue time may be counted");
  ctx("min_time",
      options.min_time + (options.user_min_time ? " (--benchmark_min_time)" : " (the default)"));
  ctx("benchmark_seed", std::to_string(kBenchSeed));
  ctx("input_offset_elements", std::to_string(options.offset));
  ctx("command_line", command_line);
  // The rungs of yours (registered in <op>/mine.inc): scripts/plots.py draws them in their own
  // colour.
  std::string yours;
  for (const Operator& op : operators())
    for (const Version& v : op.versions)
      if (v.yours) yours += (yours.empty() ? "" : ",") + v.name();
  if (!yours.empty()) ctx("yours", yours);

  const size_t offset = options.offset;
  const std::vector<BenchSpec> specs = benchmark_specs(options);
  for (const BenchSpec& spec : specs) {
    if (benchmarks_selected(options, {spec}) == 0) continue;  // progress counts what will run
    if (h.op_order.empty() || h.op_order.back().first != spec.op->name)
      h.op_order.push_back({spec.op->name, 0});
    ++h.op_order.back().second;
    ++h.total_benchmarks;
    h.total_cost += benchmark_cost(*spec.op, spec.n);
  }
  for (const BenchSpec& spec : specs) {
    const std::string family = spec.name.substr(0, spec.name.size() - kManualTime.size());
    auto* b = benchmark::RegisterBenchmark(
        family.c_str(),
        [op = spec.op, v = spec.version, n = spec.n, dist = spec.dist, offset, name = spec.name](
            benchmark::State& s) { run_benchmark(s, *op, *v, n, dist, offset, name); });
    b->UseManualTime()->Unit(benchmark::kMicrosecond);
  }
}

namespace {

// The benchmarks `options` select (benchmark_specs), and into *above, where given, the ones left
// out only because n is above the version's largest n (Version::max_n), named the same way.
std::vector<BenchSpec> collect_specs(const Options& options, std::vector<BenchSpec>* above) {
  std::vector<BenchSpec> specs;
  const std::vector<size_t> sizes = benchmark_sizes(options);
  const std::vector<const Operator*> judged =
      options.mine ? judged_operators(options.ops) : std::vector<const Operator*>{};
  for (const Operator& op : operators()) {
    if (!options.ops.empty() &&
        std::find(options.ops.begin(), options.ops.end(), op.name) == options.ops.end())
      continue;
    if (options.mine && std::find(judged.begin(), judged.end(), &op) == judged.end()) continue;
    const std::vector<const Version*> lineup =
        options.mine ? judge_lineup(op).all() : std::vector<const Version*>{};
    std::vector<std::string> dists = op.bench_distributions.empty()
                                         ? std::vector<std::string>{op.distributions[0]}
                                         : op.bench_distributions;
    const bool named_dists = dists.size() > 1;  // names keep /dist: even when --quick keeps one
    if (options.quick) dists.resize(1);         // the headline input
    // --quick: the last rung, the last that keeps the order, and the library baseline (the
    // first registered: `cub`, or col_sum's `cublas_gemv`); a rung of yours is not the ladder's
    const Version *last = nullptr, *last_ordered = nullptr, *baseline = nullptr;
    for (const Version& v : op.versions) {
      if (v.baseline) {
        if (!baseline) baseline = &v;
        continue;
      }
      if (v.yours) continue;
      last = &v;
      if (v.keeps_order) last_ordered = &v;
    }
    const bool defaults = options.sizes.empty() && !options.sweep && !options.quick;
    for (size_t n : defaults && !op.bench_sizes.empty() ? op.bench_sizes : sizes) {
      for (const std::string& dist : dists) {
        for (const Version& v : op.versions) {
          if (options.quick && &v != last && &v != last_ordered && &v != baseline) continue;
          if (options.mine && std::find(lineup.begin(), lineup.end(), &v) == lineup.end()) continue;
          std::string name = v.name() + "/n:" + std::to_string(n);
          if (named_dists) name += "/dist:" + dist;
          if (options.offset > 0) name += "/offset:" + std::to_string(options.offset);
          if (n <= v.max_n)
            specs.push_back({&op, &v, n, dist, name + kManualTime});
          else if (above)
            above->push_back({&op, &v, n, dist, name + kManualTime});
        }
      }
    }
  }
  return specs;
}

}  // namespace

std::vector<BenchSpec> benchmark_specs(const Options& options) {
  return collect_specs(options, nullptr);
}

std::vector<std::string> left_out_notes(const Options& options) {
  std::vector<std::string> notes;
  if (options.sizes.empty() || options.sweep || options.quick) return notes;
  std::vector<BenchSpec> above;
  collect_specs(options, &above);
  // One line per operator and size, each version once (a version left out on several inputs),
  // where the filter would have run it.
  for (const BenchSpec& s : above) {
    if (benchmarks_selected(options, {s}) == 0) continue;
    const std::string head =
        s.op->name + " at n = " + std::to_string(s.n) + ": left out, above their largest n: ";
    const std::string item =
        std::string(s.version->doc.slug) + " (" + std::to_string(s.version->max_n) + ")";
    if (!notes.empty() && notes.back().rfind(head, 0) == 0) {
      if (notes.back().find(item) == std::string::npos) notes.back() += ", " + item;
    } else {
      notes.push_back(head + item);
    }
  }
  return notes;
}

size_t benchmarks_selected(const Options& options, const std::vector<BenchSpec>& specs) {
  const std::string flag = "--benchmark_filter=";
  std::string filter;
  for (const std::string& a : options.benchmark_args)
    if (a.rfind(flag, 0) == 0) filter = a.substr(flag.size());
  if (filter.empty() || filter == "all" || filter == ".") return specs.size();
  const bool negative = filter[0] == '-';
  if (negative) filter = filter.substr(1);
  std::regex re;
  try {
    re = std::regex(filter, std::regex::extended);
  } catch (const std::regex_error& e) {
    throw UsageError("--benchmark_filter is not a regular expression: '" + filter + "' (" +
                     e.what() + ")");
  }
  return static_cast<size_t>(std::count_if(specs.begin(), specs.end(), [&](const BenchSpec& s) {
    return std::regex_search(s.name, re) != negative;
  }));
}

int benchmark_failures() { return harness().failures; }

std::string verdict_key(const Operator& op, const Version& version, size_t n,
                        const std::string& dist, size_t offset) {
  return op.name + "/n:" + std::to_string(n) + "/dist:" + dist +
         "/offset:" + std::to_string(offset) + (version.keeps_order ? "" : "/any-order");
}

std::string memory_skip_reason(size_t need_bytes, size_t free_bytes) {
  if (need_bytes <= free_bytes) return "";
  return "needs " + gib_text(need_bytes) + " of GPU memory, " + gib_text(free_bytes) +
         " free: skipped";
}

void print_run_summary() {
  Harness& h = harness();
  finish_record();
  const PhaseTotals& t = phase_totals();
  double phases = 0;
  for (double s : t.seconds) phases += s;
  const double wall = ScopedPhase::now() - h.run_start;
  std::ostringstream line;
  line.setf(std::ios::fixed);
  line.precision(1);
  line << "cuda-ladder: " << h.benchmarks_done << " benchmark(s) in " << wall << " s";
  for (size_t p = 0; p < t.seconds.size(); ++p)
    line << ", " << phase_name(static_cast<Phase>(p)) << " " << t.seconds[p];
  line << ", other " << std::max(0.0, wall - phases) << " (start-up and ceilings included); "
       << input_cache().misses() << " input(s) generated, " << input_cache().hits() << " reused; "
       << h.checks_full << " check(s) in full, " << h.checks_reused
       << " taking the verdict of an identical output" << resident_set_text();
  std::cerr << line.str() << std::endl;
  if (!h.skip_order.empty()) {
    std::cerr << "cuda-ladder: " << h.skip_order.size()
              << " benchmark(s) skipped for lack of memory:" << std::endl;
    for (const std::string& s : h.skip_order) std::cerr << "  " << s << std::endl;
  }
}

double benchmark_cost(const Operator& op, size_t n) {
  return (op.bytes_moved ? op.bytes_moved(n) : 0.0) + kBenchmarkFixedCost;
}

double estimate_seconds_left(double elapsed, double cost_done, double cost_total, size_t done) {
  if (done < 5 || !(cost_done > 0) || 5 * cost_done < cost_total || cost_total <= cost_done)
    return -1;
  return elapsed / cost_done * (cost_total - cost_done);
}

void print_judge_summary(const Options& options) {
  Harness& h = harness();
  std::ostringstream out;
  out << "\ncuda-ladder --mine on " << h.facts.name << " (measured copy ceiling "
      << fixed(h.copy_gbps, 1)
      << " GB/s; time: the median over Google Benchmark's calls; ratios below 1: yours is "
         "faster)\n";
  const std::vector<BenchSpec> specs = benchmark_specs(options);
  for (const Operator* op : judged_operators(options.ops)) {
    const JudgeLineup lineup = judge_lineup(*op);
    // One table per (n, input), in the order the benchmarks ran.
    std::vector<std::pair<size_t, std::string>> shown;
    for (const BenchSpec& spec : specs) {
      if (spec.op != op) continue;
      const std::pair<size_t, std::string> key{spec.n, spec.dist};
      if (std::find(shown.begin(), shown.end(), key) != shown.end()) continue;
      shown.push_back(key);
      std::map<const Version*, const JudgeOutcome*> outcome;
      for (const BenchSpec& s : specs)
        if (s.op == op && s.n == spec.n && s.dist == spec.dist)
          if (const auto o = h.outcomes.find(s.name); o != h.outcomes.end())
            outcome[s.version] = &o->second;
      out << "\n"
          << judge_table(*op, lineup, spec.n, spec.dist, outcome, judge_verdicts(), h.copy_gbps);
    }
  }
  std::cout << out.str() << std::flush;
}

void release_benchmark_state() {
  Harness& h = harness();
  finish_record();
  h.runner_name.clear();
  h.runner.reset();  // device and pinned host buffers, freed while the CUDA context is alive
  input_cache().evict_unused();
}

}  // namespace ladder
