// elementwise/transfer.h — where a user's data starts: host memory. Benchmarks of the copies
// between host and GPU, of kernels that read host memory in place, and of an elementwise job
// over a host array done serially and overlapped across streams (CUDA C++ Programming Guide,
// "Page-Locked Host Memory" and "Asynchronous Concurrent Execution"). They are part 2 of the
// elementwise chapter.
//
// Four operators, each a small ladder over one idea (the memory kind, the number of streams):
//   h2d            copy n float32 host -> GPU       (pageable, pinned, write-combined host memory)
//   d2h            copy n float32 GPU -> host       (the same three)
//   host_sum       sum of n float32 that live in host memory: copy then reduce, zero-copy
//                  (mapped pinned memory read by the kernel), managed memory with and without
//                  a prefetch
//   pipeline_gelu  y = GELU(x), x and y in pinned host memory (1 GiB each at 2^28): copy in,
//                  compute, copy out, on 1, 2, 4 and 8 streams
// Their "GB/s" is bytes over the host link (4n for a copy or a sum, 8n for the pipeline); the
// JSON's % of the copy ceiling compares with the GPU's own memory, not with the link, so
// scripts/report.py tabulates them as % of the link's bound instead (the run measures the link
// first: context link_h2d_pinned_gbps, link_d2h_pinned_gbps).
#pragma once

#include "common/registry.h"

namespace ladder::elementwise::transfer {

// The copies' check: got[0, n) equals want[0, n) bit for bit (a copy changes nothing, not even
// the sign of a zero or a NaN's payload). On failure, the message names the first differing
// index and the count; max_err is that count.
CheckResult compare_exact(const float* got, const float* want, size_t n);

Operator make_h2d_operator();
Operator make_d2h_operator();
Operator make_host_sum_operator();
Operator make_pipeline_operator();

}  // namespace ladder::elementwise::transfer
