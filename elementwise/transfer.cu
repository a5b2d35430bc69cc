// elementwise/transfer.cu — the host-memory benchmarks' Runners and registries
// (elementwise/transfer.h). Every variant's doc is in elementwise/transfer/*.cuh.
#include <algorithm>
#include <cstring>
#include <limits>
#include <sstream>
#include <vector>

#include "common/device.h"
#include "common/input_cache.h"
#include "common/parallel.h"             // mismatches, parallel_for
#include "elementwise/cub_baseline.cuh"  // cub_baseline::launch<Kind::kGelu, float>
#include "elementwise/elementwise.h"     // input_view, check_all
#include "elementwise/transfer.h"
#include "elementwise/transfer/copies.cuh"
#include "elementwise/transfer/host_memory.h"
#include "elementwise/transfer/host_sum.cuh"
#include "elementwise/transfer/pipeline.cuh"
#include "elementwise/v05_primitives.cuh"  // v05::launch<Kind::kGelu, float>
#include "reduce/reduce.h"                 // fill, accumulate, check_sum, best_sum, cub_sum

namespace ladder::elementwise::transfer {

CheckResult compare_exact(const float* got, const float* want, size_t n) {
  const Mismatches m = mismatches(reinterpret_cast<const uint32_t*>(got),
                                  reinterpret_cast<const uint32_t*>(want), n);
  CheckResult c;
  c.ok = m.count == 0;
  c.max_err = static_cast<double>(m.count);
  if (!c.ok) {
    std::ostringstream msg;
    msg << "index " << m.first << ": got " << got[m.first] << ", want " << want[m.first] << " ("
        << m.count << " elements differ)";
    c.message = msg.str();
  }
  return c;
}

namespace {

// The input of h2d, d2h and host_sum: n floats as reduce's generator draws them (the same
// values for all three). No n-element copy is kept on the host: each Runner fills its own host
// memory (or its device copy) from the generator, and the checks draw the values again piece by
// piece. The cache keeps only their reference sum.
struct HostInput {
  reduce::Reference ref;
  size_t bytes() const { return sizeof(HostInput); }
};

constexpr size_t kPiece = size_t(1) << 24;  // values drawn at a time where a copy is needed

// body(first, values, count) for consecutive pieces of the problem's values, in order.
template <typename Body>
void for_each_piece(const Problem& p, Body&& body) {
  SplitMix64 rng(p.seed);
  std::vector<float> piece(std::min(p.n, kPiece));
  for (size_t done = 0; done < p.n;) {
    const size_t count = std::min(kPiece, p.n - done);
    reduce::fill(piece.data(), count, p.dist, rng, done);
    body(done, piece.data(), count);
    done += count;
  }
}

// All n values into out (host memory of any kind), on every core.
void fill_values(const Problem& p, float* out) {
  SplitMix64 rng(p.seed);
  reduce::fill(out, p.n, p.dist, rng);
}

// got[0, n) against the values, exactly (compare_exact, with the index in the whole array).
CheckResult compare_to_values(const Problem& p, const float* got) {
  CheckResult total;
  total.ok = true;
  for_each_piece(p, [&](size_t first, const float* want, size_t count) {
    const CheckResult c = compare_exact(got + first, want, count);
    total.max_err += c.max_err;
    if (!c.ok && total.ok) {
      total.ok = false;
      total.message = "at element " + std::to_string(first) + " + " + c.message;
    }
  });
  return total;
}

std::shared_ptr<const HostInput> host_input(const Problem& p) {
  return input_cache().get<HostInput>({"transfer", "x", p}, [&] {
    SplitMix64 check(p.seed);
    reduce::fill(nullptr, 0, p.dist, check);  // an unknown distribution throws, even at n = 0
    auto d = std::make_shared<HostInput>();
    for_each_piece(
        p, [&](size_t, const float* x, size_t count) { reduce::accumulate(d->ref, x, count); });
    return d;
  });
}

// pipeline_gelu's input: GELU's, as a view (elementwise.h): each element made where it is needed,
// no n-element copy kept. Throws std::invalid_argument for an unknown distribution.
InputView<float> gelu_input(const Problem& p) {
  return input_view<float>(Kind::kGelu, p.n, p.dist, p.seed);
}

// ---- h2d and d2h ---------------------------------------------------------------------------

enum class Direction { kToDevice, kToHost };

class CopyRunner final : public Runner {
 public:
  CopyRunner(Direction dir, HostMemory kind, bool synchronous, const Problem& p)
      : dir_(dir),
        synchronous_(synchronous),
        n_(p.n),
        problem_(p),
        device_(std::max<size_t>(p.n, 1) * sizeof(float)),
        host_(kind, p.n * sizeof(float)) {
    host_input(p);  // an unknown distribution throws here
    if (dir == Direction::kToDevice)
      fill_values(p, host_.as<float>());
    else
      for_each_piece(p, [&](size_t first, const float* x, size_t count) {
        upload(device_.as<float>() + first, x, count * sizeof(float));
      });
  }

  size_t workspace_bytes() const override { return 0; }
  double bytes_moved() const override { return 4.0 * static_cast<double>(n_); }

  void poison(cudaStream_t stream) override {
    if (dir_ == Direction::kToDevice) {
      LADDER_CUDA_TRY(cudaMemsetAsync(device_.get(), 0xff, n_ * sizeof(float), stream));
    } else {
      LADDER_CUDA_TRY(cudaStreamSynchronize(stream));  // no copy into host_ is in flight
      std::memset(host_.as<float>(), 0xff, n_ * sizeof(float));
    }
  }

  cudaError_t launch(cudaStream_t stream) override {
    if (n_ == 0) return cudaSuccess;
    const size_t bytes = n_ * sizeof(float);
    const cudaError_t e = dir_ == Direction::kToDevice
                              ? cudaMemcpyAsync(device_.get(), host_.as<float>(), bytes,
                                                cudaMemcpyHostToDevice, stream)
                              : cudaMemcpyAsync(host_.as<float>(), device_.get(), bytes,
                                                cudaMemcpyDeviceToHost, stream);
    // The baseline is the synchronous call: on the benchmark's stream, then waited for.
    return e != cudaSuccess || !synchronous_ ? e : cudaStreamSynchronize(stream);
  }

  CheckResult check(cudaStream_t stream) override {
    LADDER_CUDA_TRY(cudaStreamSynchronize(stream));
    if (dir_ == Direction::kToHost) return compare_to_values(problem_, host_.as<float>());
    return compare_to_values(problem_, download(device_.as<const float>(), n_));
  }

 private:
  Direction dir_;
  bool synchronous_;
  size_t n_;
  Problem problem_;
  DeviceBuffer device_;
  HostBuffer host_;
};

// ---- host_sum --------------------------------------------------------------------------------

enum class SumVariant { kCopyThenReduce, kZeroCopy, kManaged, kManagedPrefetch, kCub };

HostMemory memory_of(SumVariant v) {
  switch (v) {
    case SumVariant::kZeroCopy:
      return HostMemory::kMapped;
    case SumVariant::kManaged:
    case SumVariant::kManagedPrefetch:
      return HostMemory::kManaged;
    default:
      return HostMemory::kPinned;
  }
}

class HostSumRunner final : public Runner {
 public:
  HostSumRunner(SumVariant v, const Problem& p)
      : variant_(v),
        n_(p.n),
        host_(memory_of(v), p.n * sizeof(float)),
        device_(v == SumVariant::kCopyThenReduce || v == SumVariant::kCub
                    ? std::max<size_t>(p.n, 1) * sizeof(float)
                    : 0),
        out_(sizeof(float)),
        workspace_(v == SumVariant::kCub ? reduce::cub_sum_workspace_bytes(p.n)
                                         : reduce::best_sum_workspace_bytes(p.n),
                   /*zero=*/true) {
    ref_ = host_input(p)->ref;
    fill_values(p, host_.as<float>());  // managed: written on the host, so the pages start there
  }

  size_t workspace_bytes() const override { return workspace_.bytes(); }
  double bytes_moved() const override { return 4.0 * static_cast<double>(n_); }

  void poison(cudaStream_t stream) override {
    LADDER_CUDA_TRY(cudaMemsetAsync(out_.get(), 0xff, sizeof(float), stream));  // NaN bits
    to_host(stream);
  }

  // Managed memory: the last launch migrated the pages to the GPU; move them back.
  void before_timed_launch(cudaStream_t stream) override { to_host(stream); }

  cudaError_t launch(cudaStream_t stream) override {
    const size_t bytes = n_ * sizeof(float);
    float* out = out_.as<float>();
    const float* host = host_.as<const float>();
    switch (variant_) {
      case SumVariant::kCopyThenReduce:
      case SumVariant::kCub: {
        if (n_ > 0) {
          const cudaError_t e =
              cudaMemcpyAsync(device_.get(), host, bytes, cudaMemcpyHostToDevice, stream);
          if (e != cudaSuccess) return e;
        }
        const float* in = device_.as<const float>();
        return variant_ == SumVariant::kCub
                   ? reduce::cub_sum(in, out, n_, workspace_.get(), stream)
                   : reduce::best_sum(in, out, n_, workspace_.get(), stream);
      }
      case SumVariant::kManagedPrefetch: {
        if (n_ > 0) {
          int dev = 0;
          cudaError_t e = cudaGetDevice(&dev);
          if (e != cudaSuccess) return e;
          cudaMemLocation to{};
          to.type = cudaMemLocationTypeDevice;
          to.id = dev;
          e = cudaMemPrefetchAsync(host, bytes, to, 0, stream);
          if (e != cudaSuccess) return e;
        }
        return reduce::best_sum(host, out, n_, workspace_.get(), stream);
      }
      default:  // zero-copy and managed: the kernel reads the host pointer
        return reduce::best_sum(host, out, n_, workspace_.get(), stream);
    }
  }

  CheckResult check(cudaStream_t stream) override {
    LADDER_CUDA_TRY(cudaStreamSynchronize(stream));
    float got = 0;
    LADDER_CUDA_TRY(cudaMemcpy(&got, out_.get(), sizeof(float), cudaMemcpyDefault));
    return reduce::check_sum(got, ref_);
  }

 private:
  void to_host(cudaStream_t stream) {
    if (host_.kind() != HostMemory::kManaged || n_ == 0) return;
    cudaMemLocation to{};
    to.type = cudaMemLocationTypeHost;
    to.id = 0;
    LADDER_CUDA_TRY(cudaMemPrefetchAsync(host_.as<float>(), n_ * sizeof(float), to, 0, stream));
    LADDER_CUDA_TRY(cudaStreamSynchronize(stream));
  }

  SumVariant variant_;
  size_t n_;
  HostBuffer host_;
  DeviceBuffer device_;
  DeviceBuffer out_;
  DeviceBuffer workspace_;
  reduce::Reference ref_;
};

// ---- pipeline_gelu ---------------------------------------------------------------------------

// Worker streams and events, made once per process for the current device (a run uses one).
struct Workers {
  static constexpr int kMax = 8;
  cudaStream_t streams[kMax] = {};
  cudaEvent_t fork = nullptr, join[kMax] = {};
};
Workers& workers() {
  static Workers w = [] {
    Workers made;
    for (int i = 0; i < Workers::kMax; ++i) {
      LADDER_CUDA_TRY(cudaStreamCreateWithFlags(&made.streams[i], cudaStreamNonBlocking));
      LADDER_CUDA_TRY(cudaEventCreateWithFlags(&made.join[i], cudaEventDisableTiming));
    }
    LADDER_CUDA_TRY(cudaEventCreateWithFlags(&made.fork, cudaEventDisableTiming));
    return made;
  }();
  return w;
}

class PipelineRunner final : public Runner {
 public:
  // streams: 1 for the serial rung and the baseline; use_cub: the baseline's kernel.
  PipelineRunner(int streams, bool use_cub, const Problem& p)
      : streams_(streams),
        use_cub_(use_cub),
        n_(p.n),
        input_(gelu_input(p)),
        host_in_(HostMemory::kPinned, p.n * sizeof(float)),
        host_out_(HostMemory::kPinned, p.n * sizeof(float)),
        device_in_(std::max<size_t>(p.n, 1) * sizeof(float)),
        device_out_(std::max<size_t>(p.n, 1) * sizeof(float)) {
    float* in = host_in_.as<float>();  // x, generated straight into pinned memory on every core
    parallel_for(n_, [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) in[i] = input_.x(i);
    });
  }

  size_t workspace_bytes() const override { return 0; }
  double bytes_moved() const override { return 8.0 * static_cast<double>(n_); }

  void poison(cudaStream_t stream) override {
    LADDER_CUDA_TRY(cudaStreamSynchronize(stream));  // no copy into host_out_ is in flight
    std::memset(host_out_.as<float>(), 0x7b, n_ * sizeof(float));
    LADDER_CUDA_TRY(cudaMemsetAsync(device_out_.get(), 0x7b, n_ * sizeof(float), stream));
  }

  cudaError_t launch(cudaStream_t stream) override {
    if (n_ == 0) return cudaSuccess;
    if (streams_ <= 1) return chunk(0, n_, stream);
    Workers& w = workers();
    cudaError_t e = cudaEventRecord(w.fork, stream);  // the workers start after what came before
    for (int i = 0; i < streams_ && e == cudaSuccess; ++i)
      e = cudaStreamWaitEvent(w.streams[i], w.fork, 0);
    // 4 chunks per stream, each a multiple of 1024 elements (16-byte aligned starts).
    const size_t chunks = size_t(4) * streams_;
    const size_t size = ceil_div(ceil_div(n_, chunks), 1024) * 1024;
    for (size_t c = 0; c * size < n_ && e == cudaSuccess; ++c)
      e = chunk(c * size, std::min(size, n_ - c * size), w.streams[c % streams_]);
    for (int i = 0; i < streams_ && e == cudaSuccess; ++i) {  // the caller's stream waits for all
      e = cudaEventRecord(w.join[i], w.streams[i]);
      if (e == cudaSuccess) e = cudaStreamWaitEvent(stream, w.join[i], 0);
    }
    return e;
  }

  CheckResult check(cudaStream_t stream) override {
    LADDER_CUDA_TRY(cudaStreamSynchronize(stream));
    return check_all(input_, host_out_.as<const float>());
  }

  // The output lives in pinned host memory: the harness digests it there.
  std::vector<std::pair<const void*, size_t>> outputs() const override {
    return {{host_out_.as<const void>(), n_ * sizeof(float)}};
  }

 private:
  // Copy in, GELU, copy out of elements [first, first + count) on one stream.
  cudaError_t chunk(size_t first, size_t count, cudaStream_t s) {
    const size_t bytes = count * sizeof(float);
    float* din = device_in_.as<float>() + first;
    float* dout = device_out_.as<float>() + first;
    cudaError_t e =
        cudaMemcpyAsync(din, host_in_.as<float>() + first, bytes, cudaMemcpyHostToDevice, s);
    if (e != cudaSuccess) return e;
    Args<float> a;
    a.x = din;
    e = use_cub_ ? cub_baseline::launch<Kind::kGelu, float>(a, dout, count, s)
                 : v05::launch<Kind::kGelu, float>(a, dout, count, s);
    if (e != cudaSuccess) return e;
    return cudaMemcpyAsync(host_out_.as<float>() + first, dout, bytes, cudaMemcpyDeviceToHost, s);
  }

  int streams_;
  bool use_cub_;
  size_t n_;
  InputView<float> input_;
  HostBuffer host_in_, host_out_;
  DeviceBuffer device_in_, device_out_;
};

// ---- registries ------------------------------------------------------------------------------

Version entry(const char* op, const VersionDoc& doc,
              std::function<std::unique_ptr<Runner>(const Problem&)> make,
              bool host_waits = false) {
  Version v;
  v.op = op;
  v.doc = doc;
  v.baseline = doc.index < 0;
  v.host_waits = host_waits;
  v.make = std::move(make);
  return v;
}

Operator base(const char* name, const char* description, const char* formula, double per_element,
              std::vector<std::string> dists) {
  Operator op;
  op.name = name;
  op.description = description;
  op.bytes_formula = formula;
  op.bytes_moved = [per_element](size_t n) { return per_element * static_cast<double>(n); };
  op.distributions = std::move(dists);
  op.test_sizes = {0, 1, 33, 1000, 4096 + 3, (1u << 20) + 7};
  op.bench_sizes = {size_t(1) << 28};  // one 1 GiB float array, the size the lesson is about
  return op;
}

Operator copy_operator(const char* name, Direction dir, const char* description) {
  Operator op =
      base(name, description, "4n (each element crosses the link once)", 4.0, {"uniform"});
  auto make = [dir](HostMemory kind, bool synchronous) {
    return [dir, kind, synchronous](const Problem& p) -> std::unique_ptr<Runner> {
      return std::make_unique<CopyRunner>(dir, kind, synchronous, p);
    };
  };
  op.versions = {
      entry(name, copies::kPageable, make(HostMemory::kPageable, false), /*host_waits=*/true),
      entry(name, copies::kPinned, make(HostMemory::kPinned, false)),
      entry(name, copies::kWriteCombined, make(HostMemory::kWriteCombined, false)),
      entry(name, copies::kMemcpy, make(HostMemory::kPinned, true), /*host_waits=*/true),
  };
  for (Version& v : op.versions)
    v.device_bytes = [](const Problem& p) { return std::max<size_t>(p.n, 1) * sizeof(float); };
  return op;
}

}  // namespace

Operator make_h2d_operator() {
  return copy_operator("h2d", Direction::kToDevice, "copy n float32 from host memory to the GPU");
}

Operator make_d2h_operator() {
  return copy_operator("d2h", Direction::kToHost, "copy n float32 from the GPU to host memory");
}

Operator make_host_sum_operator() {
  Operator op = base("host_sum", "sum of n float32 that live in host memory",
                     "4n (each element crosses the link once)", 4.0, {"uniform", "one_per_256"});
  auto make = [](SumVariant v) {
    return [v](const Problem& p) -> std::unique_ptr<Runner> {
      return std::make_unique<HostSumRunner>(v, p);
    };
  };
  op.versions = {
      entry("host_sum", host_sum::kCopyThenReduce, make(SumVariant::kCopyThenReduce)),
      entry("host_sum", host_sum::kZeroCopy, make(SumVariant::kZeroCopy)),
      entry("host_sum", host_sum::kManaged, make(SumVariant::kManaged)),
      entry("host_sum", host_sum::kManagedPrefetch, make(SumVariant::kManagedPrefetch)),
      entry("host_sum", host_sum::kCub, make(SumVariant::kCub)),
  };
  for (Version& v : op.versions)  // the device copy (copy-then-reduce, CUB) and the workspace
    v.device_bytes = [](const Problem& p) {
      return std::max<size_t>(p.n, 1) * sizeof(float) + sizeof(float) +
             std::max(reduce::cub_sum_workspace_bytes(p.n), reduce::best_sum_workspace_bytes(p.n));
    };
  return op;
}

Operator make_pipeline_operator() {
  Operator op = base("pipeline_gelu",
                     "y = GELU(x) for x, y in pinned host memory: copy in, compute, copy out",
                     "8n (each element crosses the link in and out)", 8.0, {"uniform"});
  auto make = [](int streams, bool use_cub) {
    return [streams, use_cub](const Problem& p) -> std::unique_ptr<Runner> {
      return std::make_unique<PipelineRunner>(streams, use_cub, p);
    };
  };
  op.versions = {
      entry("pipeline_gelu", pipeline::kOneStream, make(1, false)),
      entry("pipeline_gelu", pipeline::kTwoStreams, make(2, false)),
      entry("pipeline_gelu", pipeline::kFourStreams, make(4, false)),
      entry("pipeline_gelu", pipeline::kEightStreams, make(8, false)),
      entry("pipeline_gelu", pipeline::kCub, make(1, true)),
  };
  for (Version& v : op.versions)
    v.device_bytes = [](const Problem& p) { return 2 * std::max<size_t>(p.n, 1) * sizeof(float); };
  return op;
}

}  // namespace ladder::elementwise::transfer
