// reduce/axis_host.cpp — CPU side of the axis reductions (reduce/axis.h).
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "common/parallel.h"
#include "common/random.h"
#include "reduce/axis.h"

namespace ladder::reduce::axis {

std::vector<std::string> distributions() {
  return {"square", "wide",   "tall",  "softmax", "cols1",
          "cols31", "cols33", "rows1", "rows31",  "rows33"};
}

Shape shape_for(size_t n, const std::string& dist) {
  Shape s;
  auto fixed_cols = [&](size_t cols) {
    s.cols = std::min(n, cols);
    s.rows = s.cols ? n / s.cols : 0;
  };
  auto fixed_rows = [&](size_t rows) {
    s.rows = std::min(n, rows);
    s.cols = s.rows ? n / s.rows : 0;
  };
  if (dist == "square") {
    size_t c = static_cast<size_t>(std::sqrt(static_cast<double>(n)));
    while (c * c > n) --c;
    while ((c + 1) * (c + 1) <= n) ++c;
    fixed_cols(c);
  } else if (dist == "wide") {
    fixed_rows(64);
  } else if (dist == "tall") {
    fixed_cols(64);
  } else if (dist == "softmax") {
    fixed_cols(4096);
    s.rows = std::min<size_t>(s.rows, 32768);
  } else if (dist.rfind("cols", 0) == 0 || dist.rfind("rows", 0) == 0) {
    const std::string k = dist.substr(4);
    if (k != "1" && k != "31" && k != "33")
      throw std::invalid_argument("axis: unknown distribution '" + dist + "'");
    if (dist[0] == 'c')
      fixed_cols(std::stoul(k));
    else
      fixed_rows(std::stoul(k));
  } else {
    throw std::invalid_argument("axis: unknown distribution '" + dist + "'");
  }
  return s;
}

std::vector<float> generate(size_t count, uint64_t seed) {
  std::vector<float> x(count);
  SplitMix64 rng(seed);
  parallel_draws(rng, x.data(), count, [](uint64_t d) {
    return static_cast<float>(SplitMix64::uniform_int_of(d, -1, 1));
  });
  return x;
}

Reference reference(Axis axis, const float* x, Shape s) {
  Reference r;
  const size_t outputs = axis == Axis::kRows ? s.rows : s.cols;
  r.sum.assign(outputs, 0.0);
  r.abs_sum.assign(outputs, 0.0);
  if (axis == Axis::kRows) {
    parallel_for(
        s.rows,
        [&](size_t begin, size_t end) {
          for (size_t i = begin; i < end; ++i)
            for (size_t c = 0; c < s.cols; ++c) {
              const double v = x[i * s.cols + c];
              r.sum[i] += v;
              r.abs_sum[i] += std::fabs(v);
            }
        },
        1);
  } else {
    parallel_for(
        s.cols,
        [&](size_t begin, size_t end) {
          for (size_t row = 0; row < s.rows; ++row)
            for (size_t c = begin; c < end; ++c) {
              const double v = x[row * s.cols + c];
              r.sum[c] += v;
              r.abs_sum[c] += std::fabs(v);
            }
        },
        1);
  }
  return r;
}

CheckResult check(const Reference& ref, const float* got) {
  constexpr double kExactLimit = 16777216.0;  // 2^24
  CheckResult c;
  c.ok = true;
  for (size_t i = 0; i < ref.sum.size(); ++i) {
    const double want = ref.sum[i], scale = ref.abs_sum[i];
    const double err = std::fabs(static_cast<double>(got[i]) - want);
    const double tol = scale <= kExactLimit ? 0.0 : std::ldexp(scale, -16);
    const bool ok = std::isfinite(got[i]) && err <= tol;
    c.max_err = std::max(c.max_err, scale > 0 ? err / scale : err);
    if (!ok && c.ok) {
      std::ostringstream msg;
      msg << "index " << i << ": got " << got[i] << ", want " << want << " (tolerance " << tol
          << ")";
      c.message = msg.str();
      c.ok = false;
    }
    if (!std::isfinite(got[i])) c.max_err = INFINITY;
  }
  return c;
}

double bytes_moved(Axis axis, Shape s) {
  const double outputs = static_cast<double>(axis == Axis::kRows ? s.rows : s.cols);
  return 4.0 * static_cast<double>(s.elements()) + 4.0 * outputs;
}

}  // namespace ladder::reduce::axis
