// common/input_cache.h — the one place that keeps generated inputs and their references.
//
// Generating a 2^28-element input, its CPU reference and its device copy takes seconds; every
// version of a ladder runs on the same problem, so the input is made once and shared. Each
// operator used to keep its own copy of "the last problem's input"; they now all ask this cache,
// keyed by (operator, variant, n, distribution, seed, offset) and bounded in bytes:
//  - a hit returns the entry that is there (least recently used entries go first);
//  - a miss first frees unused entries (ones no Runner holds) until the cache is within its
//    capacity, then calls make(), and keeps what it returns. An entry larger than the capacity
//    is kept while it is in use and freed at the next miss, so at most one such input (host
//    and device memory) lives at a time.
// The time make() takes is counted as input time (common/phase_clock.h). Thread-safe; make() runs
// under the cache's lock (it may itself ask the cache for another key: sort_pairs reuses sort's
// keys).
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <typeindex>

#include "common/phase_clock.h"
#include "common/registry.h"

namespace ladder {

// What tells two inputs apart. `op` is the ladder whose input it is; `variant` anything else the
// generator depends on (an element type, the elementwise operation); `problem` the size,
// distribution, seed and offset.
struct InputKey {
  std::string op;
  std::string variant;
  Problem problem;
  bool operator==(const InputKey& o) const {
    return op == o.op && variant == o.variant && problem.n == o.problem.n &&
           problem.dist == o.problem.dist && problem.seed == o.problem.seed &&
           problem.offset == o.problem.offset;
  }
};

class InputCache {
 public:
  // Entries are freed while they are unused and the cache holds more than `capacity_bytes`
  // (host plus device bytes, as each entry's bytes() reports them).
  explicit InputCache(size_t capacity_bytes) : capacity_(capacity_bytes) {}

  // The entry for `key`, made by make() on a miss. T must have `size_t bytes() const` (its host
  // plus device footprint); make() returns std::shared_ptr<T> and may throw (nothing is kept
  // then). Entries of one key but another type are distinct.
  template <typename T, typename Make>
  std::shared_ptr<const T> get(const InputKey& key, Make&& make) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    const std::type_index type(typeid(T));
    for (auto it = entries_.begin(); it != entries_.end(); ++it)
      if (it->type == type && it->key == key) {
        entries_.splice(entries_.begin(), entries_, it);  // most recently used first
        ++hits_;
        return std::static_pointer_cast<const T>(entries_.front().data);
      }
    ++misses_;
    trim(capacity_);
    std::shared_ptr<T> made;
    {
      const ScopedPhase phase(Phase::kInput);
      made = make();
    }
    const size_t bytes = made->bytes();
    entries_.push_front(Entry{key, type, std::static_pointer_cast<const void>(made), bytes});
    total_ += bytes;
    trim(capacity_);  // the new entry is in use (the caller holds it) and stays
    return made;
  }

  // Frees every entry no one else holds (a Runner's input, or an entry another one keeps);
  // returns the bytes freed.
  size_t evict_unused() {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    const size_t before = total_;
    trim(0);
    return before - total_;
  }

  size_t bytes() const {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    return total_;
  }
  size_t entries() const {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    return entries_.size();
  }
  size_t hits() const { return hits_; }
  size_t misses() const { return misses_; }

 private:
  struct Entry {
    InputKey key;
    std::type_index type;
    std::shared_ptr<const void> data;
    size_t bytes;
  };

  // Frees unused entries, least recently used first, until at most `limit` bytes are kept or
  // only entries in use are left. Freeing one entry can free another that it held, so it
  // sweeps until nothing changes.
  void trim(size_t limit) {
    bool freed = true;
    while (total_ > limit && freed) {
      freed = false;
      for (auto it = entries_.end(); it != entries_.begin() && total_ > limit;) {
        --it;
        if (it->data.use_count() == 1) {
          total_ -= it->bytes;
          it = entries_.erase(it);
          freed = true;
        }
      }
    }
  }

  mutable std::recursive_mutex mutex_;
  std::list<Entry> entries_;
  size_t capacity_;
  size_t total_ = 0;
  size_t hits_ = 0, misses_ = 0;
};

// The process's cache, which every operator's Runner asks for its input: 2 GiB, enough to keep
// the many small inputs of the tests, while a 2^28-element input (1 to 3 GiB) lives alone.
InputCache& input_cache();

}  // namespace ladder
