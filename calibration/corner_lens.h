// The lens's radial distortion, found from the board itself when the board is given only by its four corners
// (--corners, no lens calibration). A cheap camera bends straight lines: a homography through the four corners
// then puts the sites between them off by up to a tenth of a pitch, enough for a line board's empty crossing to
// look foreign to the paint model. The board's drawing (every straight edge and line of BoardModel::drawing) is
// measured in the image, each point to subpixel across its line by matching the drawn profile there, and one
// radial term k1 (principal point at the image centre) is fitted so that the drawing lies where the corners'
// homography through that lens puts it. The corners stay where they were given.
//
// The lens is kept only when it clearly explains the drawing better than the plain homography (keep_ratio and
// keep_margin_px below, on the median distance of the measured drawing from each fit), so a straight camera keeps
// the plain fit.
#pragma once

#include <array>
#include <opencv2/core.hpp>
#include <optional>

#include "calibration/board_locator.h"
#include "calibration/board_model.h"
#include "calibration/lens.h"

namespace sb::calib {

struct CornerLensParams {
  double sample_step_pitch = 0.25;   // between measured points along each drawn line or edge, in pitches
  double profile_half_pitch = 0.35;  // the drawn profile matched across a line reaches this far each side
  double first_search_pitch = 0.3;   // how far a line is looked for from where the plain homography puts it
  double final_search_pitch = 0.12;  // … and from where the first estimate's fit puts it
  double min_match = 0.7;            // least normalised correlation of the image with the drawn profile
  double max_bend = 0.25;            // |k1| r² at the image's corner at most this (r in focal lengths)
  // The lens is kept when the drawing's median residual through it is at most keep_ratio of the plain one and
  // smaller by keep_margin_px. Straight cameras gave ratios of 0.89–1.17 (60 Cờ tư lệnh stills, dataset seed
  // 5200001), bent ones 0.1–0.8; a lens kept on a straight camera would move its sites by about 0.1 px.
  double keep_ratio = 0.6;
  double keep_margin_px = 0.1;
  // Fewer measured points of the drawing decide nothing: a draughts board's frame alone at 25 px per pitch (46–71
  // points) let noise pass for a lens on 3 of 24 straight cameras (dataset seed 9500001).
  int min_points = 100;
  double nominal_hfov_deg = 65;  // the focal length when the view's perspective does not tell it
};

struct CornerLens {
  BoardFit fit;              // through `lens` when it is kept; otherwise the plain four-corner homography
  std::optional<Lens> lens;  // the estimated lens, when kept (k1 only; rms_px is its median residual)
  double k1 = 0;             // the best radial term found, kept or not, at focal length focal_px
  double focal_px = 0;
  int points = 0;                // points of the drawing measured (the final measurement)
  double plain_residual_px = 0;  // their median distance from where the plain homography puts the drawing
  double lens_residual_px = 0;   // … and from where the fit through the estimated lens puts it
  double ms = 0;                 // time taken
};

// The fit of the board whose playing area's corners (near-left, near-right, far-right, far-left) are at
// `image_corners` in `image`, with the lens's radial distortion estimated from the board's drawing. Throws
// InputError as BoardLocator::from_corners does for corners that are no convex quadrilateral.
CornerLens fit_corners_with_lens(const BoardModel& model, const cv::Mat& image,
                                 const std::array<cv::Point2d, 4>& image_corners, const CornerLensParams& params = {});

}  // namespace sb::calib
