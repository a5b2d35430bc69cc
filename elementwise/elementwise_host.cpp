// elementwise/elementwise_host.cpp — CPU side of the elementwise problems: generators, the
// double-precision reference and the check.
#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "common/parallel.h"
#include "common/random.h"
#include "elementwise/elementwise.h"

namespace ladder::elementwise {
namespace {

double to_double(float v) { return v; }
double to_double(__half v) { return static_cast<double>(__half2float(v)); }

template <typename T>
T from_double(double v);
template <>
float from_double<float>(double v) {
  return static_cast<float>(v);
}
template <>
__half from_double<__half>(double v) {
  return __float2half_rn(static_cast<float>(v));
}

template <typename T>
constexpr double unit_roundoff() {
  return sizeof(T) == 4 ? 0x1p-24 : 0x1p-11;
}

// Special values for "specials": every 61st element of x and every 67th of the addend.
template <typename T>
T special(uint64_t k) {
  const double big = sizeof(T) == 4 ? 1e30 : 3e4;  // x^3 overflows in the element type
  switch (k % 6) {
    case 0:
      return from_double<T>(std::numeric_limits<double>::quiet_NaN());
    case 1:
      return from_double<T>(std::numeric_limits<double>::infinity());
    case 2:
      return from_double<T>(-std::numeric_limits<double>::infinity());
    case 3:
      return from_double<T>(-0.0);
    case 4:
      return from_double<T>(big);
    default:
      return from_double<T>(-big);
  }
}

double magnitude(Kind kind, double x, double a, double b, double m, double s) {
  switch (kind) {
    case Kind::kGelu:
      return std::fabs(x);
    case Kind::kFused:
      return std::fabs(x + b) * std::fabs(s) * m + std::fabs(a);
    default:
      return std::fabs(x) + std::fabs(a);
  }
}

}  // namespace

std::vector<std::string> distributions() { return {"uniform", "specials"}; }
std::vector<std::string> fused_distributions() { return {"uniform", "specials", "bias1000"}; }

template <typename T>
HostInputs<T> generate(Kind kind, size_t n, const std::string& dist, uint64_t seed) {
  if (dist != "uniform" && dist != "specials" && !(dist == "bias1000" && kind == Kind::kFused))
    throw std::invalid_argument("elementwise: unknown distribution '" + dist + "'");
  SplitMix64 rng(seed);
  HostInputs<T> in;
  auto uniform = [&](double lo, double hi) {
    return from_double<T>(lo + (hi - lo) * static_cast<double>(rng.unit_float()));
  };
  auto uniform_of = [](double lo, double hi) {  // the same, of a draw (parallel_draws)
    return [lo, hi](uint64_t d) {
      return from_double<T>(lo + (hi - lo) * static_cast<double>(SplitMix64::unit_float_of(d)));
    };
  };
  in.x.resize(n);
  parallel_draws(rng, in.x.data(), n, uniform_of(-6, 6));
  if (kind != Kind::kGelu) {
    in.addend.resize(n);
    parallel_draws(rng, in.addend.data(), n, uniform_of(-10, 10));
  }
  if (kind == Kind::kFused) {
    in.mask.resize(n);
    parallel_draws(rng, in.mask.data(), n, [](uint64_t d) { return static_cast<uint8_t>(d & 1); });
    in.bias.resize(dist == "bias1000" ? kOddBiasSize : kBiasSize);
    for (T& b : in.bias) b = uniform(-1, 1);
  }
  if (dist == "specials") {
    for (size_t i = 0; i < n; i += 61) in.x[i] = special<T>(i / 61);
    for (size_t i = 3; i < in.addend.size(); i += 67) in.addend[i] = special<T>(i / 67 + 1);
  }
  return in;
}

template <typename T>
double reference(Kind kind, const HostInputs<T>& in, size_t i) {
  const double x = to_double(in.x[i]);
  switch (kind) {
    case Kind::kGelu: {
      const double k0 = std::sqrt(2.0 / M_PI), k1 = 0.044715;
      return 0.5 * x * (1.0 + std::tanh(k0 * (x + k1 * x * x * x)));
    }
    case Kind::kFused:
      return (x + to_double(in.bias[i % in.bias.size()])) * in.mask[i] * double(kScale) +
             to_double(in.addend[i]);
    default:
      return x + to_double(in.addend[i]);
  }
}

template <typename T>
CheckResult check_piece(Kind kind, const HostInputs<T>& in, const T* got, size_t base,
                        size_t count) {
  CheckResult c;
  c.ok = true;
  for (size_t k = 0; k < count; ++k) {
    const size_t i = base + k;
    const double want = reference(kind, in, i);
    const double g = to_double(got[k]);
    bool ok;
    double rel = 0;
    if (std::isnan(want)) {
      ok = std::isnan(g);
    } else if (std::isinf(want)) {
      ok = g == want;
    } else {
      const double x = to_double(in.x[i]);
      const double a = in.addend.empty() ? 0.0 : to_double(in.addend[i]);
      const double b = in.bias.empty() ? 0.0 : to_double(in.bias[i % in.bias.size()]);
      const double m = in.mask.empty() ? 0.0 : in.mask[i];
      const double mag = magnitude(kind, x, a, b, m, kScale);
      const double tol = 16 * unit_roundoff<T>() * mag + (sizeof(T) == 2 ? 0x1p-24 : 0.0);
      const double err = std::fabs(g - want);
      ok = std::isfinite(g) && err <= tol;
      rel = mag > 0 ? err / mag : err;
      if (std::isfinite(rel) && rel > c.max_err) c.max_err = rel;
    }
    if (!ok && c.ok) {
      std::ostringstream msg;
      msg.precision(9);
      msg << "index " << i << ": got " << g << ", want " << want << " (x = " << to_double(in.x[i])
          << ")";
      c.ok = false;
      c.message = msg.str();
    }
  }
  return c;
}

double bytes_moved(Kind kind, size_t e, size_t n) {
  const double dn = static_cast<double>(n);
  switch (kind) {
    case Kind::kGelu:
      return 2.0 * e * dn;
    case Kind::kFused:
      return (3.0 * e + 1.0) * dn + static_cast<double>(e) * kBiasSize;
    default:
      return 3.0 * e * dn;
  }
}

template HostInputs<float> generate<float>(Kind, size_t, const std::string&, uint64_t);
template HostInputs<__half> generate<__half>(Kind, size_t, const std::string&, uint64_t);
template double reference<float>(Kind, const HostInputs<float>&, size_t);
template double reference<__half>(Kind, const HostInputs<__half>&, size_t);
template <typename T>
CheckResult check_all(Kind kind, const HostInputs<T>& in, const T* got, size_t n) {
  CheckResult total;
  total.ok = true;
  size_t first_bad = n;
  std::mutex merge;
  parallel_for(n, [&](size_t begin, size_t end) {
    const CheckResult r = check_piece(kind, in, got + begin, begin, end - begin);
    std::lock_guard<std::mutex> lock(merge);
    total.max_err = std::max(total.max_err, r.max_err);
    if (!r.ok && begin < first_bad) {
      first_bad = begin;
      total.ok = false;
      total.message = r.message;
    }
  });
  return total;
}

template CheckResult check_all<float>(Kind, const HostInputs<float>&, const float*, size_t);
template CheckResult check_all<__half>(Kind, const HostInputs<__half>&, const __half*, size_t);
template CheckResult check_piece<float>(Kind, const HostInputs<float>&, const float*, size_t,
                                        size_t);
template CheckResult check_piece<__half>(Kind, const HostInputs<__half>&, const __half*, size_t,
                                         size_t);

}  // namespace ladder::elementwise
