// scan/scan_host.cpp — CPU side of the scan problem: generators and the check.
#include <limits>
#include <sstream>
#include <stdexcept>

#include "common/parallel.h"
#include "common/random.h"
#include "scan/scan.h"

namespace ladder::scan {

std::vector<std::string> distributions() { return {"small_signed", "ones", "one_hot"}; }

std::vector<int32_t> generate(size_t n, const std::string& dist, uint64_t seed) {
  SplitMix64 rng(seed);
  std::vector<int32_t> x;
  if (dist == "small_signed") {
    x.resize(n);
    parallel_draws(rng, x.data(), n, [](uint64_t d) {
      return static_cast<int32_t>(SplitMix64::uniform_int_of(d, -8, 8));
    });
  } else if (dist == "ones") {
    x.assign(n, 1);
  } else if (dist == "one_hot") {
    x.assign(n, 0);
    if (n > 0) x[rng.next() % n] = static_cast<int32_t>(rng.uniform_int(1, 1000));
  } else {
    throw std::invalid_argument("scan: unknown distribution '" + dist + "'");
  }
  return x;
}

CheckResult check_piece(const int32_t* in, const int32_t* got, size_t count, size_t base,
                        int64_t& carry) {
  CheckResult c;
  c.ok = true;
  size_t bad = 0;
  for (size_t i = 0; i < count; ++i) {
    carry += in[i];
    if (carry > std::numeric_limits<int32_t>::max() ||
        carry < std::numeric_limits<int32_t>::min()) {
      std::ostringstream msg;
      msg << "index " << base + i << ": the reference prefix " << carry
          << " leaves the int32 range (the input distribution is too large for this n)";
      c.ok = false;
      c.message = msg.str();
      c.max_err = static_cast<double>(bad + 1);
      return c;
    }
    if (got[i] != carry) {
      if (bad == 0) {
        std::ostringstream msg;
        msg << "index " << base + i << ": got " << got[i] << ", want " << carry;
        c.message = msg.str();
      }
      ++bad;
    }
  }
  c.ok = bad == 0;
  c.max_err = static_cast<double>(bad);
  if (bad > 1) c.message += " (" + std::to_string(bad) + " elements differ in this piece)";
  return c;
}

}  // namespace ladder::scan
