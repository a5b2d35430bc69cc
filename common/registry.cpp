// common/registry.cpp — the list of operators. A new ladder adds one line here.
#include "common/registry.h"

#include "histogram/histogram.h"
#include "reduce/reduce.h"

namespace ladder {

const std::vector<Operator>& operators() {
  static const std::vector<Operator> ops = [] {
    std::vector<Operator> v;
    v.push_back(reduce::make_operator());
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
