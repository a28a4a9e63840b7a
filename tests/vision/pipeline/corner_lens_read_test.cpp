// A Cờ tư lệnh board given by its four corners under a barrel-distorting lens (the look of simulation 8741007):
// with the lens estimated from the board the pipeline sees no piece on the empty crossings that the plain
// homography puts a tenth of a pitch off.
#include <gtest/gtest.h>

#include "calibration/board_locator.h"
#include "calibration/corner_lens.h"
#include "still_board.h"
#include "vision/game_vision.h"
#include "vision/render/look.h"
#include "vision/render/renderer.h"
#include "vision/render/scene.h"

namespace sb::vision {
namespace {

using testing::listed;
using testing::misreads;
using testing::read_still;
using testing::render_with_look;

// The look of `eval-vision cotulenh --simulations 1 --seed 8741007` (rounded): k1 −0.176 at hfov 74°, 53 px per
// pitch, a dark-red ink on pale green land, two glare spots.
Look simulation_8741007_look() {
  return Look::from_json(nlohmann::json::parse(R"({
    "board": {"colours": {"dark": "#1f1f1f", "ink": "#4d1f21", "land": "#d3da9e", "light": "#e6e6e1",
                          "sheet": "#c8c5ac", "water": "#6c98ab"},
              "edge": "#a0937b", "gloss": 0.041, "markers": true, "material": "cardboard", "texture": 0.592,
              "thickness_mm": 2.631},
    "camera": {"aim_offset_mm": [7.067, -2.434], "azimuth_deg": 259.609, "hfov_deg": 73.673, "k1": -0.176,
               "k2": 0.011, "px_per_pitch": 53.157, "roll_deg": -6.671, "tilt_deg": 7.347},
    "hands": {"size": 1.028, "skin": ["#7e5846", "#99705c"], "sleeve": ["#a9a2cb", "#2a2629"],
              "sleeve_length": [0.289, 0.841]},
    "light": {"ambient": 0.398, "azimuth_deg": 34.506, "directional": 0.374, "elevation_deg": 63.635,
              "exposure": 1.128, "glare_size_mm": 20.138, "glare_spots": 2, "glare_strength": 0.629,
              "gradient": 0.074, "gradient_angle_deg": 197.708, "kelvin": 3531.764, "shadow_softness_mm": 3.181,
              "vignette": 0.32},
    "pieces": {"diameter_pitch": 0.775, "dot_size": 0.181, "dots": "dice", "face": "symbols", "gloss": 0.794,
               "grooves": 2, "height_mm": 7.903, "material": "plastic", "max_offset": 0.098, "max_turn_deg": 27.121,
               "pattern_seed": 3830593605042360, "shade_jitter": 0.186, "shape": "disc",
               "sides": {"B": {"body": "#ffeeda", "mark": "#1f56a2"}, "R": {"body": "#f4ecd4", "mark": "#b5241d"}},
               "symbols": "letters", "zero": "cross"},
    "sensor": {"defocus_px": 0.0, "jpeg_quality": 0, "motion_angle_deg": 0.0, "motion_px": 0.0, "noise": 2.488},
    "table": {"accent": "#b0aca8", "angle_deg": 122.387, "base": "#c5c1bd", "scale_mm": 1.956,
              "surface": "laminate"}
  })"),
                         "look of 8741007");
}

// Sites read as holding a piece where none stands.
std::vector<std::string> pieces_on_empty_sites(const calib::BoardModel& model, const BoardObservation& obs,
                                               const std::map<std::string, std::string>& truth) {
  std::vector<std::string> wrong;
  for (size_t i = 0; i < model.sites.size(); ++i)
    if (!truth.count(model.sites[i].name) && !obs.sites[i].token.empty())
      wrong.push_back(model.sites[i].name + ": read '" + obs.sites[i].token + "'");
  return wrong;
}

TEST(CornerLensRead, EmptyCrossingsUnderABarrelLensReadEmptyWhenTheLensIsEstimatedFromTheBoard) {
  const calib::BoardModel model = calib::load_board_model("cotulenh");
  const BoardContents board = {{"c3", {"RI"}}, {"f4", {"RT"}}, {"i8", {"BA"}}, {"e10", {"BH"}}};
  const testing::Rendered shot = render_with_look(model, simulation_8741007_look(), board, 8741007);
  ASSERT_TRUE(shot.image.size() == cv::Size(1280, 720));

  // The plain homography through the corners: empty crossings seen as pieces (the problem this solves).
  Pipeline plain = make_pipeline("cotulenh");
  plain.use_fit(calib::BoardLocator(model).from_corners(shot.corners), shot.image.size());
  const BoardObservation before = read_still(plain, shot.image);
  ASSERT_TRUE(before.read);
  EXPECT_GT(pieces_on_empty_sites(model, before, shot.truth).size(), 5u);

  const calib::CornerLens est = calib::fit_corners_with_lens(model, shot.image, shot.corners);
  ASSERT_TRUE(est.lens.has_value()) << "k1 " << est.k1 << ", residual " << est.plain_residual_px << " → "
                                    << est.lens_residual_px;
  Pipeline bent = make_pipeline("cotulenh");
  bent.use_fit(est.fit, shot.image.size(), est.lens);
  const BoardObservation after = read_still(bent, shot.image);
  ASSERT_TRUE(after.read);
  const std::vector<std::string> foreign = pieces_on_empty_sites(model, after, shot.truth);
  EXPECT_TRUE(foreign.empty()) << listed(foreign);
  // The rectified image is made through the lens too: the pipeline's calibration carries it.
  ASSERT_TRUE(bent.calibration().has_value());
  EXPECT_TRUE(bent.calibration()->lens.has_value());
}

}  // namespace
}  // namespace sb::vision
