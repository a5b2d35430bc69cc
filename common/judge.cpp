// common/judge.cpp — implementation of common/judge.h.
#include "common/judge.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>

#include "common/device.h"
#include "common/input_cache.h"
#include "common/random.h"

namespace ladder {
namespace {

std::map<const Version*, bool>& verdicts() {
  static std::map<const Version*, bool> v;
  return v;
}

std::string hex(uint64_t x) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(x));
  return buf;
}

uint64_t name_seed(const std::string& name) {  // FNV-1a: a fixed seed per version name
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : name) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

std::string pad(const std::string& s, size_t width, bool right = false) {
  if (s.size() >= width) return s;
  const std::string fill(width - s.size(), ' ');
  return right ? fill + s : s + fill;
}

}  // namespace

std::string fixed(double v, int digits) {
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(digits);
  s << v;
  return s.str();
}

std::vector<const Version*> JudgeLineup::all() const {
  std::vector<const Version*> v;
  if (top) v.push_back(top);
  v.insert(v.end(), yours.begin(), yours.end());
  if (baseline) v.push_back(baseline);
  return v;
}

JudgeLineup judge_lineup(const Operator& op) {
  JudgeLineup l;
  for (const Version& v : op.versions) {
    if (v.baseline) {
      if (!l.baseline) l.baseline = &v;
    } else if (v.yours) {
      l.yours.push_back(&v);
    } else {
      l.top = &v;
    }
  }
  return l;
}

std::vector<const Operator*> judged_operators(const std::vector<std::string>& ops) {
  std::vector<const Operator*> judged;
  for (const Operator& op : operators()) {
    if (!ops.empty() && std::find(ops.begin(), ops.end(), op.name) == ops.end()) continue;
    if (!judge_lineup(op).yours.empty()) judged.push_back(&op);
  }
  return judged;
}

std::string nothing_to_judge(const std::vector<std::string>& ops) {
  std::string which;
  for (const std::string& o : ops) which += (which.empty() ? "" : ",") + o;
  return "--mine: no rung of yours is registered" +
         (which.empty() ? std::string() : " for --ops=" + which) +
         "; write one with: python3 scripts/new_rung.py <op> <slug> (README.md, \"Write your own "
         "rung\")";
}

std::vector<JudgeCase> judge_cases(const Operator& op, const Version& version) {
  std::vector<JudgeCase> cases;
  auto add = [&](size_t n, const std::string& dist, size_t offset, uint64_t seed) {
    if (n <= version.max_n) cases.push_back({n, dist, offset, seed});
  };
  // The fixed cases of tests/test_versions.cpp (VersionTest), with its seeds.
  for (size_t n : op.test_sizes)
    for (const std::string& d : op.distributions) add(n, d, 0, 0x7e57 + n);
  for (size_t offset : {1, 3})
    for (size_t n : {size_t(1), size_t(5), size_t(1000), size_t(1 << 20) + 7})
      add(n, op.distributions[0], offset, 0x7e57 + n);
  // Random sizes, as RandomizedTest draws them, from a seed of the version's own.
  SplitMix64 rng(name_seed(version.name()));
  for (int k = 0; k < kJudgeRandomCases; ++k) {
    const double log2n = (rng.next() >> 11) * 0x1.0p-53 * 22.0;
    const size_t n = std::max<size_t>(1, static_cast<size_t>(std::exp2(log2n)));
    const std::string& dist = op.distributions[rng.next() % op.distributions.size()];
    const size_t offset = rng.next() % 4;
    add(n, dist, offset, rng.next());
  }
  return cases;
}

std::string failure_line(const Version& version, const JudgeCase& c, int run,
                         const std::string& message) {
  return version.name() + ": WRONG at n=" + std::to_string(c.n) + ", dist=" + c.dist +
         ", offset=" + std::to_string(c.offset) + " (seed " + hex(c.seed) + ", run " +
         std::to_string(run + 1) + " of 2): " + message;
}

int judge_correctness(const std::vector<const Operator*>& ops) {
  cudaStream_t stream = nullptr;
  LADDER_CUDA_TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  int failed = 0;
  for (const Operator* op : ops)
    for (const Version* v : judge_lineup(*op).yours) {
      if (v->needs_sm90 && !current_device_runs_sm90_code()) {
        std::cout << "cuda-ladder --mine: " << v->name() << ": not checked: " << sm90_skip_reason()
                  << std::endl;
        continue;
      }
      const std::vector<JudgeCase> cases = judge_cases(*op, *v);
      std::string wrong;
      for (const JudgeCase& c : cases) {
        try {
          std::unique_ptr<Runner> runner = v->make(Problem{c.n, c.dist, c.seed, c.offset});
          for (int run = 0; run < 2 && wrong.empty(); ++run) {
            runner->poison(stream);
            const cudaError_t launched = runner->launch(stream);
            if (launched != cudaSuccess) {
              wrong = failure_line(*v, c, run,
                                   std::string("launch failed: ") + cudaGetErrorString(launched));
              break;
            }
            const CheckResult r = runner->check(stream);
            if (!r.ok) wrong = failure_line(*v, c, run, r.message);
          }
        } catch (const CudaError& e) {
          wrong = failure_line(*v, c, 0, e.what());
          if (e.sticky()) {
            std::cout << "cuda-ladder --mine: " << wrong << std::endl;
            throw;
          }
        }
        if (!wrong.empty()) break;
      }
      verdicts()[v] = wrong.empty();
      if (wrong.empty()) {
        std::cout << "cuda-ladder --mine: " << v->name() << ": correct on all " << cases.size()
                  << " cases (every test size on every input, unaligned views, "
                  << kJudgeRandomCases << " random sizes)" << std::endl;
      } else {
        ++failed;
        std::cout << "cuda-ladder --mine: " << wrong << std::endl;
      }
    }
  cudaStreamDestroy(stream);
  input_cache().evict_unused();  // the benchmarks generate their own inputs
  return failed;
}

const std::map<const Version*, bool>& judge_verdicts() { return verdicts(); }

std::string ratio_text(double a, double b) {
  if (!(a > 0) || !(b > 0)) return "-";
  return fixed(a / b, 3);
}

std::string judge_table(const Operator& op, const JudgeLineup& lineup, size_t n,
                        const std::string& dist,
                        const std::map<const Version*, const JudgeOutcome*>& outcome,
                        const std::map<const Version*, bool>& correct, double copy_gbps) {
  auto seconds_of = [&](const Version* v) {
    const auto o = outcome.find(v);
    return o == outcome.end() || o->second->failed || o->second->skipped
               ? 0.0
               : median(o->second->seconds);
  };
  const std::vector<const Version*> all = lineup.all();
  size_t width = 8, slug_width = 8;
  for (const Version* v : all) {
    width = std::max(width, v->name().size() + 2);
    slug_width = std::max(slug_width, std::string(v->doc.slug).size());
  }
  const size_t previous_width = slug_width + 11;  // "1.234 (v12_size_dispatch)" and two spaces
  const double base_s = lineup.baseline ? seconds_of(lineup.baseline) : 0;
  const std::string base_slug = lineup.baseline ? lineup.baseline->doc.slug : "cub";
  std::ostringstream t;
  t << op.name << ", n = " << n << ", input " << dist << ":\n";
  t << "  " << pad("version", width) << pad("verdict", 10) << pad("time (us)", 12, true)
    << pad("% copy", 9, true) << "   " << pad("time / previous", previous_width) << "time / "
    << base_slug << "\n";
  for (size_t i = 0; i < all.size(); ++i) {
    const Version* v = all[i];
    const auto o = outcome.find(v);
    const JudgeOutcome* r = o == outcome.end() ? nullptr : o->second;
    std::string verdict = "ok";
    if (!r)
      verdict = "not run";
    else if (r->skipped)
      verdict = "skipped";
    else if (r->failed)
      verdict = "WRONG";
    if (const auto c = correct.find(v); c != correct.end() && !c->second) verdict = "WRONG";
    const double s = seconds_of(v);
    const double pct = s > 0 && copy_gbps > 0 ? 100 * r->bytes / s / 1e9 / copy_gbps : 0;
    std::string previous = "";
    if (v->yours && i > 0)
      previous = ratio_text(s, seconds_of(all[i - 1])) + " (" + all[i - 1]->doc.slug + ")";
    t << "  " << pad(v->name(), width) << pad(verdict, 10)
      << pad(s > 0 ? fixed(s * 1e6, 1) : "-", 12, true)
      << pad(pct > 0 ? fixed(pct, 1) + "%" : "-", 9, true) << "   " << pad(previous, previous_width)
      << (v->baseline ? "" : ratio_text(s, base_s)) << "\n";
    if (r && r->failed && !r->message.empty()) t << "    " << r->message << "\n";
  }
  return t.str();
}

}  // namespace ladder
