// common/parallel.h — a host-side parallel loop for generating inputs and checking outputs.
//
// Checking 2^28 elements against a double-precision reference takes seconds on one core; the
// harness checks before and after timing every benchmark, so the references run on every core.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/random.h"

namespace ladder {

// std::allocator that default-initializes: HostVector<T>(n) of a trivial T leaves the elements
// unwritten instead of zero-filling them on one thread, so that a parallel fill touches the
// pages first, on every core (a 1 GiB zero fill took about half a second).
template <typename T>
struct DefaultInitAllocator : std::allocator<T> {
  template <typename U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <typename U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}
  template <typename U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
template <typename T>
using HostVector = std::vector<T, DefaultInitAllocator<T>>;

// Calls body(begin, end) on disjoint chunks that cover [0, n), on up to hardware_concurrency()
// threads, and returns when all are done. Each thread gets at least `grain` items, so small n
// runs on the calling thread.
template <typename Body>
void parallel_for(size_t n, Body&& body, size_t grain = 65536) {
  const size_t threads =
      std::min<size_t>(std::max(1u, std::thread::hardware_concurrency()), (n + grain - 1) / grain);
  if (threads <= 1) {
    body(size_t(0), n);
    return;
  }
  std::vector<std::thread> pool;
  const size_t chunk = (n + threads - 1) / threads;
  for (size_t t = 0; t < threads; ++t) {
    const size_t begin = t * chunk, end = std::min(n, begin + chunk);
    if (begin < end) pool.emplace_back([&body, begin, end] { body(begin, end); });
  }
  for (std::thread& th : pool) th.join();
}

// out[i] = f(the i-th of the next `count` draws of rng) for i in [0, count), on every core, then
// rng advanced past those draws: exactly what a loop of `out[i] = f(rng.next())` gives, since a
// SplitMix64 draw depends only on the state and its position (SplitMix64::peek). The generators
// of 2^28-element inputs use it: one core took seconds per array.
template <typename T, typename F>
void parallel_draws(SplitMix64& rng, T* out, size_t count, F f) {
  const SplitMix64 base = rng;
  parallel_for(count, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) out[i] = f(base.peek(static_cast<int64_t>(i)));
  });
  rng.skip(count);
}

// Where a[i] != b[i] for i in [0, n), compared on every core: the number of mismatches and the
// first mismatching index (SIZE_MAX if none). The exact checks (copy_if, sort) share it.
struct Mismatches {
  size_t count = 0;
  size_t first = SIZE_MAX;
};
template <typename T>
Mismatches mismatches(const T* a, const T* b, size_t n) {
  constexpr size_t kChunks = 64;
  const size_t chunk = (n + kChunks - 1) / kChunks;
  std::vector<Mismatches> part(kChunks);
  parallel_for(
      kChunks,
      [&](size_t kb, size_t ke) {
        for (size_t k = kb; k < ke; ++k)
          for (size_t i = k * chunk; i < std::min(n, (k + 1) * chunk); ++i)
            if (a[i] != b[i]) {
              if (part[k].first == SIZE_MAX) part[k].first = i;
              ++part[k].count;
            }
      },
      1);
  Mismatches m;
  for (const Mismatches& p : part) {
    m.count += p.count;
    m.first = std::min(m.first, p.first);
  }
  return m;
}

// The mixing function of the digest below: SplitMix64's finalizer (Steele, Lea & Flood).
#if defined(__CUDACC__)
__host__ __device__
#endif
    inline uint64_t
    digest_mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
// Word i's term of the digest: the word mixed with a mix of its index, so that equal words at
// different places give different terms. The last word of a length that is not a multiple of 8
// is its tail bytes, zero-padded.
#if defined(__CUDACC__)
__host__ __device__
#endif
    inline uint64_t
    digest_term(uint64_t word, uint64_t index) {
  return digest_mix(word ^ digest_mix(index + 0x9e3779b97f4a7c15ULL));
}
// The sum of the terms (mod 2^64) and the length, mixed.
inline uint64_t digest_finish(uint64_t sum, size_t bytes) {
  return digest_mix(sum ^ digest_mix(bytes));
}

// A 64-bit digest of bytes [data, data + bytes), computed on every core: the sum of one term per
// 8-byte word (digest_term), which a GPU kernel computes the same way in any order
// (device_digest in common/device.h). Two buffers that differ in any bit, or hold the same
// words in another order, get different digests except with a chance of about 2^-64. The
// benchmark uses it to see that an output is bit for bit one that a full check has already
// verified (common/bench.cpp).
inline uint64_t digest(const void* data, size_t bytes) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  const size_t words = (bytes + 7) / 8;
  constexpr size_t kChunks = 64;
  uint64_t part[kChunks] = {};
  const size_t chunk = (words + kChunks - 1) / kChunks;
  parallel_for(
      kChunks,
      [&](size_t kb, size_t ke) {
        for (size_t k = kb; k < ke; ++k) {
          uint64_t sum = 0;
          for (size_t i = k * chunk; i < std::min(words, (k + 1) * chunk); ++i) {
            uint64_t w = 0;
            std::memcpy(&w, p + 8 * i, std::min<size_t>(8, bytes - 8 * i));
            sum += digest_term(w, i);
          }
          part[k] = sum;
        }
      },
      1);
  uint64_t sum = 0;
  for (uint64_t v : part) sum += v;
  return digest_finish(sum, bytes);
}

// keys[0, n) in ascending order into out[0, n) (uninitialized is fine; not overlapping keys):
// an LSD radix sort on every core: four passes of 8-bit digits, each a per-thread count of
// the digits of the thread's slice, an exclusive scan over (digit, thread) and a stable
// scatter; a pass whose digit is the same for every key (one count over all keys says which)
// is skipped. The first pass reads `keys`, later ones ping-pong between `out` and a scratch
// array, starting where the last pass ends in `out`. The sort and copy_if checks use it;
// tests/test_host.cpp holds it to std::sort.
inline void radix_sort_u32(const uint32_t* keys, size_t n, uint32_t* out) {
  if (n < (size_t(1) << 16)) {
    std::copy(keys, keys + n, out);
    std::sort(out, out + n);
    return;
  }
  const size_t threads = std::max<size_t>(
      1, std::min<size_t>(std::thread::hardware_concurrency(), n / (size_t(1) << 16)));
  // body(t, begin, end) for each thread t and its slice [begin, end) of the keys, in parallel.
  auto per_slice = [&](auto&& body) {
    parallel_for(
        threads,
        [&](size_t tb, size_t te) {
          for (size_t t = tb; t < te; ++t) body(t, n * t / threads, n * (t + 1) / threads);
        },
        1);
  };
  // Which digits vary: one count of all four digits over all keys.
  std::vector<size_t> all(threads * 4 * 256);
  per_slice([&](size_t t, size_t b, size_t e) {
    size_t* c = &all[t * 1024];
    for (size_t i = b; i < e; ++i)
      for (int d = 0; d < 4; ++d) ++c[d * 256 + ((keys[i] >> (8 * d)) & 0xff)];
  });
  std::vector<int> shifts;
  for (int d = 0; d < 4; ++d) {
    int present = 0;
    for (int v = 0; v < 256; ++v) {
      size_t total = 0;
      for (size_t t = 0; t < threads; ++t) total += all[t * 1024 + d * 256 + v];
      present += total > 0;
    }
    if (present > 1) shifts.push_back(8 * d);
  }
  if (shifts.empty()) {  // one key value: already sorted
    parallel_for(n, [&](size_t b, size_t e) { std::copy(keys + b, keys + e, out + b); });
    return;
  }
  HostVector<uint32_t> scratch(shifts.size() > 1 ? n : 0);
  for (uint32_t* a : {out, scratch.data()})  // pages faulted in on every core, not one at a
    if (a)                                   // time by a scatter (a no-op where already there)
      parallel_for(n, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; i += 1024) a[i] = 0;
      });
  const uint32_t* src = keys;
  uint32_t* dst = shifts.size() % 2 == 1 ? out : scratch.data();  // the last pass writes `out`
  std::vector<size_t> count(threads * 256);
  for (const int shift : shifts) {
    std::fill(count.begin(), count.end(), 0);
    per_slice([&](size_t t, size_t b, size_t e) {
      size_t* c = &count[t * 256];
      for (size_t i = b; i < e; ++i) ++c[(src[i] >> shift) & 0xff];
    });
    size_t sum = 0;  // exclusive scan in (digit, thread) order: thread t's keys of digit d
    for (int d = 0; d < 256; ++d)  // follow those of threads before t, which keeps it stable
      for (size_t t = 0; t < threads; ++t) {
        const size_t c = count[t * 256 + d];
        count[t * 256 + d] = sum;
        sum += c;
      }
    per_slice([&](size_t t, size_t b, size_t e) {
      size_t* at = &count[t * 256];
      for (size_t i = b; i < e; ++i) dst[at[(src[i] >> shift) & 0xff]++] = src[i];
    });
    src = dst;
    dst = dst == out ? scratch.data() : out;
  }
}

}  // namespace ladder
