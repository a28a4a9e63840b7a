// Synthetic photographs of a printed board with exactly known geometry: the board drawn from its model, seen
// by a pinhole camera at a chosen tilt, rotation and scale, on a textured table, with blur, noise, uneven light,
// hands over some markers and optionally a distorting lens. Calibration's tests and `smartboard bench vision`
// measure against these.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <opencv2/core.hpp>
#include <optional>
#include <string>
#include <vector>

#include "calibration/board_model.h"
#include "calibration/camera_pose.h"
#include "calibration/lens.h"

namespace sb::calib {

struct SyntheticViewParams {
  cv::Size image_size{1280, 720};
  double focal_px = 1000;            // the camera's focal length (principal point at the image centre)
  double tilt_deg = 0;               // 0: straight down; the camera leans back towards the first player
  double rotation_deg = 0;           // the board turned in the image
  double px_per_pitch = 50;          // image distance between neighbouring sites at the board's centre
  cv::Point2d aim_offset_mm;         // where the camera aims, from the sheet's centre
  double blur_sigma_px = 0;          // optical blur
  double noise_sigma = 0;            // grey levels of Gaussian noise
  double light_falloff = 0;          // 0..0.8: brightness falls by this fraction across the image
  double light_angle_deg = 0;        // the direction it falls towards
  std::vector<int> covered_markers;  // ids hidden under hand-coloured blobs
  std::optional<Lens> lens;          // a distorting lens (its camera matrix replaces focal_px)
  bool draw_markers = true;          // false: a plain printed board
  uint64_t seed = 1;                 // table texture and noise
};

struct SyntheticView {
  cv::Mat image;                             // BGR
  CameraPose pose;                           // the true camera
  cv::Matx33d board_to_ideal;                // board mm → ideal pixels (= image pixels without a lens)
  std::map<std::string, cv::Point2d> sites;  // true image position of every site centre at board level
  bool sheet_inside = false;                 // the whole sheet is within the image
};

SyntheticView synthetic_view(const BoardModel& model, const SyntheticViewParams& params);

// The same for any flat sheet: `sheet` drawn at `sheet_px_per_mm`, `size_mm` large, `pitch_mm` the spacing that
// params.px_per_pitch refers to. No markers are covered and `sites` stays empty.
SyntheticView synthetic_sheet_view(const cv::Mat& sheet, double sheet_px_per_mm, Vec2 size_mm, double pitch_mm,
                                   const SyntheticViewParams& params);

// The camera of synthetic_view without drawing anything: for choosing scales that keep a board in view.
CameraPose synthetic_camera(Vec2 size_mm, double pitch_mm, const SyntheticViewParams& params);

}  // namespace sb::calib
