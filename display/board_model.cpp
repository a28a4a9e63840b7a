#include "display/board_model.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engines/common/errors.h"

namespace sb::display {

namespace {

bool is_point(const nlohmann::json& p) {
  return p.is_array() && p.size() == 2 && p[0].is_number() && p[1].is_number() &&
         std::isfinite(p[0].get<double>()) && std::isfinite(p[1].get<double>());
}

bool is_finite_number(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() && std::isfinite(it->get<double>());
}

void check_shape(const nlohmann::json& s, size_t index) {
  const std::string where = "board model: shape " + std::to_string(index);
  if (!s.is_object() || !s.contains("kind") || !s["kind"].is_string())
    throw InputError(where + " has no \"kind\"");
  const std::string kind = s["kind"];
  auto need_numbers = [&](std::initializer_list<const char*> keys) {
    for (const char* k : keys)
      if (!is_finite_number(s, k)) throw InputError(where + " (" + kind + ") needs a number \"" + k + "\"");
  };
  auto need_point = [&](const char* key) {
    if (!s.contains(key) || !is_point(s[key]))
      throw InputError(where + " (" + kind + ") needs a point \"" + key + "\" [x, y]");
  };
  if (kind == "rect") {
    need_numbers({"x", "y", "w", "h"});
  } else if (kind == "line") {
    need_point("from");
    need_point("to");
  } else if (kind == "polygon" || kind == "polyline") {
    if (!s.contains("points") || !s["points"].is_array() || s["points"].size() < 2)
      throw InputError(where + " (" + kind + ") needs \"points\": at least two [x, y]");
    for (const auto& p : s["points"])
      if (!is_point(p)) throw InputError(where + " (" + kind + ") has a point that is not [x, y]");
  } else if (kind == "circle") {
    need_point("center");
    need_numbers({"r"});
  } else if (kind == "text") {
    need_point("at");
    if (!s.contains("text") || !s["text"].is_string()) throw InputError(where + " (text) needs a string \"text\"");
  } else {
    throw InputError(where + " has an unknown kind '" + kind + "'");
  }
}

}  // namespace

void validate_board_model(const nlohmann::json& model) {
  if (!model.is_object()) throw InputError("board model: expected a JSON object");
  for (const char* k : {"width_mm", "height_mm"})
    if (!is_finite_number(model, k) || model[k].get<double>() <= 0)
      throw InputError(std::string("board model: \"") + k + "\" must be a positive number");
  if (!model.contains("sites") || !model["sites"].is_object() || model["sites"].empty())
    throw InputError("board model: \"sites\" must be an object of site name to [x, y]");
  for (const auto& [name, p] : model["sites"].items())
    if (!is_point(p)) throw InputError("board model: site '" + name + "' is not a pair of numbers");
  if (model.contains("shapes")) {
    if (!model["shapes"].is_array()) throw InputError("board model: \"shapes\" must be an array");
    for (size_t i = 0; i < model["shapes"].size(); ++i) check_shape(model["shapes"][i], i);
  }
}

std::vector<std::string> reading_order(const nlohmann::json& model) {
  struct Site {
    std::string name;
    double x, y;
  };
  std::vector<Site> sites;
  for (const auto& [name, p] : model.at("sites").items()) sites.push_back({name, p[0].get<double>(), p[1].get<double>()});
  double spacing = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < sites.size(); ++i)
    for (size_t j = i + 1; j < sites.size(); ++j) {
      double d = std::hypot(sites[i].x - sites[j].x, sites[i].y - sites[j].y);
      if (d > 1e-9) spacing = std::min(spacing, d);
    }
  const double tolerance = std::isfinite(spacing) ? spacing / 3 : 1e-6;
  std::sort(sites.begin(), sites.end(), [](const Site& a, const Site& b) { return a.y < b.y; });
  // Group rows, then order each row left to right.
  std::vector<std::string> order;
  size_t start = 0;
  while (start < sites.size()) {
    size_t end = start + 1;
    while (end < sites.size() && sites[end].y - sites[start].y <= tolerance) ++end;
    std::sort(sites.begin() + start, sites.begin() + end, [](const Site& a, const Site& b) { return a.x < b.x; });
    for (size_t i = start; i < end; ++i) order.push_back(sites[i].name);
    start = end;
  }
  return order;
}

}  // namespace sb::display
