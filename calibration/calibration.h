// A board's calibration in one camera image: where the board is (a homography from the board frame to the
// ideal image), the lens when one was calibrated, and from them the image position of any board point at any
// height above the board. Saved and loaded as JSON with a version field.
#pragma once

#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <opencv2/core.hpp>
#include <optional>
#include <string>
#include <vector>

#include "calibration/board_locator.h"
#include "calibration/board_model.h"
#include "calibration/camera_pose.h"
#include "calibration/lens.h"

namespace sb::calib {

struct Calibration {
  std::string game;
  cv::Size image_size;
  BoardFit fit;
  std::optional<Lens> lens;

  int markers() const { return static_cast<int>(fit.marker_ids.size()); }

  // The camera that explains the fit (see pose_from_homography: the lens's camera matrix when there is one).
  CameraPose pose() const;
  // Board points (mm) `height_mm` above the board → image pixels (the lens's distortion applied). Height 0 is
  // the board itself; a piece's top face is at its height.
  std::vector<cv::Point2d> image_points(const std::vector<Vec2>& board_mm, double height_mm = 0) const;
  cv::Point2d image_point(Vec2 board_mm, double height_mm = 0) const;
  // Every site of `model`, in model order.
  std::vector<cv::Point2d> site_points(const BoardModel& model, double height_mm = 0) const;
  // The board point (mm) that an image pixel shows, at board level.
  Vec2 board_point(cv::Point2d image_px) const;

  // The saved form; with `model`, also every site's image position (`smartboard calibrate --json` prints its
  // sites, reprojection_error_px and markers).
  nlohmann::json to_json(const BoardModel* model = nullptr) const;
  static Calibration from_json(const nlohmann::json& j, const std::string& where);
};

constexpr int kCalibrationVersion = 1;

void save_calibration(const Calibration& c, const BoardModel& model, const std::filesystem::path& path);
// Throws InputError for a missing, corrupt or other-version file, or one made for another game or image size
// than expected.
Calibration load_calibration(const std::filesystem::path& path, const std::optional<std::string>& game = std::nullopt,
                             const std::optional<cv::Size>& image_size = std::nullopt);

}  // namespace sb::calib
