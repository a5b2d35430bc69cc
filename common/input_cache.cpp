// common/input_cache.cpp — the process's input cache (common/input_cache.h).
#include "common/input_cache.h"

namespace ladder {

InputCache& input_cache() {
  static InputCache cache(size_t(2) << 30);
  return cache;
}

}  // namespace ladder
