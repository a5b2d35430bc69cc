// sort/sort_host.cpp — CPU side of the sort problem: generators, the reference and the checks.
#include <algorithm>
#include <cstdint>
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

namespace {

// How many of a[0, na) are among the first d elements of the stable merge of a and b (a's
// elements first among equals): the merge path's crossing of diagonal d (Green, McColl and
// Bader, "GPU merge path", 2012), by binary search.
size_t merge_split(const uint32_t* a, size_t na, const uint32_t* b, size_t nb, size_t d) {
  size_t lo = d > nb ? d - nb : 0, hi = std::min(d, na);
  while (lo < hi) {
    const size_t i = lo + (hi - lo) / 2;
    if (a[i] <= b[d - i - 1])
      lo = i + 1;  // a[i] precedes b[d - i - 1], which is among the first d: so is a[i]
    else
      hi = i;
  }
  return lo;
}

// std::merge of sorted a and b into out, on every core: each thread merges an equal share of
// the output, its bounds found on the merge path.
void parallel_merge(const uint32_t* a, size_t na, const uint32_t* b, size_t nb, uint32_t* out) {
  const size_t total = na + nb;
  const size_t pieces = std::max<size_t>(
      1, std::min<size_t>(std::thread::hardware_concurrency(), total / (size_t(1) << 16)));
  parallel_for(
      pieces,
      [&](size_t pb, size_t pe) {
        for (size_t p = pb; p < pe; ++p) {
          const size_t d0 = total * p / pieces, d1 = total * (p + 1) / pieces;
          const size_t i0 = merge_split(a, na, b, nb, d0), i1 = merge_split(a, na, b, nb, d1);
          std::merge(a + i0, a + i1, b + (d0 - i0), b + (d1 - i1), out + d0);
        }
      },
      1);
}

}  // namespace

std::vector<uint32_t> reference(std::vector<uint32_t> keys) {
  const size_t n = keys.size();
  const size_t parts = std::max<size_t>(
      1, std::min<size_t>(std::thread::hardware_concurrency(), n / (size_t(1) << 16)));
  std::vector<size_t> bound(parts + 1);
  for (size_t p = 0; p <= parts; ++p) bound[p] = n * p / parts;
  parallel_for(
      parts,
      [&](size_t pb, size_t pe) {
        for (size_t p = pb; p < pe; ++p)
          std::sort(keys.begin() + bound[p], keys.begin() + bound[p + 1]);
      },
      1);
  if (parts == 1) return keys;
  // Merge neighbouring runs in rounds, from one buffer into the other, each merge on every core.
  std::vector<uint32_t> other(n);
  uint32_t *src = keys.data(), *dst = other.data();
  for (size_t width = 1; width < parts; width *= 2) {
    for (size_t lo = 0; lo < parts; lo += 2 * width) {
      const size_t mid = std::min(parts, lo + width), hi = std::min(parts, lo + 2 * width);
      const size_t a = bound[lo], m = bound[mid], b = bound[hi];
      if (m < b)
        parallel_merge(src + a, m - a, src + m, b - m, dst + a);
      else
        std::copy(src + a, src + b, dst + a);
    }
    std::swap(src, dst);
  }
  if (src != keys.data()) keys.swap(other);
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
        for (size_t k = kb; k < ke; ++k)
          for (size_t i = k * chunk; i < std::min(n, (k + 1) * chunk); ++i) {
            const uint32_t v = got_values[i];
            if (v >= n || keys_in[v] != got_keys[i] ||
                (i > 0 && got_keys[i - 1] == got_keys[i] && got_values[i - 1] >= v)) {
              first[k] = i;
              break;
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
