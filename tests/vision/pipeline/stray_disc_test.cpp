// A dark man's top shows no rim against his own dark side, and the best circle the reader finds near his site may
// lie on the board beside him: the face cut there is the board's, and a black man was read white. A face that looks
// like no learnt side's, where one cut round the site's centre looks like one, is no piece's face.
#include <gtest/gtest.h>

#include "still_board.h"
#include "vision/game_vision.h"
#include "vision/render/look.h"
#include "vision/render/renderer.h"
#include "vision/render/scene.h"
#include "vision/render/truth.h"

namespace sb::vision {
namespace {

using testing::wrong_after_placements;

// The look of morris9 dataset seed 9704101 image 37 (rounded): black and white wooden stones 6.7 mm tall on a
// paper board nearly straight below the camera (5.6° tilt), a low lamp from one side.
Look black_stones_under_a_low_lamp() {
  return Look::from_json(nlohmann::json::parse(R"({
    "board": {"colours": {"dark": "#7a4c2a", "ink": "#2a1e14", "land": "#e4d4b8", "light": "#ecddba",
                          "sheet": "#fbf8f0", "water": "#99cae2"},
              "edge": "#efece4", "gloss": 0.130, "markers": true, "material": "paper", "texture": 0.668,
              "thickness_mm": 0.259},
    "camera": {"aim_offset_mm": [19.277, 2.554], "azimuth_deg": 240.595, "hfov_deg": 54.755, "k1": 0.0, "k2": 0.0,
               "px_per_pitch": 31.243, "roll_deg": -4.216, "tilt_deg": 5.611},
    "hands": {"size": 0.958, "skin": ["#ddb59a", "#bb957b"], "sleeve": ["#ac6c84", "#5d7d4e"],
              "sleeve_length": [0.623, 0.0]},
    "light": {"ambient": 0.596, "azimuth_deg": 66.986, "directional": 0.501, "elevation_deg": 37.509,
              "exposure": 1.173, "glare_size_mm": 23.818, "glare_spots": 2, "glare_strength": 0.463, "gradient": 0.304,
              "gradient_angle_deg": 200.463, "kelvin": 6752.655, "shadow_softness_mm": 2.338, "vignette": 0.262},
    "pieces": {"diameter_pitch": 0.616, "dot_size": 0.125, "dots": "scattered", "face": "plain", "gloss": 0.101,
               "grooves": 2, "height_mm": 6.688, "material": "wood", "max_offset": 0.181, "max_turn_deg": 180.0,
               "pattern_seed": 3015353605209959, "shade_jitter": 0.538, "shape": "stone",
               "sides": {"B": {"body": "#2e3035", "mark": "#40444a"}, "W": {"body": "#e4e1d9", "mark": "#cac4b8"}},
               "symbols": "pictograms", "zero": "ring"},
    "sensor": {"defocus_px": 0.0, "jpeg_quality": 0, "motion_angle_deg": 0.0, "motion_px": 0.0, "noise": 0.882},
    "table": {"accent": "#c2c1c0", "angle_deg": 162.349, "base": "#e4e2e1", "scale_mm": 3.957, "surface": "laminate"}
  })"),
                         "morris9 look");
}

// The sites read wrong, by a set learnt as the referee learns it (the empty start, then the first two
// placements), with `reader`, on image 37's position drawn with each of `seeds`.
std::vector<std::string> wrong_under_the_low_lamp(const ReaderParams& reader, const std::vector<uint64_t>& seeds) {
  return wrong_after_placements(
      "morris9", black_stones_under_a_low_lamp(), reader, seeds, {{"e5", 'W'}, {"d5", 'B'}},
      {{"a1", 'W'}, {"a4", 'B'}, {"b4", 'B'}, {"b6", 'W'}, {"c3", 'B'}, {"g4", 'B'}, {"g7", 'B'}});
}

// morris9 seed 9704101 image 37: the circles found for the black men on g7 and g4 lay a radius and more off them,
// on the sheet (faces 7.9 and 6.7 deviations from the nearest side's body), and both read white. Drawn again, the
// position shows the fault with these seeds (b4, a4 and g4 read white), of 24 tried.
TEST(StrayDisc, BlackStonesWhoseTopsShowNoRimAreReadBlack) {
  const std::vector<uint64_t> seeds{9704107, 9704117, 9704121};
  ReaderParams without;
  without.stray_disc_fit_sd = without.stray_centre_fit_sd = 0;
  const std::vector<std::string> before = wrong_under_the_low_lamp(without, seeds);
  EXPECT_FALSE(before.empty()) << "these boards no longer show the fault: the test proves nothing";
  const std::vector<std::string> after = wrong_under_the_low_lamp(ReaderParams{}, seeds);
  EXPECT_TRUE(after.empty()) << testing::listed(after);
}

}  // namespace
}  // namespace sb::vision
