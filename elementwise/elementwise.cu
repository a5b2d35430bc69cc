// elementwise/elementwise.cu — the elementwise operators' registry and their Runner.
//
// One ladder of version files, instantiated for five operators (see elementwise.h). The fp32
// operators skip v04, the half2 rung, which has nothing to pair.
#include <algorithm>
#include <limits>

#include "common/device.h"
#include "common/input_cache.h"
#include "elementwise/cub_baseline.cuh"
#include "elementwise/elementwise.h"
#include "elementwise/v00_serial.cuh"
#include "elementwise/v01_one_per_thread.cuh"
#include "elementwise/v02_grid_stride.cuh"
#include "elementwise/v03_vectorized.cuh"
#include "elementwise/v04_half2.cuh"
#include "elementwise/v05_primitives.cuh"
#include "elementwise/v06_constant_bias.cuh"
#include "elementwise/v07_fastdivmod_broadcast.cuh"
#include "elementwise/v08_bulk_copy.cuh"
#include "elementwise/v09_size_dispatch.cuh"
// Your own rungs' files (a reader's, not yet the ladder's): elementwise/mine.inc, first part.
#define LADDER_MINE_FILES
#include "elementwise/mine.inc"
#undef LADDER_MINE_FILES

namespace ladder::elementwise {
namespace {

// Fills x, addend and mask with the inputs' elements (inputs.cuh), the same functions the host's
// InputView calls: one thread per element and step of a grid-stride loop.
template <typename T>
__global__ void generate_kernel(Dist dist, uint64_t seed, size_t n, T* x, T* addend,
                                uint8_t* mask) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    x[i] = inputs::x_at<T>(dist, seed, i);
    if (addend) addend[i] = inputs::addend_at<T>(dist, seed, n, i);
    if (mask) mask[i] = inputs::mask_at(seed, n, i);
  }
}

// One problem's inputs: generated on the device, regenerated element by element on the host by
// the check (the view keeps only the bias). Every device array starts `offset` elements past an
// aligned allocation (the output too), as a sub-view would.
template <typename T>
struct Data {
  Problem problem;
  InputView<T> view;
  DeviceBuffer x, addend, mask, bias;
  size_t bytes() const {
    return view.bias.size() * sizeof(T) + x.bytes() + addend.bytes() + mask.bytes() + bias.bytes();
  }
};

// Device bytes of a problem's input arrays (x; the addend and the mask of the fused operators;
// add's second operand) and of its output.
template <typename T>
size_t io_bytes(Kind kind, const Problem& p) {
  const size_t arrays = kind == Kind::kGelu ? 2 : 3;  // x (+ addend or y) + the output
  const size_t mask = kind == Kind::kFused ? p.offset + p.n : 0;
  return (p.offset + p.n) * sizeof(T) * arrays + mask + kBiasSize * sizeof(T);
}

template <typename T>
std::shared_ptr<const Data<T>> data_for(Kind kind, const Problem& p) {
  const std::string variant =
      std::to_string(static_cast<int>(kind)) + "/" + std::to_string(sizeof(T));
  return input_cache().get<Data<T>>({"elementwise", variant, p}, [&] {
    auto d = std::make_shared<Data<T>>();
    d->problem = p;
    d->view = input_view<T>(kind, p.n, p.dist, p.seed);  // an unknown distribution throws here
    if (p.n > 0) {
      const size_t elements = p.offset + p.n;
      d->x = DeviceBuffer(elements * sizeof(T));
      T* addend = nullptr;
      uint8_t* mask = nullptr;
      if (d->view.has_addend()) {
        d->addend = DeviceBuffer(elements * sizeof(T));
        addend = d->addend.template as<T>() + p.offset;
      }
      if (d->view.has_mask()) {
        d->mask = DeviceBuffer(elements);
        mask = d->mask.template as<uint8_t>() + p.offset;
      }
      // On the legacy default stream, then waited for: the benchmark's streams are non-blocking
      // and would not wait for it.
      LADDER_CUDA_TRY(
          generate_on_device(d->view, d->x.template as<T>() + p.offset, addend, mask, nullptr));
      LADDER_CUDA_TRY(cudaStreamSynchronize(nullptr));
    }
    if (!d->view.bias.empty()) {
      d->bias = DeviceBuffer(d->view.bias.size() * sizeof(T));
      upload(d->bias.get(), d->view.bias.data(), d->bias.bytes());
    }
    return d;
  });
}

template <typename T>
class ElementwiseRunner final : public Runner {
 public:
  ElementwiseRunner(Kind kind, const Problem& p, Launcher<T> launcher)
      : data_(data_for<T>(kind, p)),
        launcher_(launcher),
        out_((p.offset + std::max<size_t>(p.n, 1)) * sizeof(T)) {
    const size_t off = p.offset;
    args_.x = data_->x.template as<const T>() + off;
    if (data_->addend.get()) args_.addend = data_->addend.template as<const T>() + off;
    if (data_->mask.get()) args_.mask = data_->mask.template as<const uint8_t>() + off;
    if (data_->bias.get()) {
      args_.bias = data_->bias.template as<const T>();
      args_.bias_size = static_cast<int>(data_->view.bias.size());
    }
  }

  size_t workspace_bytes() const override { return 0; }

  // 0x7b bytes: a finite value (1.3e36 in fp32, 61280 in fp16) that no input here produces, so
  // an element left unwritten fails even where the right answer is NaN.
  void poison(cudaStream_t stream) override {
    LADDER_CUDA_TRY(cudaMemsetAsync(out_.get(), 0x7b, out_.bytes(), stream));
  }

  std::vector<std::pair<const void*, size_t>> outputs() const override {
    return {{out_.get(), out_.bytes()}};
  }

  cudaError_t launch(cudaStream_t stream) override {
    return launcher_(args_, out(), data_->problem.n, stream);
  }

  // Downloads the whole output and checks it on every core (the double-precision reference
  // of 2^28 GELUs takes seconds on one); the first failure by index is reported.
  CheckResult check(cudaStream_t stream) override {
    LADDER_CUDA_TRY(cudaStreamSynchronize(stream));
    const size_t n = data_->problem.n;
    const T* got = download(static_cast<const T*>(out()), n);
    return check_all(data_->view, got);
  }

 private:
  T* out() const { return out_.template as<T>() + data_->problem.offset; }

  std::shared_ptr<const Data<T>> data_;
  Launcher<T> launcher_;
  Args<T> args_;
  DeviceBuffer out_;
};

template <typename T>
Version entry(const char* op, Kind kind, const VersionDoc& doc, Launcher<T> launcher,
              size_t max_n = std::numeric_limits<size_t>::max()) {
  Version v;
  v.op = op;
  v.doc = doc;
  v.baseline = doc.index < 0;
  v.max_n = max_n;
  v.make = [kind, launcher](const Problem& p) -> std::unique_ptr<Runner> {
    return std::make_unique<ElementwiseRunner<T>>(kind, p, launcher);
  };
  v.device_bytes = [kind](const Problem& p) { return io_bytes<T>(kind, p); };
  return v;
}

template <Kind K, typename T>
Operator make(const char* name, const char* description, const char* bytes) {
  Operator op;
  op.name = name;
  op.description = description;
  op.bytes_formula = bytes;
  op.bytes_moved = [](size_t n) { return bytes_moved(K, sizeof(T), n); };
  op.distributions = distributions();
  op.test_sizes = {0, 1, 7, 31, 33, 1000, (1u << 20) + 7, kLadderSize};
  op.versions = {
      entry<T>(name, K, v00::kDoc, v00::launch<K, T>, v00::kMaxN),
      entry<T>(name, K, v01::kDoc, v01::launch<K, T>),
      entry<T>(name, K, v02::kDoc, v02::launch<K, T>),
      entry<T>(name, K, v03::kDoc, v03::launch<K, T>),
  };
  if constexpr (sizeof(T) == 2) op.versions.push_back(entry<T>(name, K, v04::kDoc, v04::launch<K>));
  op.versions.push_back(entry<T>(name, K, v05::kDoc, v05::launch<K, T>));
  if constexpr (K == Kind::kFused) {  // the bias read: constant memory, then FastDivMod
    op.versions.push_back(entry<T>(name, K, v06::kDoc, v06::launch<K, T>));
    op.versions.push_back(entry<T>(name, K, v07::kDoc, v07::launch<K, T>));
    op.distributions = fused_distributions();
    op.bench_distributions = {"uniform", "bias1000"};
  }
  if constexpr (K == Kind::kAdd && sizeof(T) == 4) {  // two input streams: bulk copies
    op.versions.push_back(hopper_only(entry<T>(name, K, v08::kDoc, v08::launch<K, T>)));
    op.versions.push_back(
        with_dispatch(entry<T>(name, K, v09::kDoc, v09::launch<K, T>), v09::dispatch_bounds));
  }
  // Your own rungs, after the ladder's top rung: elementwise/mine.inc, second part.
  for (Version& v : std::vector<Version>{
#include "elementwise/mine.inc"
       })
    op.versions.push_back(std::move(v));
  op.versions.push_back(entry<T>(name, K, cub_baseline::kDoc, cub_baseline::launch<K, T>));
  if constexpr (sizeof(T) == 2)
    op.versions.push_back(
        entry<T>(name, K, cub_baseline::kFloatMathDoc, cub_baseline::launch_float_math<K, T>));
  if constexpr (K == Kind::kFused)
    op.versions.push_back(
        entry<T>(name, K, cub_baseline::kUnfusedDoc, cub_baseline::launch_unfused<K, T>));
  return op;
}

}  // namespace

template <typename T>
cudaError_t generate_on_device(const InputView<T>& in, T* x, T* addend, uint8_t* mask,
                               cudaStream_t stream) {
  if (in.n == 0) return cudaSuccess;
  constexpr int kThreads = 256;
  const size_t blocks = std::min<size_t>((in.n + kThreads - 1) / kThreads, size_t(1) << 16);
  generate_kernel<T><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      in.dist, in.seed, in.n, x, in.has_addend() ? addend : nullptr,
      in.has_mask() ? mask : nullptr);
  return cudaGetLastError();
}
template cudaError_t generate_on_device<float>(const InputView<float>&, float*, float*, uint8_t*,
                                               cudaStream_t);
template cudaError_t generate_on_device<__half>(const InputView<__half>&, __half*, __half*,
                                                uint8_t*, cudaStream_t);

Operator make_gelu_f32() {
  return make<Kind::kGelu, float>("gelu_f32", "GELU (tanh approximation) of n float32 values",
                                  "8n (x read, y written)");
}
Operator make_gelu_f16() {
  return make<Kind::kGelu, __half>("gelu_f16", "GELU (tanh approximation) of n float16 values",
                                   "4n (x read, y written)");
}
Operator make_fused_f32() {
  return make<Kind::kFused, float>(
      "fused_f32",
      "y = (x + bias[i % b]) * mask[i] * scale + addend[i], float32, uint8 mask, b = 1024 "
      "(1000 on input bias1000)",
      "13n + 4096 (x, addend, y: 4 bytes each; mask: 1 byte; bias once)");
}
Operator make_fused_f16() {
  return make<Kind::kFused, __half>(
      "fused_f16",
      "y = (x + bias[i % b]) * mask[i] * scale + addend[i], float16, uint8 mask, b = 1024 "
      "(1000 on input bias1000)",
      "7n + 2048 (x, addend, y: 2 bytes each; mask: 1 byte; bias once)");
}
Operator make_add_f32() {
  return make<Kind::kAdd, float>("add_f32", "y = x + addend, n float32 values",
                                 "12n (two inputs read, one output written)");
}

}  // namespace ladder::elementwise
