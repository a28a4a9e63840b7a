// Reading what the render/dataset commands write beside a picture, for the CLI tests that drive them.
#pragma once

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace sb::testing {

inline nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

// A truth file's four board corners as the `--corners x,y,…` argument.
inline std::string corners_arg(const nlohmann::json& truth) {
  std::string s;
  for (const auto& c : truth["corners"]) {
    if (!s.empty()) s += ',';
    s += std::to_string(c[0].get<double>()) + "," + std::to_string(c[1].get<double>());
  }
  return s;
}

}  // namespace sb::testing
