// tests/test_versions.cpp — every registered version of every operator, on the operator's edge
// sizes and every input distribution, against the CPU reference. Driven by the registry: a new
// version is tested by being registered. Needs a GPU; without one every case skips.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <iostream>
#include <string>
#include <vector>

#include "common/device.h"
#include "common/registry.h"

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
    if (device_count(&why) == 0)
      std::cout << "no CUDA device: skipping all GPU tests (" << why << ")" << std::endl;
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

}  // namespace
}  // namespace ladder
