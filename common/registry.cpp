// common/registry.cpp — the list of operators. A new ladder adds one line here.
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

const Operator* find_operator(const std::string& name) {
  for (const Operator& op : operators())
    if (op.name == name) return &op;
  return nullptr;
}

}  // namespace ladder
