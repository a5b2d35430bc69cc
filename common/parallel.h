// common/parallel.h — a host-side parallel loop for generating inputs and checking outputs.
//
// Checking 2^28 elements against a double-precision reference takes seconds on one core; the
// harness checks before and after timing every benchmark, so the references run on every core.
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace ladder {

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

}  // namespace ladder
