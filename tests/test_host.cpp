// tests/test_host.cpp — tests that need no GPU: the command line, the checkers, the generators
// and the registry's own consistency. Every suite is named Host* so CI runs them all.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include "common/bench.h"
#include "common/cli.h"
#include "common/device.h"
#include "common/fast_divmod.h"
#include "common/input_cache.h"
#include "common/parallel.h"
#include "common/random.h"
#include "common/registry.h"
#include "copy_if/copy_if.h"
#include "elementwise/elementwise.h"
#include "elementwise/transfer.h"
#include "histogram/histogram.h"
#include "reduce/axis.h"
#include "reduce/reduce.h"
#include "scan/scan.h"
#include "sort/merge_parts.h"
#include "sort/sort.h"

namespace ladder {
namespace {

const std::vector<std::string> kOps = {"reduce", "scan", "histogram", "histogram_u8"};

TEST(HostCli, ParsesSizes) {
  EXPECT_EQ(parse_size("0"), 0u);
  EXPECT_EQ(parse_size("25600000"), 25600000u);
  EXPECT_EQ(parse_size("2^28"), size_t(1) << 28);
  EXPECT_EQ(parse_size("2^31+17"), (size_t(1) << 31) + 17);
  EXPECT_EQ(parse_size("2^20-1"), (size_t(1) << 20) - 1);
  EXPECT_EQ(parse_size_list("1,2^10,33"), (std::vector<size_t>{1, 1024, 33}));
}

TEST(HostCli, RejectsMalformedSizes) {
  for (const char* bad : {"", "abc", "-5", "1e6", "2^", "2^x", "2^41", "2^3-9", "12abc",
                          "99999999999999999999", "2^10+"})
    EXPECT_THROW(parse_size(bad), UsageError) << "'" << bad << "'";
  EXPECT_THROW(parse_size_list("1,,2"), UsageError);
  EXPECT_THROW(parse_size_list("1,"), UsageError);
}

TEST(HostCli, ParsesFlags) {
  const Options o = parse_cli({"--hot", "--sizes=2^20,33", "--ops=reduce", "--device=1",
                               "--benchmark_repetitions=5", "--benchmark_min_time=0.2"},
                              kOps);
  EXPECT_TRUE(o.hot);
  EXPECT_EQ(o.sizes, (std::vector<size_t>{1 << 20, 33}));
  EXPECT_EQ(o.ops, std::vector<std::string>{"reduce"});
  EXPECT_EQ(o.device, 1);
  EXPECT_TRUE(o.user_min_time);
  EXPECT_EQ(o.benchmark_args.size(), 2u);
}

TEST(HostCli, ParsesTimingAndOffsetFlags) {
  const Options o = parse_cli({"--no-blocking", "--offset=1"}, kOps);
  EXPECT_TRUE(o.no_blocking);
  EXPECT_EQ(o.offset, 1u);
  EXPECT_FALSE(parse_cli({}, kOps).no_blocking);
  EXPECT_THROW(parse_cli({"--offset=1025"}, kOps), UsageError);
  EXPECT_THROW(parse_cli({"--no-blocking=1"}, kOps), UsageError);
}

TEST(HostCli, QuickSelectsTopRungsAndCubAtTheLargeSize) {
  std::vector<std::string> all_ops;
  for (const Operator& op : operators()) all_ops.push_back(op.name);
  const Options o = parse_cli({"--quick"}, all_ops);
  const std::vector<BenchSpec> specs = benchmark_specs(o);
  std::set<std::string> names;
  for (const BenchSpec& s : specs) {
    EXPECT_EQ(s.n, kLargeSize) << s.name;
    names.insert(s.name);
  }
  EXPECT_TRUE(names.count("reduce/v12_size_dispatch/n:268435456/manual_time"));
  EXPECT_FALSE(names.count("reduce/v11_tiled_loads/n:268435456/manual_time"));
  EXPECT_TRUE(names.count("reduce/cub/n:268435456/manual_time"));
  EXPECT_TRUE(names.count("copy_if/v10_group_sums/n:268435456/dist:keep50/manual_time"));
  EXPECT_FALSE(names.count("copy_if/v09_epoch_statuses/n:268435456/dist:keep50/manual_time"));
  EXPECT_TRUE(names.count("histogram/cub/n:268435456/dist:uniform/manual_time"));
  EXPECT_FALSE(names.count("histogram/cub_int_levels/n:268435456/dist:uniform/manual_time"));
  EXPECT_FALSE(names.count("sort/v06_onesweep_ballot/n:268435456/dist:few/manual_time"));
  EXPECT_EQ(benchmarks_selected(o, specs), specs.size());
  Options filtered = o;
  filtered.benchmark_args = {"--benchmark_filter=^(reduce|scan)/"};
  EXPECT_EQ(benchmarks_selected(filtered, specs), 4u);
  filtered.benchmark_args = {"--benchmark_filter=-^(reduce|scan)/"};
  EXPECT_EQ(benchmarks_selected(filtered, specs), specs.size() - 4);
}

TEST(HostCli, SaysWhichVersionsASizeLeavesOut) {
  const std::vector<std::string> ops = {"reduce", "sort"};
  // 2^32 + 5 keys: above the largest n of every sort rung but the top one (32-bit positions, the
  // serial baseline's 2^16; v17 merges sorted parts there), not CUB's; one line for sort, none for
  // reduce at a size all its rungs take.
  const size_t big = (size_t(1) << 32) + 5;
  std::vector<std::string> notes =
      left_out_notes(parse_cli({"--ops=sort", "--sizes=" + std::to_string(big)}, ops));
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].rfind("sort at n = 4294967301: left out, above their largest n: ", 0), 0u)
      << notes[0];
  EXPECT_NE(notes[0].find("v00_serial (65536)"), std::string::npos) << notes[0];
  EXPECT_NE(notes[0].find("v16_top_digits_first (4294967295)"), std::string::npos) << notes[0];
  EXPECT_EQ(notes[0].find("v17_"), std::string::npos) << notes[0];
  EXPECT_EQ(notes[0].find("cub"), std::string::npos) << notes[0];
  // The filter narrows the line to the versions it would have run.
  notes = left_out_notes(
      parse_cli({"--ops=sort", "--sizes=2^33", "--benchmark_filter=sort/v1[67]_"}, ops));
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("v16_top_digits_first"), std::string::npos) << notes[0];
  EXPECT_EQ(notes[0].find("v15_"), std::string::npos) << notes[0];
  EXPECT_TRUE(left_out_notes(parse_cli({"--ops=reduce", "--sizes=2^20"}, ops)).empty());
  EXPECT_EQ(left_out_notes(parse_cli({"--ops=reduce", "--sizes=2^28"}, ops)).size(), 1u);
  EXPECT_TRUE(left_out_notes(parse_cli({"--ops=sort"}, ops)).empty());  // the defaults
  EXPECT_TRUE(
      left_out_notes(parse_cli({"--ops=sort", "--sizes=2^33", "--benchmark_filter=sort/cub"}, ops))
          .empty());
}

TEST(HostCli, RejectsBadFlags) {
  EXPECT_THROW(parse_cli({"--bogus"}, kOps), UsageError);
  EXPECT_THROW(parse_cli({"positional"}, kOps), UsageError);
  EXPECT_THROW(parse_cli({"--ops=reduce,nope"}, kOps), UsageError);
  EXPECT_THROW(parse_cli({"--ops="}, kOps), UsageError);
  EXPECT_THROW(parse_cli({"--sizes"}, kOps), UsageError);
  EXPECT_THROW(parse_cli({"--device=-1"}, kOps), UsageError);
  EXPECT_THROW(parse_cli({"--device=one"}, kOps), UsageError);
  EXPECT_THROW(parse_cli({"--benchmark_repetitions=0"}, kOps), UsageError);
  EXPECT_THROW(parse_cli({"--benchmark_repetitions=-1"}, kOps), UsageError);
  EXPECT_NO_THROW(parse_cli({"--benchmark_repetitions=3"}, kOps));
  EXPECT_THROW(parse_cli({"--hot=yes"}, kOps), UsageError);
  EXPECT_THROW(parse_cli({"--results_dir=r", "--benchmark_out=x.json"}, kOps), UsageError);
}

TEST(HostCli, DefaultSizesAndSweep) {
  Options o;
  EXPECT_EQ(benchmark_sizes(o), (std::vector<size_t>{kLadderSize, kLargeSize}));
  o.sweep = true;
  const auto sweep = benchmark_sizes(o);
  EXPECT_EQ(sweep.size(), 19u);
  EXPECT_EQ(sweep.front(), 1024u);
  EXPECT_EQ(sweep.back(), kLargeSize);
}

TEST(HostDevice, GpuSlug) {
  EXPECT_EQ(gpu_slug("NVIDIA H200"), "nvidia-h200");
  EXPECT_EQ(gpu_slug("NVIDIA GeForce RTX 4090 "), "nvidia-geforce-rtx-4090");
  EXPECT_EQ(gpu_slug("???"), "unknown-gpu");
}

TEST(HostRegistry, EveryLadderIsConsistent) {
  ASSERT_FALSE(operators().empty());
  for (const Operator& op : operators()) {
    SCOPED_TRACE(op.name);
    EXPECT_EQ(find_operator(op.name), &op);
    ASSERT_FALSE(op.versions.empty());
    ASSERT_FALSE(op.distributions.empty());
    EXPECT_GT(op.bytes_moved(1000), 0);
    std::set<std::string> slugs;
    int last = -1;  // indices increase; a rung that does not apply may be skipped (fp32 has no v04)
    bool seen_baseline = false;
    for (const Version& v : op.versions) {
      SCOPED_TRACE(v.doc.slug);
      EXPECT_EQ(v.op, op.name);
      EXPECT_TRUE(slugs.insert(v.doc.slug).second) << "duplicate slug";
      EXPECT_TRUE(v.make) << "no factory";
      for (const char* text :
           {v.doc.title, v.doc.technique, v.doc.changes, v.doc.remains, v.doc.source})
        EXPECT_GT(std::string(text).size(), 3u);
      if (v.baseline) {
        seen_baseline = true;
        EXPECT_EQ(v.doc.index, -1);
      } else {
        EXPECT_FALSE(seen_baseline) << "rungs come before the baseline";
        if (last < 0 && op.variant_of.empty()) {
          EXPECT_EQ(v.doc.index, 0) << "a ladder starts at v00";
        }
        EXPECT_GT(v.doc.index, last);
        last = v.doc.index;
        char prefix[8];
        std::snprintf(prefix, sizeof prefix, "v%02d_", v.doc.index);
        EXPECT_EQ(std::string(v.doc.slug).rfind(prefix, 0), 0u) << "slug must start " << prefix;
      }
    }
    EXPECT_TRUE(seen_baseline) << "every ladder is compared with a library baseline";
  }
}

TEST(HostReduce, GeneratorsAreSeededAndNeverAllZero) {
  for (const std::string& d : reduce::distributions()) {
    const auto a = reduce::generate(1000, d, 42), b = reduce::generate(1000, d, 42);
    EXPECT_EQ(a, b) << d;
    EXPECT_TRUE(std::any_of(a.begin(), a.end(), [](float x) { return x != 0; })) << d;
  }
  EXPECT_NE(reduce::generate(1000, "uniform", 1), reduce::generate(1000, "uniform", 2));
  EXPECT_THROW(reduce::generate(10, "nope", 1), std::invalid_argument);
}

TEST(HostReduce, CheckIsExactForSmallIntegers) {
  const auto x = reduce::generate(1000, "small_ints", 7);
  const reduce::Reference ref = reduce::reference(x.data(), x.size());
  EXPECT_TRUE(ref.integer_valued);
  EXPECT_EQ(reduce::tolerance(ref), 0.0);
  EXPECT_TRUE(reduce::check_sum(static_cast<float>(ref.sum), ref).ok);
  // A dropped element changes the sum by an integer: caught.
  EXPECT_FALSE(reduce::check_sum(static_cast<float>(ref.sum - x[999] + (x[999] == 0)), ref).ok);
  EXPECT_FALSE(reduce::check_sum(static_cast<float>(ref.sum + 1), ref).ok);
}

TEST(HostReduce, CheckScalesWithSumOfMagnitudes) {
  const auto x = reduce::generate(1 << 16, "large", 3);
  const reduce::Reference ref = reduce::reference(x.data(), x.size());
  EXPECT_FALSE(ref.integer_valued && ref.abs_sum <= 16777216.0);
  const double tol = reduce::tolerance(ref);
  EXPECT_NEAR(tol, std::ldexp(ref.abs_sum, -16), 0);
  EXPECT_TRUE(reduce::check_sum(static_cast<float>(ref.sum), ref).ok);
  EXPECT_FALSE(reduce::check_sum(static_cast<float>(ref.sum + 4 * tol), ref).ok);
}

TEST(HostReduce, CheckRejectsNanAndInf) {
  const auto x = reduce::generate(100, "uniform", 5);
  const reduce::Reference ref = reduce::reference(x.data(), x.size());
  EXPECT_FALSE(reduce::check_sum(std::numeric_limits<float>::quiet_NaN(), ref).ok);
  EXPECT_FALSE(reduce::check_sum(std::numeric_limits<float>::infinity(), ref).ok);
  const reduce::Reference empty = reduce::reference(nullptr, 0);
  EXPECT_TRUE(reduce::check_sum(0.0f, empty).ok);
  EXPECT_FALSE(reduce::check_sum(1e-30f, empty).ok);
  EXPECT_FALSE(reduce::check_sum(std::numeric_limits<float>::quiet_NaN(), empty).ok);
}

}  // namespace
}  // namespace ladder

namespace ladder {
namespace {

TEST(HostHistogram, ReferenceCountsEverySampleOnce) {
  for (const std::string& d : histogram::distributions<uint8_t>()) {
    const auto x = histogram::generate<uint8_t>(4099, d, 11);
    const auto y = histogram::generate<int32_t>(4099, d, 11);
    histogram::Counts cx{}, cy{};
    histogram::accumulate(cx, x.data(), x.size());
    histogram::accumulate(cy, y.data(), y.size());
    uint64_t sx = 0, sy = 0;
    for (int b = 0; b < histogram::kBins; ++b) sx += cx[b], sy += cy[b];
    EXPECT_EQ(sx, 4099u) << d;  // the bins sum to n
    EXPECT_EQ(sy, 4099u) << d;
  }
  const int32_t outside[] = {-1, 256, 1 << 30, 5};
  histogram::Counts c{};
  histogram::accumulate(c, outside, 4);
  EXPECT_EQ(c[5], 1u);  // samples outside [0, 256) are not counted, as in CUB
  uint64_t total = 0;
  for (uint64_t v : c) total += v;
  EXPECT_EQ(total, 1u);
}

TEST(HostHistogram, CheckIsExactAndNamesTheFirstBadBin) {
  histogram::Counts want{};
  want[3] = 10;
  unsigned got[histogram::kBins] = {};
  got[3] = 10;
  EXPECT_TRUE(histogram::check_bins(got, want).ok);
  got[3] = 9;
  got[200] = 1;
  const CheckResult r = histogram::check_bins(got, want);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.max_err, 2);
  EXPECT_NE(r.message.find("index 3: got 9, want 10"), std::string::npos) << r.message;
}

}  // namespace
}  // namespace ladder

namespace ladder {
namespace {

TEST(HostScan, GeneratorsAreSeeded) {
  for (const std::string& d : scan::distributions()) {
    const auto a = scan::generate(5000, d, 42), b = scan::generate(5000, d, 42);
    EXPECT_EQ(a, b) << d;
    EXPECT_TRUE(std::any_of(a.begin(), a.end(), [](int32_t x) { return x != 0; })) << d;
  }
  const auto hot = scan::generate(5000, "one_hot", 3);
  EXPECT_EQ(std::count(hot.begin(), hot.end(), 0), 4999);
  EXPECT_THROW(scan::generate(0, "nope", 1), std::invalid_argument);
}

TEST(HostScan, CheckIsExactAndCarries) {
  const auto x = scan::generate(1000, "small_signed", 9);
  std::vector<int32_t> want(x.size());
  int64_t s = 0;
  for (size_t i = 0; i < x.size(); ++i) want[i] = static_cast<int32_t>(s += x[i]);
  int64_t carry = 0;
  EXPECT_TRUE(scan::check_piece(x.data(), want.data(), 600, 0, carry).ok);
  EXPECT_TRUE(scan::check_piece(x.data() + 600, want.data() + 600, 400, 600, carry).ok);
  auto bad = want;
  bad[777] += 1;  // one element off by one
  carry = 0;
  const CheckResult r = scan::check_piece(x.data(), bad.data(), bad.size(), 0, carry);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.message.find("index 777"), std::string::npos) << r.message;
}

TEST(HostScan, CheckRefusesAnInputThatOverflowsInt32) {
  const std::vector<int32_t> big = {std::numeric_limits<int32_t>::max(), 1};
  const std::vector<int32_t> got = {std::numeric_limits<int32_t>::max(),
                                    std::numeric_limits<int32_t>::min()};  // the wrapped sum
  int64_t carry = 0;
  const CheckResult r = scan::check_piece(big.data(), got.data(), 2, 0, carry);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.message.find("int32 range"), std::string::npos) << r.message;
}

TEST(HostCopyIf, GeneratorsKeepTheStatedFraction) {
  const size_t n = 100000;
  auto kept = [&](const std::string& d) {
    const auto x = copy_if::generate(n, d, 7);
    EXPECT_EQ(x, copy_if::generate(n, d, 7)) << d;  // seeded
    return static_cast<double>(copy_if::reference(x).size()) / n;
  };
  EXPECT_NEAR(kept("keep50"), 0.50, 0.01);
  EXPECT_NEAR(kept("keep1"), 0.01, 0.002);
  EXPECT_NEAR(kept("keep99"), 0.99, 0.002);
  EXPECT_EQ(kept("none"), 0.0);
  EXPECT_EQ(kept("all"), 1.0);
  EXPECT_NEAR(kept("boundary"), 0.40, 0.01);       // 1 and INT_MAX of 0, 1, -1, INT_MIN, INT_MAX
  const auto x = copy_if::generate(n, "none", 3);  // zero is dropped, and it does occur
  EXPECT_TRUE(std::all_of(x.begin(), x.end(), [](int32_t v) { return v <= 0; }));
  EXPECT_THROW(copy_if::generate(0, "nope", 1), std::invalid_argument);
}

TEST(HostCopyIf, OrderedCheckWantsOrderAndCount) {
  const auto want = copy_if::reference(copy_if::generate(5000, "keep50", 11));
  auto got = want;
  EXPECT_TRUE(copy_if::check_ordered(want, got.data(), got.size()).ok);
  std::swap(got[10], got[20]);  // same multiset, wrong order
  EXPECT_FALSE(copy_if::check_ordered(want, got.data(), got.size()).ok);
  EXPECT_FALSE(copy_if::check_ordered(want, want.data(), want.size() - 1).ok);
}

TEST(HostCopyIf, UnorderedCheckWantsTheMultiset) {
  const auto want = copy_if::reference(copy_if::generate(5000, "keep50", 12));
  auto got = want;
  std::reverse(got.begin(), got.end());
  EXPECT_TRUE(copy_if::check_unordered(want, got.data(), got.size()).ok);
  got = want;
  got[5] = got[6];  // one value duplicated, one lost
  EXPECT_FALSE(copy_if::check_unordered(want, got.data(), got.size()).ok);
  got = want;
  got[7] = 0;  // fails the predicate
  const CheckResult r = copy_if::check_unordered(want, got.data(), got.size());
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.message.find("predicate"), std::string::npos) << r.message;
}

// The same above the radix sort's threshold (2^16 values: it sorts on every core), with the
// sorted reference passed in as the benchmark passes it.
TEST(HostCopyIf, UnorderedCheckWithASortedReference) {
  const auto want = copy_if::reference(copy_if::generate(600000, "keep50", 13));
  ASSERT_GT(want.size(), size_t(1) << 17);
  const auto sorted = copy_if::sorted_values(want);
  EXPECT_TRUE(std::is_sorted(sorted.begin(), sorted.end()));
  auto got = want;
  std::reverse(got.begin(), got.end());
  EXPECT_TRUE(copy_if::check_unordered(want, got.data(), got.size(), sorted.data()).ok);
  got[1000] = got[200000];  // one value duplicated, one lost
  EXPECT_FALSE(copy_if::check_unordered(want, got.data(), got.size(), sorted.data()).ok);
  EXPECT_FALSE(copy_if::check_unordered(want, got.data(), got.size()).ok);
}

TEST(HostCopyIf, FingerprintCatchesAWrongMultisetAboveTheExactLimit) {
  std::vector<int32_t> want(copy_if::kExactMultiset + 1);
  for (size_t i = 0; i < want.size(); ++i) want[i] = static_cast<int32_t>(i % 1000003) + 1;
  std::vector<int32_t> got(want.rbegin(), want.rend());
  EXPECT_TRUE(copy_if::check_unordered(want, got.data(), got.size()).ok);
  got[123] = got[124];
  EXPECT_FALSE(copy_if::check_unordered(want, got.data(), got.size()).ok);
}

TEST(HostSort, GeneratorsAndReference) {
  for (const std::string& d : sort::distributions()) {
    const auto x = sort::generate(300000, d, 5);
    EXPECT_EQ(x, sort::generate(300000, d, 5)) << d;
    auto want = x;
    std::sort(want.begin(), want.end());
    EXPECT_EQ(sort::reference(x), want) << d;  // the radix reference is std::sort's
  }
  // Masks that leave one, two or three of the four digits varying: the reference skips the
  // passes of constant digits, so its result ends in either of its two buffers.
  for (const uint32_t mask : {0x000000ffu, 0xffff00ffu, 0xff000000u, 0x00ff0f00u}) {
    auto x = sort::generate(300001, "uniform", 7);
    for (uint32_t& k : x) k &= mask;
    auto want = x;
    std::sort(want.begin(), want.end());
    EXPECT_EQ(sort::reference(x), want) << std::hex << mask;
  }
  const auto few = sort::generate(10000, "few", 1);
  EXPECT_LE(std::set<uint32_t>(few.begin(), few.end()).size(), 16u);
  const auto few_top = sort::generate(10000, "few_top", 1);
  std::set<uint32_t> tops;
  for (const uint32_t k : few_top) tops.insert(k >> 16);
  EXPECT_LE(tops.size(), 16u);
  EXPECT_GT(std::set<uint32_t>(few_top.begin(), few_top.end()).size(), 9000u);
  // few_spread: 15 keys in 16 from at most 16 values; the others in buckets (top 16 bits) that
  // none of those values has, and of many key values.
  const auto spread = sort::generate(size_t(1) << 20, "few_spread", 1);
  std::map<uint32_t, size_t> counts;
  for (const uint32_t k : spread) ++counts[k];
  std::vector<std::pair<size_t, uint32_t>> by_count;
  for (const auto& [k, c] : counts) by_count.push_back({c, k});
  std::sort(by_count.rbegin(), by_count.rend());
  std::set<uint32_t> heavy_tops;
  size_t heavy = 0;
  for (size_t i = 0; i < std::min<size_t>(16, by_count.size()); ++i) {
    heavy += by_count[i].first;
    heavy_tops.insert(by_count[i].second >> 16);
  }
  EXPECT_NEAR(double(heavy) / spread.size(), 15.0 / 16, 0.01);
  size_t rest = 0;
  for (const uint32_t k : spread)
    if (counts[k] < 100) {
      ++rest;
      EXPECT_EQ(heavy_tops.count(k >> 16), 0u) << std::hex << k;
    }
  EXPECT_EQ(rest, spread.size() - heavy);
  const auto top = sort::generate(1000, "topbit", 1);
  EXPECT_TRUE(std::all_of(top.begin(), top.end(), [](uint32_t k) { return k >> 31; }));
  const auto rev = sort::generate(1000, "reversed", 1);
  EXPECT_TRUE(std::is_sorted(rev.rbegin(), rev.rend()));
  // nearly_sorted: the same draws as "uniform", sorted (std::sort here), with each run's (equal
  // top 16 bits) last two keys swapped.
  const size_t nn = 1u << 20;
  const auto nearly = sort::generate(nn, "nearly_sorted", 3);
  auto want_nearly = sort::generate(nn, "uniform", 3);
  std::sort(want_nearly.begin(), want_nearly.end());
  EXPECT_EQ(sort::generate(nn, "sorted", 3), want_nearly);
  size_t runs = 0, swapped = 0;
  for (size_t i = 0; i < nn; ++i) {
    if (i + 1 < nn && want_nearly[i + 1] >> 16 == want_nearly[i] >> 16) continue;
    ++runs;  // i ends a run
    if (i >= 1 && want_nearly[i - 1] >> 16 == want_nearly[i] >> 16) {
      swapped += want_nearly[i - 1] != want_nearly[i];
      std::swap(want_nearly[i - 1], want_nearly[i]);
    }
  }
  EXPECT_EQ(nearly, want_nearly);
  EXPECT_GT(runs, 60000u);  // about 2^16 runs of 16 keys
  EXPECT_GT(swapped, runs / 2);
  EXPECT_FALSE(std::is_sorted(nearly.begin(), nearly.end()));
  EXPECT_THROW(sort::generate(0, "nope", 1), std::invalid_argument);
}

// Sort's road past 2^32 - 1 keys (sort/merge_parts.h): its cut at sizes no GPU test sorts. Parts
// are whole merge tiles, at most the bound, and cover n; the rounds are ceil(log2(parts)); and the
// workspace holds the larger need of the two part sizes, which can be the smaller part's.
TEST(HostSort, MergePartsCut) {
  using namespace sort::parts;
  const size_t most = kMaxPart;
  for (const auto& [n, bound] :
       std::vector<std::pair<size_t, size_t>>{{(size_t(1) << 32) + 5, most},
                                              {2 * (most / kTile * kTile), most},
                                              {2 * (most / kTile * kTile) + 1, most},
                                              {(size_t(1) << 34), most},
                                              {25600000, 1000000},
                                              {1048583, 100000},
                                              {kTile + 1, kTile},
                                              {7 * kTile + 3, 3 * kTile - 1}}) {
    const Plan p = plan_for(n, bound);
    SCOPED_TRACE("n=" + std::to_string(n) + " bound=" + std::to_string(bound));
    EXPECT_EQ(p.keys % kTile, 0u);
    EXPECT_GE(p.keys, kTile);
    EXPECT_LE(p.keys, bound);
    EXPECT_LT((p.count - 1) * p.keys, n);
    EXPECT_GE(p.count * p.keys, n);
    EXPECT_GE(p.count, 2u);
    EXPECT_LT(size_t(1) << (p.rounds - 1), p.count);
    EXPECT_LE(p.count, size_t(1) << p.rounds);
  }
  // One round holds two parts of the largest whole tiles below 2^32.
  const size_t two = 2 * (most / kTile * kTile);
  EXPECT_EQ(plan_for(two, most).rounds, 1u);
  EXPECT_EQ(plan_for(two + 1, most).rounds, 2u);
  // A part sorter that keeps more for smaller parts (as v17 keeps v16's own parts only up to its
  // hybrid road's last n): the last, smaller part sets the workspace.
  if (largest() == kMaxPart) {  // LADDER_SORT_PART_KEYS unset: plan(n) cuts at 2^32 - 1
    const size_t n = (size_t(1) << 32) + 5;
    const Plan p = plan(n);
    const size_t last = n - (p.count - 1) * p.keys;
    ASSERT_LT(last, p.keys);
    const auto part_ws = [&](size_t m) -> size_t { return m <= last ? 1000 : 1; };
    EXPECT_EQ(workspace_bytes(n, false, part_ws), own_bytes(n, false) + 1000);
  }
}

TEST(HostSort, PairsCheckWantsStability) {
  const std::vector<uint32_t> keys = {5, 3, 5, 1, 3};
  const std::vector<uint32_t> want = {1, 3, 3, 5, 5};
  const std::vector<uint32_t> stable = {3, 1, 4, 0, 2}, unstable = {3, 4, 1, 0, 2};
  EXPECT_TRUE(sort::check_pairs(keys, want, want.data(), stable.data()).ok);
  const CheckResult r = sort::check_pairs(keys, want, want.data(), unstable.data());
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.message.find("stable"), std::string::npos) << r.message;
  const std::vector<uint32_t> wrong_key = {0, 1, 4, 3, 2};  // value 0 belongs to key 5, not 1
  EXPECT_FALSE(sort::check_pairs(keys, want, want.data(), wrong_key.data()).ok);
  const std::vector<uint32_t> dup = {3, 1, 1, 0, 2};
  EXPECT_FALSE(sort::check_pairs(keys, want, want.data(), dup.data()).ok);
  // A run of three equal keys whose values repeat apart (5, 7, 5): rejected without a table of
  // the indices seen, since values under equal keys must increase.
  const std::vector<uint32_t> k3 = {9, 1, 2, 3, 4, 9, 6, 9};
  const std::vector<uint32_t> w3 = {1, 2, 3, 4, 6, 9, 9, 9};
  const std::vector<uint32_t> ok3 = {1, 2, 3, 4, 6, 0, 5, 7}, rep3 = {1, 2, 3, 4, 6, 5, 7, 5};
  EXPECT_TRUE(sort::check_pairs(k3, w3, w3.data(), ok3.data()).ok);
  EXPECT_FALSE(sort::check_pairs(k3, w3, w3.data(), rep3.data()).ok);
}

TEST(HostElementwise, ReferenceFollowsTheFormula) {
  using elementwise::Kind;
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(elementwise::reference(Kind::kGelu, 0.0, 0, 0, 0), 0.0);
  EXPECT_NEAR(elementwise::reference(Kind::kGelu, 1.0, 0, 0, 0), 0.8411919906082768, 1e-12);
  EXPECT_EQ(elementwise::reference(Kind::kGelu, inf, 0, 0, 0), inf);
  EXPECT_TRUE(std::isnan(elementwise::reference(Kind::kGelu, -inf, 0, 0, 0)));  // -Inf * 0
  EXPECT_TRUE(std::isnan(elementwise::reference(Kind::kGelu, std::nan(""), 0, 0, 0)));
  EXPECT_EQ(elementwise::reference(Kind::kFused, 1.5, -2.0, 0.5, 1), -1.0);  // (1.5+0.5)*0.5-2
  EXPECT_EQ(elementwise::reference(Kind::kFused, 1.5, -2.0, 0.5, 0), -2.0);
  EXPECT_EQ(elementwise::reference(Kind::kAdd, 1.5, -2.0, 7, 1), -0.5);
}

// Bit patterns, so that NaNs and signed zeros compare too.
template <typename T>
std::vector<uint8_t> bytes_of(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  if (!v.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}
template <typename T>
uint16_t bits16(T v) {
  uint16_t b;
  std::memcpy(&b, &v, 2);
  return b;
}

// The inputs are one SplitMix64 stream, drawn in this order by a sequential loop: x, the addend,
// the mask, then the bias (elementwise/inputs.cuh); the counter-based generator, the GPU's and
// the view's, must give exactly what that loop gives (the values the benchmark always used).
template <typename T>
void expect_the_sequential_stream(elementwise::Kind kind, const std::string& dist, size_t n,
                                  uint64_t seed) {
  using elementwise::Kind;
  auto from_double = [](double v) {
    if constexpr (sizeof(T) == 2) {
      return __float2half_rn(static_cast<float>(v));
    } else {
      return static_cast<float>(v);
    }
  };
  SplitMix64 rng(seed);
  auto uniform = [&](double lo, double hi) {
    return from_double(lo + (hi - lo) * static_cast<double>(rng.unit_float()));
  };
  auto special = [&](uint64_t k) {
    const double big = sizeof(T) == 4 ? 1e30 : 3e4;
    const double values[6] = {std::numeric_limits<double>::quiet_NaN(),
                              std::numeric_limits<double>::infinity(),
                              -std::numeric_limits<double>::infinity(),
                              -0.0,
                              big,
                              -big};
    return from_double(values[k % 6]);
  };
  elementwise::HostInputs<T> want;
  for (size_t i = 0; i < n; ++i) want.x.push_back(uniform(-6, 6));
  if (kind != Kind::kGelu)
    for (size_t i = 0; i < n; ++i) want.addend.push_back(uniform(-10, 10));
  if (kind == Kind::kFused) {
    for (size_t i = 0; i < n; ++i) want.mask.push_back(static_cast<uint8_t>(rng.next() & 1));
    for (int j = 0; j < (dist == "bias1000" ? 1000 : 1024); ++j)
      want.bias.push_back(uniform(-1, 1));
  }
  if (dist == "specials") {
    for (size_t i = 0; i < n; i += 61) want.x[i] = special(i / 61);
    for (size_t i = 3; i < want.addend.size(); i += 67) want.addend[i] = special(i / 67 + 1);
  }
  const auto got = elementwise::generate<T>(kind, n, dist, seed);
  const std::string what = dist + " n=" + std::to_string(n) + " fp" + std::to_string(8 * sizeof(T));
  EXPECT_EQ(bytes_of(got.x), bytes_of(want.x)) << what;
  EXPECT_EQ(bytes_of(got.addend), bytes_of(want.addend)) << what;
  EXPECT_EQ(got.mask, want.mask) << what;
  EXPECT_EQ(bytes_of(got.bias), bytes_of(want.bias)) << what;
}

TEST(HostElementwise, GeneratorIsTheSequentialStream) {
  using elementwise::Kind;
  for (const Kind kind : {Kind::kGelu, Kind::kFused, Kind::kAdd}) {
    const auto dists =
        kind == Kind::kFused ? elementwise::fused_distributions() : elementwise::distributions();
    for (const std::string& d : dists)
      for (const size_t n : {size_t(0), size_t(1), size_t(61 * 67 + 5), size_t(70000)}) {
        expect_the_sequential_stream<float>(kind, d, n, 0x5eed + n);
        expect_the_sequential_stream<__half>(kind, d, n, 0x5eed + n);
      }
  }
  // The device's copy of SplitMix64 is common/random.h's.
  const SplitMix64 rng(0x1234);
  for (const uint64_t k : {0ull, 1ull, 12345ull, 1ull << 40})
    EXPECT_EQ(elementwise::inputs::draw(0x1234, k), rng.peek(static_cast<int64_t>(k)));
  // The special values are the ones named, in both types.
  EXPECT_TRUE(std::isnan(elementwise::inputs::special<float>(0)));
  EXPECT_EQ(elementwise::inputs::special<float>(4), static_cast<float>(1e30));
  EXPECT_TRUE(std::signbit(elementwise::inputs::special<float>(3)));
  EXPECT_EQ(__half2float(elementwise::inputs::special<__half>(5)), -30000.0f);
  EXPECT_EQ(bits16(elementwise::inputs::special<__half>(3)), 0x8000);
}

// The view's elements are the materialized arrays', bit for bit.
template <typename T>
void expect_view_is_generate(elementwise::Kind kind, const std::string& dist, size_t n) {
  const auto view = elementwise::input_view<T>(kind, n, dist, 77);
  const auto in = elementwise::generate<T>(kind, n, dist, 77);
  ASSERT_EQ(view.n, n);
  EXPECT_EQ(bytes_of(view.bias), bytes_of(in.bias));
  std::vector<T> x(n), addend(view.has_addend() ? n : 0);
  std::vector<uint8_t> mask(view.has_mask() ? n : 0);
  for (size_t i = 0; i < n; ++i) {
    x[i] = view.x(i);
    if (view.has_addend()) addend[i] = view.addend(i);
    if (view.has_mask()) mask[i] = view.mask(i);
  }
  EXPECT_EQ(bytes_of(x), bytes_of(in.x)) << dist << " n=" << n;
  EXPECT_EQ(bytes_of(addend), bytes_of(in.addend)) << dist << " n=" << n;
  EXPECT_EQ(mask, in.mask) << dist << " n=" << n;
}

TEST(HostElementwise, ViewGivesTheGeneratedArrays) {
  using elementwise::Kind;
  for (const Kind kind : {Kind::kGelu, Kind::kFused, Kind::kAdd}) {
    const auto dists =
        kind == Kind::kFused ? elementwise::fused_distributions() : elementwise::distributions();
    for (const std::string& d : dists)
      for (const size_t n : {size_t(0), size_t(1), size_t(61 * 67 + 5), size_t(200003)}) {
        expect_view_is_generate<float>(kind, d, n);
        expect_view_is_generate<__half>(kind, d, n);
      }
  }
  EXPECT_THROW(elementwise::input_view<float>(Kind::kGelu, 0, "nope", 1), std::invalid_argument);
  EXPECT_THROW(elementwise::input_view<float>(Kind::kGelu, 10, "bias1000", 1),
               std::invalid_argument);
  EXPECT_EQ(elementwise::input_view<float>(Kind::kFused, 10, "bias1000", 1).bias.size(), 1000u);
}

TEST(HostElementwise, CheckBoundsAndSpecials) {
  using elementwise::Kind;
  for (const std::string& d : elementwise::fused_distributions()) {
    const auto in = elementwise::input_view<float>(Kind::kFused, 4000, d, 5);
    std::vector<float> got(in.n);
    for (size_t i = 0; i < got.size(); ++i)
      got[i] = static_cast<float>(elementwise::reference(in, i));
    EXPECT_TRUE(elementwise::check_piece(in, got.data(), 0, got.size()).ok) << d;
    got[1234] += 0.01f;  // far outside 16 unit roundoffs of a magnitude below 20
    EXPECT_FALSE(elementwise::check_piece(in, got.data(), 0, got.size()).ok) << d;
  }
  const auto sp = elementwise::input_view<float>(Kind::kGelu, 100, "specials", 1);
  ASSERT_TRUE(std::isnan(sp.x(0)));  // element 0 of "specials" is NaN
  std::vector<float> got(100);
  for (size_t i = 0; i < got.size(); ++i)
    got[i] = static_cast<float>(elementwise::reference(sp, i));
  EXPECT_TRUE(elementwise::check_piece(sp, got.data(), 0, got.size()).ok);
  got[0] = 0.0f;  // a finite value where NaN is due
  EXPECT_FALSE(elementwise::check_piece(sp, got.data(), 0, got.size()).ok);
  EXPECT_THROW(elementwise::generate<float>(Kind::kGelu, 0, "nope", 1), std::invalid_argument);
}

// check_all, on every core, passes a correct output of each kind and type and fails it with one
// element moved by 1 (outside the tolerance of every input here), naming the lowest bad index.
template <typename T>
void expect_check_all_catches(elementwise::Kind kind, const std::string& dist) {
  const size_t n = 300007;  // several chunks of parallel_for
  const auto in = elementwise::input_view<T>(kind, n, dist, 11);
  std::vector<T> got(n);
  for (size_t i = 0; i < n; ++i) {
    const float r = static_cast<float>(elementwise::reference(in, i));
    if constexpr (sizeof(T) == 2) {
      got[i] = __float2half_rn(r);
    } else {
      got[i] = r;
    }
  }
  const CheckResult good = elementwise::check_all(in, got.data());
  ASSERT_TRUE(good.ok) << dist << ": " << good.message;
  auto moved = [](T v) {
    if constexpr (sizeof(T) == 2) {
      return __float2half_rn(__half2float(v) + 1.0f);
    } else {
      return v + 1.0f;
    }
  };
  const size_t late = 250001, early = 70001;  // finite in every distribution (not 61k or 67k+3)
  got[late] = moved(got[late]);
  CheckResult bad = elementwise::check_all(in, got.data());
  EXPECT_FALSE(bad.ok) << dist;
  EXPECT_EQ(bad.message.rfind("index 250001:", 0), 0u) << bad.message;
  got[early] = moved(got[early]);
  bad = elementwise::check_all(in, got.data());
  EXPECT_EQ(bad.message.rfind("index 70001:", 0), 0u) << bad.message;
}

TEST(HostElementwise, CheckAllCatchesOneMovedElement) {
  using elementwise::Kind;
  for (const Kind kind : {Kind::kGelu, Kind::kFused, Kind::kAdd})
    for (const std::string& d : elementwise::distributions()) {
      expect_check_all_catches<float>(kind, d);
      expect_check_all_catches<__half>(kind, d);
    }
}

TEST(HostElementwise, BytesMoved) {
  using elementwise::Kind;
  EXPECT_EQ(elementwise::bytes_moved(Kind::kGelu, 4, 1000), 8000.0);
  EXPECT_EQ(elementwise::bytes_moved(Kind::kGelu, 2, 1000), 4000.0);
  EXPECT_EQ(elementwise::bytes_moved(Kind::kAdd, 4, 1000), 12000.0);
  EXPECT_EQ(elementwise::bytes_moved(Kind::kFused, 2, 1000), 7000.0 + 2 * 1024);
}

}  // namespace
}  // namespace ladder

namespace ladder {
namespace {

// The numerators every divisor is tried on: the ends of the 32-bit range, the neighbourhood of
// the divisor and of its multiples near 2^31 and 2^32 (where a quotient changes and where the
// seed's 32-bit sum wraps), and a few random ones.
std::vector<uint32_t> numerators_for(uint32_t d, SplitMix64& rng) {
  std::vector<uint32_t> ns = {0, 1, 2, 0x7fffffffu, 0x80000000u, 0xfffffffeu, 0xffffffffu};
  for (uint64_t base : {uint64_t(d), uint64_t(0x80000000u) / d * d, uint64_t(0xffffffffu) / d * d})
    for (int64_t delta = -2; delta <= 2; ++delta) {
      const int64_t n = static_cast<int64_t>(base) + delta;
      if (n >= 0 && n <= 0xffffffffll) ns.push_back(static_cast<uint32_t>(n));
    }
  for (int k = 0; k < 8; ++k) ns.push_back(static_cast<uint32_t>(rng.next()));
  return ns;
}

// Counts the (divisor, numerator) pairs where FastDivMod's quotient or remainder differs from /
// and %, over every divisor in [1, 2^16] and 200,000 random ones up to 2^31 (and a few above).
TEST(HostFastDivMod, MatchesDivisionAndRemainder) {
  SplitMix64 rng(0xd1f);
  size_t checked = 0;
  auto check = [&](uint32_t d) {
    const FastDivMod f(d);
    for (uint32_t n : numerators_for(d, rng)) {
      uint32_t q = 0, r = 0;
      f.divmod(n, q, r);
      ASSERT_EQ(q, n / d) << "n=" << n << " d=" << d;
      ASSERT_EQ(r, n % d) << "n=" << n << " d=" << d;
      ASSERT_EQ(f.div(n), n / d);
      ASSERT_EQ(f.mod(n), n % d);
      ++checked;
    }
  };
  for (uint32_t d = 1; d <= (1u << 16); ++d) check(d);
  for (int k = 0; k < 200000; ++k) check(1 + static_cast<uint32_t>(rng.next() % 0x80000000u));
  for (uint32_t d : {0x80000000u, 0x80000001u, 0xc0000000u, 0xfffffffeu, 0xffffffffu}) check(d);
  EXPECT_GT(checked, size_t(1) << 21);
}

// The check above can fail: the seed's quotient, (t + n) in 32 bits, is wrong for some divisor
// and numerator at or above 2^31 (the sum wraps), and the same loop finds it.
TEST(HostFastDivMod, TheSeedsThirtyTwoBitSumIsCaught) {
  SplitMix64 rng(0xd1f);
  size_t wrong = 0;
  for (uint32_t d = 1; d <= (1u << 16); ++d) {
    const FastDivMod f(d);
    for (uint32_t n : numerators_for(d, rng))
      if (seed_fast_div(f, n) != n / d) ++wrong;
  }
  EXPECT_GT(wrong, 0u);
  // Below 2^31 the two agree: the wrap needs t + n >= 2^32.
  for (uint32_t d = 1; d <= 4096; ++d) {
    const FastDivMod f(d);
    for (uint32_t n = 0x7fff0000u; n < 0x7fff0000u + 4096; ++n)
      ASSERT_EQ(seed_fast_div(f, n), n / d) << "n=" << n << " d=" << d;
  }
}

}  // namespace
}  // namespace ladder

namespace ladder {
namespace {

// parallel_draws gives what a sequential loop of next() gives, and leaves the generator where
// the loop would; a draw taken one position off is caught by the same comparison.
TEST(HostRandom, ParallelDrawsMatchTheSequentialLoop) {
  const size_t n = (size_t(1) << 20) + 3;
  SplitMix64 seq(0x5eed), par(0x5eed);
  std::vector<uint32_t> want(n), got(n);
  for (size_t i = 0; i < n; ++i) want[i] = static_cast<uint32_t>(seq.next() >> 32);
  parallel_draws(par, got.data(), n, [](uint64_t d) { return static_cast<uint32_t>(d >> 32); });
  EXPECT_EQ(got, want);
  EXPECT_EQ(par.next(), seq.next());
  SplitMix64 off(0x5eed);
  off.skip(1);
  parallel_draws(off, got.data(), n, [](uint64_t d) { return static_cast<uint32_t>(d >> 32); });
  EXPECT_NE(got, want);
}

}  // namespace
}  // namespace ladder

namespace ladder {
namespace {

TEST(HostAxis, ShapesOfTheBenchmarkInputs) {
  using reduce::axis::shape_for;
  const size_t n = size_t(1) << 28;
  EXPECT_EQ(shape_for(n, "square").rows, 16384u);
  EXPECT_EQ(shape_for(n, "square").cols, 16384u);
  EXPECT_EQ(shape_for(n, "wide").rows, 64u);
  EXPECT_EQ(shape_for(n, "wide").cols, size_t(1) << 22);
  EXPECT_EQ(shape_for(n, "tall").rows, size_t(1) << 22);
  EXPECT_EQ(shape_for(n, "tall").cols, 64u);
  EXPECT_EQ(shape_for(n, "softmax").rows, 32768u);
  EXPECT_EQ(shape_for(n, "softmax").cols, 4096u);
  EXPECT_EQ(shape_for(1000, "cols31").cols, 31u);
  EXPECT_EQ(shape_for(1000, "cols31").rows, 32u);
  EXPECT_EQ(shape_for(1000, "rows33").rows, 33u);
  EXPECT_EQ(shape_for(1000, "rows33").cols, 30u);
  EXPECT_EQ(shape_for(0, "tall").elements(), 0u);
  EXPECT_EQ(shape_for(1, "square").elements(), 1u);
  for (const std::string& d : reduce::axis::distributions())
    for (size_t m : {size_t(0), size_t(1), size_t(33), size_t(25600000)})
      EXPECT_LE(shape_for(m, d).elements(), m) << d << " " << m;
  // beyond 32-bit indexing: the huge tests' shapes
  EXPECT_GT(shape_for((size_t(1) << 31) + 17, "rows1").elements(), size_t(1) << 31);
  EXPECT_GT(shape_for((size_t(1) << 31) + 17, "cols1").elements(), size_t(1) << 31);
  EXPECT_THROW(shape_for(10, "cols7"), std::invalid_argument);
  EXPECT_THROW(shape_for(10, "diagonal"), std::invalid_argument);
}

// The check is exact for these inputs and rejects one element off, a wrong index, and NaN.
TEST(HostAxis, CheckRejectsWrongSums) {
  using namespace reduce::axis;
  const Shape s = shape_for(1000, "cols33");
  const std::vector<float> x = generate(s.elements(), 7);
  for (Axis axis : {Axis::kRows, Axis::kCols}) {
    const Reference ref = reference(axis, x.data(), s);
    std::vector<float> got(ref.sum.begin(), ref.sum.end());
    EXPECT_TRUE(check(ref, got.data()).ok);
    got[3] += 1.0f;  // one element counted twice, or dropped
    const CheckResult bad = check(ref, got.data());
    EXPECT_FALSE(bad.ok);
    EXPECT_NE(bad.message.find("index 3"), std::string::npos) << bad.message;
    got[3] = NAN;
    EXPECT_FALSE(check(ref, got.data()).ok);
  }
  // Row sums by hand on a 2 x 3 matrix.
  const float m[6] = {1, -1, 1, 0, 1, 1};
  const Reference rows = reference(Axis::kRows, m, Shape{2, 3});
  EXPECT_EQ(rows.sum, (std::vector<double>{1, 2}));
  const Reference cols = reference(Axis::kCols, m, Shape{2, 3});
  EXPECT_EQ(cols.sum, (std::vector<double>{1, 0, 2}));
}

TEST(HostTransfer, CopyCheckIsBitExact) {
  using elementwise::transfer::compare_exact;
  std::vector<float> want(100003);
  for (size_t i = 0; i < want.size(); ++i) want[i] = static_cast<float>(i % 977) - 488.5f;
  want[5] = -0.0f;
  want[6] = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> got = want;
  EXPECT_TRUE(compare_exact(got.data(), want.data(), want.size()).ok);  // NaN bits equal too
  got.back() = std::nextafter(got.back(), 1e9f);  // the last element, one ulp off
  CheckResult bad = compare_exact(got.data(), want.data(), want.size());
  EXPECT_FALSE(bad.ok);
  EXPECT_NE(bad.message.find("index 100002"), std::string::npos) << bad.message;
  got = want;
  got[5] = 0.0f;  // +0 for -0: equal as floats, not as a copy
  EXPECT_FALSE(compare_exact(got.data(), want.data(), want.size()).ok);
  got = want;
  got[70000] = got[70001];  // one element repeated over its neighbour
  bad = compare_exact(got.data(), want.data(), want.size());
  EXPECT_FALSE(bad.ok);
  EXPECT_NE(bad.message.find("index 70000"), std::string::npos) << bad.message;
  EXPECT_TRUE(compare_exact(got.data(), want.data(), 0).ok);  // nothing to compare
}

// The digest behind the reuse of a passed check's verdict: equal bytes, equal digests; one bit
// flipped anywhere (a tail byte too), or the same bytes in another order, another digest.
TEST(HostDigest, SeesEveryBit) {
  std::vector<uint32_t> a(1 << 20);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<uint32_t>(i * 2654435761u);
  const size_t bytes = a.size() * sizeof(uint32_t) - 3;  // a tail shorter than a word
  const uint64_t d = digest(a.data(), bytes);
  EXPECT_EQ(d, digest(std::vector<uint32_t>(a).data(), bytes));
  for (size_t bit : {size_t(0), size_t(31), size_t(8 * 500000 + 5), 8 * (bytes - 1)}) {
    std::vector<uint32_t> b = a;
    reinterpret_cast<unsigned char*>(b.data())[bit / 8] ^=
        static_cast<unsigned char>(1u << (bit % 8));
    EXPECT_NE(digest(b.data(), bytes), d) << bit;
  }
  std::vector<uint32_t> swapped = a;
  std::swap(swapped[10], swapped[700000]);
  EXPECT_NE(digest(swapped.data(), bytes), d);
  EXPECT_NE(digest(a.data(), bytes - 1), d);
}

// An unordered copy_if output must never lend its verdict to a rung that keeps the order; rungs
// that keep it share one key per input.
TEST(HostDigest, VerdictKeysSeparateOrderedFromUnordered) {
  const Operator* op = find_operator("copy_if");
  ASSERT_NE(op, nullptr);
  const Version *ordered = nullptr, *unordered = nullptr, *other_ordered = nullptr;
  for (const Version& v : op->versions) {
    if (!v.keeps_order && !unordered) unordered = &v;
    if (v.keeps_order && ordered && !other_ordered) other_ordered = &v;
    if (v.keeps_order && !ordered) ordered = &v;
  }
  ASSERT_TRUE(ordered && unordered && other_ordered);
  EXPECT_NE(verdict_key(*op, *ordered, 1000, "keep50", 0),
            verdict_key(*op, *unordered, 1000, "keep50", 0));
  EXPECT_EQ(verdict_key(*op, *ordered, 1000, "keep50", 0),
            verdict_key(*op, *other_ordered, 1000, "keep50", 0));
  EXPECT_NE(verdict_key(*op, *ordered, 1000, "keep50", 0),
            verdict_key(*op, *ordered, 1000, "keep50", 1));
  EXPECT_NE(verdict_key(*op, *ordered, 1000, "keep50", 0),
            verdict_key(*op, *ordered, 1001, "keep50", 0));
}

// The skip decision of a benchmark that does not fit the free GPU memory (no GPU needed).
TEST(HostSkip, MemoryDecision) {
  const size_t gib = size_t(1) << 30;
  EXPECT_EQ(memory_skip_reason(5 * gib, 6 * gib), "");  // fits: run
  EXPECT_EQ(memory_skip_reason(6 * gib, 6 * gib), "");  // exactly: run
  EXPECT_EQ(memory_skip_reason(6 * gib + gib / 10, 5 * gib + 3 * gib / 10),
            "needs 6.1 GiB of GPU memory, 5.3 GiB free: skipped");
  EXPECT_NE(memory_skip_reason(6 * gib + 1, 6 * gib), "");
}

// The inputs the cache shares are the ones a fresh generation gives, made once per key, and
// it stays within its bound by freeing only what no one holds.
struct CachedKeys {
  std::vector<uint32_t> keys;
  size_t bytes() const { return keys.size() * sizeof(uint32_t); }
};

TEST(HostInputCache, SharesWhatAFreshGenerationGives) {
  InputCache cache(size_t(1) << 20);  // 1 MiB
  int made = 0;
  auto get = [&](const Problem& p) {
    return cache.get<CachedKeys>({"sort", "keys", p}, [&] {
      ++made;
      auto d = std::make_shared<CachedKeys>();
      d->keys = sort::generate(p.n, p.dist, p.seed);
      return d;
    });
  };
  const Problem a{50000, "uniform", 7, 0}, b{50000, "few", 7, 0}, c{200000, "uniform", 7, 0};
  auto first = get(a);
  EXPECT_EQ(first->keys, sort::generate(a.n, a.dist, a.seed));
  EXPECT_EQ(get(a).get(), first.get());  // a hit: the same entry
  EXPECT_EQ(made, 1);
  EXPECT_EQ(get(b)->keys, sort::generate(b.n, b.dist, b.seed));
  EXPECT_EQ(made, 2);
  EXPECT_EQ(cache.entries(), 2u);
  first.reset();
  // 800 KB more: 1.2 MB, over the bound, so the least recently used unused entry (a) goes; b
  // and c (held) stay.
  auto big = get(c);
  EXPECT_EQ(big->keys, sort::generate(c.n, c.dist, c.seed));
  EXPECT_EQ(cache.entries(), 2u);
  EXPECT_EQ(cache.bytes(), (b.n + c.n) * sizeof(uint32_t));
  EXPECT_EQ(made, 3);
  get(b);
  EXPECT_EQ(made, 3);  // b was kept
  big.reset();
  EXPECT_EQ(cache.evict_unused(), (b.n + c.n) * sizeof(uint32_t));
  EXPECT_EQ(cache.entries(), 0u);
  get(a);
  EXPECT_EQ(made, 4);  // a was freed: made again
  EXPECT_EQ(cache.evict_unused(), a.n * sizeof(uint32_t));
  // A failed make keeps nothing.
  EXPECT_THROW(cache.get<CachedKeys>(
                   {"sort", "keys", a},
                   []() -> std::shared_ptr<CachedKeys> { throw std::invalid_argument("no"); }),
               std::invalid_argument);
  EXPECT_EQ(cache.entries(), 0u);
}

}  // namespace
}  // namespace ladder
