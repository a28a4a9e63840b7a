// A Cờ toán set whose two sides share one ivory body and differ only in their dots' ink (red or blue), read
// again under a warm lamp that puts a white highlight on every piece: the highlight is not ink.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "still_board.h"
#include "vision/game_vision.h"
#include "vision/render/look.h"
#include "vision/render/renderer.h"
#include "vision/render/scene.h"
#include "vision/render/truth.h"

namespace sb::vision {
namespace {

using testing::cotoan_start_contents;
using testing::learnt_start;
using testing::listed;
using testing::misreads;
using testing::StillCamera;

// The look of game 2 of `eval-vision cotoan --simulations 2 --seed 8890777` (its own seed 1710453118520847,
// rounded): ivory plastic discs, Red's dots brick red and Blue's dark blue, dice, on a light wooden board.
Look ivory_sides_look() {
  return Look::from_json(nlohmann::json::parse(R"({
    "board": {"colours": {"dark": "#7f5332", "ink": "#3b2a1a", "land": "#f8edce", "light": "#f8eeda",
                          "sheet": "#a47550", "water": "#a8d3f8"},
              "edge": "#9b7949", "gloss": 0.4485, "markers": true, "material": "wood", "texture": 0.4407,
              "thickness_mm": 9.847},
    "camera": {"aim_offset_mm": [-8.924, -0.095], "azimuth_deg": 103.057, "hfov_deg": 50.793, "k1": 0.0, "k2": 0.0,
               "px_per_pitch": 49.03, "roll_deg": 3.438, "tilt_deg": 18.426},
    "hands": {"size": 1.112, "skin": ["#c99e87", "#c69a86"], "sleeve": ["#377c63", "#7c3873"],
              "sleeve_length": [0.534, 0.640]},
    "light": {"ambient": 0.388, "azimuth_deg": 155.041, "directional": 0.562, "elevation_deg": 49.704,
              "exposure": 1.193, "glare_size_mm": 26.906, "glare_spots": 0, "glare_strength": 0.310, "gradient": 0.167,
              "gradient_angle_deg": 172.523, "kelvin": 4100.733, "shadow_softness_mm": 3.134, "vignette": 0.231},
    "pieces": {"diameter_pitch": 0.808, "dot_size": 0.1373, "dots": "dice", "face": "dots", "gloss": 0.481,
               "grooves": 2, "height_mm": 5.384, "material": "plastic", "max_offset": 0.1387, "max_turn_deg": 180.0,
               "pattern_seed": 446690147991508, "shade_jitter": 0.355, "shape": "disc",
               "sides": {"B": {"body": "#ebe1c0", "mark": "#1c1587"}, "R": {"body": "#eee5be", "mark": "#9d4223"}},
               "symbols": "letters", "zero": "star"},
    "sensor": {"defocus_px": 0.0, "jpeg_quality": 0, "motion_angle_deg": 0.0, "motion_px": 0.0, "noise": 3.640},
    "table": {"accent": "#b0afae", "angle_deg": 173.587, "base": "#bebdbc", "scale_mm": 3.507, "surface": "laminate"}
  })"),
                         "cotoan look");
}

// That game's lamp (41.3 s): a warm 3,370 K light from higher up, brighter, with one glare spot. From then on Red's 1
// on a1 read B1 in every read (side confidence 0.96) and the referee recorded nothing after ply 5. Its single red
// dot is a few pixels of ink, while the lamp's highlight on its face is a larger patch lighter than the ivory:
// whiter than a yellowish body, so bluish beside it, and it was weighed as the mark's colour.
TEST(CotoanHighlight, ALampsWhiteHighlightOnAnIvoryPieceIsNotTakenForItsMarksInk) {
  Pipeline p = make_pipeline("cotoan");
  const calib::BoardModel& model = p.model();
  const uint64_t seed = 1710453118520847ull;
  const Look look = ivory_sides_look();
  StillCamera camera(p, look, seed);
  Rng rng(seed);
  Scene scene;
  ASSERT_TRUE(learnt_start(camera, look, rng, cotoan_start_contents(), scene));

  LightLook lamp = look.light;
  lamp.azimuth_deg = 196.263;
  lamp.directional = 0.920;
  lamp.elevation_deg = 60.690;
  lamp.exposure = 1.439;
  lamp.glare_spots = 1;
  lamp.gradient = 0.251;
  lamp.kelvin = 3370.451;
  camera.renderer.set_light(lamp);
  const BoardObservation obs = camera.show(scene);
  ASSERT_TRUE(obs.read);
  const std::map<std::string, std::string> truth = visible_tokens(scene.pieces);
  std::string evidence;  // the side's confidence at each site read wrong
  const std::vector<SiteDetail>& det = p.last_read().details;
  for (size_t i = 0; i < model.sites.size() && i < det.size(); ++i)
    if (obs.sites[i].token != (truth.count(model.sites[i].name) ? truth.at(model.sites[i].name) : ""))
      evidence += " " + model.sites[i].name + ": side p " + std::to_string(det[i].side_p) + ";";
  EXPECT_TRUE(misreads(model, obs, truth).empty()) << listed(misreads(model, obs, truth)) << " evidence:" << evidence;
}

}  // namespace
}  // namespace sb::vision
