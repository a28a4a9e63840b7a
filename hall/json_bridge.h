// The engines' own JSON (engines/common/json.h) and nlohmann::json, converted
// through their text form at the hall's edge.
#pragma once

#include <nlohmann/json.hpp>

#include "engines/common/json.h"

namespace sb::hall {

inline nlohmann::json to_nlohmann(const Json& j) {
  if (j.is_null()) return nullptr;
  return nlohmann::json::parse(j.dump());
}

inline Json from_nlohmann(const nlohmann::json& j, const char* source = "options") {
  return Json::parse(j.dump(), source);
}

}  // namespace sb::hall
