// Saved calibrations (JSON with a version; clear errors for broken or mismatched files) and the mapping of the
// plane at a piece's height above the board.
#include "calibration/calibration.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "calibration/synthetic_view.h"
#include "engines/common/errors.h"

namespace sb::calib {
namespace {

struct Located {
  BoardModel model;
  SyntheticView view;
  Calibration calibration;
};

Located locate(const std::string& game, SyntheticViewParams p) {
  Located l{load_board_model(game), {}, {}};
  l.view = synthetic_view(l.model, p);
  BoardLocator locator(l.model, {}, p.lens);
  auto fit = locator.locate(l.view.image);
  EXPECT_TRUE(fit.has_value());
  l.calibration.game = game;
  l.calibration.image_size = l.view.image.size();
  l.calibration.lens = p.lens;
  if (fit) l.calibration.fit = *fit;
  return l;
}

cv::Point2d project(const cv::Matx33d& h, Vec2 p) {
  cv::Vec3d v = h * cv::Vec3d(p.x, p.y, 1);
  return {v[0] / v[2], v[1] / v[2]};
}

TEST(PieceHeight, TopFacesLandWhereTheTrueCameraSeesThem) {
  for (double tilt : {20.0, 45.0}) {
    SyntheticViewParams p;
    p.tilt_deg = tilt, p.rotation_deg = 30, p.px_per_pitch = 40, p.noise_sigma = 2;
    Located l = locate("brazilian", p);
    CameraPose estimated = l.calibration.pose();
    EXPECT_FALSE(estimated.focal_assumed);
    EXPECT_NEAR(estimated.camera_matrix(0, 0), p.focal_px, p.focal_px * 0.05) << "tilt " << tilt;
    for (double height : {5.0, 10.0}) {
      cv::Matx33d truth = l.view.pose.plane_homography(height);
      double worst = 0, displacement = 0;
      for (const Site& s : l.model.sites) {
        cv::Point2d got = l.calibration.image_point(s.centre, height);
        worst = std::max(worst, cv::norm(got - project(truth, s.centre)));
        displacement = std::max(displacement, cv::norm(got - l.view.sites.at(s.name)));
      }
      EXPECT_LT(worst, 0.5) << "tilt " << tilt << " height " << height;
      EXPECT_GT(displacement, 2.0);  // the top face is visibly away from the base: the mapping matters
    }
  }
}

TEST(PieceHeight, AStraightDownViewAssumesAWebcamFieldOfView) {
  SyntheticViewParams p;
  p.px_per_pitch = 40;
  Located l = locate("cotoan", p);
  CameraPose pose = l.calibration.pose();
  EXPECT_TRUE(pose.focal_assumed);
  // The camera stands above the board (negative z: the board's z points into the table).
  EXPECT_LT(pose.camera_position()[2], 0);
}

TEST(PieceHeight, WithALensTheLensCameraIsUsed) {
  Lens lens;
  lens.image_size = {1280, 720};
  lens.camera_matrix = cv::Matx33d(1100, 0, 639.5, 0, 1100, 359.5, 0, 0, 1);
  lens.distortion = {-0.1, 0.02, 0, 0, 0};
  SyntheticViewParams p;
  p.lens = lens, p.tilt_deg = 30, p.px_per_pitch = 40;
  Located l = locate("morris9", p);
  EXPECT_EQ(l.calibration.pose().camera_matrix, lens.camera_matrix);
  cv::Matx33d truth = l.view.pose.plane_homography(8);
  for (const Site& s : l.model.sites) {
    cv::Point2d want = lens.distort({project(truth, s.centre)})[0];
    EXPECT_LT(cv::norm(l.calibration.image_point(s.centre, 8) - want), 0.5) << s.name;
  }
}

TEST(SavedCalibration, RoundTripsAndCarriesTheSites) {
  SyntheticViewParams p;
  p.tilt_deg = 25, p.px_per_pitch = 40;
  Located l = locate("cotulenh", p);
  std::string path = ::testing::TempDir() + std::to_string(::getpid()) + "_calibration_roundtrip.json";
  save_calibration(l.calibration, l.model, path);
  Calibration back = load_calibration(path, std::string("cotulenh"), cv::Size(1280, 720));
  EXPECT_EQ(back.to_json(&l.model), l.calibration.to_json(&l.model));
  nlohmann::json j = l.calibration.to_json(&l.model);
  EXPECT_EQ(j["sites"].size(), 132u);
  EXPECT_EQ(j["markers"], 8);
  EXPECT_TRUE(j["reprojection_error_px"].is_number());
  for (const Site& s : l.model.sites)
    EXPECT_LT(std::hypot(j["sites"][s.name][0].get<double>() - l.view.sites.at(s.name).x,
                         j["sites"][s.name][1].get<double>() - l.view.sites.at(s.name).y),
              0.5);
  // The board point of a site's pixel is the site.
  Vec2 back_point = back.board_point(l.view.sites.at("f6"));
  EXPECT_NEAR(back_point.x, l.model.site("f6").centre.x, 0.05);
  EXPECT_NEAR(back_point.y, l.model.site("f6").centre.y, 0.05);
}

class BrokenCalibrationFile : public ::testing::Test {
 protected:
  std::string path = ::testing::TempDir() + std::to_string(::getpid()) + "_calibration_broken.json";
  nlohmann::json good;
  void SetUp() override {
    Calibration c;
    c.game = "morris3";
    c.image_size = {1280, 720};
    c.fit.method = "corners";
    c.fit.board_to_ideal = cv::Matx33d(2, 0, 100, 0, 2, 50, 0, 0, 1);
    good = c.to_json();
  }
  std::string error_loading(const nlohmann::json& j, std::optional<std::string> game = std::nullopt,
                            std::optional<cv::Size> size = std::nullopt) {
    std::ofstream(path) << j.dump();
    try {
      load_calibration(path, game, size);
    } catch (const InputError& e) {
      return e.what();
    }
    return "(no error)";
  }
};

TEST_F(BrokenCalibrationFile, OtherVersionIsRefused) {
  nlohmann::json j = good;
  j["version"] = 2;
  EXPECT_NE(error_loading(j).find("version: is 2; this program reads calibrations of version 1"), std::string::npos);
}

TEST_F(BrokenCalibrationFile, AnotherGameOrImageSizeIsRefused) {
  EXPECT_NE(error_loading(good, std::string("morris9")).find("is a calibration of 'morris3', not 'morris9'"),
            std::string::npos);
  EXPECT_NE(
      error_loading(good, std::nullopt, cv::Size(640, 480)).find("was made on 1280x720 images, these are 640x480"),
      std::string::npos);
  EXPECT_EQ(error_loading(good, std::string("morris3"), cv::Size(1280, 720)), "(no error)");
}

TEST_F(BrokenCalibrationFile, MissingOrWrongFieldsAreNamed) {
  nlohmann::json j = good;
  j.erase("board_to_image");
  EXPECT_EQ(error_loading(j), path + ": board_to_image: missing");
  j = good;
  j["board_to_image"][1] = {1, "x", 3};
  EXPECT_EQ(error_loading(j), path + ": board_to_image[1][1]: expected a number");
  j = good;
  j["kind"] = "smartboard-lens";
  EXPECT_NE(error_loading(j).find("not a calibration file"), std::string::npos);
  std::ofstream(path) << "{\"version\": 1, ";
  EXPECT_THROW(load_calibration(path), InputError);
  EXPECT_THROW(load_calibration(path + ".missing"), InputError);
}

}  // namespace
}  // namespace sb::calib
