// common/registry.h — the version registry every part of cuda-ladder reads.
//
// Each operator (reduce, scan, ...) is one `Operator`: its problem (distributions, bytes moved)
// and its ladder of `Version`s in order, the CUB/Thrust baseline last. The benchmark, the tests,
// `cuda-ladder --list` and the docs all read this one list, so nothing drifts.
//
// A version is bound to a problem instance through a `Runner`, which owns the device output and
// workspace. The harness drives every operator through the same four calls: poison the output,
// launch, check against the CPU reference, and report workspace bytes.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ladder {

// The documentation of one version, written once at the top of its vNN_<slug>.cuh file.
struct VersionDoc {
  int index;              // position in the ladder: 0, 1, 2, ... (-1 for the library baseline)
  const char* slug;       // "v03_sequential_addressing", or "cub"
  const char* title;      // one line
  const char* technique;  // the idea this version shows
  const char* changes;    // what changed from the previous version
  const char* remains;    // the bottleneck that remains
  const char* source;     // seed section, paper or library it follows
};

// What a check found. `max_err` is in the operator's own unit (documented per operator).
struct CheckResult {
  bool ok = false;
  double max_err = 0;
  std::string message;  // on failure: "index I: got G, want W (...)"
};

// One problem instance: size, input distribution, generator seed, and where the input starts.
struct Problem {
  size_t n = 0;            // elements, not bytes
  std::string dist;        // one of the operator's distributions
  uint64_t seed = 0x5eed;  // the generator seed
  size_t offset = 0;  // input starts this many elements past an aligned allocation (a sub-view)
};

// One version bound to one problem: owns the device output and workspace.
class Runner {
 public:
  virtual ~Runner() = default;
  // Device scratch the version needs beyond input and output (bytes).
  virtual size_t workspace_bytes() const = 0;
  // Fills the outputs with a pattern no correct version writes (NaN bits, 0xFF bytes...).
  virtual void poison(cudaStream_t stream) = 0;
  // Enqueues the version on `stream`. Never synchronizes; returns the launch error, if any.
  virtual cudaError_t launch(cudaStream_t stream) = 0;
  // Synchronizes `stream`, copies the output back and compares it with the CPU reference.
  virtual CheckResult check(cudaStream_t stream) = 0;
  // Called before every timed launch, outside the timed events: puts back state a launch
  // changed that the next one must not inherit (managed memory migrated to the GPU). May
  // synchronize. Default: nothing.
  virtual void before_timed_launch(cudaStream_t) {}
  // Minimal bytes read + written for this instance, where they depend on the data (copy_if
  // writes only what it keeps); negative: use the operator's bytes_moved(n).
  virtual double bytes_moved() const { return -1; }
  // The buffers that hold the output (pointer, bytes; at most two; device, managed or host
  // memory), whole, poisoned parts included. The benchmark takes their digest before each
  // check (on the GPU for device memory): an
  // output bit for bit equal to one that a full check of the same operator and input has
  // already passed gets that verdict without recomputing the reference (common/bench.cpp).
  // Empty (the default): every check runs in full. Worth it only for large outputs.
  virtual std::vector<std::pair<const void*, size_t>> outputs() const { return {}; }
};

struct Version {
  std::string op;  // "reduce"
  VersionDoc doc;
  bool baseline = false;    // the CUB/Thrust comparison, not a rung of the ladder
  size_t max_n = SIZE_MAX;  // largest sensible n (the serial baseline has one)
  bool keeps_order = true;  // false for copy_if's unordered rungs (any order of the same values)
  // Hopper-only (bulk copies, mbarrier try_wait): skipped on older GPUs and in builds whose code
  // for the GPU was not compiled for sm_90 (current_device_runs_sm90_code)
  bool needs_sm90 = false;
  // The launcher waits on the host for the stream (a copy from or to pageable memory, a
  // synchronous cudaMemcpy): the benchmark does not hold the stream for it (StreamBlocker would
  // wait for a release that never comes), so its time includes the host's enqueue.
  bool host_waits = false;
  // A reader's own rung ("yours"): written with scripts/new_rung.py and registered in the
  // operator's <op>/mine.inc, not yet part of the ladder. `--list` marks it, `--mine` judges it
  // beside the ladder's top rung and the library baseline, and scripts/plots.py draws it in its
  // own colour. Moving its two lines from mine.inc into <op>.cu makes it a rung like any other.
  bool yours = false;
  // For a rung that picks its path by n (size dispatch): the boundaries on the current GPU, each
  // the largest n that the smaller path takes. The tests run n = b and b + 1 for every b. Needs
  // the CUDA runtime (thresholds may depend on the SM count); empty: no dispatch.
  std::function<std::vector<size_t>()> dispatch_bounds;
  // Binds this version to a problem: allocates output and workspace. Throws CudaError.
  std::function<std::unique_ptr<Runner>(const Problem&)> make;
  // GPU memory (bytes) that make() and the shared input take for a problem: input, output and
  // workspace, as allocated. The benchmark skips a version that does not fit the free memory
  // (common/bench.h, memory_skip_reason). Touches no CUDA API. Empty: not known, and an
  // allocation that fails is then reported as the skip.
  std::function<size_t(const Problem&)> device_bytes;

  std::string name() const { return op + "/" + doc.slug; }
};

// Marks a registered version as Hopper-only (needs_sm90): the benchmark and the tests skip it on
// older GPUs. Used by scan v15, copy_if v06/v07 and elementwise v08.
inline Version hopper_only(Version v) {
  v.needs_sm90 = true;
  return v;
}

// Marks a registered version as a size-dispatching rung with these boundaries (dispatch_bounds).
inline Version with_dispatch(Version v, std::function<std::vector<size_t>()> bounds) {
  v.dispatch_bounds = std::move(bounds);
  return v;
}

// Marks a registered version as a reader's own rung (yours): the entries in <op>/mine.inc.
inline Version yours(Version v) {
  v.yours = true;
  return v;
}

struct Operator {
  std::string name;                             // "reduce"
  std::string description;                      // "float32 sum"
  std::string bytes_formula;                    // "4n": what the minimal traffic counts
  std::function<double(size_t n)> bytes_moved;  // minimal bytes read + written for size n
  std::vector<std::string> distributions;       // every one is tested
  // The distributions benchmarks run on; empty means the first of `distributions` only. With
  // more than one, benchmark names end in "/dist:<name>".
  std::vector<std::string> bench_distributions;
  std::vector<size_t> test_sizes;  // edge sizes the tests run every version on
  // The sizes of a default run (no --sizes, no --sweep) when they differ from the suite's ladder
  // sizes; empty means those. The host-transfer operators run at 2^28 only: one 1 GiB array.
  std::vector<size_t> bench_sizes;
  // The inputs of the 2^31 + 17 test of the best rungs; empty means the first of
  // `distributions` only.
  std::vector<std::string> huge_distributions;
  // Non-empty for an operator that carries a variant of another's best rungs (sort_pairs of
  // sort): its versions keep their numbers in that ladder, so it need not start at v00.
  std::string variant_of;
  std::vector<Version> versions;  // ladder order, baseline(s) last
};

// Every registered operator, in a fixed order. Built on first use; touches no CUDA API, so it
// works on a machine without a GPU. Defined in operators.cpp, at the top of the tree.
const std::vector<Operator>& operators();
const Operator* find_operator(const std::string& name);

// The ladder size every version runs at (25.6M floats, the size used by the Chinese notes on CUDA
// operator optimization that the reduce ladder follows; see common/GLOSSARY.md#references) and
// the large size every parallel version also runs at.
constexpr size_t kLadderSize = 25'600'000;
constexpr size_t kLargeSize = size_t(1) << 28;

}  // namespace ladder
