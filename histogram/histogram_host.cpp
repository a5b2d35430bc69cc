// histogram/histogram_host.cpp — CPU side of the histogram problem.
#include <algorithm>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <type_traits>

#include "common/parallel.h"
#include "histogram/histogram.h"

namespace ladder::histogram {

template <typename T>
std::vector<std::string> distributions() {
  if constexpr (std::is_same_v<T, int32_t>)
    return {"uniform", "skewed", "degenerate", "out_of_range"};
  return {"uniform", "skewed", "degenerate"};
}

template <typename T>
void fill(T* x, size_t count, const std::string& dist, SplitMix64& rng) {
  static constexpr int kHot[4] = {3, 64, 65, 200};
  if constexpr (std::is_same_v<T, int32_t>) {
    if (dist == "out_of_range") {
      parallel_draws(rng, x, count, [](uint64_t r) -> int32_t {
        const int32_t word = static_cast<int32_t>(static_cast<uint32_t>(r >> 32));
        switch (r % 8) {
          case 0:
            return -1;
          case 1:
            return kBins;
          case 2:
            return std::numeric_limits<int32_t>::min();
          case 3:
            return std::numeric_limits<int32_t>::max();
          case 4:
            return word < 0 ? word : -1 - word;  // any negative value
          case 5:                                // any value above 255
            return kBins + static_cast<int32_t>((r >> 33) % (uint64_t(INT32_MAX) - kBins));
          default:
            return static_cast<int32_t>(r >> 56);  // in range
        }
      });
      return;
    }
  }
  if (dist == "uniform") {
    parallel_draws(rng, x, count, [](uint64_t r) { return static_cast<T>(r >> 56); });
  } else if (dist == "skewed") {
    parallel_draws(rng, x, count, [](uint64_t r) {
      return static_cast<T>((r % 10) != 0 ? kHot[(r >> 8) & 3] : (r >> 56));
    });
  } else if (dist == "degenerate") {
    for (size_t i = 0; i < count; ++i) x[i] = static_cast<T>(7);
  } else {
    throw std::invalid_argument("histogram: unknown distribution '" + dist + "'");
  }
}

template <typename T>
std::vector<T> generate(size_t n, const std::string& dist, uint64_t seed) {
  std::vector<T> x(n);
  SplitMix64 rng(seed);
  fill(x.data(), n, dist, rng);
  return x;
}

template <typename T>
void accumulate(Counts& counts, const T* x, size_t n) {
  constexpr size_t kChunks = 64;  // on every core: one count per chunk, added up after
  const size_t chunk = (n + kChunks - 1) / kChunks;
  std::vector<Counts> part(kChunks, Counts{});
  parallel_for(
      kChunks,
      [&](size_t kb, size_t ke) {
        for (size_t k = kb; k < ke; ++k)
          for (size_t i = k * chunk; i < std::min(n, (k + 1) * chunk); ++i) {
            const int64_t v = x[i];
            if (v >= 0 && v < kBins) ++part[k][static_cast<size_t>(v)];
          }
      },
      n < (size_t(1) << 20) ? kChunks : 1);
  for (const Counts& p : part)
    for (size_t b = 0; b < counts.size(); ++b) counts[b] += p[b];
}

CheckResult check_bins(const unsigned* got, const Counts& want) {
  CheckResult c;
  c.ok = true;
  for (int b = 0; b < kBins; ++b) {
    if (got[b] != want[b]) {
      if (c.ok) {
        std::ostringstream msg;
        msg << "index " << b << ": got " << got[b] << ", want " << want[b];
        c.message = msg.str();
      }
      c.ok = false;
      c.max_err += 1;
    }
  }
  if (!c.ok) c.message += " (" + std::to_string(static_cast<int>(c.max_err)) + " bins differ)";
  return c;
}

template std::vector<std::string> distributions<int32_t>();
template std::vector<std::string> distributions<uint8_t>();
template void fill<int32_t>(int32_t*, size_t, const std::string&, SplitMix64&);
template void fill<uint8_t>(uint8_t*, size_t, const std::string&, SplitMix64&);
template std::vector<int32_t> generate<int32_t>(size_t, const std::string&, uint64_t);
template std::vector<uint8_t> generate<uint8_t>(size_t, const std::string&, uint64_t);
template void accumulate<int32_t>(Counts&, const int32_t*, size_t);
template void accumulate<uint8_t>(Counts&, const uint8_t*, size_t);

}  // namespace ladder::histogram
