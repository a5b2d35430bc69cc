// operators.cpp — the list of operators: where the ladders are put together into one catalogue,
// above common/ (which knows no operator). A new ladder adds its header and one line here.
#include "common/registry.h"
#include "copy_if/copy_if.h"
#include "elementwise/elementwise.h"
#include "elementwise/transfer.h"
#include "histogram/histogram.h"
#include "reduce/axis.h"
#include "reduce/reduce.h"
#include "scan/scan.h"
#include "sort/sort.h"

namespace ladder {

const std::vector<Operator>& operators() {
  static const std::vector<Operator> ops = [] {
    std::vector<Operator> v;
    v.push_back(reduce::make_operator());
    v.push_back(reduce::axis::make_rows_operator());
    v.push_back(reduce::axis::make_cols_operator());
    v.push_back(scan::make_operator());
    v.push_back(sort::make_operator());
    v.push_back(sort::make_pairs_operator());
    v.push_back(elementwise::make_gelu_f32());
    v.push_back(elementwise::make_gelu_f16());
    v.push_back(elementwise::make_fused_f32());
    v.push_back(elementwise::make_fused_f16());
    v.push_back(elementwise::make_add_f32());
    v.push_back(elementwise::transfer::make_h2d_operator());
    v.push_back(elementwise::transfer::make_d2h_operator());
    v.push_back(elementwise::transfer::make_host_sum_operator());
    v.push_back(elementwise::transfer::make_pipeline_operator());
    v.push_back(copy_if::make_operator());
    v.push_back(histogram::make_operator_i32());
    v.push_back(histogram::make_operator_u8());
    return v;
  }();
  return ops;
}

}  // namespace ladder
