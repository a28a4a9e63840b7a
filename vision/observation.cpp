#include "vision/observation.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

namespace sb::vision {

nlohmann::json observation_json(const calib::BoardModel& model, const BoardObservation& obs) {
  nlohmann::json board = nlohmann::json::object(), conf = nlohmann::json::object();
  for (size_t i = 0; i < obs.sites.size() && i < model.sites.size(); ++i) {
    const SiteReading& s = obs.sites[i];
    const float c = std::round(std::clamp(s.conf, 0.f, 1.f) * 1000.f) / 1000.f;
    // An empty site is listed in "conf" only when the reader doubts it: the arbiter takes 1 for the rest.
    if (s.token.empty()) {
      if (c < 0.99f) conf[model.sites[i].name] = c;
      continue;
    }
    board[model.sites[i].name] = s.token;
    conf[model.sites[i].name] = c;
  }
  return {{"t", obs.t_ms}, {"board", board}, {"conf", conf}, {"stable", obs.settled}};
}

}  // namespace sb::vision
