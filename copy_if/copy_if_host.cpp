// copy_if/copy_if_host.cpp — CPU side of the copy_if problem: generators and the checks.
#include <algorithm>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "common/parallel.h"
#include "common/random.h"
#include "copy_if/copy_if.h"

namespace ladder::copy_if {
namespace {

uint64_t mix(uint64_t z, uint64_t salt) {  // SplitMix64's finaliser, salted
  z += salt;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

struct Fingerprint {
  uint64_t a = 0, b = 0;
  bool operator==(const Fingerprint& o) const { return a == o.a && b == o.b; }
};

Fingerprint fingerprint(const int32_t* v, size_t count) {
  std::vector<Fingerprint> parts(64);
  const size_t chunk = (count + 63) / 64;
  parallel_for(
      64,
      [&](size_t kb, size_t ke) {
        for (size_t k = kb; k < ke; ++k)
          for (size_t i = k * chunk; i < std::min(count, (k + 1) * chunk); ++i) {
            const uint64_t x = static_cast<uint32_t>(v[i]);
            parts[k].a += mix(x, 0x9e3779b97f4a7c15ULL);
            parts[k].b += mix(x, 0xd1b54a32d192ed03ULL);
          }
      },
      1);
  Fingerprint f;
  for (const Fingerprint& p : parts) {
    f.a += p.a;
    f.b += p.b;
  }
  return f;
}

}  // namespace

std::vector<std::string> distributions() {
  return {"keep50", "keep1", "keep99", "none", "all", "boundary"};
}

std::vector<int32_t> generate(size_t n, const std::string& dist, uint64_t seed) {
  if (dist == "boundary") {
    static constexpr int32_t kEdges[5] = {0, 1, -1, std::numeric_limits<int32_t>::min(),
                                          std::numeric_limits<int32_t>::max()};
    std::vector<int32_t> x(n);
    SplitMix64 rng(seed);
    parallel_draws(rng, x.data(), n, [](uint64_t d) { return kEdges[d % 5]; });
    return x;
  }
  int percent = 0;
  if (dist == "keep50")
    percent = 50;
  else if (dist == "keep1")
    percent = 1;
  else if (dist == "keep99")
    percent = 99;
  else if (dist == "none")
    percent = 0;
  else if (dist == "all")
    percent = 100;
  else
    throw std::invalid_argument("copy_if: unknown distribution '" + dist + "'");
  std::vector<int32_t> x(n);
  SplitMix64 rng(seed);
  parallel_draws(rng, x.data(), n, [percent](uint64_t r) {
    const bool keep = static_cast<int>(r % 100) < percent;
    const int32_t magnitude = static_cast<int32_t>((r >> 32) % (uint64_t(1) << 30));
    return keep ? magnitude + 1 : -magnitude;  // [1, 2^30] or [-(2^30 - 1), 0]
  });
  return x;
}

// std::copy_if, on every core: each chunk of 2^20 counts what it keeps, a prefix sum gives each
// chunk its place, and the chunks copy in parallel.
std::vector<int32_t> reference(const std::vector<int32_t>& in) {
  constexpr size_t kChunk = size_t(1) << 20;
  const size_t chunks = (in.size() + kChunk - 1) / kChunk;
  std::vector<size_t> start(chunks + 1, 0);
  parallel_for(
      chunks,
      [&](size_t begin, size_t end) {
        for (size_t c = begin; c < end; ++c) {
          const auto first = in.begin() + c * kChunk;
          const auto last = in.begin() + std::min(in.size(), (c + 1) * kChunk);
          start[c + 1] = static_cast<size_t>(std::count_if(first, last, KeepPositive{}));
        }
      },
      1);
  for (size_t c = 0; c < chunks; ++c) start[c + 1] += start[c];
  std::vector<int32_t> out(start[chunks]);
  parallel_for(
      chunks,
      [&](size_t begin, size_t end) {
        for (size_t c = begin; c < end; ++c) {
          const auto first = in.begin() + c * kChunk;
          const auto last = in.begin() + std::min(in.size(), (c + 1) * kChunk);
          std::copy_if(first, last, out.begin() + start[c], KeepPositive{});
        }
      },
      1);
  return out;
}

CheckResult check_ordered(const std::vector<int32_t>& want, const int32_t* got, size_t count) {
  CheckResult c;
  if (count != want.size()) {
    c.message = "count: got " + std::to_string(count) + ", want " + std::to_string(want.size());
    c.max_err = static_cast<double>(std::max(count, want.size()));
    return c;
  }
  const Mismatches m = mismatches(got, want.data(), count);
  const size_t total = m.count, at = m.first;
  c.ok = total == 0;
  c.max_err = static_cast<double>(total);
  if (!c.ok) {
    std::ostringstream msg;
    msg << "index " << at << ": got " << got[at] << ", want " << want[at] << " (" << total << " of "
        << count << " kept values differ)";
    c.message = msg.str();
  }
  return c;
}

std::vector<int32_t> sorted_values(const std::vector<int32_t>& want) {
  // Kept values are positive, so their order as uint32 is their order as int32.
  std::vector<int32_t> sorted(want.size());
  radix_sort_u32(reinterpret_cast<const uint32_t*>(want.data()), want.size(),
                 reinterpret_cast<uint32_t*>(sorted.data()));
  return sorted;
}

CheckResult check_unordered(const std::vector<int32_t>& want, const int32_t* got, size_t count,
                            const int32_t* want_sorted) {
  CheckResult c;
  if (count != want.size()) {
    c.message = "count: got " + std::to_string(count) + ", want " + std::to_string(want.size());
    c.max_err = static_cast<double>(std::max(count, want.size()));
    return c;
  }
  constexpr size_t kChunks = 64;  // the predicate on every core; the first failure by index
  const size_t chunk = (count + kChunks - 1) / kChunks;
  std::vector<size_t> first(kChunks, SIZE_MAX);
  parallel_for(
      kChunks,
      [&](size_t kb, size_t ke) {
        for (size_t k = kb; k < ke; ++k)
          for (size_t i = k * chunk; i < std::min(count, (k + 1) * chunk); ++i)
            if (!KeepPositive{}(got[i])) {
              first[k] = i;
              break;
            }
      },
      1);
  if (const size_t i = *std::min_element(first.begin(), first.end()); i != SIZE_MAX) {
    c.message = "index " + std::to_string(i) + ": got " + std::to_string(got[i]) +
                ", which fails the predicate x > 0";
    c.max_err = 1;
    return c;
  }
  if (count <= kExactMultiset) {
    std::vector<int32_t> own;
    if (!want_sorted) {
      own = sorted_values(want);
      want_sorted = own.data();
    }
    // Every value passed the predicate: positive, so sorted as uint32 they are sorted as int32.
    HostVector<int32_t> g(count);
    radix_sort_u32(reinterpret_cast<const uint32_t*>(got), count,
                   reinterpret_cast<uint32_t*>(g.data()));
    const Mismatches m = mismatches(g.data(), want_sorted, count);
    const size_t at = m.first;
    c.ok = m.count == 0;
    c.max_err = static_cast<double>(m.count);
    if (!c.ok)
      c.message = "the kept values are not the expected multiset: sorted, index " +
                  std::to_string(at) + " has " + std::to_string(g[at]) + ", want " +
                  std::to_string(want_sorted[at]);
    return c;
  }
  c.ok = fingerprint(got, count) == fingerprint(want.data(), want.size());
  if (!c.ok) {
    c.max_err = 1;
    c.message = "the kept values are not the expected multiset (fingerprints differ)";
  }
  return c;
}

}  // namespace ladder::copy_if
