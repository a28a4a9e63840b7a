// The renderer's camera: a pinhole with OpenCV's lens distortion (k1 k2 p1 p2 k3) looking at the board.
//
// World frame: the board frame of calibration/board_model.h (millimetres, origin at the sheet's far-left
// corner, x to the first player's right, y towards the first player) with z = x × y pointing down into the
// table, so a point h mm above the board surface has z = -h. Camera frame: x right, y down in the image,
// z along the optical axis (OpenCV's convention); x_cam = R · x_world + t.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <opencv2/core.hpp>
#include <string>
#include <vector>

#include "calibration/board_model.h"

namespace sb::vision {

struct Camera {
  cv::Size image_size{1280, 720};
  cv::Matx33d K = cv::Matx33d::eye();  // camera matrix
  cv::Vec<double, 5> distortion{};     // k1 k2 p1 p2 k3, OpenCV's order
  cv::Matx33d R = cv::Matx33d::eye();
  cv::Vec3d t;

  cv::Vec3d to_camera(const cv::Vec3d& world) const { return R * world + t; }
  // Image position of a world point (with distortion). Points behind the camera come out far away.
  cv::Point2d project(const cv::Vec3d& world) const;
  // A point `height_mm` above the board surface at board position (x, y).
  cv::Point2d project(double x, double y, double height_mm = 0) const { return project(cv::Vec3d(x, y, -height_mm)); }
  // Normalised (ideal) image coordinates → distorted pixel.
  cv::Point2d distort_normalised(double xn, double yn) const;
  // Pixel → normalised ideal coordinates (inverse of distort_normalised, by fixed-point iteration).
  cv::Point2d undistort_pixel(cv::Point2d px) const;
  // Where the ray through pixel `px` meets the plane z = `plane_z` (board frame); false if it does not
  // (the ray runs away from the plane).
  bool pixel_to_plane(cv::Point2d px, double plane_z, cv::Point2d& board_xy) const;
  cv::Vec3d position() const;  // camera centre in the board frame
  double focal() const { return K(0, 0); }
  // Pixels per millimetre of a small object at world point p (the scale of the projection there).
  double px_per_mm(const cv::Vec3d& world) const;
  bool has_distortion() const;

  nlohmann::json to_json() const;
  static Camera from_json(const nlohmann::json& j, const std::string& where);
};

// How a camera is placed, in terms a person would describe: the numbers the renderer samples.
struct CameraPlacement {
  double tilt_deg = 0;        // 0: straight down; 45: looking at the board at 45° from vertical
  double azimuth_deg = 0;     // where the camera stands around the board: 0 behind the first player, 90 to
                              // that player's right, 180 behind the second player
  double roll_deg = 0;        // the camera turned about its own axis
  double px_per_pitch = 50;   // image distance between neighbouring sites at the aim point
  double hfov_deg = 62;       // horizontal field of view
  double k1 = 0, k2 = 0;      // radial distortion
  cv::Point2d aim_offset_mm;  // where the camera aims, from the playing area's centre

  nlohmann::json to_json() const;
  static CameraPlacement from_json(const nlohmann::json& j, const std::string& where);
};

Camera place_camera(const calib::BoardModel& model, const CameraPlacement& p, cv::Size image_size);

// The largest px_per_pitch (at this tilt, azimuth, roll…) for which the playing area, with a margin of
// `margin_pitches` around it and the tops of pieces `piece_height_mm` tall, stays `border_px` inside the image.
double max_px_per_pitch(const calib::BoardModel& model, CameraPlacement p, cv::Size image_size,
                        double margin_pitches = 0.6, double border_px = 8);

}  // namespace sb::vision
