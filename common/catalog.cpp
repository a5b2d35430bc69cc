// common/catalog.cpp — implementation of common/catalog.h. nlohmann/json stays in .cpp files.
#include "common/catalog.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "common/registry.h"

namespace ladder {

std::string catalog_json(const std::vector<std::string>& ops) {
  nlohmann::ordered_json out;
  out["ladder_size"] = kLadderSize;
  out["large_size"] = kLargeSize;
  out["operators"] = nlohmann::ordered_json::array();
  for (const Operator& op : operators()) {
    if (!ops.empty() && std::find(ops.begin(), ops.end(), op.name) == ops.end()) continue;
    nlohmann::ordered_json o;
    o["name"] = op.name;
    o["description"] = op.description;
    if (!op.variant_of.empty()) o["variant_of"] = op.variant_of;
    o["bytes_moved"] = op.bytes_formula;
    o["distributions"] = op.distributions;
    o["test_sizes"] = op.test_sizes;
    o["versions"] = nlohmann::ordered_json::array();
    for (const Version& v : op.versions) {
      nlohmann::ordered_json j;
      j["name"] = v.name();
      j["index"] = v.doc.index;
      j["slug"] = v.doc.slug;
      j["title"] = v.doc.title;
      j["technique"] = v.doc.technique;
      j["changes"] = v.doc.changes;
      j["remains"] = v.doc.remains;
      j["source"] = v.doc.source;
      j["baseline"] = v.baseline;
      j["yours"] = v.yours;
      j["keeps_order"] = v.keeps_order;
      j["needs_sm90"] = v.needs_sm90;
      j["max_n"] =
          v.max_n == SIZE_MAX ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(v.max_n);
      o["versions"].push_back(j);
    }
    out["operators"].push_back(o);
  }
  return out.dump(2);
}

}  // namespace ladder
