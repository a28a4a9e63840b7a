#include "vision/render/scene.h"

#include <cmath>

#include "engines/common/errors.h"

namespace sb::vision {

namespace {
constexpr double kPi = 3.14159265358979323846;
}

double piece_radius_mm(const calib::BoardModel& model, const PieceLook& look) {
  return model.pitch_mm * look.diameter_pitch / 2;
}

PieceInstance place_piece(const calib::BoardModel& model, const PieceLook& look, const std::string& site,
                          std::vector<std::string> layers, const std::vector<PieceInstance>& others, char first_side,
                          Rng& rng) {
  if (layers.empty()) throw InputError("site " + site + ": a piece needs at least one token");
  const calib::Site& s = model.site(site);
  double r = piece_radius_mm(model, look);
  PieceInstance p;
  p.layers = std::move(layers);
  p.site = site;
  p.shade = 1.0 + rng.normal(0, 0.06 * look.shade_jitter);
  // Its owner puts it down facing them; turned by up to max_turn_deg either way.
  bool second = !p.top().empty() && p.top()[0] != first_side;
  p.turn_deg = (second ? 180.0 : 0.0) + rng.uniform(-look.max_turn_deg, look.max_turn_deg);
  double max_off = look.max_offset * model.pitch_mm;
  // Random spots within the limit; the first that touches nothing wins, else the one with the most room
  // (the site centre is always a candidate).
  auto room = [&](cv::Point2d xy) {
    double least = 1e9;
    for (const PieceInstance& o : others)
      if (o.base_mm == 0) least = std::min(least, std::hypot(o.xy.x - xy.x, o.xy.y - xy.y) - 2 * r);
    return least;
  };
  cv::Point2d best(s.centre.x, s.centre.y);
  double best_room = room(best);
  for (int attempt = 0; attempt < 16; ++attempt) {
    double a = rng.uniform(0, 2 * kPi), d = max_off * std::sqrt(rng.uniform());
    cv::Point2d xy(s.centre.x + d * std::cos(a), s.centre.y + d * std::sin(a));
    double rm = room(xy);
    if (rm >= 0.4) {
      best = xy;
      break;
    }
    if (rm > best_room) {
      best = xy;
      best_room = rm;
    }
  }
  p.xy = best;
  return p;
}

std::vector<PieceInstance> place_pieces(const calib::BoardModel& model, const PieceLook& look,
                                        const BoardContents& board, Rng& rng) {
  std::vector<PieceInstance> out;
  char first = look.sides.empty() ? 'W' : look.sides[0].side;
  // Site order, not map order, so the same board gives the same picture whatever the names sort like.
  for (const calib::Site& s : model.sites) {
    auto it = board.find(s.name);
    if (it == board.end()) continue;
    out.push_back(place_piece(model, look, s.name, it->second, out, first, rng));
  }
  for (const auto& [name, layers] : board)
    if (model.site_index(name) < 0) throw InputError("board " + model.game + " has no site '" + name + "'");
  // Pieces placed early cannot make way for later ones; push touching pairs apart, each staying within its
  // limit around its own site.
  const double r = piece_radius_mm(model, look), gap = 2 * r + 0.4, max_off = look.max_offset * model.pitch_mm;
  for (int round = 0; round < 30; ++round) {
    bool moved = false;
    for (size_t i = 0; i < out.size(); ++i)
      for (size_t j = i + 1; j < out.size(); ++j) {
        cv::Point2d d = out[j].xy - out[i].xy;
        double dist = std::hypot(d.x, d.y);
        if (dist >= gap || dist < 1e-9) continue;
        cv::Point2d push = d * ((gap - dist) / dist * 0.5);
        out[i].xy -= push;
        out[j].xy += push;
        moved = true;
      }
    for (PieceInstance& p : out) {
      const calib::Site& s = model.site(p.site);
      cv::Point2d off = p.xy - cv::Point2d(s.centre.x, s.centre.y);
      double n = std::hypot(off.x, off.y);
      if (n > max_off) p.xy = cv::Point2d(s.centre.x, s.centre.y) + off * (max_off / n);
    }
    if (!moved) break;
  }
  return out;
}

PieceInstance beside_board(const calib::BoardModel& model, const PieceLook& look, const BoardLook& board, int player,
                           int index, std::vector<std::string> layers, Rng& rng, bool reserve) {
  double r = piece_radius_mm(model, look);
  double d = 2 * r + 2;
  // Player 0 (near side) keeps captures to the right of the sheet, towards them; player 1 mirrors that.
  int col = index / 4, row = index % 4;
  PieceInstance p;
  p.layers = std::move(layers);
  p.base_mm = -board.thickness_mm;
  p.shade = 1.0 + rng.normal(0, 0.06 * look.shade_jitter);
  p.turn_deg = rng.uniform(0, 360);
  double x = model.size_mm.x + 12 + r + col * d + rng.uniform(-2, 2);
  if (reserve) x = model.size_mm.x - x;
  double y = model.size_mm.y - r - 10 - row * d + rng.uniform(-2, 2);
  if (player == 1) {
    x = model.size_mm.x - x;
    y = model.size_mm.y - y;
  }
  p.xy = {x, y};
  return p;
}

std::map<std::string, std::string> visible_tokens(const std::vector<PieceInstance>& pieces) {
  std::map<std::string, std::string> out;
  for (const PieceInstance& p : pieces)
    if (!p.site.empty() && p.base_mm == 0) out[p.site] = p.top();
  return out;
}

}  // namespace sb::vision
