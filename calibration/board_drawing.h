// Drawing a board model with cairo: onto any cairo context (pages, PDF, SVG) or into an OpenCV image (the
// top-down picture the synthetic tests and renderer start from).
#pragma once

#include <cairo.h>

#include <array>
#include <functional>
#include <opencv2/core.hpp>

#include "calibration/board_model.h"

namespace sb::calib {

using Rgb = std::array<double, 3>;  // 0..1

// The colour of each Paint role; defaults print well in colour and in grey.
struct BoardStyle {
  Rgb paper{1, 1, 1};
  Rgb light{0.96, 0.92, 0.84};
  Rgb dark{0.42, 0.55, 0.40};
  Rgb ink{0, 0, 0};
  Rgb water{0.66, 0.82, 0.93};
  Rgb land{0.95, 0.90, 0.78};
  Rgb marker{0, 0, 0};
  bool markers = true;  // draw the ArUco markers
  const Rgb& colour(Paint p) const;
};

// Paints the sheet (paper, drawing, markers) on `cr`, whose user space must be the board frame in millimetres.
void draw_board(cairo_t* cr, const BoardModel& model, const BoardStyle& style = {});

// A top-down picture of the whole sheet at `px_per_mm`, 8-bit BGR, antialiased.
cv::Mat board_image(const BoardModel& model, double px_per_mm, const BoardStyle& style = {});

// Anything drawn in millimetres (`draw` paints on a context whose user space is mm), as an 8-bit BGR image of
// `size_mm` at `px_per_mm` on white.
cv::Mat draw_to_image(Vec2 size_mm, double px_per_mm, const std::function<void(cairo_t*)>& draw);

// Where board point `p` (mm) is in board_image(…, px_per_mm): OpenCV's convention, pixel centres at integers.
inline cv::Point2d board_image_point(Vec2 p, double px_per_mm) {
  return {p.x * px_per_mm - 0.5, p.y * px_per_mm - 0.5};
}

}  // namespace sb::calib
