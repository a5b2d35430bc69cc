// common/phase_clock.h — where a run's wall time goes, by phase, on the host's steady clock.
//
// The benchmark harness brackets each phase of a benchmark with a ScopedPhase; the input cache
// brackets input generation. `--verbose` prints each benchmark's split, and every run ends with
// the totals (common/bench.cpp). Phases nest: time spent in an inner phase is not counted again
// in the outer one, so the phases of one interval add up to its wall time.
#pragma once

#include <array>
#include <chrono>

namespace ladder {

enum class Phase {
  kInput,  // generating an input, its CPU reference and its device copy (input cache misses)
  kSetup,  // binding a version to its problem: output and workspace allocation
  kCheck,  // the checks before and after timing: poison, launch, download, compare
  kTimed,  // Google Benchmark's timed loop: L2 flushes, launches, event waits
  kCount
};

inline const char* phase_name(Phase p) {
  switch (p) {
    case Phase::kInput:
      return "input";
    case Phase::kSetup:
      return "setup";
    case Phase::kCheck:
      return "checks";
    case Phase::kTimed:
      return "timed loop";
    default:
      return "?";
  }
}

// Seconds per phase since the process started (one thread: the harness runs benchmarks one at
// a time).
struct PhaseTotals {
  std::array<double, static_cast<size_t>(Phase::kCount)> seconds{};
  double operator[](Phase p) const { return seconds[static_cast<size_t>(p)]; }
  PhaseTotals operator-(const PhaseTotals& o) const {
    PhaseTotals d;
    for (size_t i = 0; i < seconds.size(); ++i) d.seconds[i] = seconds[i] - o.seconds[i];
    return d;
  }
};

inline PhaseTotals& phase_totals() {
  static PhaseTotals totals;
  return totals;
}

// Adds the time from construction to destruction to phase `p`, less the time of any ScopedPhase
// that runs inside it.
class ScopedPhase {
 public:
  explicit ScopedPhase(Phase p) : phase_(p), outer_(current()), start_(now()) { current() = this; }
  ~ScopedPhase() {
    const double total = now() - start_;
    phase_totals().seconds[static_cast<size_t>(phase_)] += total - inner_;
    current() = outer_;
    if (outer_) outer_->inner_ += total;
  }
  ScopedPhase(const ScopedPhase&) = delete;
  ScopedPhase& operator=(const ScopedPhase&) = delete;

  static double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }

 private:
  static ScopedPhase*& current() {
    static thread_local ScopedPhase* top = nullptr;
    return top;
  }
  Phase phase_;
  ScopedPhase* outer_;
  double start_;
  double inner_ = 0;
};

}  // namespace ladder
