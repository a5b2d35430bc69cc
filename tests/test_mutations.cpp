// tests/test_mutations.cpp — the checks must be able to fail. Each test builds a correct result
// on the CPU, damages it the way a broken kernel would (a tile of 256 elements lost, counted
// twice, shifted or repeated), and asserts that the operator's check rejects it. If a check is
// loosened until such a result passes, these tests fail. Host-only (suite names HostMutation*),
// so CI runs them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/random.h"
#include "copy_if/copy_if.h"
#include "histogram/histogram.h"
#include "reduce/reduce.h"
#include "scan/scan.h"

namespace ladder {
namespace {

constexpr size_t kTile = 256;

// reduce: "one_per_256" at sizes up to 2^28, generated in pieces as the benchmark does. The check
// must reject the sum with one aligned tile left out and with one tile counted twice. (On the
// "uniform" input the tolerance at 2^28 is 2^-16 * sum|x|, about 2^11: a result missing a
// million elements would pass there, which is why this input exists.)
TEST(HostMutationReduce, ExactInputCatchesALostOrRepeatedTileAtEverySize) {
  for (const size_t n : {size_t(1000), (size_t(1) << 20) + 7, size_t(1) << 28}) {
    SCOPED_TRACE(n);
    const uint64_t seed = 0x5eed + n;
    SplitMix64 rng(seed);
    reduce::Reference ref;
    std::vector<float> piece(std::min<size_t>(n, size_t(1) << 22));
    const size_t tile_first = (n / kTile / 2) * kTile;  // an aligned tile in the middle
    double tile_sum = -1;
    for (size_t done = 0; done < n;) {
      const size_t count = std::min(piece.size(), n - done);
      reduce::fill(piece.data(), count, "one_per_256", rng, done);
      reduce::accumulate(ref, piece.data(), count);
      if (tile_first >= done && tile_first + kTile <= done + count) {
        const float* t = piece.data() + (tile_first - done);
        tile_sum = std::count(t, t + kTile, 1.0f);
      }
      done += count;
    }
    ASSERT_EQ(tile_sum, 1.0) << "every aligned tile of 256 holds exactly one 1.0";
    ASSERT_EQ(reduce::tolerance(ref), 0.0) << "the check is exact on this input";
    const float right = static_cast<float>(ref.sum);
    EXPECT_TRUE(reduce::check_sum(right, ref).ok);
    EXPECT_FALSE(reduce::check_sum(static_cast<float>(ref.sum - tile_sum), ref).ok) << "lost";
    EXPECT_FALSE(reduce::check_sum(static_cast<float>(ref.sum + tile_sum), ref).ok) << "twice";
  }
}

// The input is the same whether generated whole or in pieces cut anywhere.
TEST(HostMutationReduce, OnePer256IsTheSameInPieces) {
  const size_t n = 5000;
  const auto whole = reduce::generate(n, "one_per_256", 9);
  std::vector<float> pieces(n);
  SplitMix64 rng(9);
  for (size_t done = 0, step = 1; done < n; done += step, step = step * 3 + 1)
    reduce::fill(pieces.data() + done, std::min(step, n - done), "one_per_256", rng, done);
  EXPECT_EQ(whole, pieces);
  for (size_t g = 0; g < n / kTile; ++g)
    EXPECT_EQ(std::count(whole.begin() + g * kTile, whole.begin() + (g + 1) * kTile, 1.0f), 1);
}

std::vector<int32_t> inclusive_scan(const std::vector<int32_t>& in) {
  std::vector<int32_t> out(in.size());
  int64_t run = 0;
  for (size_t i = 0; i < in.size(); ++i) out[i] = static_cast<int32_t>(run += in[i]);
  return out;
}

bool scan_ok(const std::vector<int32_t>& in, const std::vector<int32_t>& got) {
  int64_t carry = 0;
  return scan::check_piece(in.data(), got.data(), in.size(), 0, carry).ok;
}

// scan: a tile whose output repeats the tile before it (a look-back that took the wrong
// predecessor), and a tile shifted by one element (an off-by-one in the tile's base).
TEST(HostMutationScan, RejectsARepeatedOrShiftedTile) {
  const size_t n = (size_t(1) << 20) + 7, t = 4096;
  for (const char* dist : {"small_signed", "ones"}) {
    SCOPED_TRACE(dist);
    const auto in = scan::generate(n, dist, 21);
    const auto right = inclusive_scan(in);
    EXPECT_TRUE(scan_ok(in, right));
    auto repeated = right;
    std::copy(right.begin() + t - kTile, right.begin() + t, repeated.begin() + t);
    EXPECT_FALSE(scan_ok(in, repeated));
    auto shifted = right;
    std::copy(right.begin() + t - 1, right.begin() + t + kTile - 1, shifted.begin() + t);
    EXPECT_FALSE(scan_ok(in, shifted));
  }
}

// copy_if: a tile of 256 kept values lost (the count is short), and a tile that repeats the one
// before it in place of its own (count right, values wrong): the ordered check and the unordered
// one (exact multiset below kExactMultiset, fingerprints above) reject both.
TEST(HostMutationCopyIf, RejectsALostOrRepeatedTile) {
  for (const size_t n : {(size_t(1) << 20) + 7, (copy_if::kExactMultiset * 101) / 99 + 4099}) {
    SCOPED_TRACE(n);
    const auto want = copy_if::reference(copy_if::generate(n, "keep99", 31));
    ASSERT_GT(want.size(), 3 * kTile);
    const size_t t = (want.size() / kTile / 2) * kTile;
    std::vector<int32_t> got = want;
    EXPECT_TRUE(copy_if::check_ordered(want, got.data(), got.size()).ok);
    EXPECT_TRUE(copy_if::check_unordered(want, got.data(), got.size()).ok);

    std::vector<int32_t> lost = want;
    lost.erase(lost.begin() + t, lost.begin() + t + kTile);
    EXPECT_FALSE(copy_if::check_ordered(want, lost.data(), lost.size()).ok);
    EXPECT_FALSE(copy_if::check_unordered(want, lost.data(), lost.size()).ok);

    std::vector<int32_t> repeated = want;
    std::copy(want.begin() + t - kTile, want.begin() + t, repeated.begin() + t);
    EXPECT_FALSE(copy_if::check_ordered(want, repeated.data(), repeated.size()).ok);
    EXPECT_FALSE(copy_if::check_unordered(want, repeated.data(), repeated.size()).ok);
  }
}

// histogram: the counts with one tile of 256 samples left out, and with one counted twice.
TEST(HostMutationHistogram, RejectsALostOrRepeatedTile) {
  const size_t n = (size_t(1) << 20) + 7, t = 8192;
  for (const std::string& dist : histogram::distributions<int32_t>()) {
    SCOPED_TRACE(dist);
    const auto x = histogram::generate<int32_t>(n, dist, 41);
    histogram::Counts want{};
    histogram::accumulate(want, x.data(), n);
    histogram::Counts tile{};
    histogram::accumulate(tile, x.data() + t, kTile);
    uint64_t in_tile = 0;
    for (uint64_t c : tile) in_tile += c;
    ASSERT_GT(in_tile, 0u) << "the tile holds counted samples";
    unsigned right[histogram::kBins], lost[histogram::kBins], twice[histogram::kBins];
    for (int b = 0; b < histogram::kBins; ++b) {
      right[b] = static_cast<unsigned>(want[b]);
      lost[b] = static_cast<unsigned>(want[b] - tile[b]);
      twice[b] = static_cast<unsigned>(want[b] + tile[b]);
    }
    EXPECT_TRUE(histogram::check_bins(right, want).ok);
    EXPECT_FALSE(histogram::check_bins(lost, want).ok);
    EXPECT_FALSE(histogram::check_bins(twice, want).ok);
  }
}

// The int32 edge input: samples outside [0, 256) are present, of every kind, and not counted.
TEST(HostMutationHistogram, OutOfRangeSamplesAreThereAndIgnored) {
  const size_t n = 100000;
  const auto x = histogram::generate<int32_t>(n, "out_of_range", 5);
  size_t outside = 0, neg = 0, big = 0;
  for (int32_t v : x) {
    outside += v < 0 || v >= histogram::kBins;
    neg += v < -1;
    big += v > histogram::kBins;
  }
  EXPECT_NEAR(static_cast<double>(outside) / n, 0.75, 0.01);
  EXPECT_GT(neg, 0u);
  EXPECT_GT(big, 0u);
  for (int32_t edge : {-1, histogram::kBins, INT32_MIN, INT32_MAX})
    EXPECT_NE(std::find(x.begin(), x.end(), edge), x.end()) << edge;
  histogram::Counts c{};
  histogram::accumulate(c, x.data(), n);
  uint64_t counted = 0;
  for (uint64_t v : c) counted += v;
  EXPECT_EQ(counted, n - outside);
}

}  // namespace
}  // namespace ladder
