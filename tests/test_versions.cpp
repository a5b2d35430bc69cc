// tests/test_versions.cpp — every registered version of every operator, on the operator's edge
// sizes and every input distribution, against the CPU reference. Driven by the registry: a new
// version is tested by being registered. Needs a GPU; without one every case skips.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "common/device.h"
#include "common/parallel.h"
#include "common/random.h"
#include "common/registry.h"
#include "copy_if/copy_if.h"
#include "elementwise/elementwise.h"
#include "scan/scan.h"
#include "sort/sort.h"

namespace ladder {
namespace {

bool have_gpu() {
  static const bool yes = device_count() > 0;
  return yes;
}

class GpuEnvironment : public testing::Environment {
 public:
  void SetUp() override {
    std::string why;
    if (device_count(&why) == 0) {
      std::cout << "no CUDA device: skipping all GPU tests (" << why << ")" << std::endl;
      return;
    }
    const DeviceCode& code = current_device_code();
    // A binary with no code for this GPU would fail every case alike: say it once.
    ASSERT_TRUE(code.has_image) << "this build has no code for the GPU (" << code.error
                                << "); it was built for CUDA architectures " << LADDER_CUDA_ARCHS;
    std::cout << "GPU code: " << code.describe() << std::endl;
  }
};
const auto* const kEnv = testing::AddGlobalTestEnvironment(new GpuEnvironment);

struct Case {
  const Operator* op;
  const Version* version;
  size_t n;
  std::string dist;
  size_t offset;  // elements past an aligned allocation: 1 and 3 break 16-byte alignment
};
// How GoogleTest shows a case (in --gtest_list_tests and beside a failure), instead of its bytes.
void PrintTo(const Case& c, std::ostream* os) {
  *os << c.version->name() << " n=" << c.n << " dist=" << c.dist;
  if (c.offset) *os << " offset=" << c.offset;
}

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (const Operator& op : operators())
    for (const Version& v : op.versions) {
      for (size_t n : op.test_sizes)
        for (const std::string& d : op.distributions) cases.push_back({&op, &v, n, d, 0});
      for (size_t offset : {1, 3})
        for (size_t n : {size_t(1), size_t(5), size_t(1000), size_t(1 << 20) + 7})
          cases.push_back({&op, &v, n, op.distributions[0], offset});
    }
  return cases;
}

std::string case_name(const testing::TestParamInfo<Case>& info) {
  const Case& c = info.param;
  return c.op->name + "_" + c.version->doc.slug + "_n" + std::to_string(c.n) + "_" + c.dist +
         (c.offset ? "_offset" + std::to_string(c.offset) : "");
}

cudaStream_t test_stream() {
  static cudaStream_t s = [] {
    cudaStream_t created = nullptr;
    LADDER_CUDA_TRY(cudaStreamCreateWithFlags(&created, cudaStreamNonBlocking));
    return created;
  }();
  return s;
}

class VersionTest : public testing::TestWithParam<Case> {};

// Two poisoned runs in a row: the second catches state a version leaves behind (a counter not
// reset) and outputs it only wrote the first time.
TEST_P(VersionTest, MatchesReference) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const Case& c = GetParam();
  if (c.version->needs_sm90 && !current_device_runs_sm90_code())
    GTEST_SKIP() << c.version->name() << " skipped: " << sm90_skip_reason();
  if (c.n > c.version->max_n)
    GTEST_SKIP() << c.version->name() << " is limited to n <= " << c.version->max_n;
  const uint64_t seed = 0x7e57 + c.n;
  std::unique_ptr<Runner> runner = c.version->make(Problem{c.n, c.dist, seed, c.offset});
  for (int run = 0; run < 2; ++run) {
    runner->poison(test_stream());
    ASSERT_EQ(runner->launch(test_stream()), cudaSuccess);
    const CheckResult r = runner->check(test_stream());
    ASSERT_TRUE(r.ok) << c.version->name() << " n=" << c.n << " dist=" << c.dist << " seed=" << seed
                      << " run " << run << ": " << r.message;
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, VersionTest, testing::ValuesIn(all_cases()), case_name);

// Whether LADDER_HUGE_TESTS asks for op's tests of gigabyte sizes: "1" (all) or a comma list.
bool huge_tests_wanted(const std::string& op) {
  const char* env = std::getenv("LADDER_HUGE_TESTS");
  const std::string wanted = env ? env : "";
  return !wanted.empty() &&
         (wanted == "1" || ("," + wanted + ",").find("," + op + ",") != std::string::npos);
}

struct DispatchCase {
  const Operator* op;
  const Version* version;
};
void PrintTo(const DispatchCase& c, std::ostream* os) { *os << c.version->name(); }

std::vector<DispatchCase> dispatch_cases() {
  std::vector<DispatchCase> cases;
  for (const Operator& op : operators())
    for (const Version& v : op.versions)
      if (v.dispatch_bounds) cases.push_back({&op, &v});
  return cases;
}

class DispatchTest : public testing::TestWithParam<DispatchCase> {};

// Size-dispatching rungs (Version::dispatch_bounds) on both sides of every boundary of this GPU:
// n = b, the largest n of the smaller path, and b + 1, the smallest of the next; every input
// distribution, two poisoned runs each as above; and n = b + 1 once more at element offsets 1 and 3
// (the first distribution), so that each larger path that takes unaligned input also runs on it
// with a partial last tile (VersionTest's unaligned sizes stop at 2^20 + 7 and the randomized ones
// at 2^22, below some paths' bounds, scan v17's pipeline among them). A bound
// past 2^28 + 1 runs with the opt-in huge tests, on the operator's huge_distributions where it
// names them (sort: uniform and few; HugeBounds/ takes every input at sort's older bounds);
// LADDER_DISPATCH_FROM=<n> skips the bounds below n, so that one large bound fits one run.
TEST_P(DispatchTest, BothSidesOfEachThreshold) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const DispatchCase& c = GetParam();
  if (c.version->needs_sm90 && !current_device_runs_sm90_code())
    GTEST_SKIP() << c.version->name() << " skipped: " << sm90_skip_reason();
  const std::vector<size_t> bounds = c.version->dispatch_bounds();
  ASSERT_FALSE(bounds.empty());
  const char* from_env = std::getenv("LADDER_DISPATCH_FROM");
  size_t from = 0;
  if (from_env && *from_env) {
    char* end = nullptr;
    from = std::strtoull(from_env, &end, 0);
    ASSERT_EQ(*end, '\0') << "LADDER_DISPATCH_FROM=" << from_env
                          << " is not a number (decimal, or hex with 0x)";
  }
  if (std::none_of(bounds.begin(), bounds.end(), [&](size_t b) { return b >= from; }))
    GTEST_SKIP() << c.version->name() << ": no bound at or above LADDER_DISPATCH_FROM=" << from;
  for (size_t b : bounds)
    for (size_t n : {b, b + 1}) {
      if (b < from || n > c.version->max_n) continue;
      // A boundary past 2^28 (sort v10's switch to 64-bit look-back words at 2^30) needs
      // gigabytes and minutes per input: it runs with the opt-in huge tests.
      const bool huge = n > (size_t(1) << 28) + 1;
      if (huge && !huge_tests_wanted(c.op->name)) {
        std::printf("[ NOTE     ] %s n=%zu skipped: set LADDER_HUGE_TESTS=1 (or =%s)\n",
                    c.version->name().c_str(), n, c.op->name.c_str());
        continue;
      }
      const std::vector<std::string>& dists = huge && !c.op->huge_distributions.empty()
                                                  ? c.op->huge_distributions
                                                  : c.op->distributions;
      std::vector<std::pair<std::string, size_t>> inputs;  // distribution, element offset
      for (const std::string& d : dists) inputs.push_back({d, 0});
      if (n == b + 1 && !huge)
        for (const size_t offset : {size_t(1), size_t(3)}) inputs.push_back({dists[0], offset});
      for (const auto& [d, offset] : inputs) {
        if (huge)  // minutes each: say which ran
          std::printf("[ NOTE     ] %s n=%zu (threshold %zu) dist=%s\n", c.version->name().c_str(),
                      n, b, d.c_str());
        const uint64_t seed = 0xd15 + n;
        std::unique_ptr<Runner> runner = c.version->make(Problem{n, d, seed, offset});
        for (int run = 0; run < 2; ++run) {
          runner->poison(test_stream());
          ASSERT_EQ(runner->launch(test_stream()), cudaSuccess);
          const CheckResult r = runner->check(test_stream());
          ASSERT_TRUE(r.ok) << c.version->name() << " n=" << n << " (threshold " << b
                            << ") dist=" << d << " offset=" << offset << " seed=" << seed << " run "
                            << run << ": " << r.message;
        }
      }
    }
}

INSTANTIATE_TEST_SUITE_P(Dispatch, DispatchTest, testing::ValuesIn(dispatch_cases()),
                         [](const testing::TestParamInfo<DispatchCase>& info) {
                           return info.param.op->name + "_" + info.param.version->doc.slug;
                         });

// Operator `name`'s versions that take n = 2^24 + 3, for the tests that drive one workspace through
// several sizes.
std::vector<DispatchCase> workspace_cases(const std::string& name) {
  std::vector<DispatchCase> cases;
  for (const Operator& op : operators())
    if (op.name == name)
      for (const Version& v : op.versions)
        if (v.max_n > (size_t(1) << 24) + 3) cases.push_back({&op, &v});
  return cases;
}

// One step of a workspace sequence: n elements of distribution `dist`, at element `offset`.
struct Step {
  size_t n;
  std::string dist;
  size_t offset;
};
// The sequence, as the scan and copy_if Launcher contracts allow on one workspace: a large n, both
// sides of each dispatch bound (size-dispatching rungs), a smaller large n, the first again on
// other inputs and at element offset 1, the smaller at offset 3. Catches state that one call
// leaves for the next and another size or path disturbs: scan v18 and copy_if v09 keep their claim
// counter and epoch in the workspace between calls and read statuses they never clear, while their
// other paths clear and use their own part of the same workspace.
std::vector<Step> workspace_steps(const Version& v, const std::vector<std::string>& dists) {
  const size_t big = (size_t(1) << 24) + 3, mid = (size_t(1) << 23) + 11;
  std::vector<Step> steps = {{big, dists[0], 0}};
  if (v.dispatch_bounds)
    for (size_t b : v.dispatch_bounds()) {
      steps.push_back({b, dists[0], 0});
      steps.push_back({b + 1, dists[1 % dists.size()], 0});
    }
  for (const Step& s :
       {Step{mid, dists[1 % dists.size()], 0}, Step{big, dists[2 % dists.size()], 0},
        Step{big, dists[0], 1}, Step{mid, dists[0], 3}})
    steps.push_back(s);
  return steps;
}
// What the steps need: the workspace (the largest of ws_fn's, at least one byte, zeroed once by
// the caller) and the input's elements (offset included).
struct Extent {
  size_t ws_bytes = 1, elements = 0;
};
Extent extent_of(const std::vector<Step>& steps, size_t (*ws_fn)(size_t)) {
  Extent e;
  for (const Step& s : steps) {
    e.ws_bytes = std::max(e.ws_bytes, ws_fn(s.n));
    e.elements = std::max(e.elements, s.n + s.offset);
  }
  return e;
}

// The registered version `slug` of operator `op`, or null.
const Version* find_version(const std::string& op, const std::string& slug) {
  for (const Operator& o : operators())
    if (o.name == op)
      for (const Version& v : o.versions)
        if (slug == v.doc.slug) return &v;
  return nullptr;
}

// One copy_if call of `raw` on `host` (already uploaded to `in`), with the output and the count
// poisoned first, checked: the count, then the output against std::copy_if's (exactly where
// `ordered`, else as a multiset). `out` and `count` are the call's buffers (count: one unsigned
// long long).
testing::AssertionResult copy_if_call_checked(const copy_if::RawVersion& raw, bool ordered,
                                              const int32_t* in, DeviceBuffer& out,
                                              DeviceBuffer& count, size_t n, void* ws,
                                              const std::vector<int32_t>& host) {
  const std::vector<int32_t> want = copy_if::reference(host);
  if (cudaMemsetAsync(out.get(), 0xa5, out.bytes(), test_stream()) != cudaSuccess ||
      cudaMemsetAsync(count.get(), 0xff, count.bytes(), test_stream()) != cudaSuccess)
    return testing::AssertionFailure() << "the poisoning memsets failed";
  const cudaError_t e =
      raw.launch(in, out.as<int32_t>(), count.as<unsigned long long>(), n, ws, test_stream());
  if (e != cudaSuccess) return testing::AssertionFailure() << "launch: " << cudaGetErrorString(e);
  const cudaError_t se = cudaStreamSynchronize(test_stream());
  if (se != cudaSuccess) return testing::AssertionFailure() << "sync: " << cudaGetErrorString(se);
  const unsigned long long got_count = *download(count.as<const unsigned long long>(), 1);
  if (got_count != want.size())
    return testing::AssertionFailure() << "count " << got_count << ", want " << want.size();
  const int32_t* got = download(out.as<const int32_t>(), want.size());
  const CheckResult r = ordered ? copy_if::check_ordered(want, got, want.size())
                                : copy_if::check_unordered(want, got, want.size());
  if (!r.ok) return testing::AssertionFailure() << r.message;
  return testing::AssertionSuccess();
}

class ScanWorkspaceTest : public testing::TestWithParam<DispatchCase> {};

// scan: each output poisoned, then checked by the runner's reference check.
TEST_P(ScanWorkspaceTest, OneWorkspaceThroughSizes) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const DispatchCase& c = GetParam();
  if (c.version->needs_sm90 && !current_device_runs_sm90_code())
    GTEST_SKIP() << c.version->name() << " skipped: " << sm90_skip_reason();
  const scan::RawVersion raw = scan::raw_version(c.version->doc.slug);
  const std::vector<Step> steps = workspace_steps(*c.version, scan::distributions());
  const Extent e = extent_of(steps, raw.workspace_bytes);
  DeviceBuffer ws(e.ws_bytes, /*zero=*/true), in(e.elements * sizeof(int32_t)),
      out(e.elements * sizeof(int32_t));
  for (size_t k = 0; k < steps.size(); ++k) {
    const Step& s = steps[k];
    const uint64_t seed = 0x5ca7 + k;
    const std::vector<int32_t> host = scan::generate(s.n, s.dist, seed);
    upload(in.as<int32_t>() + s.offset, host.data(), s.n * sizeof(int32_t));
    ASSERT_EQ(cudaMemsetAsync(out.get(), 0xa5, out.bytes(), test_stream()), cudaSuccess);
    ASSERT_EQ(raw.launch(in.as<const int32_t>() + s.offset, out.as<int32_t>(), s.n, ws.get(),
                         test_stream()),
              cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(test_stream()), cudaSuccess);
    const int32_t* got = download(out.as<const int32_t>(), s.n);
    int64_t carry = 0;
    const CheckResult r = scan::check_piece(host.data(), got, s.n, 0, carry);
    ASSERT_TRUE(r.ok) << c.version->name() << " step " << k << " n=" << s.n << " dist=" << s.dist
                      << " offset=" << s.offset << " seed=" << seed << ": " << r.message;
  }
}

INSTANTIATE_TEST_SUITE_P(ScanWorkspace, ScanWorkspaceTest,
                         testing::ValuesIn(workspace_cases("scan")),
                         [](const testing::TestParamInfo<DispatchCase>& info) {
                           return info.param.version->doc.slug;
                         });

class CopyIfWorkspaceTest : public testing::TestWithParam<DispatchCase> {};

// copy_if: each output and count poisoned, then the count and the output checked against
// std::copy_if's (ordered rungs exactly; unordered ones as a multiset).
TEST_P(CopyIfWorkspaceTest, OneWorkspaceThroughSizes) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const DispatchCase& c = GetParam();
  if (c.version->needs_sm90 && !current_device_runs_sm90_code())
    GTEST_SKIP() << c.version->name() << " skipped: " << sm90_skip_reason();
  const copy_if::RawVersion raw = copy_if::raw_version(c.version->doc.slug);
  const std::vector<Step> steps = workspace_steps(*c.version, copy_if::distributions());
  const Extent e = extent_of(steps, raw.workspace_bytes);
  DeviceBuffer ws(e.ws_bytes, /*zero=*/true), in(e.elements * sizeof(int32_t)),
      out(e.elements * sizeof(int32_t)), count(sizeof(unsigned long long));
  for (size_t k = 0; k < steps.size(); ++k) {
    const Step& s = steps[k];
    const uint64_t seed = 0xc0f1 + k;
    const std::vector<int32_t> host = copy_if::generate(s.n, s.dist, seed);
    upload(in.as<int32_t>() + s.offset, host.data(), s.n * sizeof(int32_t));
    ASSERT_TRUE(copy_if_call_checked(raw, c.version->keeps_order, in.as<const int32_t>() + s.offset,
                                     out, count, s.n, ws.get(), host))
        << c.version->name() << " step " << k << " n=" << s.n << " dist=" << s.dist
        << " offset=" << s.offset << " seed=" << seed;
  }
}

INSTANTIATE_TEST_SUITE_P(CopyIfWorkspace, CopyIfWorkspaceTest,
                         testing::ValuesIn(workspace_cases("copy_if")),
                         [](const testing::TestParamInfo<DispatchCase>& info) {
                           return info.param.version->doc.slug;
                         });

// The 31-bit epoch of scan v18 and copy_if v09: the second 4-byte word of the 16-byte header at
// the start of their workspace, after the claim counter (scan/v18_epoch_statuses.cuh,
// copy_if/v09_epoch_statuses.cuh). Preset to 2^31 - 2 in a zeroed workspace, it must read 2^31 - 1,
// 0 and 1 after three launches in the top band (the pipeline's), each on another input, with the
// claim counter back at 0 and every output right. This shows what the workspace tests above catch
// only by chance: a launch that leaves the epoch as it was (the next launch would take the old
// statuses for its own), or lets it run into the tag bit at the wrap.
struct EpochCase {
  const char* op;
  const char* slug;
};
class EpochWrapTest : public testing::TestWithParam<EpochCase> {};

TEST_P(EpochWrapTest, WrapsAfter2To31MinusOne) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const EpochCase& c = GetParam();
  const Version* version = find_version(c.op, c.slug);
  if (!version) GTEST_SKIP() << c.op << " " << c.slug << " is not registered in this build";
  if (version->needs_sm90 && !current_device_runs_sm90_code())
    GTEST_SKIP() << version->name() << " skipped: " << sm90_skip_reason();
  const bool scan_op = std::string(c.op) == "scan";
  // The epoch pipelines run on sm_90 code only: elsewhere the top band is another path (scan v16's
  // dispatch for v18; v05's for copy_if v09 and v10), which keeps no epoch
  if (!current_device_runs_sm90_code())
    GTEST_SKIP() << version->name() << ": its epoch pipeline runs on sm_90 code only";
  const size_t n = (size_t(1) << 26) + 3;  // above every dispatch bound
  if (version->dispatch_bounds) {
    for (size_t b : version->dispatch_bounds())
      ASSERT_LT(b, n) << version->name() << ": n is not in the top band";
  }
  const size_t ws_bytes = scan_op ? scan::raw_version(c.slug).workspace_bytes(n)
                                  : copy_if::raw_version(c.slug).workspace_bytes(n);
  DeviceBuffer ws(ws_bytes, /*zero=*/true), in(n * sizeof(int32_t)), out(n * sizeof(int32_t)),
      count(sizeof(unsigned long long));
  const unsigned first = (1u << 31) - 2, start[2] = {0, first};
  upload(ws.as<unsigned>(), start, sizeof start);
  for (unsigned step = 0; step < 3; ++step) {
    const uint64_t seed = 0xe90c + step;
    ASSERT_EQ(cudaMemsetAsync(out.get(), 0xa5, out.bytes(), test_stream()), cudaSuccess);
    if (scan_op) {
      const std::vector<int32_t> host = scan::generate(n, scan::distributions()[0], seed);
      upload(in.as<int32_t>(), host.data(), n * sizeof(int32_t));
      ASSERT_EQ(scan::raw_version(c.slug).launch(in.as<const int32_t>(), out.as<int32_t>(), n,
                                                 ws.get(), test_stream()),
                cudaSuccess);
      ASSERT_EQ(cudaStreamSynchronize(test_stream()), cudaSuccess);
      int64_t carry = 0;
      const CheckResult r =
          scan::check_piece(host.data(), download(out.as<const int32_t>(), n), n, 0, carry);
      ASSERT_TRUE(r.ok) << version->name() << " launch " << step << ": " << r.message;
    } else {
      const std::vector<int32_t> host = copy_if::generate(n, copy_if::distributions()[0], seed);
      upload(in.as<int32_t>(), host.data(), n * sizeof(int32_t));
      ASSERT_TRUE(copy_if_call_checked(copy_if::raw_version(c.slug), /*ordered=*/true,
                                       in.as<const int32_t>(), out, count, n, ws.get(), host))
          << version->name() << " launch " << step;
    }
    const unsigned* words = download(ws.as<const unsigned>(), 2);
    const unsigned claims = words[0], epoch = words[1];
    EXPECT_EQ(claims, 0u) << version->name() << " launch " << step << ": the claim counter";
    EXPECT_EQ(epoch, (first + step + 1) & 0x7fffffffu)
        << version->name() << " launch " << step << " (epoch " << ((first + step) & 0x7fffffffu)
        << "): the next launch's epoch";
  }
}

INSTANTIATE_TEST_SUITE_P(EpochWrap, EpochWrapTest,
                         testing::Values(EpochCase{"scan", "v18_epoch_statuses"},
                                         EpochCase{"copy_if", "v09_epoch_statuses"},
                                         EpochCase{"copy_if", "v10_group_sums"}),
                         [](const testing::TestParamInfo<EpochCase>& info) {
                           return std::string(info.param.op) + "_" + info.param.slug;
                         });

// copy_if v10's group sums (copy_if/v10_group_sums.cuh), read in the workspace after each of three
// launches in the pipeline's band, on one zeroed workspace: 2^26 + 3 elements, then 2^25 + 5, then
// 2^26 + 3 again (launch k adds into group array k mod 2). After launch k its array must hold,
// for each group of 32 tiles, the group's tiles as arrivals and the number kept in its elements as
// the sum, and zero in every other word; the other array must be all zero (launch k cleared it as
// far as launch k - 1 wrote it: after launch 1, which has fewer groups than launch 0, that is more
// than launch 1's own extent); the header must note launch k's extent for its array and zero for
// the other. Every output is checked too. The workspace tests above catch a missing clear only by
// chance (a stale word read before the new launch's first arrival in its group).
TEST(GroupSums, ClearedAndNotedAcrossSizes) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const Version* version = find_version("copy_if", "v10_group_sums");
  if (!version) GTEST_SKIP() << "copy_if v10_group_sums is not registered in this build";
  if (!current_device_runs_sm90_code())
    GTEST_SKIP() << version->name()
                 << ": the pipeline (and its group sums) runs on sm_90 code only";
  const size_t sizes[3] = {(size_t(1) << 26) + 3, (size_t(1) << 25) + 5, (size_t(1) << 26) + 3};
  for (size_t b : version->dispatch_bounds())
    ASSERT_LT(b, sizes[1]) << version->name() << ": n is not in the pipeline's band";
  const copy_if::GroupSumsLayout L = copy_if::group_sums_layout();
  const copy_if::RawVersion raw = copy_if::raw_version("v10_group_sums");
  const size_t n_max = sizes[0];
  DeviceBuffer ws(raw.workspace_bytes(n_max), /*zero=*/true), in(n_max * sizeof(int32_t)),
      out(n_max * sizeof(int32_t)), count(sizeof(unsigned long long));
  ASSERT_GE(ws.bytes(), L.header_bytes + 2 * L.array_words * 8);
  for (unsigned k = 0; k < 3; ++k) {
    const size_t n = sizes[k];
    const std::vector<int32_t> host = copy_if::generate(n, "keep50", 0x9a10 + k);
    upload(in.as<int32_t>(), host.data(), n * sizeof(int32_t));
    ASSERT_TRUE(copy_if_call_checked(raw, /*ordered=*/true, in.as<const int32_t>(), out, count, n,
                                     ws.get(), host))
        << "launch " << k;

    std::vector<unsigned> header(4);
    std::vector<unsigned long long> words(2 * L.array_words);
    ASSERT_EQ(cudaMemcpy(header.data(), ws.get(), 16, cudaMemcpyDeviceToHost), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(words.data(), static_cast<const char*>(ws.get()) + L.header_bytes,
                         words.size() * 8, cudaMemcpyDeviceToHost),
              cudaSuccess);
    const size_t tiles = (n + L.tile_elements - 1) / L.tile_elements;
    const size_t groups = (tiles + L.group_tiles - 1) / L.group_tiles;
    const unsigned mine = k & 1, other = 1 - mine;
    EXPECT_EQ(header[2 + mine], groups) << "launch " << k << ": its extent in the header";
    EXPECT_EQ(header[2 + other], 0u) << "launch " << k << ": the other array's extent";
    size_t wrong = 0, first_wrong = 0;
    for (size_t w = 0; w < 2 * L.array_words; ++w) {
      const size_t a = w / L.array_words, i = w % L.array_words, g = i / L.stride;
      unsigned long long expect = 0;
      if (a == mine && i % L.stride == 0 && g < groups) {
        const size_t lo = g * L.group_tiles * L.tile_elements,
                     hi = std::min(n, lo + L.group_tiles * L.tile_elements);
        const size_t kept = size_t(
            std::count_if(host.begin() + lo, host.begin() + hi, [](int32_t x) { return x > 0; }));
        const size_t arrivals = std::min(tiles - g * L.group_tiles, size_t(L.group_tiles));
        expect = (static_cast<unsigned long long>(arrivals) << 32) | kept;
      }
      if (words[w] != expect && wrong++ == 0) first_wrong = w;
    }
    EXPECT_EQ(wrong, 0u) << "launch " << k << " (" << groups
                         << " groups): group words not as expected; the first: array "
                         << first_wrong / L.array_words << " word " << first_wrong % L.array_words
                         << " = 0x" << std::hex << words[first_wrong];
  }
}

// Randomized cases, on top of the fixed edge sizes: per version, kRandomCases draws of a size
// (log-uniform in [1, 2^22], within the version's max_n), a distribution and an element offset
// (0 to 3), and the data's seed. The master seed is LADDER_RANDOM_SEED when set (decimal or 0x
// hex), else a fixed value; every failure prints the master seed and the case's own, so the case
// reproduces: rerun with the same LADDER_RANDOM_SEED and the test's name as --gtest_filter.
constexpr int kRandomCases = 3;

uint64_t master_seed() {
  static const uint64_t seed = [] {
    const char* env = std::getenv("LADDER_RANDOM_SEED");
    return env && *env ? std::strtoull(env, nullptr, 0) : uint64_t(20261121);
  }();
  return seed;
}

struct RandomCase {
  Case c;
  uint64_t seed;  // the data's seed
  int index;
};
void PrintTo(const RandomCase& r, std::ostream* os) {
  PrintTo(r.c, os);
  *os << " seed=" << r.seed;
}

std::vector<RandomCase> random_cases() {
  std::vector<RandomCase> cases;
  SplitMix64 rng(master_seed());
  for (const Operator& op : operators())
    for (const Version& v : op.versions)
      for (int k = 0; k < kRandomCases; ++k) {
        const double log2n = (rng.next() >> 11) * 0x1.0p-53 * 22.0;
        size_t n = static_cast<size_t>(std::exp2(log2n));
        n = std::max<size_t>(1, std::min(n, v.max_n));
        const std::string& dist = op.distributions[rng.next() % op.distributions.size()];
        const size_t offset = rng.next() % 4;
        cases.push_back({{&op, &v, n, dist, offset}, rng.next(), k});
      }
  return cases;
}

std::string random_name(const testing::TestParamInfo<RandomCase>& info) {
  const RandomCase& r = info.param;
  return r.c.op->name + "_" + r.c.version->doc.slug + "_random" + std::to_string(r.index);
}

class RandomizedTest : public testing::TestWithParam<RandomCase> {};

TEST_P(RandomizedTest, MatchesReference) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const RandomCase& r = GetParam();
  const Case& c = r.c;
  if (c.version->needs_sm90 && !current_device_runs_sm90_code())
    GTEST_SKIP() << c.version->name() << " skipped: " << sm90_skip_reason();
  std::unique_ptr<Runner> runner = c.version->make(Problem{c.n, c.dist, r.seed, c.offset});
  runner->poison(test_stream());
  ASSERT_EQ(runner->launch(test_stream()), cudaSuccess);
  const CheckResult result = runner->check(test_stream());
  ASSERT_TRUE(result.ok) << c.version->name() << " n=" << c.n << " dist=" << c.dist
                         << " offset=" << c.offset << " data seed=" << r.seed
                         << " (LADDER_RANDOM_SEED=" << master_seed() << "): " << result.message;
}

INSTANTIATE_TEST_SUITE_P(Random, RandomizedTest, testing::ValuesIn(random_cases()), random_name);

// Beyond 32-bit indexing: the best rung of each operator at n = 2^31 + 17 (and 2^32 + 5, below).
// Opt-in, because the largest take over 50 GB of GPU memory (sort_pairs at 2^31 + 17, fused_f32
// at 2^32 + 5) and tens of seconds per operator: LADDER_HUGE_TESTS=1 runs
// every operator, LADDER_HUGE_TESTS=op1,op2 the ones named. The best rungs are the last
// registered one and, where that one gives up the order (copy_if v07), the last that keeps it.
std::vector<const Version*> best_rungs() {
  std::vector<const Version*> best;
  for (const Operator& op : operators()) {
    const Version *last = nullptr, *last_ordered = nullptr;
    for (const Version& v : op.versions) {
      if (v.baseline || v.yours) continue;  // a reader's own rung is not the ladder's best
      last = &v;
      if (v.keeps_order) last_ordered = &v;
    }
    if (last_ordered && last_ordered != last) best.push_back(last_ordered);
    if (last) best.push_back(last);
  }
  return best;
}

struct HugeCase {
  const Version* version;
  std::string dist;
  size_t n;
};
void PrintTo(const HugeCase& c, std::ostream* os) {
  *os << c.version->name() << " n=" << c.n << " dist=" << c.dist;
}

// The best rungs at n: 2^31 + 17 (past 32-bit signed indexing) in Huge/, 2^32 + 5 (past 32-bit
// unsigned counts and positions: issue 53) in Huge2e32/. At 2^32 + 5 the per-element checks
// (scan, elementwise, the transfers, histogram's bins, a column's sums) see the five elements
// past 2^32; a whole-array sum's does not (reduce's one_per_256 keys are 0 there, and uniform's
// tolerance is wider than five elements).
std::vector<HugeCase> huge_cases(size_t n) {
  std::vector<HugeCase> cases;
  for (const Version* v : best_rungs()) {
    const Operator& op = *find_operator(v->op);
    const std::vector<std::string> dists = op.huge_distributions.empty()
                                               ? std::vector<std::string>{op.distributions[0]}
                                               : op.huge_distributions;
    for (const std::string& d : dists) cases.push_back({v, d, n});
  }
  return cases;
}

class HugeTest : public testing::TestWithParam<HugeCase> {};

TEST_P(HugeTest, BeyondInt32Indexing) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const Version& v = *GetParam().version;
  const std::string& dist = GetParam().dist;
  if (v.needs_sm90 && !current_device_runs_sm90_code())
    GTEST_SKIP() << v.name() << " skipped: " << sm90_skip_reason();
  if (!huge_tests_wanted(v.op))
    GTEST_SKIP() << "set LADDER_HUGE_TESTS=1 (or =" << v.op << ") to run";
  const size_t n = GetParam().n;
  if (n > v.max_n)
    GTEST_SKIP() << v.name() << " takes at most " << v.max_n << " elements (n = " << n << ")";
  std::unique_ptr<Runner> runner = v.make(Problem{n, dist, 0x5eed, 0});
  runner->poison(test_stream());
  ASSERT_EQ(runner->launch(test_stream()), cudaSuccess);
  const CheckResult r = runner->check(test_stream());
  ASSERT_TRUE(r.ok) << v.name() << " n=" << n << " dist=" << dist << ": " << r.message;
}

std::string huge_name(const testing::TestParamInfo<HugeCase>& info) {
  return info.param.version->op + "_" + info.param.version->doc.slug + "_" + info.param.dist;
}
INSTANTIATE_TEST_SUITE_P(Huge, HugeTest, testing::ValuesIn(huge_cases((size_t(1) << 31) + 17)),
                         huge_name);
INSTANTIATE_TEST_SUITE_P(Huge2e32, HugeTest, testing::ValuesIn(huge_cases((size_t(1) << 32) + 5)),
                         huge_name);

// Sort's top rungs where the ladder's roads used to end (issue 53): 271,000,000 keys, the last n
// of v16's first hybrid road, and 2^30, where v12's narrow look-back words (30-bit counts) end;
// each of them, one less and one more, on every input. Opt-in with the huge tests
// (LADDER_HUGE_TESTS=sort,sort_pairs): about 4 GB a 2^30 array, seconds an input on the host. A
// line a passed input says how far a long run has come.
struct BoundCase {
  const Version* version;
  size_t n;
};
void PrintTo(const BoundCase& c, std::ostream* os) { *os << c.version->name() << " n=" << c.n; }

std::vector<BoundCase> bound_cases() {
  std::vector<BoundCase> cases;
  for (const Version* v : best_rungs())
    if (v->op == "sort" || v->op == "sort_pairs")
      for (const size_t b : {size_t(271000000), size_t(1) << 30})
        for (const size_t n : {b - 1, b, b + 1}) cases.push_back({v, n});
  return cases;
}

class HugeBoundsTest : public testing::TestWithParam<BoundCase> {};

TEST_P(HugeBoundsTest, EveryInput) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const Version& v = *GetParam().version;
  const size_t n = GetParam().n;
  if (v.needs_sm90 && !current_device_runs_sm90_code())
    GTEST_SKIP() << v.name() << " skipped: " << sm90_skip_reason();
  if (!huge_tests_wanted(v.op))
    GTEST_SKIP() << "set LADDER_HUGE_TESTS=1 (or =" << v.op << ") to run";
  for (const std::string& dist : find_operator(v.op)->distributions) {
    std::unique_ptr<Runner> runner = v.make(Problem{n, dist, 0xb0d + n, 0});
    runner->poison(test_stream());
    ASSERT_EQ(runner->launch(test_stream()), cudaSuccess);
    const CheckResult r = runner->check(test_stream());
    ASSERT_TRUE(r.ok) << v.name() << " n=" << n << " dist=" << dist << ": " << r.message;
    std::printf("[ NOTE     ] %s n=%zu dist=%s passed\n", v.name().c_str(), n, dist.c_str());
    std::fflush(stdout);
  }
}

INSTANTIATE_TEST_SUITE_P(HugeBounds, HugeBoundsTest, testing::ValuesIn(bound_cases()),
                         [](const testing::TestParamInfo<BoundCase>& info) {
                           return info.param.version->op + "_" + info.param.version->doc.slug +
                                  "_n" + std::to_string(info.param.n);
                         });

}  // namespace
// Sort's histogram kernels against a count on the CPU, on every input, at a size below one
// chunk, one of several chunks per block, and one view starting a key past 16-byte alignment
// (the scalar loads). Sort v09's 16-copy kernel runs inside a sort only on GPUs whose blocks
// cannot have 128 KB of shared memory (sm_86, sm_89), so this is where a Hopper tests it.
TEST(SortHistogram, EveryKernelCountsEveryDigit) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  for (const std::string& dist : sort::distributions()) {
    for (const size_t n : {size_t(1000), (size_t(1) << 22) + 7}) {
      for (const size_t offset : {size_t(0), size_t(1)}) {
        const std::vector<uint32_t> keys = sort::generate(n, dist, 0x51e7 + n);
        std::vector<unsigned> want(4 * 256, 0);
        for (const uint32_t k : keys)
          for (unsigned p = 0; p < 4; ++p) ++want[p * 256 + (k >> (8 * p) & 255)];
        DeviceBuffer d_keys((n + offset) * sizeof(uint32_t));
        upload(d_keys.as<uint32_t>() + offset, keys.data(), n * sizeof(uint32_t));
        for (const char* kernel : {"v06", "v09-16", "v09-32"}) {
          const size_t smem = std::string(kernel) == "v09-32"   ? size_t(128) << 10
                              : std::string(kernel) == "v09-16" ? size_t(64) << 10
                                                                : 0;
          if (smem > current_smem_per_block_optin()) continue;  // v09 would not pick it here
          DeviceBuffer d_hist(4 * 256 * sizeof(unsigned), /*zero=*/true);
          ASSERT_EQ(sort::digit_histogram(kernel, d_keys.as<const uint32_t>() + offset, n,
                                          d_hist.as<unsigned>()),
                    cudaSuccess);
          std::vector<unsigned> got(4 * 256);
          ASSERT_EQ(cudaMemcpy(got.data(), d_hist.get(), got.size() * sizeof(unsigned),
                               cudaMemcpyDefault),
                    cudaSuccess);
          ASSERT_EQ(got, want) << kernel << " on " << dist << ", n = " << n
                               << ", offset = " << offset;
        }
      }
    }
  }
}

}  // namespace ladder

namespace ladder {
namespace {

// The elementwise inputs the GPU generates (generate_on_device, what every elementwise Runner
// reads) are bit for bit the host's generate(): the check regenerates each element on the host
// from the same (seed, distribution, index), so any difference would judge an output against an
// input the kernel never read. Every kind, both types, every distribution; sizes around the
// specials' periods 61 and 67 and past one grid-stride step; arrays starting at element 0 and 3.
template <typename T>
void expect_device_inputs_are_the_hosts(elementwise::Kind kind, const std::string& dist, size_t n,
                                        size_t offset) {
  const uint64_t seed = 0x5eed + n;
  const auto view = elementwise::input_view<T>(kind, n, dist, seed);
  const auto want = elementwise::generate<T>(kind, n, dist, seed);
  const size_t elements = offset + std::max<size_t>(n, 1);
  DeviceBuffer x(elements * sizeof(T)), addend(elements * sizeof(T)), mask(elements);
  for (const DeviceBuffer* b : {&x, &addend, &mask})
    ASSERT_EQ(cudaMemset(b->get(), 0x7b, b->bytes()), cudaSuccess);
  ASSERT_EQ(elementwise::generate_on_device(
                view, x.as<T>() + offset, view.has_addend() ? addend.as<T>() + offset : nullptr,
                view.has_mask() ? mask.as<uint8_t>() + offset : nullptr, test_stream()),
            cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(test_stream()), cudaSuccess);
  // Whole buffers back, as bytes: the `offset` elements before each array must be untouched.
  auto bytes_at = [](const DeviceBuffer& b) {
    std::vector<uint8_t> v(b.bytes());
    LADDER_CUDA_TRY(cudaMemcpy(v.data(), b.get(), v.size(), cudaMemcpyDeviceToHost));
    return v;
  };
  auto expected = [&](const void* data, size_t count, size_t size) {
    std::vector<uint8_t> v(elements * size, 0x7b);
    if (count) std::memcpy(v.data() + offset * size, data, count * size);
    return v;
  };
  const std::string what = dist + " n=" + std::to_string(n) + " offset=" + std::to_string(offset) +
                           " fp" + std::to_string(8 * sizeof(T)) + " kind " +
                           std::to_string(static_cast<int>(kind));
  auto first_difference = [](const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
    size_t i = 0;
    while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
    return i;
  };
  const std::vector<uint8_t> gx = bytes_at(x), wx = expected(want.x.data(), n, sizeof(T));
  EXPECT_TRUE(gx == wx) << what << ": x differs at byte " << first_difference(gx, wx);
  const std::vector<uint8_t> ga = bytes_at(addend),
                             wa = expected(want.addend.data(), want.addend.size(), sizeof(T));
  EXPECT_TRUE(ga == wa) << what << ": addend differs at byte " << first_difference(ga, wa);
  const std::vector<uint8_t> gm = bytes_at(mask),
                             wm = expected(want.mask.data(), want.mask.size(), 1);
  EXPECT_TRUE(gm == wm) << what << ": mask differs at byte " << first_difference(gm, wm);
}

TEST(ElementwiseInputs, GpuGeneratesTheHostsValues) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  using elementwise::Kind;
  for (const Kind kind : {Kind::kGelu, Kind::kFused, Kind::kAdd}) {
    const auto dists =
        kind == Kind::kFused ? elementwise::fused_distributions() : elementwise::distributions();
    for (const std::string& d : dists)
      for (const size_t n : {size_t(0), size_t(1), size_t(61 * 67 + 5), (size_t(1) << 20) + 7})
        for (const size_t offset : {size_t(0), size_t(3)}) {
          expect_device_inputs_are_the_hosts<float>(kind, d, n, offset);
          expect_device_inputs_are_the_hosts<__half>(kind, d, n, offset);
        }
  }
}

// The GPU's digest of an output is the host's digest of the same bytes (the verdict reuse
// compares digests computed on either side), at lengths with and without a tail of bytes past
// the last whole 8-byte word; and one flipped bit, in a word or in the tail, changes it.
TEST(DeviceDigest, EqualsTheHostDigestAndSeesOneBit) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  for (const size_t bytes : {size_t(0), size_t(5), size_t(8), size_t(4096 + 3),
                             (size_t(1) << 22) + 6, size_t(1) << 24}) {
    std::vector<unsigned char> host(bytes);
    SplitMix64 rng(bytes + 1);
    for (unsigned char& b : host) b = static_cast<unsigned char>(rng.next());
    DeviceBuffer dev(std::max<size_t>(bytes, 1));
    upload(dev.get(), host.data(), bytes);
    const uint64_t want = digest(host.data(), bytes);
    EXPECT_EQ(device_digest(dev.get(), bytes, nullptr), want) << bytes;
    for (const size_t at : {size_t(0), bytes / 2, bytes - 1}) {
      if (bytes == 0) break;
      std::vector<unsigned char> flipped = host;
      flipped[at] ^= 0x10;
      upload(dev.get(), flipped.data(), bytes);
      EXPECT_NE(device_digest(dev.get(), bytes, nullptr), want) << bytes << " at " << at;
      EXPECT_EQ(device_digest(dev.get(), bytes, nullptr), digest(flipped.data(), bytes));
    }
  }
}

}  // namespace
}  // namespace ladder
