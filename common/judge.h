// common/judge.h — `cuda-ladder --mine`: the verdict on a reader's own rungs.
//
// A rung of yours (Version::yours: registered in <op>/mine.inc by scripts/new_rung.py) is judged
// in two steps. First its correctness, on every case the GPU tests give the ladder's rungs: each
// edge size on every input, the unaligned views, and seeded random sizes, with two poisoned runs
// each; the first failing case is named (size, input, offset, seed, and the check's message:
// first wrong index, got, want). Then its time, as a benchmark beside the ladder's top rung and
// the library baseline on the same inputs; a table then gives each one's time, % of the measured
// copy ceiling, and the time over the previous rung's and over CUB's.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/registry.h"

namespace ladder {

// The versions --mine times for one operator, in this order: the ladder's top rung (the last
// rung that is not yours), your rungs in registry order, and the first library baseline.
struct JudgeLineup {
  const Version* top = nullptr;
  std::vector<const Version*> yours;
  const Version* baseline = nullptr;
  std::vector<const Version*> all() const;  // top, yours..., baseline (the ones that exist)
};
JudgeLineup judge_lineup(const Operator& op);

// The operators --mine judges: those named in `ops` (every operator when empty) that have a
// rung of yours.
std::vector<const Operator*> judged_operators(const std::vector<std::string>& ops);

// The line --mine prints when there is nothing to judge.
std::string nothing_to_judge(const std::vector<std::string>& ops);

// One correctness case.
struct JudgeCase {
  size_t n = 0;
  std::string dist;
  size_t offset = 0;  // elements past an aligned allocation
  uint64_t seed = 0;  // the input's generator seed
};

// Every case the GPU tests (tests/test_versions.cpp) give a rung, in their order and with their
// seeds for the fixed cases: each of op.test_sizes on every distribution, then offsets 1 and 3
// at n = 1, 5, 1000 and 2^20 + 7, then kJudgeRandomCases sizes drawn log-uniform in [1, 2^22]
// with a random input and offset 0 to 3 (seeded by the version's name). Cases above the
// version's max_n are left out.
constexpr int kJudgeRandomCases = 3;
std::vector<JudgeCase> judge_cases(const Operator& op, const Version& version);

// The line that names a failing case: "reduce/v13_x: WRONG at n=33, dist=uniform, offset=0
// (seed 0x7e78, run 1 of 2): index 0: got ..., want ...".
std::string failure_line(const Version& version, const JudgeCase& c, int run,
                         const std::string& message);

// Runs judge_cases of every rung of yours in `ops` on the current GPU and prints one line for
// each (correct on all cases, or the first failing case) on stdout. Returns the rungs that
// failed. Needs a GPU. Throws CudaError when the CUDA context is lost.
int judge_correctness(const std::vector<const Operator*>& ops);

// What a benchmark gave (common/bench.h, bench_outcomes): the per-call mean kernel times in
// seconds, the bytes its GB/s counts, and whether it failed a check (with the message) or was
// skipped.
struct JudgeOutcome {
  std::vector<double> seconds;
  double bytes = 0;
  bool failed = false;
  bool skipped = false;
  std::string message;
};

// "1.234" (a / b), or "-" where either is not known.
std::string ratio_text(double a, double b);

// The table of one operator's benchmarks at one size and input: a line per version of the
// lineup with its verdict, median time (µs), % of the copy ceiling, the time over the previous
// rung's and over the baseline's. `outcome` maps a version to what its benchmark gave (absent:
// not run); `correct` is the correctness verdict of each rung of yours.
std::string judge_table(const Operator& op, const JudgeLineup& lineup, size_t n,
                        const std::string& dist,
                        const std::map<const Version*, const JudgeOutcome*>& outcome,
                        const std::map<const Version*, bool>& correct, double copy_gbps);

// v written with `digits` decimals ("1234.5"): the judge's tables and the benchmark's context.
std::string fixed(double v, int digits);

// The correctness verdict of each rung of yours, as judge_correctness found it.
const std::map<const Version*, bool>& judge_verdicts();

}  // namespace ladder
