// reduce/axis.h — reductions along an axis of a row-major float32 matrix [rows, cols]:
// row_sum (out[r] = sum over c of x[r][c]: rows results) and col_sum (out[c] = sum over r of
// x[r][c]: cols results). The building blocks of softmax, layer norm and column statistics.
//
// Host side: the shapes, the generator, the reference, the check and the bytes moved. The
// versions live in reduce/rows/vNN_<slug>.cuh and reduce/cols/vNN_<slug>.cuh and are registered
// in reduce/axis.cu. The ladders come from Paddle's BlockXReduce / BlockYReduce and its
// kLocalMode / kGlobalMode (PaddlePaddle documentation, CUDA Kernel Primitive API).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/registry.h"

namespace ladder::reduce::axis {

// The contract every axis version's launcher meets:
//   in     device pointer to rows * cols floats, row-major (x[r][c] = in[r * cols + c]),
//          4-byte aligned (16-byte alignment is NOT assumed)
//   out    device pointer to rows floats (row_sum) or cols floats (col_sum); an empty axis
//          (cols == 0 for row_sum, rows == 0 for col_sum) gives zeros
//   ws     device workspace of workspace_bytes(rows, cols) bytes, zero-filled once by the harness
//   stream every launch goes on it; the launcher never synchronizes
// Returns the launch error, cudaSuccess otherwise.
using Launcher = cudaError_t (*)(const float* in, float* out, size_t rows, size_t cols, void* ws,
                                 cudaStream_t stream);
using WorkspaceFn = size_t (*)(size_t rows, size_t cols);

enum class Axis { kRows, kCols };  // kRows: one sum per row; kCols: one sum per column

struct Shape {
  size_t rows = 0, cols = 0;
  size_t elements() const { return rows * cols; }
};

// The input names the matrix's shape; the benchmark size n is its element budget, and the
// matrix uses rows * cols <= n of it (all of it for the benchmark sizes but "square" at 25.6M):
//   "square"   cols = floor(sqrt(n)), rows = n / cols        (2^28: 16,384 x 16,384)
//   "wide"     rows = min(n, 64), cols = n / rows            (2^28: 64 x 4M, a few long rows)
//   "tall"     cols = min(n, 64), rows = n / cols            (2^28: 4M x 64, many short rows)
//   "softmax"  cols = min(n, 4096), rows = min(n / cols, 32,768)  (2^28: 32,768 x 4,096, an
//              attention-score shape; it uses half of the 2^28 budget)
//   "colsK", "rowsK" (K = 1, 31, 33): K columns (or rows), as many rows (columns) as n allows:
//              the edge lengths the tests need
// Every value is -1, 0 or 1 (seeded, uniform over the three): every partial sum is an integer,
// so a sum whose sum of |x| is at most 2^24 is exact in any order and the check compares
// exactly (a dropped or doubled element fails); above that, 2^-16 * sum|x|, as reduce.
std::vector<std::string> distributions();
// Throws std::invalid_argument for an unknown name.
Shape shape_for(size_t n, const std::string& dist);

// count values of the seeded stream (the first rows * cols are the matrix).
std::vector<float> generate(size_t count, uint64_t seed);

struct Reference {
  std::vector<double> sum, abs_sum;  // one per output
};
Reference reference(Axis axis, const float* x, Shape shape);

// Compares got[0, outputs) with the reference: exact where abs_sum <= 2^24, else within
// 2^-16 * abs_sum. NaN or Inf never passes. max_err = the largest |got - want| / abs_sum.
CheckResult check(const Reference& ref, const float* got);

// Minimal traffic: the matrix read once, the results written once.
double bytes_moved(Axis axis, Shape shape);

Operator make_rows_operator();
Operator make_cols_operator();

}  // namespace ladder::reduce::axis
