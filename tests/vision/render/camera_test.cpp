#include "vision/render/camera.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "calibration/board_model.h"

namespace sb::vision {
namespace {

TEST(Camera, OverheadCameraSeesTheBoardAsPrintedWithFirstPlayerAtTheBottom) {
  calib::BoardModel m = calib::load_board_model("brazilian");
  CameraPlacement p;
  p.px_per_pitch = 50;
  Camera cam = place_camera(m, p, {1280, 720});
  const auto& q = m.playing_area_corners();  // near-left, near-right, far-right, far-left
  cv::Point2d nl = cam.project(q[0].x, q[0].y), nr = cam.project(q[1].x, q[1].y), fl = cam.project(q[3].x, q[3].y);
  EXPECT_GT(nr.x, nl.x);                            // the first player's right is the image's right
  EXPECT_GT(nl.y, fl.y);                            // near is at the bottom
  EXPECT_NEAR(nr.x - nl.x, 8 * 50, 8 * 50 * 0.02);  // 8 squares at 50 px each
}

TEST(Camera, PixelToPlaneInvertsProjectionWithDistortion) {
  calib::BoardModel m = calib::load_board_model("cotulenh");
  CameraPlacement p;
  p.tilt_deg = 40;
  p.azimuth_deg = 120;
  p.roll_deg = 7;
  p.k1 = -0.15;
  p.k2 = 0.03;
  p.px_per_pitch = 45;
  Camera cam = place_camera(m, p, {1280, 720});
  for (double h : {0.0, 8.0})
    for (const auto& s : m.sites) {
      cv::Point2d px = cam.project(s.centre.x, s.centre.y, h), back;
      ASSERT_TRUE(cam.pixel_to_plane(px, -h, back));
      EXPECT_NEAR(back.x, s.centre.x, 1e-6) << s.name;
      EXPECT_NEAR(back.y, s.centre.y, 1e-6) << s.name;
    }
}

TEST(Camera, JsonRoundTripKeepsTheCamera) {
  calib::BoardModel m = calib::load_board_model("morris9");
  CameraPlacement p;
  p.tilt_deg = 20;
  p.k1 = 0.05;
  Camera cam = place_camera(m, p, {640, 480});
  Camera back = Camera::from_json(cam.to_json(), "test");
  cv::Point2d a = cam.project(10, 20, 5), b = back.project(10, 20, 5);
  EXPECT_NEAR(a.x, b.x, 1e-9);
  EXPECT_NEAR(a.y, b.y, 1e-9);
  EXPECT_EQ(back.image_size, cv::Size(640, 480));
}

TEST(Camera, FitKeepsThePlayingAreaInsideTheImageAtAnyRotation) {
  calib::BoardModel m = calib::load_board_model("cotoan");
  for (double az : {0.0, 37.0, 90.0, 135.0, 222.0}) {
    CameraPlacement p;
    p.tilt_deg = 45;
    p.azimuth_deg = az;
    p.px_per_pitch = max_px_per_pitch(m, p, {1280, 720});
    EXPECT_GE(p.px_per_pitch, 25) << az;
    Camera cam = place_camera(m, p, {1280, 720});
    for (const auto& c : m.playing_area_corners()) {
      cv::Point2d px = cam.project(c.x, c.y);
      EXPECT_GE(px.x, 0);
      EXPECT_GE(px.y, 0);
      EXPECT_LT(px.x, 1280);
      EXPECT_LT(px.y, 720);
    }
  }
}

}  // namespace
}  // namespace sb::vision
