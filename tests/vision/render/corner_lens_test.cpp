// A board given only by its four corners (--corners) under a barrel-distorting lens: the fit estimates the lens
// from the board's own drawing and puts every site where the renderer drew it; a straight camera keeps the plain
// homography.
#include "calibration/corner_lens.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "calibration/board_locator.h"
#include "calibration/calibration.h"
#include "tests/vision/render/render_test_support.h"
#include "vision/render/renderer.h"
#include "vision/render/scene.h"
#include "vision/render/truth.h"

namespace sb::vision {
namespace {

struct Shot {
  cv::Mat image;
  std::array<cv::Point2d, 4> corners;
  std::vector<cv::Point2d> sites;  // the truth, in model order
};

// `game` seen by a camera with radial term `k1` (hfov 74°, as simulation 8741007's look), a piece on every other
// site of the near and far quarters (a start's worth of pieces hiding the drawing), with sensor noise and JPEG.
Shot shoot(const std::string& game, double k1, double tilt_deg, uint64_t seed) {
  const calib::BoardModel m = calib::load_board_model(game);
  Look look = testing::plain_look(game);
  look.camera.hfov_deg = 74;
  look.camera.k1 = k1;
  look.camera.tilt_deg = tilt_deg;
  look.camera.azimuth_deg = 10;
  look.camera.roll_deg = 3;
  look.sensor.noise = 3;
  look.sensor.jpeg_quality = 80;
  look.camera.px_per_pitch = 0.92 * max_px_per_pitch(m, look.camera, {1280, 720});
  Renderer r(m, look, {1280, 720}, seed);
  BoardContents board;
  for (size_t i = 0; i < m.sites.size(); i += 2) {
    const double y = m.sites[i].centre.y;
    const auto& q = m.playing_area_corners();
    const double near = q[0].y, far = q[3].y, quarter = (near - far) / 4;
    if (y > near - quarter) board[m.sites[i].name] = {std::string(1, look.pieces.sides[0].side) + "I"};
    if (y < far + quarter) board[m.sites[i].name] = {std::string(1, look.pieces.sides[1].side) + "I"};
  }
  if (game != "cotulenh")
    for (auto& [site, layers] : board) layers = {layers[0].substr(0, 1) + (game == "cotoan" ? "5" : "")};
  Rng rng(seed);
  Scene scene;
  scene.pieces = place_pieces(m, look.pieces, board, rng);
  Shot s;
  s.image = r.render(scene, seed);
  const nlohmann::json g = geometry_json(r);
  for (size_t k = 0; k < 4; ++k) s.corners[k] = {g["corners"][k][0].get<double>(), g["corners"][k][1].get<double>()};
  for (const auto& site : m.sites) s.sites.push_back(r.site_pixel(site.name));
  return s;
}

// The largest and the median distance of the fitted sites from the truth.
std::pair<double, double> site_errors(const calib::Calibration& c, const calib::BoardModel& m, const Shot& s) {
  std::vector<cv::Point2d> fitted = c.site_points(m);
  std::vector<double> e;
  for (size_t i = 0; i < fitted.size(); ++i) e.push_back(cv::norm(fitted[i] - s.sites[i]));
  std::sort(e.begin(), e.end());
  return {e.back(), e[e.size() / 2]};
}

TEST(CornerLens, ABarrelLensIsFoundFromTheBoardAndPutsEverySiteWithinAPixel) {
  for (const char* game : {"cotulenh", "brazilian", "morris9", "cotoan"}) {
    const calib::BoardModel m = calib::load_board_model(game);
    const Shot s = shoot(game, -0.18, 20, 11);
    const calib::Calibration plain{game, s.image.size(), calib::BoardLocator(m).from_corners(s.corners), std::nullopt};
    const auto [plain_worst, plain_median] = site_errors(plain, m, s);
    // The plain homography is several pixels off between the corners (the problem this solves).
    EXPECT_GT(plain_worst, 3.0) << game;

    const calib::CornerLens est = calib::fit_corners_with_lens(m, s.image, s.corners);
    ASSERT_TRUE(est.lens.has_value()) << game << ": no lens kept; k1 " << est.k1 << ", " << est.points
                                      << " points, residual " << est.plain_residual_px << " → " << est.lens_residual_px;
    const calib::Calibration bent{game, s.image.size(), est.fit, est.lens};
    const auto [worst, median] = site_errors(bent, m, s);
    EXPECT_LT(worst, 1.0) << game << " (plain " << plain_worst << ")";
    EXPECT_LT(median, 0.5) << game << " (plain " << plain_median << ")";
    RecordProperty(std::string("worst_px_") + game, std::to_string(plain_worst) + " -> " + std::to_string(worst));
  }
}

TEST(CornerLens, AStraightCameraKeepsThePlainHomography) {
  for (const char* game : {"cotulenh", "international", "morris12"}) {
    const calib::BoardModel m = calib::load_board_model(game);
    const Shot s = shoot(game, 0, 30, 12);
    const calib::CornerLens est = calib::fit_corners_with_lens(m, s.image, s.corners);
    EXPECT_FALSE(est.lens.has_value()) << game << ": k1 " << est.k1 << ", residual " << est.plain_residual_px << " → "
                                       << est.lens_residual_px;
    const calib::BoardFit plain = calib::BoardLocator(m).from_corners(s.corners);
    EXPECT_LT(cv::norm(est.fit.board_to_ideal - plain.board_to_ideal), 1e-9) << game;
    EXPECT_GT(est.points, 100) << game;
  }
}

}  // namespace
}  // namespace sb::vision
