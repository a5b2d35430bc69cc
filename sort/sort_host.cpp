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
  return {"uniform", "sorted", "reversed", "equal", "few", "topbit"};
}

std::vector<uint32_t> generate(size_t n, const std::string& dist, uint64_t seed) {
  const std::vector<std::string> known = distributions();
  if (std::find(known.begin(), known.end(), dist) == known.end())
    throw std::invalid_argument("sort: unknown distribution '" + dist + "'");
  SplitMix64 rng(seed);
  std::vector<uint32_t> x(n);
  if (dist == "equal") {
    std::fill(x.begin(), x.end(), static_cast<uint32_t>(rng.next()));
    return x;
  }
  if (dist == "few") {
    uint32_t values[16];
    for (uint32_t& v : values) v = static_cast<uint32_t>(rng.next());
    parallel_draws(rng, x.data(), n, [&values](uint64_t d) { return values[d % 16]; });
    return x;
  }
  parallel_draws(rng, x.data(), n, [](uint64_t d) { return static_cast<uint32_t>(d >> 32); });
  if (dist == "topbit")
    for (uint32_t& v : x) v |= 0x80000000u;
  if (dist == "sorted" || dist == "reversed") x = reference(std::move(x));
  if (dist == "reversed") std::reverse(x.begin(), x.end());
  return x;
}

// An LSD radix sort on every core: four passes of 8-bit digits, each a per-thread count of
// the digits of the thread's slice, an exclusive scan over (digit, thread) and a stable
// scatter, ping-ponging between `keys` and a scratch array; a pass whose digit is the same
// for every key is skipped. The same algorithm as the GPU rungs, but written plainly (no
// tiles, no look-back) and tested against std::sort on every distribution
// (tests/test_host.cpp), so it stays an independent judge; it sorts 2^28 keys in about a
// second on 16 cores, where std::sort on one slice per core and merge rounds took four.
std::vector<uint32_t> reference(std::vector<uint32_t> keys) {
  const size_t n = keys.size();
  if (n < (size_t(1) << 16)) {
    std::sort(keys.begin(), keys.end());
    return keys;
  }
  const size_t threads = std::max<size_t>(
      1, std::min<size_t>(std::thread::hardware_concurrency(), n / (size_t(1) << 16)));
  std::unique_ptr<uint32_t[]> scratch(new uint32_t[n]);  // first touched by the scatter
  uint32_t *src = keys.data(), *dst = scratch.get();
  std::vector<size_t> count(threads * 256);
  for (int shift = 0; shift < 32; shift += 8) {
    std::fill(count.begin(), count.end(), 0);
    parallel_for(
        threads,
        [&](size_t tb, size_t te) {
          for (size_t t = tb; t < te; ++t) {
            size_t* c = &count[t * 256];
            for (size_t i = n * t / threads; i < n * (t + 1) / threads; ++i)
              ++c[(src[i] >> shift) & 0xff];
          }
        },
        1);
    size_t digits_present = 0;
    for (int d = 0; d < 256; ++d) {
      size_t total = 0;
      for (size_t t = 0; t < threads; ++t) total += count[t * 256 + d];
      digits_present += total > 0;
    }
    if (digits_present == 1) continue;  // every key has this digit: the order stands
    size_t sum = 0;  // exclusive scan in (digit, thread) order: thread t's keys of digit d
    for (int d = 0; d < 256; ++d)  // follow those of threads before t, which keeps it stable
      for (size_t t = 0; t < threads; ++t) {
        const size_t c = count[t * 256 + d];
        count[t * 256 + d] = sum;
        sum += c;
      }
    parallel_for(
        threads,
        [&](size_t tb, size_t te) {
          for (size_t t = tb; t < te; ++t) {
            size_t* at = &count[t * 256];
            for (size_t i = n * t / threads; i < n * (t + 1) / threads; ++i)
              dst[at[(src[i] >> shift) & 0xff]++] = src[i];
          }
        },
        1);
    std::swap(src, dst);
  }
  if (src != keys.data())
    parallel_for(n, [&](size_t b, size_t e) { std::copy(src + b, src + e, keys.data() + b); });
  return keys;
}

CheckResult check_keys(const std::vector<uint32_t>& want, const uint32_t* got) {
  const size_t n = want.size();
  const Mismatches m = mismatches(got, want.data(), n);
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
CheckResult check_pairs(const std::vector<uint32_t>& keys_in, const std::vector<uint32_t>& want,
                        const uint32_t* got_keys, const uint32_t* got_values) {
  CheckResult c = check_keys(want, got_keys);
  if (!c.ok) return c;
  const size_t n = want.size();
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
