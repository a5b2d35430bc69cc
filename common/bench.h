// common/bench.h — registers every (operator, version, size) as a Google Benchmark and times it.
//
// Method (nvbench's, with a read-based L2 flush):
//  - the version is bound to its problem once per benchmark run: input, output and workspace
//    are allocated before any timing, and the workspace size is reported;
//  - check before timing: poison the output, launch, compare with the CPU reference (this launch
//    is also the warm-up);
//  - each timed iteration: flush L2 (unless --hot), record an event, launch, record an event,
//    wait, and hand the event time to Google Benchmark (UseManualTime);
//  - check after timing: poison, launch, compare again;
//  - counters from the operator's minimal bytes moved: GB/s, Gelem/s, % of the theoretical peak,
//    % of the measured copy ceiling, verified, max_err, workspace_bytes.
// A failed check or CUDA error is SkipWithError with the message, counted in failures().
#pragma once

#include <string>
#include <vector>

#include "common/cli.h"
#include "common/device.h"
#include "common/judge.h"
#include "common/registry.h"

namespace ladder {

// Opens the stream and events, measures the copy ceiling, writes the device facts into the
// Google Benchmark context and registers the benchmarks `options` selects. Needs a GPU; call
// after cudaSetDevice. Throws CudaError.
void setup_benchmarks(const Options& options, const std::string& command_line);

// Benchmarks that failed a check or hit a CUDA error so far.
int benchmark_failures();

// Headroom kept free beyond a benchmark's own buffers when deciding whether it fits (CUDA's
// allocation granularity, the library baselines' small temporaries): 64 MiB.
constexpr size_t kDeviceMemoryMargin = size_t(64) << 20;

// The skip decision of a benchmark that needs `need_bytes` of GPU memory (its input, output and
// workspace, plus kDeviceMemoryMargin) when `free_bytes` are free: "" to run it, else the line
// that says why not ("needs 6.2 GiB of GPU memory, 5.8 GiB free: skipped"). Pure: no CUDA call.
std::string memory_skip_reason(size_t need_bytes, size_t free_bytes);

// Which outputs may share a passed check's verdict (common/bench.cpp, checked_run): those of one
// operator, size, input and offset, checked the same way. A version that may return its values
// in any order (copy_if's unordered rungs) passes a weaker check than one that keeps the order,
// so its key differs. Pure: no CUDA call.
std::string verdict_key(const Operator& op, const Version& version, size_t n,
                        const std::string& dist, size_t offset);

// Prints the run's end on stderr: the wall time, where it went (input, setup, checks, timed
// loops, the rest), the input cache's hits, and every benchmark skipped with its reason.
void print_run_summary();

// Frees what the harness keeps between Google Benchmark's calls of one benchmark (its Runner:
// the input, the output and the workspace). Call after RunSpecifiedBenchmarks.
void release_benchmark_state();

// One benchmark `options` selects: its operator, version, size, input and name (as Google
// Benchmark reports it, "/manual_time" included). Touches no CUDA API.
struct BenchSpec {
  const Operator* op;
  const Version* version;
  size_t n;
  std::string dist;
  std::string name;
};
std::vector<BenchSpec> benchmark_specs(const Options& options);

// With --sizes (and neither --sweep nor --quick), one line per operator and size where versions
// that the operators and the filter select are left out because the size is above their largest
// n (Version::max_n, e.g. a serial baseline's or 32-bit positions' limit): "sort at n =
// 4294967301: left out, above their largest n: v00_serial (65536), ...". Empty otherwise.
// Touches no CUDA API; throws UsageError as benchmarks_selected does.
std::vector<std::string> left_out_notes(const Options& options);

// How many of `specs` the --benchmark_filter among options.benchmark_args selects (Google
// Benchmark's rule: an extended regular expression searched in the name, a leading '-'
// negating it); all of them when there is no filter. Throws UsageError for a filter that is no
// regular expression.
size_t benchmarks_selected(const Options& options, const std::vector<BenchSpec>& specs);

// --mine: after RunSpecifiedBenchmarks, prints on stdout one table per operator, size and input
// of the benchmarks run (common/judge.h, judge_table), with the measured copy ceiling.
void print_judge_summary(const Options& options);

// The expected cost of one benchmark, for the progress line's estimate: the bytes the operator
// moves at n (its input generation, checks and CPU reference grow with them) plus
// kBenchmarkFixedCost for the part every benchmark pays alike (the timed loop runs about
// --benchmark_min_time per call, the launches and allocations). Pure.
constexpr double kBenchmarkFixedCost = 256.0 * (1 << 20);
double benchmark_cost(const Operator& op, size_t n);

// The progress line's estimate of the seconds left: the run's seconds per unit of cost so far
// times the cost still to run; negative (no estimate yet) until `done` benchmarks (at least 5)
// have run and a fifth of the cost is done. Pure.
double estimate_seconds_left(double elapsed, double cost_done, double cost_total, size_t done);

}  // namespace ladder
