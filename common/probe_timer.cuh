// common/probe_timer.cuh — what the standalone tuning probes (*/lab/probe_*.cu) share: timing
// work the way the benchmark times it, and counting where two arrays differ. Not part of the
// binary; each probe compiles it with `nvcc -I. ... common/device.cu`.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include "common/device.h"

namespace ladder::probe_timing {

// Times work on one stream as common/bench.cpp times a benchmark: the L2 flushed (a read of
// twice its size), then the stream held by a blocking kernel (StreamBlocker) while the start
// event, the work and the stop event are enqueued, then released, so the interval between the
// events is GPU time alone. median_us runs the work once untimed (loads, first-call setup), then
// `reps` timed runs, and returns their median in microseconds. `before` (optional) is enqueued
// ahead of the flush on every run, outside the timed interval (for example a workspace clear that
// a variant wants out of the measurement); `after_flush` (optional, median_us_warmed) after the
// flush, also outside it (for example a read that puts a variant's own data back in L2, as the
// work before it would have left it). Device 0, as the probes use.
class Timer {
 public:
  explicit Timer(cudaStream_t stream) : stream_(stream), flusher_(query_device(0).l2_bytes) {
    cudaEventCreate(&start_);
    cudaEventCreate(&stop_);
  }
  ~Timer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;

  cudaStream_t stream() const { return stream_; }

  template <typename Run, typename Before, typename AfterFlush>
  float median_us_warmed(Run&& run, Before&& before, AfterFlush&& after_flush, int reps = 31) {
    before();
    run();
    std::vector<float> t;
    for (int r = 0; r < reps; ++r) {
      before();
      flusher_.flush(stream_);
      after_flush();
      blocker_.block(stream_);
      cudaEventRecord(start_, stream_);
      run();
      cudaEventRecord(stop_, stream_);
      blocker_.release();
      cudaEventSynchronize(stop_);
      float ms = 0;
      cudaEventElapsedTime(&ms, start_, stop_);
      t.push_back(ms * 1000);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
  }
  template <typename Run, typename Before>
  float median_us(Run&& run, Before&& before, int reps = 31) {
    return median_us_warmed(
        run, before, [] {}, reps);
  }
  template <typename Run>
  float median_us(Run&& run, int reps = 31) {
    return median_us(
        run, [] {}, reps);
  }

 private:
  cudaStream_t stream_;
  L2Flusher flusher_;
  StreamBlocker blocker_;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

// Reads `words` 8-byte words at p, so that they sit in L2 afterwards, and adds their XOR to *sink
// only if it equals a sentinel (so that the loads are kept); grid-stride, each word read by one
// thread. touch() enqueues it on `stream`.
static __global__ void touch_kernel(const unsigned long long* p, size_t words,
                                    unsigned long long* sink) {
  unsigned long long x = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < words;
       i += size_t(gridDim.x) * blockDim.x)
    x ^= p[i];
  if (x == 0x5eedull) atomicAdd(sink, x);  // rarely taken; keeps the loads
}
inline void touch(const void* p, size_t bytes, unsigned long long* sink, cudaStream_t stream) {
  const size_t words = bytes / 8;
  if (words)
    touch_kernel<<<264, 256, 0, stream>>>(static_cast<const unsigned long long*>(p), words, sink);
}

// Fills p[0..n) with multiples of 0.25 below 250 drawn from i and `seed` (grid-stride): float
// inputs whose sums are exact, so that every correct kernel's output matches a library's bit for
// bit.
static __global__ void fill_pattern_kernel(float* p, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    p[i] = float((i * 2654435761u + seed) % 1000) * 0.25f;
}
inline void fill_pattern(float* p, size_t n, unsigned seed) {
  fill_pattern_kernel<<<2048, 256>>>(p, n, seed);
}

// Adds to *count the number of i < n with a[i] != b[i] (grid-stride; *count zeroed by the caller).
template <typename T>
__global__ void count_mismatches(const T* a, const T* b, size_t n, unsigned long long* count) {
  unsigned long long c = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    c += a[i] != b[i];
  if (c) atomicAdd(count, c);
}

// The number of i < n with a[i] != b[i], after the work on `stream` is done. `scratch`: one
// device unsigned long long.
template <typename T>
unsigned long long mismatches(const T* a, const T* b, size_t n, unsigned long long* scratch,
                              cudaStream_t stream) {
  cudaStreamSynchronize(stream);
  cudaMemset(scratch, 0, sizeof(*scratch));
  if (n) count_mismatches<<<256, 256>>>(a, b, n, scratch);
  unsigned long long c = 0;
  cudaMemcpy(&c, scratch, sizeof(c), cudaMemcpyDefault);
  return c;
}

}  // namespace ladder::probe_timing
