// common/registry.cpp — look-ups over the catalogue. The list itself, operators(), is defined
// above common/, in operators.cpp at the top of the tree, so that common/ includes no operator.
#include "common/registry.h"

namespace ladder {

const Operator* find_operator(const std::string& name) {
  for (const Operator& op : operators())
    if (op.name == name) return &op;
  return nullptr;
}

}  // namespace ladder
