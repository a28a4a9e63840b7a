// Lens calibration from synthetic views of the printed ChArUco sheet through a known distorting lens, and the
// lens applied when locating a board.
#include "calibration/lens.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "calibration/board_locator.h"
#include "calibration/synthetic_view.h"
#include "engines/common/errors.h"

namespace sb::calib {
namespace {

Lens barrel_lens() {
  Lens lens;
  lens.image_size = {1280, 720};
  lens.camera_matrix = cv::Matx33d(900, 0, 639.5, 0, 900, 359.5, 0, 0, 1);
  lens.distortion = {-0.28, 0.09, 0, 0, 0};
  return lens;
}

// Views of the sheet spread over the frame, as a person would hold a camera over it.
std::vector<cv::Mat> sheet_views(const Lens& lens, int count) {
  LensTarget target;
  double px_per_mm = 4;
  cv::Mat sheet = target.image(px_per_mm);
  std::vector<cv::Mat> views;
  for (int i = 0; i < count; ++i) {
    SyntheticViewParams p;
    p.lens = lens;
    // A 3 × 3 spread of places, so the sheet reaches every part of the frame, at varied tilts and turns.
    p.tilt_deg = 10 + 15.0 * (i % 3);
    p.rotation_deg = 90.0 * (i % 4) + 7 * i;
    p.px_per_pitch = 62;
    p.aim_offset_mm = {(i % 3 - 1) * 150.0, (i / 3 % 3 - 1) * 80.0};
    p.noise_sigma = 2, p.blur_sigma_px = 0.6;
    p.seed = 500 + i;
    views.push_back(synthetic_sheet_view(sheet, px_per_mm, target.size_mm(), target.square_mm, p).image);
  }
  return views;
}

TEST(LensCalibration, RecoversAKnownBarrelDistortion) {
  Lens truth = barrel_lens();
  LensCalibration result = calibrate_lens(sheet_views(truth, 9), {});
  const Lens& lens = result.lens;
  EXPECT_EQ(lens.image_size, truth.image_size);
  EXPECT_EQ(lens.views, 9);
  EXPECT_LT(lens.rms_px, 0.5);
  EXPECT_NEAR(lens.camera_matrix(0, 0), 900, 900 * 0.02);
  EXPECT_NEAR(lens.camera_matrix(1, 1), 900, 900 * 0.02);
  // What calibration needs from a lens: undistorted, a flat board is a perfect perspective view of it. A tilted
  // grid covering most of the frame, seen through the true lens and undistorted with the calibrated one, must
  // fit a homography to a fraction of a pixel; without undistortion it is far off.
  SyntheticViewParams camera;
  camera.lens = truth, camera.tilt_deg = 30, camera.rotation_deg = 10, camera.px_per_pitch = 50;
  cv::Matx33d board_to_ideal = synthetic_camera({600, 340}, 25, camera).plane_homography(0);
  std::vector<cv::Point2d> board, seen;
  for (int y = 0; y <= 320; y += 20)
    for (int x = 0; x <= 600; x += 25) {
      cv::Vec3d v = board_to_ideal * cv::Vec3d(x, y, 1);
      cv::Point2d ideal(v[0] / v[2], v[1] / v[2]);
      if (ideal.x < 20 || ideal.y < 20 || ideal.x > 1260 || ideal.y > 700) continue;
      board.emplace_back(x, y);
      seen.push_back(ideal);
    }
  ASSERT_GT(board.size(), 200u);
  seen = truth.distort(seen);
  auto homography_residual = [&](const std::vector<cv::Point2d>& pts, double* rms) {
    cv::Matx33d h(cv::findHomography(board, pts, 0));
    double worst = 0, sum = 0;
    for (size_t i = 0; i < board.size(); ++i) {
      cv::Vec3d v = h * cv::Vec3d(board[i].x, board[i].y, 1);
      double e = cv::norm(cv::Point2d(v[0] / v[2], v[1] / v[2]) - pts[i]);
      worst = std::max(worst, e), sum += e * e;
    }
    *rms = std::sqrt(sum / board.size());
    return worst;
  };
  double rms = 0, rms_raw = 0;
  double worst = homography_residual(lens.undistort(seen), &rms);
  double worst_raw = homography_residual(seen, &rms_raw);
  EXPECT_LT(rms, 0.15) << "focal " << lens.camera_matrix(0, 0) << " k1 " << lens.distortion[0] << " k2 "
                       << lens.distortion[1];
  EXPECT_LT(worst, 0.5);
  EXPECT_GT(worst_raw, 10.0);  // the distortion is large: ignoring it would be visibly wrong
}

TEST(LensCalibration, TooFewViewsOfTheSheetIsAClearError) {
  Lens truth = barrel_lens();
  std::vector<cv::Mat> views = sheet_views(truth, 2);
  views.push_back(cv::Mat(720, 1280, CV_8UC3, cv::Scalar(90, 110, 130)));  // a view of the table only
  try {
    calibrate_lens(views, {"a.png", "b.png", "table.png"});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("only 2 of 3 images show the ChArUco sheet"), std::string::npos) << e.what();
  }
  std::vector<cv::Mat> mixed = {views[0], cv::Mat(480, 640, CV_8UC3, cv::Scalar(0))};
  EXPECT_THROW(calibrate_lens(mixed, {}), InputError);
}

TEST(LensCalibration, LensFilesRoundTripAndRefuseOtherVersions) {
  Lens lens = barrel_lens();
  lens.rms_px = 0.2, lens.views = 8;
  std::string path = ::testing::TempDir() + std::to_string(::getpid()) + "_lens_roundtrip.json";
  save_lens(lens, path);
  Lens back = load_lens(path);
  EXPECT_EQ(back.to_json(), lens.to_json());
  auto j = lens.to_json();
  j["version"] = 7;
  EXPECT_THROW(Lens::from_json(j, "x.json"), InputError);
  j = lens.to_json();
  j["kind"] = "smartboard-calibration";
  EXPECT_THROW(Lens::from_json(j, "x.json"), InputError);
  j = lens.to_json();
  j["distortion"] = {1, 2, 3};
  EXPECT_THROW(Lens::from_json(j, "x.json"), InputError);
  EXPECT_THROW(lens.check_image_size({640, 480}, "image"), InputError);
}

TEST(LensCalibration, TheLensIsAppliedWhenLocatingABoard) {
  Lens lens = barrel_lens();
  BoardModel model = load_board_model("cotoan");
  SyntheticViewParams p;
  p.lens = lens;
  p.tilt_deg = 20, p.rotation_deg = 90, p.px_per_pitch = 46;  // the board reaches the distorted edges
  p.noise_sigma = 2, p.blur_sigma_px = 0.7;
  SyntheticView view = synthetic_view(model, p);
  auto worst_error = [&](const BoardLocator& locator) {
    auto fit = locator.locate(view.image);
    if (!fit) return 1e9;
    double worst = 0;
    for (const Site& s : model.sites)
      worst = std::max(worst, cv::norm(locator.project(*fit, {s.centre})[0] - view.sites.at(s.name)));
    return worst;
  };
  EXPECT_LT(worst_error(BoardLocator(model, {}, lens)), 0.5);
  EXPECT_GT(worst_error(BoardLocator(model)), 2.0);  // ignoring the lens is visibly wrong
}

}  // namespace
}  // namespace sb::calib
