// Reading checked JSON files (board models, lenses, calibrations): every error names the file and the path of
// the field ("board.json: lattice.pitch_mm: must be positive").
#pragma once

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "calibration/board_model.h"
#include "engines/common/errors.h"

namespace sb::calib {

using nlohmann::json;

// Reads the fields of one JSON object, naming the path of every field in its errors.
class JsonReader {
 public:
  explicit JsonReader(const std::string& where) : where_(where) {}

  [[noreturn]] void fail(const std::string& path, const std::string& what) const {
    throw InputError(where_ + ": " + path + ": " + what);
  }

  const json& field(const json& obj, const std::string& path, const std::string& key) const {
    if (!obj.is_object()) fail(path, "expected an object");
    auto it = obj.find(key);
    if (it == obj.end()) fail(path.empty() ? key : path + "." + key, "missing");
    return *it;
  }

  double number(const json& v, const std::string& path) const {
    if (!v.is_number()) fail(path, "expected a number");
    double d = v.get<double>();
    if (!std::isfinite(d)) fail(path, "not a finite number");
    return d;
  }

  double positive(const json& v, const std::string& path) const {
    double d = number(v, path);
    if (d <= 0) fail(path, "must be positive");
    return d;
  }

  int integer(const json& v, const std::string& path, int lo, int hi) const {
    if (!v.is_number_integer()) fail(path, "expected an integer");
    auto i = v.get<int64_t>();
    if (i < lo || i > hi) fail(path, "must be between " + std::to_string(lo) + " and " + std::to_string(hi));
    return static_cast<int>(i);
  }

  std::string string(const json& v, const std::string& path) const {
    if (!v.is_string()) fail(path, "expected a string");
    return v.get<std::string>();
  }

  Vec2 point(const json& v, const std::string& path) const {
    if (!v.is_array() || v.size() != 2) fail(path, "expected [x, y] in millimetres");
    return {number(v[0], path + "[0]"), number(v[1], path + "[1]")};
  }

  std::vector<Vec2> points(const json& v, const std::string& path, size_t min_count) const {
    if (!v.is_array() || v.size() < min_count)
      fail(path, "expected a list of at least " + std::to_string(min_count) + " points");
    std::vector<Vec2> out;
    for (size_t i = 0; i < v.size(); ++i) out.push_back(point(v[i], path + "[" + std::to_string(i) + "]"));
    return out;
  }

  // Exactly `n` numbers, e.g. an image size or a row of a matrix.
  std::vector<double> numbers(const json& v, const std::string& path, size_t n) const {
    if (!v.is_array() || v.size() != n) fail(path, "expected a list of " + std::to_string(n) + " numbers");
    std::vector<double> out;
    for (size_t i = 0; i < n; ++i) out.push_back(number(v[i], path + "[" + std::to_string(i) + "]"));
    return out;
  }

  Paint paint(const json& v, const std::string& path) const {
    auto p = paint_from_name(string(v, path));
    if (!p) fail(path, "unknown paint '" + v.get<std::string>() + "' (light, dark, ink, water, land)");
    return *p;
  }

 private:
  std::string where_;
};

// Reads and parses a JSON file; InputError when it cannot be read or is not JSON.
json read_json_file(const std::filesystem::path& path, const std::string& what);
// Writes `j` to `path`; InputError when it cannot.
void write_json_file(const std::filesystem::path& path, const json& j, const std::string& what);

}  // namespace sb::calib
