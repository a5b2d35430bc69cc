// tests/test_judge.cpp — host tests of `cuda-ladder --mine` (common/judge.h) and of the progress
// line's estimate (common/bench.h): which versions are judged, on which cases, the lines and
// tables printed, and the estimate's arithmetic. No GPU needed: the names start with Host, so
// the `host` ctest runs them.
#include <gtest/gtest.h>

#include <cmath>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "common/bench.h"
#include "common/catalog.h"
#include "common/cli.h"
#include "common/judge.h"
#include "common/registry.h"

namespace ladder {
namespace {

Version version(const std::string& slug, int index, bool baseline = false, bool mine = false) {
  static std::deque<std::string> slugs;  // VersionDoc holds const char*: keep the strings
  slugs.push_back(slug);
  Version v;
  v.op = "toy";
  v.doc = VersionDoc{index, slugs.back().c_str(), "", "", "", "", ""};
  v.baseline = baseline;
  return mine ? yours(v) : v;
}

Operator toy() {
  Operator op;
  op.name = "toy";
  op.bytes_moved = [](size_t n) { return 4.0 * n; };
  op.distributions = {"uniform", "ones"};
  op.test_sizes = {0, 33};
  op.versions = {version("v00_serial", 0), version("v01_top", 1),
                 version("v02_mine", 2, false, true), version("cub", -1, true),
                 version("cub_other", -1, true)};
  return op;
}

TEST(HostJudge, LineupIsTheTopRungYoursAndTheFirstBaseline) {
  const Operator op = toy();
  const JudgeLineup l = judge_lineup(op);
  ASSERT_NE(l.top, nullptr);
  EXPECT_EQ(std::string(l.top->doc.slug), "v01_top");  // not v02: that one is yours
  ASSERT_EQ(l.yours.size(), 1u);
  EXPECT_EQ(std::string(l.yours[0]->doc.slug), "v02_mine");
  ASSERT_NE(l.baseline, nullptr);
  EXPECT_EQ(std::string(l.baseline->doc.slug), "cub");
  EXPECT_EQ(l.all().size(), 3u);
  // Without a rung of yours the lineup has none, and the top rung is the last rung.
  Operator plain = op;
  plain.versions.erase(plain.versions.begin() + 2);
  EXPECT_TRUE(judge_lineup(plain).yours.empty());
  EXPECT_EQ(std::string(judge_lineup(plain).top->doc.slug), "v01_top");
}

TEST(HostJudge, TheTreesOwnRungsOfYoursAreTheOnesJudged) {
  // In a tree without rungs of yours (as committed) nothing is judged; with some, exactly the
  // operators that hold them.
  size_t with_yours = 0;
  for (const Operator& op : operators())
    for (const Version& v : op.versions)
      if (v.yours) {
        ++with_yours;
        break;
      }
  EXPECT_EQ(judged_operators({}).size(), with_yours);
  EXPECT_TRUE(judged_operators({"no_such_operator"}).empty());
  const std::string line = nothing_to_judge({"reduce"});
  EXPECT_NE(line.find("no rung of yours is registered for --ops=reduce"), std::string::npos);
  EXPECT_NE(line.find("scripts/new_rung.py"), std::string::npos);
  EXPECT_EQ(line.find('\n'), std::string::npos);  // one line
}

TEST(HostJudge, CasesAreTheTestsCasesWithTheirSeeds) {
  const Operator op = toy();
  const Version& mine = op.versions[2];
  const std::vector<JudgeCase> cases = judge_cases(op, mine);
  // 2 sizes x 2 inputs, 2 offsets x 4 sizes, and the random ones
  ASSERT_EQ(cases.size(), 4u + 8u + kJudgeRandomCases);
  EXPECT_EQ(cases[3].n, 33u);
  EXPECT_EQ(cases[3].dist, "ones");
  EXPECT_EQ(cases[3].offset, 0u);
  EXPECT_EQ(cases[3].seed, 0x7e57u + 33);  // tests/test_versions.cpp's seed for the case
  size_t unaligned = 0;
  for (const JudgeCase& c : cases) unaligned += c.offset == 1 || c.offset == 3;
  EXPECT_GE(unaligned, 8u);
  for (size_t k = 12; k < cases.size(); ++k) {
    EXPECT_GE(cases[k].n, 1u);
    EXPECT_LE(cases[k].n, size_t(1) << 22);
    EXPECT_LT(cases[k].offset, 4u);
  }
  // The same version draws the same random cases every time.
  const std::vector<JudgeCase> again = judge_cases(op, mine);
  for (size_t k = 0; k < cases.size(); ++k) EXPECT_EQ(again[k].seed, cases[k].seed);
  // A size limit leaves out the cases above it (n = 1000 and 2^20 + 7 at both offsets).
  Version limited = mine;
  limited.max_n = 100;
  for (const JudgeCase& c : judge_cases(op, limited)) EXPECT_LE(c.n, 100u);
  EXPECT_LT(judge_cases(op, limited).size(), cases.size());
}

TEST(HostJudge, FailureLineNamesTheCase) {
  const Operator op = toy();
  const JudgeCase c{33, "uniform", 0, 0x7e57 + 33};
  const std::string line = failure_line(op.versions[2], c, 0, "index 32: got 0, want 7");
  EXPECT_EQ(line,
            "toy/v02_mine: WRONG at n=33, dist=uniform, offset=0 (seed 0x7e78, run 1 of 2): "
            "index 32: got 0, want 7");
}

TEST(HostJudge, TableGivesTimesCeilingAndRatios) {
  const Operator op = toy();
  const JudgeLineup l = judge_lineup(op);
  JudgeOutcome top, mine, cub;
  top.seconds = {100e-6, 100e-6, 120e-6};  // median 100 us
  top.bytes = 400e3;                       // 4 GB/s at 100 us
  mine.seconds = {150e-6};
  mine.bytes = 400e3;
  cub.seconds = {120e-6};
  cub.bytes = 400e3;
  std::map<const Version*, const JudgeOutcome*> outcome = {
      {l.top, &top}, {l.yours[0], &mine}, {l.baseline, &cub}};
  const std::string t = judge_table(op, l, 33, "uniform", outcome, {{l.yours[0], true}}, 8.0);
  EXPECT_NE(t.find("toy, n = 33, input uniform:"), std::string::npos) << t;
  EXPECT_NE(t.find("100.0"), std::string::npos) << t;
  EXPECT_NE(t.find("50.0%"), std::string::npos) << t;            // 4 GB/s of 8
  EXPECT_NE(t.find("1.500 (v01_top)"), std::string::npos) << t;  // 150 / 100
  EXPECT_NE(t.find("1.250"), std::string::npos) << t;            // 150 / 120
  EXPECT_EQ(t.find("WRONG"), std::string::npos) << t;
  // A rung the correctness cases failed is WRONG even where its benchmark passed; a benchmark
  // that failed shows its message.
  const std::string wrong = judge_table(op, l, 33, "uniform", outcome, {{l.yours[0], false}}, 8.0);
  EXPECT_NE(wrong.find("WRONG"), std::string::npos) << wrong;
  mine.failed = true;
  mine.message = "check before timing failed: index 0: got 0, want 1";
  const std::string failed = judge_table(op, l, 33, "uniform", outcome, {}, 8.0);
  EXPECT_NE(failed.find("WRONG"), std::string::npos) << failed;
  EXPECT_NE(failed.find("index 0: got 0, want 1"), std::string::npos) << failed;
  EXPECT_EQ(ratio_text(1, 0), "-");
  EXPECT_EQ(ratio_text(3, 2), "1.500");
}

TEST(HostJudge, MineFlagParses) {
  const std::vector<std::string> ops = {"reduce", "scan"};
  EXPECT_TRUE(parse_cli({"--mine"}, ops).mine);
  EXPECT_FALSE(parse_cli({}, ops).mine);
  EXPECT_THROW(parse_cli({"--mine=yes"}, ops), UsageError);
  EXPECT_THROW(parse_cli({"--mine", "--quick"}, ops), UsageError);
  EXPECT_NE(usage().find("--mine"), std::string::npos);
}

TEST(HostJudge, ListMarksEveryVersionYoursOrNot) {
  const std::string list = catalog_json({"reduce"});
  size_t versions = 0, marked = 0;
  for (size_t at = list.find("\"index\""); at != std::string::npos;
       at = list.find("\"index\"", at + 1))
    ++versions;
  for (size_t at = list.find("\"yours\""); at != std::string::npos;
       at = list.find("\"yours\"", at + 1))
    ++marked;
  EXPECT_GT(versions, 0u);
  EXPECT_EQ(marked, versions);
}

// The progress line's estimate weighs each benchmark by its expected cost: ten cheap
// benchmarks done in 10 s and ten that each cost three times as much still to run leave 30 s,
// where the average per benchmark said 10 s.
TEST(HostProgress, EstimateWeighsTheBenchmarksLeftByTheirCost) {
  EXPECT_DOUBLE_EQ(estimate_seconds_left(10.0, 10.0, 40.0, 10), 30.0);
  EXPECT_LT(estimate_seconds_left(10.0, 10.0, 40.0, 4), 0);   // fewer than five benchmarks
  EXPECT_LT(estimate_seconds_left(10.0, 7.0, 40.0, 10), 0);   // less than a fifth of the cost
  EXPECT_LT(estimate_seconds_left(10.0, 40.0, 40.0, 10), 0);  // nothing left
  EXPECT_LT(estimate_seconds_left(10.0, 0.0, 0.0, 10), 0);
  // The cost follows the operator's bytes: at 2^28, an operator that moves 32n bytes costs more
  // than one that moves 4n, and a tiny size still costs the fixed part.
  Operator light = toy(), heavy = toy();
  heavy.bytes_moved = [](size_t n) { return 32.0 * n; };
  const size_t n = size_t(1) << 28;
  EXPECT_GT(benchmark_cost(heavy, n), 4 * benchmark_cost(light, n));
  EXPECT_DOUBLE_EQ(benchmark_cost(light, 0), kBenchmarkFixedCost);
  EXPECT_DOUBLE_EQ(benchmark_cost(light, n), 4.0 * n + kBenchmarkFixedCost);
}

}  // namespace
}  // namespace ladder
