// The truth against what calibration sees: the project's own board locator, run on rendered pictures, must put
// every site (and the top of every piece) where the renderer's truth says it is. This is the check vision's
// evaluation relies on — a truth that disagreed with calibration by a pixel would be charged to the reader.
#include <gtest/gtest.h>

#include "calibration/board_locator.h"
#include "calibration/calibration.h"
#include "tests/vision/render/render_test_support.h"
#include "vision/render/renderer.h"
#include "vision/render/scene.h"

namespace sb::vision {
namespace {

using testing::plain_look;

// The lens the renderer's camera has, as calibration describes one (what `calibrate-lens` would measure).
calib::Lens lens_of(const Camera& camera) {
  calib::Lens lens;
  lens.image_size = camera.image_size;
  lens.camera_matrix = camera.K;
  lens.distortion.assign(camera.distortion.val, camera.distortion.val + 5);
  return lens;
}

struct View {
  const char* game;
  double tilt, azimuth, roll, k1, px_per_pitch_share;
  bool realistic;  // noise, light gradient, vignetting, JPEG
};

TEST(RenderedTruthAgainstCalibration, TheLocatorsFitPutsEverySiteWhereTheTruthDoes) {
  const View views[] = {
      {"brazilian", 0, 0, 0, 0, 0.9, false},      {"international", 30, 150, 6, -0.08, 0.95, true},
      {"english", 45, 80, -10, 0.05, 0.9, true},  {"morris9", 20, 300, 0, -0.12, 0.8, true},
      {"morris3", 10, 45, 20, 0, 0.7, false},     {"morris6", 40, 210, 3, 0, 0.9, true},
      {"morris12", 25, 20, -4, 0.06, 0.9, false}, {"cotoan", 35, 120, 0, -0.1, 0.95, true},
      {"cotulenh", 45, 0, 2, -0.05, 0.95, true},
  };
  for (const View& v : views) {
    calib::BoardModel m = calib::load_board_model(v.game);
    Look look = plain_look(v.game);
    look.camera.tilt_deg = v.tilt;
    look.camera.azimuth_deg = v.azimuth;
    look.camera.roll_deg = v.roll;
    look.camera.k1 = v.k1;
    look.camera.px_per_pitch = v.px_per_pitch_share * max_px_per_pitch(m, look.camera, {1280, 720});
    if (v.realistic) {
      look.sensor.noise = 3;
      look.sensor.jpeg_quality = 70;
      look.light.gradient = 0.3;
      look.light.vignette = 0.3;
    }
    Renderer r(m, look, {1280, 720}, 3);
    cv::Mat img = r.render({}, 3);

    std::optional<calib::Lens> lens;
    if (r.camera().has_distortion()) lens = lens_of(r.camera());
    calib::BoardLocator locator(m, {}, lens);
    std::optional<calib::BoardFit> fit = locator.locate(img);
    ASSERT_TRUE(fit.has_value()) << v.game << ": calibration found no board";
    calib::Calibration c{v.game, img.size(), *fit, lens};

    // Calibration's subpixel edges and the renderer's antialiased drawing agree to about a quarter of a pixel
    // (0.12–0.28 px worst per board when this was written); 0.6 px leaves room for neither to drift further.
    std::vector<cv::Point2d> fitted = c.site_points(m);
    double worst = 0;
    for (size_t i = 0; i < m.sites.size(); ++i) {
      const auto& s = m.sites[i];
      cv::Point2d truth = r.site_pixel(s.name);
      double err = cv::norm(fitted[i] - truth);
      EXPECT_LT(err, 0.6) << v.game << " site " << s.name;
      worst = std::max(worst, err);
    }
    // And a piece's top, where a reader looks for its identity, at the piece's height above the board.
    PieceInstance p;
    p.layers = {std::string(1, look.pieces.sides[0].side)};
    const auto& s = m.sites[m.sites.size() / 2];
    p.site = s.name;
    p.xy = {s.centre.x, s.centre.y};
    double top_mm = look.pieces.height_mm;
    EXPECT_LT(cv::norm(c.image_point({s.centre.x, s.centre.y}, top_mm) - r.top_pixel(p)), 1.0) << v.game;
    RecordProperty(std::string("worst_px_") + v.game, std::to_string(worst));
  }
}

}  // namespace
}  // namespace sb::vision
