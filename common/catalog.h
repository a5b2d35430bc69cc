// common/catalog.h — `cuda-ladder --list`: the version catalog as JSON (nlohmann/json).
#pragma once

#include <string>
#include <vector>

namespace ladder {

// Every operator (or only `ops`, when not empty) with its versions and their documentation.
std::string catalog_json(const std::vector<std::string>& ops);

}  // namespace ladder
