// copy_if/lab/count_lookahead.cu — what the pipelined look-ahead does, counted. Not part of the
// binary. Runs copy_if/lab/pipelined_lookahead.cuh's look-ahead policies, compiled with
// LADDER_LAB_LOOKAHEAD_COUNTS, in six forms as v10's kernel (v10's look-ahead in the lab's code, no
// overlap; the overlap with its own tile's count from the reduce warps; the overlap with its own
// tile's status; the patient look-ahead waiting for its own tile's reduce, sleeping about 300 ns
// after a short pass, and both), one counted launch each after a warm-up, and prints a claim's
// passes and how many early passes (a next claim's first pass, issued before the current claim's
// was summed) reached their claim's tile. Every launch's output is checked against CUB's
// DeviceSelect::If on the same input (count and elements); a control (CUB's output with one element
// changed, compared with CUB's) must mismatch: it shows the comparison can fail, not that a wrong
// launch would be caught. Inputs: a hash of the index decides whether an element is kept (1%, 50%,
// 99%). Build: nvcc -O3 -std=c++17 -arch=sm_90 -I. -DLADDER_LAB_LOOKAHEAD_COUNTS
//        copy_if/lab/count_lookahead.cu common/device.cu -o count_lookahead
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <cub/device/device_select.cuh>
#include <vector>

#include "copy_if/lab/pipelined_lookahead.cuh"

using namespace ladder::copy_if;

namespace {

__host__ __device__ uint32_t mix(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

__global__ void fill(int32_t* in, size_t n, unsigned keep_permille) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    const uint32_t h = mix(uint32_t(i) * 2654435761U + 12345U);
    const int32_t v = int32_t(mix(h) >> 2) + 1;  // 1 .. 2^30
    in[i] = h % 1000 < keep_permille ? v : -v;
  }
}

using Launch = cudaError_t (*)(const int32_t*, int32_t*, unsigned long long*, size_t, void*,
                               cudaStream_t);

template <bool WAIT, unsigned NS>
cudaError_t patient(const int32_t* in, int32_t* out, unsigned long long* count, size_t n, void* ws,
                    cudaStream_t st) {
  return v10::launch_with<lab_pipelined::PatientLookAhead<WAIT, NS>>(in, out, count, n, ws, st);
}

template <bool OWN, bool PIPE>
cudaError_t form(const int32_t* in, int32_t* out, unsigned long long* count, size_t n, void* ws,
                 cudaStream_t st) {
  return v10::launch_with<lab_pipelined::PipelinedLookAhead<OWN, PIPE>>(in, out, count, n, ws, st);
}

}  // namespace

int main() {
  const size_t max_n = size_t(1) << 28;
  int32_t *in, *out, *want;
  unsigned long long *count, *want_count;
  void* ws[6];
  if (cudaMalloc(&in, max_n * 4) || cudaMalloc(&out, max_n * 4) || cudaMalloc(&want, max_n * 4) ||
      cudaMalloc(&count, 8) || cudaMalloc(&want_count, 8)) {
    printf("cudaMalloc failed\n");
    return 1;
  }
  for (void*& w : ws) {
    if (cudaMalloc(&w, v10::workspace_bytes(max_n))) return 1;
    cudaMemset(w, 0, v10::workspace_bytes(max_n));  // once: v10's contract
  }
  size_t cub_bytes = 0;
  cub::DeviceSelect::If(nullptr, cub_bytes, in, want, want_count, int64_t(max_n), KeepPositive{});
  void* cub_tmp;
  cudaMalloc(&cub_tmp, cub_bytes);
  const struct {
    const char* name;
    Launch run;
  } forms[] = {{"no overlap (v10's look-ahead, 32-bit)", form<false, false>},
               {"overlap, own count from the reduce", form<true, true>},
               {"overlap, own tile's status", form<false, true>},
               {"first pass once the own tile is reduced", patient<true, 0>},
               {"300 ns asleep after a short pass", patient<false, 300>},
               {"both", patient<true, 300>}};
  const struct {
    size_t n;
    unsigned permille;
    const char* name;
  } inputs[] = {{max_n, 10, "2^28, keep1"},
                {max_n, 500, "2^28, keep50"},
                {max_n, 990, "2^28, keep99"},
                {size_t(1) << 24, 500, "2^24, keep50"}};
  std::vector<int32_t> h_out(max_n), h_want(max_n);
  int failures = 0;
  for (const auto& x : inputs) {
    fill<<<1024, 256>>>(in, x.n, x.permille);
    size_t b = cub_bytes;
    cub::DeviceSelect::If(cub_tmp, b, in, want, want_count, int64_t(x.n), KeepPositive{});
    unsigned long long kept = 0;
    cudaMemcpy(&kept, want_count, 8, cudaMemcpyDefault);
    cudaMemcpy(h_want.data(), want, kept * 4, cudaMemcpyDefault);
    {  // the control: one element changed must mismatch
      std::vector<int32_t> bad(h_want.begin(), h_want.begin() + kept);
      bad[kept / 2] += 1;
      const bool caught = memcmp(bad.data(), h_want.data(), kept * 4) != 0;
      printf("%s: kept %llu; control %s\n", x.name, kept, caught ? "mismatched" : "MATCHED");
      failures += !caught;
    }
    for (unsigned f = 0; f < 6; ++f) {
      forms[f].run(in, out, count, x.n, ws[f], 0);  // warm-up
      const unsigned long long zero[4] = {0, 0, 0, 0};
      cudaMemcpyToSymbol(lab_pipelined::lab_lookahead_counts, zero, sizeof zero);
      const cudaError_t e = forms[f].run(in, out, count, x.n, ws[f], 0);
      const cudaError_t s = cudaDeviceSynchronize();
      unsigned long long c[4], got = 0;
      cudaMemcpyFromSymbol(c, lab_pipelined::lab_lookahead_counts, sizeof c);
      cudaMemcpy(&got, count, 8, cudaMemcpyDefault);
      cudaMemcpy(h_out.data(), out, kept * 4, cudaMemcpyDefault);
      const bool ok = e == cudaSuccess && s == cudaSuccess && got == kept &&
                      memcmp(h_out.data(), h_want.data(), kept * 4) == 0;
      failures += !ok;
      printf(
          "  %-40s %s; claims %llu, passes a claim %.3f, early passes a claim %.3f, early passes "
          "that reached their tile %.3f\n",
          forms[f].name, ok ? "right" : "WRONG", c[0], double(c[1]) / double(c[0]),
          double(c[2]) / double(c[0]), c[2] ? double(c[3]) / double(c[2]) : 0.0);
    }
  }
  printf("summary: %d failures\n", failures);
  return failures != 0;
}
