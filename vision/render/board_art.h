// The board sheet as a texture: the model's drawing painted in the look's colours on its material, with the
// ArUco markers, at a chosen resolution. The backdrop maps it through the camera.
#pragma once

#include <opencv2/core.hpp>

#include "calibration/board_model.h"
#include "vision/render/look.h"
#include "vision/render/rng.h"

namespace sb::vision {

struct BoardTexture {
  cv::Mat bgr;    // CV_8UC3, albedo (no light)
  cv::Mat alpha;  // CV_8U: 255 on the sheet, 0 in the padding around it
  double px_per_mm = 4;
  int pad = 2;
  // Texture pixel of board point (mm); pixel centres at integers.
  cv::Point2d to_px(double x_mm, double y_mm) const {
    return {pad + x_mm * px_per_mm - 0.5, pad + y_mm * px_per_mm - 0.5};
  }
};

BoardTexture paint_board(const calib::BoardModel& model, const BoardLook& look, double px_per_mm, Rng& rng);

// The OpenCV predefined dictionary a board model names ("DICT_4X4_100"); InputError for an unknown name.
int aruco_dictionary_id(const std::string& name);

}  // namespace sb::vision
