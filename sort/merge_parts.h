// sort/merge_parts.h — the host side of sort's road past 2^32 - 1 keys (sort/merge_parts.cuh):
// its shape, its bound, how it cuts n keys into parts, and its workspace. Host-only (no kernels),
// so that the host tests can check the cut at sizes no test sorts on a GPU.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "common/device.h"

namespace ladder::sort::parts {

inline constexpr unsigned kThreads = 128;
inline constexpr unsigned kItems = 21;  // outputs a thread: odd, for shared memory's banks
inline constexpr size_t kTile = size_t(kThreads) * kItems;  // outputs a merge block
inline constexpr size_t kGroup = 64;  // merge blocks a coarse split (merge_coarse_kernel)
// The most keys this road takes: more than a Hopper GPU holds with its buffers (3 x 4 bytes a key
// and a part's workspace), so that the memory guard, not this bound, says where a GPU stops.
inline constexpr size_t kMaxN = size_t(1) << 34;
inline constexpr size_t kMaxPart = 0xffffffffu;  // the 32-bit roads' largest n

// The most keys the 32-bit roads take here: 2^32 - 1, or the count in the environment variable
// LADDER_SORT_PART_KEYS (the tests set it to run this road at small sizes), at least kTile. A value
// that is not a decimal count is reported once and ignored.
inline size_t largest() {
  static const size_t keys = [] {
    size_t x = kMaxPart;
    if (const char* e = std::getenv("LADDER_SORT_PART_KEYS")) {
      char* end = nullptr;
      const unsigned long long v = std::strtoull(e, &end, 10);
      if (end != e && *end == '\0' && e[0] != '-')
        x = std::min<size_t>(v, kMaxPart);
      else
        std::fprintf(stderr, "sort: LADDER_SORT_PART_KEYS=%s is not a count of keys; ignored\n", e);
    }
    return std::max(x, kTile);
  }();
  return keys;
}
// Whether n keys take this road.
inline bool runs(size_t n) { return n > largest(); }

// The cut of n keys (runs(n)): `count` parts of `keys` keys each (the last one fewer), `keys` a
// multiple of kTile and at most largest(); `rounds` merge rounds.
struct Plan {
  size_t count, keys;
  unsigned rounds;
};
// The cut of n keys with parts of at most `largest` keys (largest >= kTile, n > largest).
inline Plan plan_for(size_t n, size_t largest) {
  Plan p;
  const size_t most = largest / kTile * kTile;
  p.keys = ceil_div(ceil_div(n, ceil_div(n, most)), kTile) * kTile;
  p.count = ceil_div(n, p.keys);
  p.rounds = 0;
  while ((size_t(1) << p.rounds) < p.count) ++p.rounds;
  return p;
}
inline Plan plan(size_t n) { return plan_for(n, largest()); }

inline size_t round256(size_t b) { return (b + 255) / 256 * 256; }
// The road's own workspace, before the parts' (which follows at this offset): the keys' second
// buffer (and the values' for pairs), a 64-bit split a merge block and one a group of kGroup.
inline size_t own_bytes(size_t n, bool pairs) {
  const size_t blocks = ceil_div(n, kTile);
  return (pairs ? 2 : 1) * round256(n * 4) + round256((blocks + 1) * 8) +
         round256((ceil_div(blocks, kGroup) + 1) * 8);
}
// The workspace for n keys (runs(n)), given the part sorter's workspace function: the road's own,
// then the most that a part of either size (`keys`, or the last part's) asks for. The last part is
// smaller, yet may ask for more: a rung's roads differ in what they keep (v16's own parts exist
// only up to its hybrid road's last n).
template <typename PartWorkspace>
size_t workspace_bytes(size_t n, bool pairs, PartWorkspace part_ws) {
  const Plan p = plan(n);
  return own_bytes(n, pairs) + std::max(part_ws(p.keys), part_ws(n - (p.count - 1) * p.keys));
}

}  // namespace ladder::sort::parts
