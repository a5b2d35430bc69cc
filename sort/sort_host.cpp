// sort/sort_host.cpp — CPU side of the sort problem: generators, the reference and the checks.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "common/parallel.h"
#include "common/random.h"
#include "sort/sort.h"

namespace ladder::sort {

std::vector<std::string> distributions() {
  return {"uniform", "sorted",     "reversed", "equal",        "few",
          "few_top", "few_spread", "topbit",   "nearly_sorted"};
}

void generate_into(uint32_t* x, size_t n, const std::string& dist, uint64_t seed) {
  const std::vector<std::string> known = distributions();
  if (std::find(known.begin(), known.end(), dist) == known.end())
    throw std::invalid_argument("sort: unknown distribution '" + dist + "'");
  SplitMix64 rng(seed);
  if (dist == "equal") {
    const uint32_t v = static_cast<uint32_t>(rng.next());
    parallel_for(n, [&](size_t b, size_t e) { std::fill(x + b, x + e, v); });
    return;
  }
  if (dist == "few") {
    uint32_t values[16];
    for (uint32_t& v : values) v = static_cast<uint32_t>(rng.next());
    parallel_draws(rng, x, n, [&values](uint64_t d) { return values[d % 16]; });
    return;
  }
  if (dist == "few_top") {  // 16 values of the top 16 bits, the low 16 bits uniform
    uint32_t values[16];
    for (uint32_t& v : values) v = static_cast<uint32_t>(rng.next()) & 0xffff0000u;
    parallel_draws(rng, x, n, [&values](uint64_t d) {
      return values[d % 16] | static_cast<uint32_t>(d >> 48);
    });
    return;
  }
  if (dist == "few_spread") {  // 15 keys in 16 from 16 values, the rest uniform in other buckets
    uint32_t values[16];
    for (uint32_t& v : values) v = static_cast<uint32_t>(rng.next());
    parallel_draws(rng, x, n, [&values](uint64_t d) {
      if (d % 16 != 0) return values[(d >> 4) % 16];
      uint32_t k = static_cast<uint32_t>(d >> 32);
      // the next top 16 bits that none of the values has (16 values: at most 16 steps)
      const auto taken = [&values](uint32_t key) {
        return std::any_of(values, values + 16, [key](uint32_t v) { return v >> 16 == key >> 16; });
      };
      while (taken(k)) k += 0x10000u;
      return k;
    });
    return;
  }
  const uint32_t top = dist == "topbit" ? 0x80000000u : 0u;
  parallel_draws(rng, x, n, [top](uint64_t d) { return static_cast<uint32_t>(d >> 32) | top; });
  if (dist == "sorted" || dist == "reversed" || dist == "nearly_sorted") {
    HostVector<uint32_t> sorted(n);
    reference_into(x, n, sorted.data());
    if (dist == "sorted")
      parallel_for(
          n, [&](size_t b, size_t e) { std::copy(sorted.data() + b, sorted.data() + e, x + b); });
    else if (dist == "reversed")
      parallel_for(n, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) x[i] = sorted[n - 1 - i];
      });
    else  // nearly_sorted: a run's last two keys (equal top 16 bits) trade places
      parallel_for(n, [&](size_t b, size_t e) {
        const uint32_t* s = sorted.data();
        // i ends a run that holds i - 1 too
        const auto last_of_pair = [&](size_t i) {
          return i >= 1 && i < n && (i + 1 == n || s[i + 1] >> 16 != s[i] >> 16) &&
                 s[i - 1] >> 16 == s[i] >> 16;
        };
        for (size_t i = b; i < e; ++i)
          x[i] = last_of_pair(i) ? s[i - 1] : last_of_pair(i + 1) ? s[i + 1] : s[i];
      });
  }
}

std::vector<uint32_t> generate(size_t n, const std::string& dist, uint64_t seed) {
  std::vector<uint32_t> x(n);
  generate_into(x.data(), n, dist, seed);
  return x;
}

// The sort's CPU reference: common/parallel.h's radix_sort_u32, the same algorithm as the GPU
// rungs written plainly (no tiles, no look-back) and tested against std::sort on every
// distribution (tests/test_host.cpp), so it stays an independent judge. With it, making a 2^28-key
// input (keys, reference, upload) took 1.14 s on the H100's 16-core host, against 5.70 s with
// std::sort on one slice per core and merge rounds (the --verbose logs in results/logs/).
void reference_into(const uint32_t* keys, size_t n, uint32_t* out) { radix_sort_u32(keys, n, out); }

std::vector<uint32_t> reference(std::vector<uint32_t> keys) {
  std::vector<uint32_t> out(keys.size());
  reference_into(keys.data(), keys.size(), out.data());
  return out;
}

CheckResult check_keys(const uint32_t* want, size_t n, const uint32_t* got) {
  const Mismatches m = mismatches(got, want, n);
  const size_t total = m.count, at = m.first;
  CheckResult c;
  c.ok = total == 0;
  c.max_err = static_cast<double>(total);
  if (!c.ok) {
    std::ostringstream msg;
    msg << "index " << at << ": got " << got[at] << ", want " << want[at] << " (" << total << " of "
        << n << " keys differ)";
    c.message = msg.str();
  }
  return c;
}

// Checked on every core, element by element, with no table of the indices seen: once the keys
// equal the sorted reference, every value v < n whose input key is the key beside it, and
// strictly increasing values under each run of equal keys, make the values a permutation
// (an index maps to one key, so it can appear only in that key's run, and only once there)
// in stable order. The first failure by index is reported.
CheckResult check_pairs(const uint32_t* keys_in, const uint32_t* want, size_t n,
                        const uint32_t* got_keys, const uint32_t* got_values) {
  CheckResult c = check_keys(want, n, got_keys);
  if (!c.ok) return c;
  constexpr size_t kChunks = 64;
  const size_t chunk = (n + kChunks - 1) / kChunks;
  std::vector<size_t> first(kChunks, SIZE_MAX);
  parallel_for(
      kChunks,
      [&](size_t kb, size_t ke) {
        for (size_t k = kb; k < ke; ++k) {
          const size_t end = std::min(n, (k + 1) * chunk);
          for (size_t i = k * chunk; i < end; ++i) {
            // keys_in[v] is a random read: ask for the one 32 elements ahead now, so that many
            // are in flight at once rather than one cache miss at a time.
            if (i + 32 < end && got_values[i + 32] < n)
              __builtin_prefetch(&keys_in[got_values[i + 32]]);
            const uint32_t v = got_values[i];
            if (v >= n || keys_in[v] != got_keys[i] ||
                (i > 0 && got_keys[i - 1] == got_keys[i] && got_values[i - 1] >= v)) {
              first[k] = i;
              break;
            }
          }
        }
      },
      1);
  const size_t i = *std::min_element(first.begin(), first.end());
  if (i == SIZE_MAX) return c;
  const uint32_t v = got_values[i];
  std::string why;
  if (v >= n)
    why = "is not an input index";
  else if (keys_in[v] != got_keys[i])
    why = "is the index of key " + std::to_string(keys_in[v]) + ", not of " +
          std::to_string(got_keys[i]);
  else if (got_values[i - 1] == v)
    why = "appears twice";
  else
    why = "follows value " + std::to_string(got_values[i - 1]) +
          " under an equal key: the sort is not stable (or a value appears twice)";
  c.ok = false;
  c.max_err = 1;
  c.message = "index " + std::to_string(i) + ": value " + std::to_string(v) + " " + why;
  return c;
}

}  // namespace ladder::sort
