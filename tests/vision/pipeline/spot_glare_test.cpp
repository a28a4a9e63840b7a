// A lamp's glare spot that falls in the middle of an empty dark square of a glossy wooden board: the spot is
// brightest at its middle and fades towards the square's corners, so the corners (which a man on the square leaves
// bare, ReaderParams::own_glare_*) show only part of the glare its centre gets. The allowance taken from them must
// reach the centre's, or the bright round spot is read as a man.
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

using testing::contents_of;
using testing::StillCamera;

// The look of brazilian seed 2496200025050103 (game 6 of the 20-game run, rounded): green and purple plastic men on
// a glossy wooden board, 29 px per pitch, 42° tilt, two glare spots before the lamp.
Look glossy_wood_look() {
  return Look::from_json(nlohmann::json::parse(R"({
    "board": {"colours": {"dark": "#7c512d", "ink": "#1a1a1a", "land": "#e9dabb", "light": "#d1c49f",
                          "sheet": "#937d66", "water": "#a4d4ff"},
              "edge": "#5e3f1d", "gloss": 0.7164, "markers": true, "material": "wood", "texture": 0.6648,
              "thickness_mm": 18.4959},
    "camera": {"aim_offset_mm": [-3.9732, -2.8970], "azimuth_deg": 158.9473, "hfov_deg": 54.7104, "k1": 0.0,
               "k2": 0.0, "px_per_pitch": 29.2278, "roll_deg": 0.9745, "tilt_deg": 42.2529},
    "hands": {"size": 0.9555, "skin": ["#ad826b", "#dcaf9a"], "sleeve": ["#21762a", "#28c49b"],
              "sleeve_length": [0.0, 0.6336]},
    "light": {"ambient": 0.6607, "azimuth_deg": 161.7386, "directional": 0.2376, "elevation_deg": 49.6735,
              "exposure": 1.0149, "glare_size_mm": 27.2944, "glare_spots": 2, "glare_strength": 0.7619,
              "gradient": 0.1482, "gradient_angle_deg": 355.6777, "kelvin": 5881.41, "shadow_softness_mm": 3.5376,
              "vignette": 0.4156},
    "pieces": {"diameter_pitch": 0.7767, "dot_size": 0.1699, "dots": "ring", "face": "grooves", "gloss": 0.3685,
               "grooves": 0, "height_mm": 9.6707, "material": "plastic", "max_offset": 0.0820, "max_turn_deg": 180.0,
               "pattern_seed": 1884500377655190, "shade_jitter": 0.4831, "shape": "disc",
               "sides": {"B": {"body": "#8f2884", "mark": "#801578"}, "W": {"body": "#589181", "mark": "#4a776b"}},
               "symbols": "pictograms", "zero": "cross"},
    "sensor": {"defocus_px": 0.0, "jpeg_quality": 0, "motion_angle_deg": 0.0, "motion_px": 0.0, "noise": 2.1723},
    "table": {"accent": "#5a5853", "angle_deg": 16.1705, "base": "#383634", "scale_mm": 99.9669, "surface": "stone"}
  })"),
                         "glossy wood look");
}

// A warm lamp as the simulation switches one on (app/cmd_simulate.cpp lamp_on; the game's own lamp was drawn from
// its random plan and not kept): brighter, from another side, and a third glare spot. The renderer places the
// spots from its seed, so with the game's seed the third falls where the game's did, on the empty square 22.
LightLook warm_lamp() {
  return Look::from_json(nlohmann::json::parse(R"({"light": {
    "ambient": 0.6607, "azimuth_deg": 300.0, "directional": 0.59, "elevation_deg": 60.0, "exposure": 1.32,
    "glare_size_mm": 27.2944, "glare_spots": 3, "glare_strength": 0.7619, "gradient": 0.25,
    "gradient_angle_deg": 355.6777, "kelvin": 3000.0, "shadow_softness_mm": 3.5376, "vignette": 0.4156}})"),
                         "lamp")
      .light;
}

// The sites read wrong after 22-18 drawn under the lamp, the set learnt from the start under the room's light;
// `own_glare_gain`: the reader's.
std::vector<std::string> wrong_under_the_lamp(float own_glare_gain) {
  PipelineParams params;
  params.reader.own_glare_gain = own_glare_gain;
  Pipeline p = make_pipeline("brazilian", params);
  const calib::BoardModel& model = p.model();
  const uint64_t seed = 2496200025050103;
  const Look look = glossy_wood_look();
  StillCamera camera(p, look, seed);

  Rng rng(seed);
  if (!testing::learnt_draughts_start(camera, look, rng, 12, 32)) return {"(start not learnt)"};
  camera.renderer.set_light(warm_lamp());
  std::map<std::string, std::string> tokens;
  for (int k = 1; k <= 12; ++k) tokens[std::to_string(k)] = "B";
  for (int k : {18, 21, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32}) tokens[std::to_string(k)] = "W";
  Scene scene;
  scene.pieces = place_pieces(model, look.pieces, contents_of(tokens), rng);
  const BoardObservation obs = camera.show(scene);
  if (!obs.read) return {"(not read)"};
  return testing::misreads(model, obs, tokens);
}

// brazilian seed 2496200025050103: from the lamp at 7.1 s the empty 22, among white men on 18, 21, 25 and 26, read
// as a white man (foreign 0.59, disc 0.31: the spot's round edge scores as a rim) until a man was put there at ply
// 7, and the referee recorded 24-20 for 21-17 and announced an illegal move that was not played. Twice the glare
// its corners show left 0.59 of its centre foreign, three times 0.11. The test checks that its scene shows the fault
// with twice the corners' glare, and that with the reader's gain every site reads right.
TEST(SpotGlare, AGlareSpotInTheMiddleOfAnEmptyDarkSquareAmongMenIsNoPieceAndEveryManReads) {
  const std::vector<std::string> before = wrong_under_the_lamp(2.f);
  EXPECT_FALSE(before.empty()) << "with twice the corners' glare the scene no longer shows the fault";
  const std::vector<std::string> after = wrong_under_the_lamp(ReaderParams{}.own_glare_gain);
  EXPECT_TRUE(after.empty()) << testing::listed(after);
}

}  // namespace
}  // namespace sb::vision
