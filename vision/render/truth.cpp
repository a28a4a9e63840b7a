#include "vision/render/truth.h"

namespace sb::vision {

namespace {
nlohmann::json point(cv::Point2d p) {
  // Two decimals: a hundredth of a pixel is far below any reader's precision and keeps files small.
  return {std::round(p.x * 100) / 100, std::round(p.y * 100) / 100};
}
}  // namespace

nlohmann::json board_json(const std::vector<PieceInstance>& pieces) {
  nlohmann::json b = nlohmann::json::object();
  for (const auto& [site, token] : visible_tokens(pieces)) b[site] = token;
  return b;
}

nlohmann::json geometry_json(const Renderer& r) {
  const Camera& cam = r.camera();
  const calib::BoardModel& m = r.model();
  nlohmann::json sites = nlohmann::json::object();
  for (const auto& s : m.sites) sites[s.name] = point(cam.project(s.centre.x, s.centre.y, 0));
  nlohmann::json corners = nlohmann::json::array(), outline = nlohmann::json::array();
  for (const auto& c : m.playing_area_corners()) corners.push_back(point(cam.project(c.x, c.y, 0)));
  for (const auto& c : m.outline_corners()) outline.push_back(point(cam.project(c.x, c.y, 0)));
  nlohmann::json markers = nlohmann::json::object();
  if (r.look().board.markers)
    for (const auto& mk : m.markers.markers) {
      nlohmann::json q = nlohmann::json::array();
      for (const auto& c : mk.corners()) q.push_back(point(cam.project(c.x, c.y, 0)));
      markers[std::to_string(mk.id)] = q;
    }
  return {
      {"sites", sites}, {"corners", corners}, {"outline", outline}, {"markers", markers}, {"camera", cam.to_json()}};
}

nlohmann::json pieces_json(const Renderer& r, const std::vector<PieceInstance>& pieces) {
  nlohmann::json out = nlohmann::json::object();
  for (const PieceInstance& p : pieces) {
    if (p.site.empty() || p.base_mm != 0) continue;
    const calib::Site& s = r.model().site(p.site);
    out[p.site] = {
        {"top", point(r.top_pixel(p))},
        {"layers", p.layers.size()},
        {"offset_mm", {std::round((p.xy.x - s.centre.x) * 100) / 100, std::round((p.xy.y - s.centre.y) * 100) / 100}}};
  }
  return out;
}

nlohmann::json still_truth(const Renderer& r, const Scene& scene, uint64_t seed) {
  HandCover cover = r.hand_cover(scene);
  nlohmann::json t = {{"t", 0}, {"board", board_json(scene.pieces)}, {"stable", !cover.over_board}};
  nlohmann::json g = geometry_json(r);
  for (auto it = g.begin(); it != g.end(); ++it) t[it.key()] = it.value();
  t["pieces"] = pieces_json(r, scene.pieces);
  t["hidden"] = cover.sites;
  t["game"] = r.model().game;
  t["seed"] = seed;
  t["look"] = r.look().to_json();
  return t;
}

}  // namespace sb::vision
