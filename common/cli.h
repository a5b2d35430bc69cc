// common/cli.h — the command line of `cuda-ladder`, parsed without touching the GPU.
//
// Our flags are listed in usage(); every `--benchmark_*` flag (and `--v`) goes to Google
// Benchmark untouched. Anything else is an error, reported as a UsageError with a one-line
// message, so a typo never silently runs the wrong thing.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace ladder {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Options {
  bool help = false;
  bool list = false;         // print the version catalog as JSON; needs no GPU
  bool hot = false;          // keep the L2 warm: no flush before each timed iteration
  bool no_blocking = false;  // do not hold the stream while enqueuing (host time counted)
  bool sweep = false;        // add the size sweep 2^10, 2^11, ..., 2^28
  // --quick: each operator's top rungs and CUB at 2^28 on the headline input, 3 repetitions
  // unless --benchmark_repetitions says otherwise: "how does my GPU do" in a few minutes
  bool quick = false;
  std::vector<size_t> sizes;     // --sizes; empty: the defaults
  std::vector<std::string> ops;  // --ops; empty: every operator
  int device = 0;                // --device
  size_t offset = 0;        // --offset: inputs start this many elements past an aligned allocation
  std::string results_dir;  // --results_dir: write DIR/<gpu>.json
  std::vector<std::string> benchmark_args;  // passed to Google Benchmark
  bool user_min_time = false;  // --benchmark_min_time given: leave iteration counts to it
  std::string min_time;        // its value (seconds, or "Nx" iterations), "" if not given
  // --inject-fault=REGEX: a self-test of the error path. The first benchmark whose name matches
  // gets a kernel that writes to an invalid address after its first check, as a faulty version
  // would: the run must name it, skip the rest, keep its JSON valid and exit 1.
  std::string inject_fault;
  // --verbose: one line per benchmark on stderr, saying where its wall time went (input, setup,
  // checks, timed loop, other)
  bool verbose = false;
  // --mine: judge the reader's own rungs (Version::yours, registered in <op>/mine.inc): check
  // each on every case the tests give the ladder, then time it beside the ladder's top rung and
  // the library baseline, and print a verdict table (common/judge.h)
  bool mine = false;
};

// The minimum kernel time per repetition when --benchmark_min_time is not given, in seconds
// (common/main.cpp says why).
inline constexpr const char* kDefaultMinTime = "0.01";

// Parses argv[1..]. `known_ops` validates --ops. Throws UsageError.
Options parse_cli(const std::vector<std::string>& args, const std::vector<std::string>& known_ops);

// One size: a decimal integer ("25600000"), or a power of two with an optional offset
// ("2^28", "2^31+17", "2^20-1"). Elements, not bytes; at most 2^40. Throws UsageError.
size_t parse_size(const std::string& text);
// A comma-separated list of sizes ("25600000,2^28"); empty entries are errors.
std::vector<size_t> parse_size_list(const std::string& text);

// The sizes a run uses: --sizes and --sweep if given, else 2^28 with --quick, else the ladder
// size and 2^28.
std::vector<size_t> benchmark_sizes(const Options& options);

std::string usage();

}  // namespace ladder
