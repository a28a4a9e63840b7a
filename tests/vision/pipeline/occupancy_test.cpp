// Occupancy needs a piece-like rim: a set learnt from a start with pieces knows how plainly its pieces show their
// top face's rim (PieceSet::piece_disc); a site whose rim shows far less is not taken for a piece because the paint
// model fails to explain its centre (a lamp's colour and clipping), while a real piece with a weak rim and a wholly
// foreign centre still reads.
#include <gtest/gtest.h>

#include "calibration/board_locator.h"
#include "still_board.h"
#include "vision/game_vision.h"
#include "vision/render/look.h"
#include "vision/render/renderer.h"
#include "vision/render/scene.h"
#include "vision/render/truth.h"

namespace sb::vision {
namespace {

using testing::StillCamera;
using testing::tokens_of;

// The look of international seed 8722111 (eval-vision --simulations, rounded): ivory and black wood men on a paper
// board with brown dark squares, seen from above at 30 px per pitch under a soft light; then the warm lamp it
// switched on at 43.2 s (3,126 K, exposure 1.43, two glare spots).
Look international_look() {
  return Look::from_json(nlohmann::json::parse(R"({
    "board": {"colours": {"dark": "#663d23", "ink": "#1a1a1a", "land": "#e3d8b9", "light": "#ddd1b2",
                          "sheet": "#e4e0d9", "water": "#96bad4"},
              "edge": "#d8d5ce", "gloss": 0.0249, "markers": true, "material": "paper", "texture": 0.2035,
              "thickness_mm": 0.3439},
    "camera": {"aim_offset_mm": [0.4959, -0.3378], "azimuth_deg": 99.1965, "hfov_deg": 53.6254, "k1": 0.0,
               "k2": 0.0, "px_per_pitch": 30.0109, "roll_deg": -3.41, "tilt_deg": 2.7502},
    "hands": {"size": 1.0407, "skin": ["#ad886e", "#b48973"], "sleeve": ["#245c6e", "#877a84"],
              "sleeve_length": [0.0, 0.6732]},
    "light": {"ambient": 0.7228, "azimuth_deg": 257.2337, "directional": 0.3375, "elevation_deg": 82.0372,
              "exposure": 1.1265, "glare_size_mm": 46.0808, "glare_spots": 1, "glare_strength": 0.4942,
              "gradient": 0.0079, "gradient_angle_deg": 53.5701, "kelvin": 7311.5828, "shadow_softness_mm": 3.1638,
              "vignette": 0.4153},
    "pieces": {"diameter_pitch": 0.8498, "dot_size": 0.1589, "dots": "dice", "face": "grooves", "gloss": 0.2919,
               "grooves": 1, "height_mm": 7.6714, "material": "wood", "max_offset": 0.1196, "max_turn_deg": 180.0,
               "pattern_seed": 2693553540993135, "shade_jitter": 0.2823, "shape": "disc",
               "sides": {"B": {"body": "#1d1d1f", "mark": "#49494d"}, "W": {"body": "#fefbf3", "mark": "#d6cdba"}},
               "symbols": "letters", "zero": "blank"},
    "sensor": {"defocus_px": 0.0, "jpeg_quality": 0, "motion_angle_deg": 0.0, "motion_px": 0.0, "noise": 0.981},
    "table": {"accent": "#959493", "angle_deg": 92.7076, "base": "#acabaa", "scale_mm": 1.8377, "surface": "laminate"}
  })"),
                         "international look");
}

LightLook warm_lamp() {
  return Look::from_json(nlohmann::json::parse(R"({"light": {
    "ambient": 0.7228, "azimuth_deg": 298.4974, "directional": 0.816, "elevation_deg": 75.1435, "exposure": 1.4259,
    "glare_size_mm": 46.0808, "glare_spots": 2, "glare_strength": 0.4942, "gradient": 0.0942,
    "gradient_angle_deg": 53.5701, "kelvin": 3125.9956, "shadow_softness_mm": 3.1638, "vignette": 0.4153}})"),
                         "lamp")
      .light;
}

using testing::contents_of;

// The squares read wrong in the position after 33-29 16-21 29-23 of international seed 8722111 (43.2 s), drawn
// under the warm lamp after the set was learnt from the start under the soft light; `floor`: the reader's
// piece_disc_floor (0: a weak rim is never judged without its foreign share, as before the floor);
// `clipped_ref_share`: the reader's (above 1: the dark paint predicted from the clipped light paint, as before the
// lamp's clipping was measured, which alone reads this scene right too).
std::vector<std::string> wrong_under_the_lamp(float floor, float* piece_disc,
                                              float clipped_ref_share = ReaderParams{}.clipped_ref_share) {
  PipelineParams params;
  params.reader.piece_disc_floor = floor;
  params.reader.clipped_ref_share = clipped_ref_share;
  Pipeline p = make_pipeline("international", params);
  const calib::BoardModel& model = p.model();
  const uint64_t seed = 8722111;
  const Look look = international_look();
  StillCamera camera(p, look, seed);

  Rng rng(seed);
  if (!testing::learnt_draughts_start(camera, look, rng, 20, 50)) return {"(start not learnt)"};
  Scene scene;
  *piece_disc = p.piece_set().piece_disc;

  camera.renderer.set_light(warm_lamp());
  std::map<std::string, std::string> tokens;
  for (int k : {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 17, 18, 20, 21}) tokens[std::to_string(k)] = "B";
  for (int k : {23, 31, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50})
    tokens[std::to_string(k)] = "W";
  scene.pieces = place_pieces(model, look.pieces, contents_of(tokens), rng);
  const BoardObservation obs = camera.show(scene);
  if (!obs.read) return {"(not read)"};
  std::vector<std::string> wrong;
  for (size_t i = 0; i < model.sites.size(); ++i) {
    const auto it = tokens.find(model.sites[i].name);
    const std::string truth = it == tokens.end() ? "" : it->second;
    if (obs.sites[i].token != truth)
      wrong.push_back(model.sites[i].name + ": read '" + obs.sites[i].token + "', expected '" + truth + "'");
  }
  return wrong;
}

// international seed 8722111: after the warm lamp, the empty dark squares of the middle (16, 22, 24–26, 29, 30, 32,
// 33) showed centres the paint model no longer explained (foreign share 0.22–0.61) with no rim of a man (disc score
// 0.14–0.24, the start's men 0.71 and more): each read as a black man, and the referee recorded 5 of 8 plies. The
// test checks that the drawn scene shows the fault without the floor, and that with it every square reads right.
TEST(Occupancy, EmptySquaresUnderAWarmLampWithoutAMansRimReadEmptyAndEveryManReads) {
  float piece_disc = 0;
  const std::vector<std::string> before = wrong_under_the_lamp(0.f, &piece_disc, 2.f);
  EXPECT_FALSE(before.empty()) << "without the floor and the clipping the scene no longer shows the fault";
  const std::vector<std::string> after = wrong_under_the_lamp(ReaderParams{}.piece_disc_floor, &piece_disc);
  EXPECT_GT(piece_disc, 0.f);
  EXPECT_TRUE(after.empty()) << testing::listed(after);
}

}  // namespace
}  // namespace sb::vision
