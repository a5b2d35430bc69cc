// elementwise/elementwise_host.cpp — CPU side of the elementwise problems: the inputs' views and
// generators (their elements come from inputs.cuh), the double-precision reference and the check.
#include <algorithm>
#include <cmath>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "common/parallel.h"
#include "elementwise/elementwise.h"

namespace ladder::elementwise {
namespace {

double to_double(float v) { return v; }
double to_double(__half v) { return static_cast<double>(__half2float(v)); }

template <typename T>
constexpr double unit_roundoff() {
  return sizeof(T) == 4 ? 0x1p-24 : 0x1p-11;
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

Dist parse_distribution(Kind kind, const std::string& dist) {
  if (dist == "uniform") return Dist::kUniform;
  if (dist == "specials") return Dist::kSpecials;
  if (dist == "bias1000" && kind == Kind::kFused) return Dist::kBias1000;
  throw std::invalid_argument("elementwise: unknown distribution '" + dist + "'");
}

template <typename T>
InputView<T> input_view(Kind kind, size_t n, const std::string& dist, uint64_t seed) {
  InputView<T> v;
  v.kind = kind;
  v.dist = parse_distribution(kind, dist);
  v.seed = seed;
  v.n = n;
  if (kind == Kind::kFused) {
    v.bias.resize(v.dist == Dist::kBias1000 ? kOddBiasSize : kBiasSize);
    for (size_t j = 0; j < v.bias.size(); ++j) v.bias[j] = inputs::bias_at<T>(seed, n, j);
  }
  return v;
}

template <typename T>
HostInputs<T> generate(Kind kind, size_t n, const std::string& dist, uint64_t seed) {
  const InputView<T> v = input_view<T>(kind, n, dist, seed);
  HostInputs<T> in;
  in.bias = v.bias;
  in.x.resize(n);
  if (v.has_addend()) in.addend.resize(n);
  if (v.has_mask()) in.mask.resize(n);
  parallel_for(n, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      in.x[i] = v.x(i);
      if (v.has_addend()) in.addend[i] = v.addend(i);
      if (v.has_mask()) in.mask[i] = v.mask(i);
    }
  });
  return in;
}

double reference(Kind kind, double x, double addend, double bias, double mask) {
  switch (kind) {
    case Kind::kGelu: {
      const double k0 = std::sqrt(2.0 / M_PI), k1 = 0.044715;
      return 0.5 * x * (1.0 + std::tanh(k0 * (x + k1 * x * x * x)));
    }
    case Kind::kFused:
      return (x + bias) * mask * double(kScale) + addend;
    default:
      return x + addend;
  }
}

namespace {

// Element i's inputs in double precision (0 for those the kind does not read).
struct Element {
  double x = 0, addend = 0, bias = 0, mask = 0;
};
template <typename T>
Element element(const InputView<T>& in, size_t i) {
  Element e;
  e.x = to_double(in.x(i));
  if (in.has_addend()) e.addend = to_double(in.addend(i));
  if (in.has_mask()) {
    e.mask = in.mask(i);
    e.bias = to_double(in.bias[i % in.bias.size()]);
  }
  return e;
}

}  // namespace

template <typename T>
double reference(const InputView<T>& in, size_t i) {
  const Element e = element(in, i);
  return reference(in.kind, e.x, e.addend, e.bias, e.mask);
}

template <typename T>
CheckResult check_piece(const InputView<T>& in, const T* got, size_t base, size_t count) {
  CheckResult c;
  c.ok = true;
  for (size_t k = 0; k < count; ++k) {
    const size_t i = base + k;
    const Element e = element(in, i);
    const double want = reference(in.kind, e.x, e.addend, e.bias, e.mask);
    const double g = to_double(got[k]);
    bool ok;
    double rel = 0;
    if (std::isnan(want)) {
      ok = std::isnan(g);
    } else if (std::isinf(want)) {
      ok = g == want;
    } else {
      const double mag = magnitude(in.kind, e.x, e.addend, e.bias, e.mask, kScale);
      const double tol = 16 * unit_roundoff<T>() * mag + (sizeof(T) == 2 ? 0x1p-24 : 0.0);
      const double err = std::fabs(g - want);
      ok = std::isfinite(g) && err <= tol;
      rel = mag > 0 ? err / mag : err;
      if (std::isfinite(rel) && rel > c.max_err) c.max_err = rel;
    }
    if (!ok && c.ok) {
      std::ostringstream msg;
      msg.precision(9);
      msg << "index " << i << ": got " << g << ", want " << want << " (x = " << e.x << ")";
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

template <typename T>
CheckResult check_all(const InputView<T>& in, const T* got) {
  CheckResult total;
  total.ok = true;
  size_t first_bad = in.n;
  std::mutex merge;
  parallel_for(in.n, [&](size_t begin, size_t end) {
    const CheckResult r = check_piece(in, got + begin, begin, end - begin);
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

#define LADDER_ELEMENTWISE_INSTANTIATE(T)                                             \
  template InputView<T> input_view<T>(Kind, size_t, const std::string&, uint64_t);    \
  template HostInputs<T> generate<T>(Kind, size_t, const std::string&, uint64_t);     \
  template double reference<T>(const InputView<T>&, size_t);                          \
  template CheckResult check_piece<T>(const InputView<T>&, const T*, size_t, size_t); \
  template CheckResult check_all<T>(const InputView<T>&, const T*);
LADDER_ELEMENTWISE_INSTANTIATE(float)
LADDER_ELEMENTWISE_INSTANTIATE(__half)
#undef LADDER_ELEMENTWISE_INSTANTIATE

}  // namespace ladder::elementwise
