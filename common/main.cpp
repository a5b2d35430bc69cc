// common/main.cpp — `cuda-ladder`: parse the command line, then hand over to Google Benchmark.
//
// BENCHMARK_MAIN always returns 0, so main is ours: it exits 1 when any check failed or a CUDA
// error occurred, and 2 for a bad command line.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <iostream>

#include "common/bench.h"
#include "common/catalog.h"
#include "common/cli.h"
#include "common/device.h"
#include "common/judge.h"
#include "common/registry.h"

namespace {

int error(const std::string& message, int status) {
  std::cerr << "cuda-ladder: error: " << message << "\n";
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace ladder;
  const std::vector<std::string> args(argv + 1, argv + argc);
  std::vector<std::string> op_names;
  for (const Operator& op : operators()) op_names.push_back(op.name);

  Options options;
  try {
    options = parse_cli(args, op_names);
  } catch (const UsageError& e) {
    return error(e.what(), 2);
  }
  if (options.help) {
    std::cout << usage();
    return 0;
  }
  if (options.list) {
    std::cout << catalog_json(options.ops) << "\n";
    return 0;
  }

  // --mine with no rung of yours (in --ops) has nothing to judge.
  if (options.mine && judged_operators(options.ops).empty())
    return error(nothing_to_judge(options.ops), 2);

  // A --benchmark_filter that selects nothing is a typo, not an empty run.
  std::vector<std::string> left_out;  // versions --sizes leaves out (bench.h, left_out_notes)
  try {
    const std::vector<BenchSpec> specs = benchmark_specs(options);
    left_out = left_out_notes(options);
    if (benchmarks_selected(options, specs) == 0)
      return error("--benchmark_filter matches none of the " + std::to_string(specs.size()) +
                       " benchmarks that --ops and --sizes select (names look like '" +
                       (specs.empty() ? std::string("reduce/cub/n:268435456/manual_time")
                                      : specs.front().name) +
                       "'; --list shows the versions" +
                       (left_out.empty() ? std::string() : "; " + left_out.front()) + ")",
                   2);
  } catch (const UsageError& e) {
    return error(e.what(), 2);
  }

  std::string why;
  const int count = device_count(&why);
  if (count == 0) return error("no CUDA device found (" + why + ")", 1);
  if (options.device >= count)
    return error("--device=" + std::to_string(options.device) + " does not exist (" +
                     std::to_string(count) + " CUDA device(s) visible)",
                 2);

  std::string command_line = "cuda-ladder";
  for (const std::string& a : args) command_line += " " + a;

  // Google Benchmark sees argv[0] and its own flags; --results_dir becomes --benchmark_out.
  // Unless the user chose a minimum time, each repetition runs until 0.01 s of kernel time
  // (manual time) is timed: two launches of a 2^28-pair sort (9 ms each), thousands of a
  // 2^10-element kernel. Every launch is timed alone on a flushed L2; on the H100 the
  // repetitions of one 2^28 benchmark then agree within a few tenths of a percent and the
  // medians within 0.4% of those at 0.05 s (one exception, sort_pairs inside a whole --quick:
  // results/PROVENANCE.md), while at 0.05 s the default run spent most of its time in timed
  // loops. (A per-benchmark MinTime() would rename every benchmark.) Google Benchmark 1.8 wants
  // a unit suffix, 1.7 rejects one.
  std::vector<std::string> gb_args = {argv[0]};
  bool user_repetitions = false;
  for (const std::string& a : options.benchmark_args)
    user_repetitions |= a.rfind("--benchmark_repetitions", 0) == 0;
  if (options.quick && !user_repetitions) {
    gb_args.push_back("--benchmark_repetitions=3");
    gb_args.push_back("--benchmark_display_aggregates_only=true");
  }
  if (!options.user_min_time) {
    options.min_time = std::string(kDefaultMinTime) + LADDER_GB_MIN_TIME_SUFFIX;
    gb_args.push_back("--benchmark_min_time=" + options.min_time);
  }
  gb_args.insert(gb_args.end(), options.benchmark_args.begin(), options.benchmark_args.end());
  int wrong_rungs = 0;
  try {
    LADDER_CUDA_TRY(cudaSetDevice(options.device));
    // A GPU this binary holds no code for: one line, not an error per benchmark.
    if (const DeviceCode& code = current_device_code(); !code.has_image) {
      const DeviceFacts facts = query_device(options.device);
      const std::string cc = std::to_string(facts.cc_major) + std::to_string(facts.cc_minor);
      return error("this binary has no code for " + facts.name + " (compute capability " +
                       std::to_string(facts.cc_major) + "." + std::to_string(facts.cc_minor) +
                       "; " + code.error + "): it was built for CUDA architectures " +
                       LADDER_CUDA_ARCHS + "; rebuild with -DCMAKE_CUDA_ARCHITECTURES=" + cc +
                       " (or leave it unset on a machine with this GPU)",
                   1);
    }
    if (!options.results_dir.empty()) {
      std::filesystem::create_directories(options.results_dir);
      const DeviceFacts facts = query_device(options.device);
      const std::string path = options.results_dir + "/" + gpu_slug(facts.name) + ".json";
      gb_args.push_back("--benchmark_out=" + path);
      gb_args.push_back("--benchmark_out_format=json");
    }
    std::vector<char*> gb_argv;
    for (std::string& a : gb_args) gb_argv.push_back(a.data());
    int gb_argc = static_cast<int>(gb_argv.size());
    gb_argv.push_back(nullptr);
    benchmark::Initialize(&gb_argc, gb_argv.data());
    if (benchmark::ReportUnrecognizedArguments(gb_argc, gb_argv.data())) return 2;

    for (const std::string& note : left_out) std::cerr << "cuda-ladder: " << note << std::endl;
    // --mine: every case the tests give the ladder first, then the timed benchmarks.
    if (options.mine) wrong_rungs = judge_correctness(judged_operators(options.ops));
    setup_benchmarks(options, command_line);
  } catch (const std::exception& e) {
    return error(e.what(), 1);
  }

  benchmark::RunSpecifiedBenchmarks();
  print_run_summary();
  if (options.mine) print_judge_summary(options);
  release_benchmark_state();
  benchmark::Shutdown();
  if (wrong_rungs > 0)
    return error(std::to_string(wrong_rungs) + " rung(s) of yours failed a check (the line " +
                     "above that says WRONG names the case)",
                 1);
  if (const int failed = benchmark_failures(); failed > 0)
    return error(std::to_string(failed) + " benchmark(s) failed a check or hit a CUDA error", 1);
  return 0;
}
