// Helpers the pipeline tests share: a board drawn under a look with its truth and the corners a referee would
// give, and a pipeline fed one still picture until it has read it.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <map>
#include <opencv2/core.hpp>
#include <string>
#include <vector>

#include "calibration/board_locator.h"
#include "vision/game_vision.h"
#include "vision/pipeline.h"
#include "vision/render/look.h"
#include "vision/render/renderer.h"
#include "vision/render/truth.h"

namespace sb::vision::testing {

struct Rendered {
  cv::Mat image;
  std::map<std::string, std::string> truth;
  std::array<cv::Point2d, 4> corners;
};

// The board's four outer corners as the renderer drew them (what an operator would click for `--corners`).
inline std::array<cv::Point2d, 4> corners_of(const Renderer& renderer) {
  const nlohmann::json g = geometry_json(renderer);
  std::array<cv::Point2d, 4> c;
  for (size_t k = 0; k < 4; ++k) c[k] = {g["corners"][k][0].get<double>(), g["corners"][k][1].get<double>()};
  return c;
}

// Cờ toán's start (RULES.md): each side's 1–9 on its home row, its 0 in front of the 5.
inline BoardContents cotoan_start_contents() {
  BoardContents b;
  const std::string files = "abcdefghi";
  for (int k = 0; k < 9; ++k) {
    b[std::string(1, files[k]) + "1"] = {"R" + std::to_string(k + 1)};
    b[std::string(1, files[k]) + "11"] = {"B" + std::to_string(9 - k)};
  }
  b["e2"] = {"R0"};
  b["e10"] = {"B0"};
  return b;
}

// A draughts start on a board of `squares` dark squares (32 or 50): Black's men on the first `men`, White's on the
// last `men`.
inline std::map<std::string, std::string> draughts_start_tokens(int men, int squares) {
  std::map<std::string, std::string> start;
  for (int k = 1; k <= men; ++k) start[std::to_string(k)] = "B";
  for (int k = squares - men + 1; k <= squares; ++k) start[std::to_string(k)] = "W";
  return start;
}

// One piece per site, as `tokens` names them (site → token), for place_pieces.
inline BoardContents contents_of(const std::map<std::string, std::string>& tokens) {
  BoardContents b;
  for (const auto& [site, token] : tokens) b[site] = {token};
  return b;
}

// `board`'s token of every site of `model` (empty where it names none), in the model's site order.
inline std::vector<std::string> tokens_of(const calib::BoardModel& model,
                                          const std::map<std::string, std::string>& board) {
  std::vector<std::string> t(model.sites.size());
  for (const auto& [site, token] : board) t[static_cast<size_t>(model.site_index(site))] = token;
  return t;
}

// The visible token of every site of `model` (empty where no piece stands), in the model's site order.
inline std::vector<std::string> tokens_of(const calib::BoardModel& model, const std::vector<PieceInstance>& pieces) {
  return tokens_of(model, visible_tokens(pieces));
}

// `board` drawn on `model` under `look` at 1280×720 (the scale capped so that the board fits the frame).
inline Rendered render_with_look(const calib::BoardModel& model, Look look, const BoardContents& board, uint64_t seed) {
  const cv::Size size(1280, 720);
  look.camera.px_per_pitch = std::min(look.camera.px_per_pitch, max_px_per_pitch(model, look.camera, size));
  Renderer renderer(model, look, size, seed);
  Rng rng(seed);
  Scene scene;
  scene.pieces = place_pieces(model, look.pieces, board, rng);
  Rendered r;
  r.image = renderer.render(scene, seed);
  r.truth = visible_tokens(scene.pieces);
  r.corners = corners_of(renderer);
  return r;
}

// The sites read otherwise than `truth` says (absent sites are empty), as "site: read 'X', is 'Y'".
inline std::vector<std::string> misreads(const calib::BoardModel& model, const BoardObservation& obs,
                                         const std::map<std::string, std::string>& truth) {
  std::vector<std::string> wrong;
  for (size_t i = 0; i < model.sites.size(); ++i) {
    auto it = truth.find(model.sites[i].name);
    const std::string want = it == truth.end() ? "" : it->second;
    if (obs.sites[i].token != want)
      wrong.push_back(model.sites[i].name + ": read '" + obs.sites[i].token + "', is '" + want + "'");
  }
  return wrong;
}

// The pieces of `start` moved to `sites` in an order shuffled by `seed` (a board that is not the start).
inline BoardContents scattered(std::vector<std::string> sites, const BoardContents& start, uint64_t seed) {
  Rng rng(seed);
  for (size_t i = sites.size(); i > 1; --i) std::swap(sites[i - 1], sites[rng.below(static_cast<int>(i))]);
  BoardContents b;
  size_t k = 0;
  for (const auto& [site, layers] : start) b[sites[k++]] = layers;
  return b;
}

// "n wrong: a; b; c; …" (the first dozen), for failure messages.
inline std::string listed(const std::vector<std::string>& v) {
  std::string out = std::to_string(v.size()) + " wrong:";
  for (size_t k = 0; k < v.size() && k < 12; ++k) out += " " + v[k] + ";";
  return out;
}

// Feeds a still picture until the gate has settled and the sites were read.
inline BoardObservation read_still(Pipeline& p, const cv::Mat& image, int64_t t0 = 0) {
  BoardObservation obs;
  for (int i = 0; i < 20 && !obs.read; ++i) {
    Frame f;
    f.image = image;
    f.t_ms = t0 + i * 50;
    f.index = i;
    obs = p.process(f);
  }
  return obs;
}

// A fixed camera over a pipeline's board under `look`: the pipeline is given the board by the corners the renderer
// drew (as `--corners` would), and each show() is a new picture of `scene` (its own noise), read as a settled
// still 10 s after the last. The renderer stays reachable to switch its light.
struct StillCamera {
  StillCamera(Pipeline& p, const Look& look, uint64_t seed, cv::Size size = {1280, 720})
      : pipeline(p), renderer(p.model(), look, size, seed) {
    p.use_fit(calib::BoardLocator(p.model()).from_corners(corners_of(renderer)), size);
  }
  BoardObservation show(const Scene& scene) {
    BoardObservation obs = read_still(pipeline, renderer.render(scene, static_cast<uint64_t>(t) + 1), t);
    t += 10000;
    return obs;
  }
  Pipeline& pipeline;
  Renderer renderer;
  int64_t t = 0;
};

// Puts one man of `side` on `site` (placed with `rng`, beside the pieces of `scene`, kept in it).
inline void place_man(const calib::BoardModel& model, const Look& look, Rng& rng, Scene& scene, const std::string& site,
                      char side) {
  scene.pieces.push_back(place_piece(model, look.pieces, site, {std::string(1, side)}, scene.pieces, side, rng));
}

// Learns the set as the referee does when a Morris game starts with every piece in hand: from the empty board,
// then from each of `first` (site, side) placed in turn (with `rng`, kept in `scene`) and shown: false when a
// picture was not read or a step not learnt.
inline bool learnt_first_placements(StillCamera& camera, const Look& look, Rng& rng, Scene& scene,
                                    const std::vector<std::pair<std::string, char>>& first) {
  Pipeline& p = camera.pipeline;
  const calib::BoardModel& model = p.model();
  if (!camera.show(scene).read || !p.learn(std::vector<std::string>(model.sites.size()), nullptr)) return false;
  for (const auto& [site, side] : first) {
    place_man(model, look, rng, scene, site, side);
    if (!camera.show(scene).read || !p.learn(tokens_of(model, scene.pieces), nullptr)) return false;
  }
  return true;
}

using Placements = std::vector<std::pair<std::string, char>>;

// The sites of `game` read wrong with `reader` under `look`, on each of `seeds`: the set learnt as the referee
// learns it at a Morris start (the empty board, then the `first` placements), then the men of `then` put down and
// the board read, as "seed S: site: read 'X', is 'Y'".
inline std::vector<std::string> wrong_after_placements(const std::string& game, const Look& look,
                                                       const ReaderParams& reader, const std::vector<uint64_t>& seeds,
                                                       const Placements& first, const Placements& then) {
  std::vector<std::string> wrong;
  for (uint64_t seed : seeds) {
    PipelineParams params;
    params.reader = reader;
    Pipeline p = make_pipeline(game, params);
    const calib::BoardModel& model = p.model();
    StillCamera camera(p, look, seed);
    Rng rng(seed);
    Scene scene;
    EXPECT_TRUE(learnt_first_placements(camera, look, rng, scene, first));
    for (const auto& [site, side] : then) place_man(model, look, rng, scene, site, side);
    const BoardObservation obs = camera.show(scene);
    EXPECT_TRUE(obs.read);
    for (const std::string& w : misreads(model, obs, visible_tokens(scene.pieces)))
      wrong.push_back("seed " + std::to_string(seed) + ": " + w);
  }
  return wrong;
}

// Shows `camera` the pieces of `contents` (placed with `rng`, kept in `scene`) and learns the set from them: false
// when the picture was not read or the set not learnt.
inline bool learnt_start(StillCamera& camera, const Look& look, Rng& rng, const BoardContents& contents, Scene& scene) {
  scene.pieces = place_pieces(camera.pipeline.model(), look.pieces, contents, rng);
  return camera.show(scene).read && camera.pipeline.learn(tokens_of(camera.pipeline.model(), scene.pieces), nullptr);
}

// Shows `camera` the draughts start (`men` a side on `squares` dark squares, placed with `rng`) and learns the set
// from it: false when the start was not read or the set not learnt.
inline bool learnt_draughts_start(StillCamera& camera, const Look& look, Rng& rng, int men, int squares) {
  Scene scene;
  return learnt_start(camera, look, rng, contents_of(draughts_start_tokens(men, squares)), scene);
}

// English game 20 of `eval-vision english --simulations 20 --seed 8821003`: black and red plastic men on the
// green squares of a plain paper board (no markers), seen from nearly above; the start's light squares already
// clipped in red when the set was learnt.
inline Look black_and_red_men_under_a_high_light() {
  return Look::from_json(nlohmann::json::parse(R"({
    "board": {"colours": {"dark": "#306941", "ink": "#1a1a1a", "land": "#e3d8bc", "light": "#fff2d2",
                          "sheet": "#ece9e2", "water": "#97c6e2"},
              "edge": "#e0ddd7", "gloss": 0.1644, "markers": false, "material": "paper", "texture": 0.8906,
              "thickness_mm": 0.2645},
    "camera": {"aim_offset_mm": [-6.4439, -1.3363], "azimuth_deg": 20.1142, "hfov_deg": 57.9948, "k1": 0.0,
               "k2": 0.0, "px_per_pitch": 40.4588, "roll_deg": -4.5632, "tilt_deg": 5.5318},
    "light": {"ambient": 0.5534, "azimuth_deg": 191.5815, "directional": 0.5431, "elevation_deg": 83.5422,
              "exposure": 1.1063, "glare_size_mm": 47.9724, "glare_spots": 2, "glare_strength": 0.5338,
              "gradient": 0.2215, "gradient_angle_deg": 203.0105, "kelvin": 4665.272, "shadow_softness_mm": 4.6139,
              "vignette": 0.1858},
    "pieces": {"diameter_pitch": 0.8158, "face": "grooves", "gloss": 0.8417, "grooves": 2, "height_mm": 6.0884,
               "material": "plastic", "max_offset": 0.1346, "max_turn_deg": 180.0, "pattern_seed": 3977318420047701,
               "shade_jitter": 0.4744, "shape": "disc",
               "sides": {"B": {"body": "#1e1e1e", "mark": "#3c3c3c"}, "W": {"body": "#b12821", "mark": "#84180c"}}},
    "sensor": {"defocus_px": 0.0, "jpeg_quality": 0, "motion_angle_deg": 0.0, "motion_px": 0.0, "noise": 4.1497},
    "table": {"accent": "#205331", "angle_deg": 158.6645, "base": "#28663c", "scale_mm": 1.0815, "surface": "cloth"}
  })"),
                         "test look");
}

// `look` after a lamp like that game's was switched on: warmer (2,700 K), brighter, from the side, one glare more.
inline Look with_warm_side_lamp(Look look) {
  look.light.kelvin = 2700;
  look.light.exposure = 1.60;
  look.light.directional = 0.95;
  look.light.azimuth_deg = 120;
  look.light.elevation_deg = 55;
  look.light.glare_spots = 3;
  look.light.gradient = 0.32;
  return look;
}

}  // namespace sb::vision::testing
