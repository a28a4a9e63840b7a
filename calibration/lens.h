// The camera's lens: intrinsics and distortion from several views of a printed ChArUco sheet, saved as JSON
// and applied by calibration when present.
#pragma once

#include <cairo.h>

#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <opencv2/aruco/charuco.hpp>
#include <opencv2/core.hpp>
#include <string>
#include <vector>

#include "calibration/board_model.h"

namespace sb::calib {

// The printable ChArUco sheet: a chessboard whose white squares hold ArUco markers (OpenCV's layout: the
// far-left square is black). Its dictionary differs from the board models' so a board is never taken for it.
struct LensTarget {
  int squares_x = 6;
  int squares_y = 8;
  double square_mm = 30;
  double marker_mm = 22;
  std::string dictionary = "DICT_5X5_100";

  cv::Ptr<cv::aruco::CharucoBoard> board() const;
  Vec2 size_mm() const { return {squares_x * square_mm, squares_y * square_mm}; }
  // The inner chessboard corners in the sheet frame (mm, y down), named "0", "1", … in OpenCV's order.
  std::vector<Site> corners() const;
  // Paints the sheet on `cr`, whose user space must be the sheet frame in millimetres.
  void draw(cairo_t* cr) const;
  // The sheet as an image, `px_per_mm` pixels per millimetre (BGR).
  cv::Mat image(double px_per_mm) const;
  nlohmann::json to_json() const;
};

struct Lens {
  cv::Size image_size;
  cv::Matx33d camera_matrix = cv::Matx33d::eye();
  std::vector<double> distortion;  // OpenCV's k1 k2 p1 p2 k3
  double rms_px = 0;               // reprojection error of the calibration, RMS over all corners
  int views = 0;                   // views the calibration used

  // Image pixels → the pixels an ideal (distortion-free) camera with the same camera matrix would see.
  std::vector<cv::Point2d> undistort(const std::vector<cv::Point2d>& image_px) const;
  // The inverse: ideal pixels → image pixels.
  std::vector<cv::Point2d> distort(const std::vector<cv::Point2d>& ideal_px) const;
  // Throws InputError when `size` is not the size the lens was calibrated at.
  void check_image_size(cv::Size size, const std::string& what) const;

  nlohmann::json to_json() const;
  static Lens from_json(const nlohmann::json& j, const std::string& where);
};

constexpr int kLensVersion = 1;

void save_lens(const Lens& lens, const std::filesystem::path& path);
// Throws InputError for a missing, corrupt or other-version file.
Lens load_lens(const std::filesystem::path& path);

struct LensView {
  std::string name;  // for messages: the file name
  int corners = 0;   // ChArUco corners found; views with fewer than 8 are not used
  bool used = false;
};

struct LensCalibration {
  Lens lens;
  std::vector<LensView> views;
};

// Calibrates from images of the sheet (all the same size). Throws InputError when fewer than 4 views show
// the sheet well enough (at least 8 corners), naming how many did.
LensCalibration calibrate_lens(const std::vector<cv::Mat>& images, const std::vector<std::string>& names,
                               const LensTarget& target = {});

}  // namespace sb::calib
