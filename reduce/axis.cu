// reduce/axis.cu — the row_sum and col_sum ladders' registries and their Runner.
//
// Every version file is included here and listed once, in ladder order; the benchmark, the
// tests and `cuda-ladder --list` all read these lists.
#include <algorithm>
#include <limits>

#include "common/device.h"
#include "common/input_cache.h"
#include "reduce/axis.h"
#include "reduce/cols/cublas_baseline.cuh"
#include "reduce/cols/v00_serial.cuh"
#include "reduce/cols/v01_thread_per_column.cuh"
#include "reduce/cols/v02_block_y_reduce.cuh"
#include "reduce/cols/v03_split_rows.cuh"
#include "reduce/cols/v04_last_block.cuh"
#include "reduce/rows/cub_baseline.cuh"
#include "reduce/rows/v00_serial.cuh"
#include "reduce/rows/v01_thread_per_row.cuh"
#include "reduce/rows/v02_warp_per_row.cuh"
#include "reduce/rows/v03_block_per_row.cuh"
#include "reduce/rows/v04_shape_dispatch.cuh"
#include "reduce/rows/v05_row_tiles.cuh"

namespace ladder::reduce::axis {
namespace {

// One problem's matrix on the device, with its references for both axes, shared through the
// input cache by every version of row_sum and col_sum that runs on it (the matrix depends only
// on the shape and the seed, so the two ladders read the same one).
struct Data {
  Problem problem;
  Shape shape;
  Reference rows, cols;
  DeviceBuffer input;
  size_t bytes() const { return input.bytes(); }
  const Reference& ref(Axis axis) const { return axis == Axis::kRows ? rows : cols; }
};

std::shared_ptr<const Data> data_for(const Problem& p) {
  return input_cache().get<Data>({"axis", "matrix", p}, [&] {
    auto d = std::make_shared<Data>();
    d->problem = p;
    d->shape = shape_for(p.n, p.dist);  // an unknown input throws before any allocation
    d->input = DeviceBuffer((p.offset + d->shape.elements()) * sizeof(float));
    const std::vector<float> x = generate(d->shape.elements(), p.seed);
    d->rows = reference(Axis::kRows, x.data(), d->shape);
    d->cols = reference(Axis::kCols, x.data(), d->shape);
    upload(d->input.as<float>() + p.offset, x.data(), x.size() * sizeof(float));
    return d;
  });
}

class AxisRunner final : public Runner {
 public:
  AxisRunner(Axis axis, const Problem& p, Launcher launcher, WorkspaceFn workspace)
      : axis_(axis),
        data_(data_for(p)),
        launcher_(launcher),
        outputs_(axis == Axis::kRows ? data_->shape.rows : data_->shape.cols),
        out_(std::max<size_t>(outputs_, 1) * sizeof(float)),
        workspace_(workspace(data_->shape.rows, data_->shape.cols), /*zero=*/true) {}

  size_t workspace_bytes() const override { return workspace_.bytes(); }
  double bytes_moved() const override { return axis::bytes_moved(axis_, data_->shape); }

  void poison(cudaStream_t stream) override {
    LADDER_CUDA_TRY(cudaMemsetAsync(out_.get(), 0xff, out_.bytes(), stream));  // NaN bits
  }

  cudaError_t launch(cudaStream_t stream) override {
    return launcher_(data_->input.as<const float>() + data_->problem.offset, out_.as<float>(),
                     data_->shape.rows, data_->shape.cols, workspace_.get(), stream);
  }

  CheckResult check(cudaStream_t stream) override {
    LADDER_CUDA_TRY(cudaStreamSynchronize(stream));
    std::vector<float> got(outputs_);
    LADDER_CUDA_TRY(
        cudaMemcpy(got.data(), out_.get(), outputs_ * sizeof(float), cudaMemcpyDefault));
    return axis::check(data_->ref(axis_), got.data());
  }

 private:
  Axis axis_;
  std::shared_ptr<const Data> data_;
  Launcher launcher_;
  size_t outputs_;
  DeviceBuffer out_;
  DeviceBuffer workspace_;
};

Version entry(const char* op, Axis axis, const VersionDoc& doc, Launcher launcher,
              WorkspaceFn workspace, size_t max_n = std::numeric_limits<size_t>::max()) {
  Version v;
  v.op = op;
  v.doc = doc;
  v.baseline = doc.index < 0;
  v.max_n = max_n;
  v.make = [axis, launcher, workspace](const Problem& p) -> std::unique_ptr<Runner> {
    return std::make_unique<AxisRunner>(axis, p, launcher, workspace);
  };
  v.device_bytes = [axis, workspace](const Problem& p) {
    const Shape shape = shape_for(p.n, p.dist);
    return (p.offset + shape.elements()) * sizeof(float) + workspace(shape.rows, shape.cols) +
           std::max<size_t>(axis == Axis::kRows ? shape.rows : shape.cols, 1) * sizeof(float);
  };
  return v;
}

Operator make(const char* name, const char* description, const char* bytes) {
  Operator op;
  op.name = name;
  op.description = description;
  op.bytes_formula = bytes;
  op.bytes_moved = [](size_t n) { return 4.0 * static_cast<double>(n); };  // nominal: n read
  op.distributions = distributions();
  op.bench_distributions = {"square", "wide", "tall", "softmax"};
  op.test_sizes = {0,  1,    31,   32,
                   33, 1000, 4096, (1u << 20) + 7};  // the benchmark checks 25.6M, 2^28
  // At 2^31 + 17: one row of 2,147,483,665 and as many rows of one, both past 2^31 elements
  op.huge_distributions = {"rows1", "cols1"};
  return op;
}

}  // namespace

Operator make_rows_operator() {
  Operator op = make("row_sum", "row sums of a row-major float32 matrix (rows results)",
                     "4 rows cols + 4 rows (the matrix read once, the sums written once)");
  const char* s = "row_sum";
  const Axis a = Axis::kRows;
  op.versions = {
      entry(s, a, rows::v00::kDoc, rows::v00::launch, rows::v00::workspace_bytes, rows::v00::kMaxN),
      entry(s, a, rows::v01::kDoc, rows::v01::launch, rows::v01::workspace_bytes),
      entry(s, a, rows::v02::kDoc, rows::v02::launch, rows::v02::workspace_bytes),
      entry(s, a, rows::v03::kDoc, rows::v03::launch, rows::v03::workspace_bytes),
      entry(s, a, rows::v04::kDoc, rows::v04::launch, rows::v04::workspace_bytes),
      with_dispatch(entry(s, a, rows::v05::kDoc, rows::v05::launch, rows::v05::workspace_bytes),
                    rows::v05::dispatch_bounds),
      entry(s, a, rows::cub_baseline::kDoc, rows::cub_baseline::launch,
            rows::cub_baseline::workspace_bytes),
  };
  return op;
}

Operator make_cols_operator() {
  Operator op = make("col_sum", "column sums of a row-major float32 matrix (cols results)",
                     "4 rows cols + 4 cols (the matrix read once, the sums written once)");
  const char* s = "col_sum";
  const Axis a = Axis::kCols;
  op.versions = {
      entry(s, a, cols::v00::kDoc, cols::v00::launch, cols::v00::workspace_bytes, cols::v00::kMaxN),
      entry(s, a, cols::v01::kDoc, cols::v01::launch, cols::v01::workspace_bytes),
      entry(s, a, cols::v02::kDoc, cols::v02::launch, cols::v02::workspace_bytes),
      entry(s, a, cols::v03::kDoc, cols::v03::launch, cols::v03::workspace_bytes),
      entry(s, a, cols::v04::kDoc, cols::v04::launch, cols::v04::workspace_bytes),
      entry(s, a, cols::cublas_baseline::kDoc, cols::cublas_baseline::launch,
            cols::cublas_baseline::workspace_bytes, size_t(INT_MAX)),
  };
  return op;
}

}  // namespace ladder::reduce::axis
