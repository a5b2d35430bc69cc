// common/cli.cpp — implementation of common/cli.h.
#include "common/cli.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <set>

#include "common/registry.h"

namespace ladder {
namespace {

bool all_digits(const std::string& s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

constexpr size_t kMaxSize = size_t(1) << 40;

size_t parse_decimal(const std::string& digits, const std::string& whole) {
  if (!all_digits(digits)) throw UsageError("size '" + whole + "' is not a number");
  if (digits.size() > 15) throw UsageError("size '" + whole + "' is too large (max 2^40)");
  return std::stoull(digits);
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

}  // namespace

size_t parse_size(const std::string& text) {
  if (text.empty()) throw UsageError("empty size");
  size_t value = 0;
  if (text.rfind("2^", 0) == 0) {
    const std::string rest = text.substr(2);
    const size_t op = rest.find_first_of("+-");
    const size_t exp = parse_decimal(rest.substr(0, op), text);
    if (exp > 40) throw UsageError("size '" + text + "' is too large (max 2^40)");
    value = size_t(1) << exp;
    if (op != std::string::npos) {
      const size_t offset = parse_decimal(rest.substr(op + 1), text);
      if (rest[op] == '+') {
        value += offset;
      } else {
        if (offset > value) throw UsageError("size '" + text + "' is negative");
        value -= offset;
      }
    }
  } else {
    value = parse_decimal(text, text);
  }
  if (value > kMaxSize) throw UsageError("size '" + text + "' is too large (max 2^40)");
  return value;
}

std::vector<size_t> parse_size_list(const std::string& text) {
  std::vector<size_t> sizes;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? comma : comma - start);
    if (item.empty()) throw UsageError("--sizes has an empty entry in '" + text + "'");
    sizes.push_back(parse_size(item));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return sizes;
}

Options parse_cli(const std::vector<std::string>& args, const std::vector<std::string>& known_ops) {
  Options o;
  for (const std::string& arg : args) {
    const size_t eq = arg.find('=');
    const std::string flag = arg.substr(0, eq);
    const bool has_value = eq != std::string::npos;
    const std::string value = has_value ? arg.substr(eq + 1) : "";
    auto need_value = [&] {
      if (!has_value || value.empty()) throw UsageError(flag + " needs a value: " + flag + "=...");
    };
    auto no_value = [&] {
      if (has_value) throw UsageError(flag + " takes no value");
    };
    if (flag.rfind("--benchmark_", 0) == 0 || flag == "--v") {
      if (flag == "--benchmark_min_time") {
        o.user_min_time = true;
        o.min_time = value;
      }
      // Google Benchmark accepts a repetition count of zero or below and runs nothing (or
      // aborts): refuse it here with a message.
      if (flag == "--benchmark_repetitions" &&
          (!all_digits(value) || value.size() > 6 || std::stoi(value) <= 0))
        throw UsageError("--benchmark_repetitions needs a positive count, got '" + value + "'");
      o.benchmark_args.push_back(arg);
    } else if (flag == "--help" || flag == "-h") {
      no_value();
      o.help = true;
    } else if (flag == "--list") {
      no_value();
      o.list = true;
    } else if (flag == "--hot") {
      no_value();
      o.hot = true;
    } else if (flag == "--quick") {
      no_value();
      o.quick = true;
    } else if (flag == "--mine") {
      no_value();
      o.mine = true;
    } else if (flag == "--verbose") {
      no_value();
      o.verbose = true;
    } else if (flag == "--no-blocking") {
      no_value();
      o.no_blocking = true;
    } else if (flag == "--sweep") {
      no_value();
      o.sweep = true;
    } else if (flag == "--sizes") {
      need_value();
      o.sizes = parse_size_list(value);
    } else if (flag == "--ops") {
      need_value();
      o.ops.clear();
      size_t start = 0;
      while (true) {
        const size_t comma = value.find(',', start);
        const std::string name =
            value.substr(start, comma == std::string::npos ? comma : comma - start);
        if (std::find(known_ops.begin(), known_ops.end(), name) == known_ops.end())
          throw UsageError("unknown operator '" + name + "' (known: " + join(known_ops) + ")");
        if (std::find(o.ops.begin(), o.ops.end(), name) == o.ops.end()) o.ops.push_back(name);
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
    } else if (flag == "--offset") {
      need_value();
      if (!all_digits(value) || value.size() > 4 || std::stoi(value) > 1024)
        throw UsageError("--offset needs an element count from 0 to 1024, got '" + value + "'");
      o.offset = static_cast<size_t>(std::stoi(value));
    } else if (flag == "--device") {
      need_value();
      if (!all_digits(value) || value.size() > 4)
        throw UsageError("--device needs a device index (0, 1, ...), got '" + value + "'");
      o.device = std::stoi(value);
    } else if (flag == "--results_dir") {
      need_value();
      o.results_dir = value;
    } else if (flag == "--inject-fault") {
      need_value();
      try {
        std::regex check(value);
      } catch (const std::regex_error& e) {
        throw UsageError("--inject-fault needs a regular expression, got '" + value + "' (" +
                         e.what() + ")");
      }
      o.inject_fault = value;
    } else {
      throw UsageError("unknown argument '" + arg + "' (see --help)");
    }
  }
  if (o.mine && o.quick)
    throw UsageError("--mine and --quick both choose the versions to run: give one of them");
  if (!o.results_dir.empty()) {
    for (const std::string& a : o.benchmark_args)
      if (a.rfind("--benchmark_out=", 0) == 0)
        throw UsageError("--results_dir and --benchmark_out both name the output file");
  }
  return o;
}

std::vector<size_t> benchmark_sizes(const Options& o) {
  std::set<size_t> s(o.sizes.begin(), o.sizes.end());
  if (o.sweep)
    for (int k = 10; k <= 28; ++k) s.insert(size_t(1) << k);
  if (s.empty())
    s = o.quick ? std::set<size_t>{kLargeSize} : std::set<size_t>{kLadderSize, kLargeSize};
  return {s.begin(), s.end()};
}

std::string usage() {
  return R"(usage: cuda-ladder [options] [--benchmark_* flags]

Times and checks every version of every operator ladder on the current GPU.

options:
  --list              print the version catalog (JSON) and exit; needs no GPU
  --ops=A,B           run only these operators (default: all)
  --sizes=N,M         sizes in elements: 25600000, 2^28, 2^31+17 (default: 25600000 and 2^28,
                      the host-transfer operators 2^28 only; versions with a size limit, like
                      the serial baseline, skip larger sizes, one line on stderr saying which)
  --sweep             add the sweep 2^10, 2^11, ..., 2^28
  --quick             only each operator's top rungs (the last, and the last that keeps the
                      order) and CUB, at 2^28 on the headline input, 3 repetitions
  --hot               do not flush the L2 cache before each timed iteration
  --no-blocking       time without holding the stream until the launch is enqueued: the
                      host's enqueue time then falls between the events (for comparison)
  --offset=K          start every input K elements past a 16-byte-aligned allocation (an
                      unaligned view, as the tests use); names end in /offset:K
  --device=N          run on CUDA device N (default 0)
  --mine              judge your own rungs (python3 scripts/new_rung.py <op> <slug>): check
                      each on every size, input and unaligned view the tests use, then time
                      it beside the ladder's top rung and CUB, and print the verdict: correct
                      or the first failing case, time, % of the copy ceiling, time over the
                      previous rung's and over CUB's (with --ops: those operators only)
  --verbose           one line per benchmark on stderr: where its wall time went (input
                      generation, setup, checks, the timed loop, the rest)
  --results_dir=DIR   write the JSON results to DIR/<gpu>.json (e.g. results/nvidia-h200.json)
  --inject-fault=RE   self-test of the error path: the first benchmark matching RE faults on
                      purpose (an illegal address); the run names it, skips the rest, exits 1
  --help              this text

Google Benchmark's own flags pass through, for example:
  --benchmark_filter=REGEX  --benchmark_repetitions=5  --benchmark_out=FILE
  --benchmark_out_format=json  --benchmark_min_time=SECONDS (default 0.01: each
  repetition times launches until 0.01 s of kernel time is reached)

Exit status: 0 when every benchmark ran and verified; 1 when a check failed, a CUDA error
occurred or there is no GPU (or no code for it); 2 for a bad command line, a
--benchmark_filter that matches nothing included.
)";
}

}  // namespace ladder
