// sort/graph_cache.h — the CUDA graphs a sort rung builds once and launches again (sort v15 and
// v16, whose choices between kernels are a graph's conditional nodes). Host code only.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

namespace ladder::sort {

// A rung's built graphs, one for each (device, keys_in, keys_out, ws, n; for pairs values_in and
// values_out too) it was called with: a graph's kernels hold those pointers and sizes, so another
// call needs another graph. The last
// 16 built are kept; building a 17th destroys the oldest (freed once it has run, if it is
// running). Each rung keeps its own cache (its graphs differ for the same arguments; v16 keeps one
// for keys and one for pairs). Not safe to use from two host threads at once.
class GraphCache {
 public:
  // Launches on `stream` the graph for these arguments, built first by
  // build(capture_stream, &exec) -> cudaError_t if this cache has none. Errors: those of the CUDA
  // calls and of build (a graph that could not be built is not kept).
  template <typename Build>
  cudaError_t launch(const void* in, const void* out, const void* ws, size_t n, cudaStream_t stream,
                     Build build) {
    return launch(in, nullptr, out, nullptr, ws, n, stream, build);
  }
  // The same for pairs: vin and vout, the values' pointers (nullptr for keys).
  template <typename Build>
  cudaError_t launch(const void* in, const void* vin, const void* out, const void* vout,
                     const void* ws, size_t n, cudaStream_t stream, Build build) {
    int device = 0;
    cudaError_t e = cudaGetDevice(&device);
    if (e != cudaSuccess) return e;
    cudaGraphExec_t exec = nullptr;
    for (const Entry& c : entries_)
      if (c.device == device && c.in == in && c.vin == vin && c.out == out && c.vout == vout &&
          c.ws == ws && c.n == n)
        exec = c.exec;
    if (!exec) {
      cudaStream_t cs = nullptr;
      if ((e = capture_stream(&cs)) != cudaSuccess) return e;
      if ((e = build(cs, &exec)) != cudaSuccess) return e;
      if (entries_.size() == kKept) {
        cudaGraphExecDestroy(entries_.front().exec);
        entries_.erase(entries_.begin());
      }
      entries_.push_back({device, in, vin, out, vout, ws, n, exec});
    }
    return cudaGraphLaunch(exec, stream);
  }

 private:
  static constexpr size_t kKept = 16;
  struct Entry {
    int device;
    const void *in, *vin, *out, *vout, *ws;
    size_t n;
    cudaGraphExec_t exec;
  };
  // The stream graphs are captured on (one for the process, created on first use).
  static cudaError_t capture_stream(cudaStream_t* cs) {
    static cudaStream_t stream = nullptr;
    cudaError_t e = cudaSuccess;
    if (!stream) e = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    *cs = stream;
    return e;
  }
  std::vector<Entry> entries_;  // the most recently built last
};

}  // namespace ladder::sort
