// Finding a board in one image. Three ways, most exact first: the board's ArUco markers; four corners the
// operator gives (--corners); the board's outline, for plain printed boards without markers. Each gives a
// BoardFit, the homography from the board frame (mm) to the ideal image (the image with the lens's distortion
// removed; the image itself when there is no lens).
//
// Stages of locate(): detect (markers of this board; each marker's corners as the meeting points of its four
// edges, measured to subpixel), fit (RANSAC homography over every marker corner, then least squares on the
// inliers), refine (each marker measured again where the fit predicts it, and the fit repeated). Each stage
// is timed.
#pragma once

#include <array>
#include <opencv2/aruco.hpp>
#include <opencv2/core.hpp>
#include <optional>
#include <string>
#include <vector>

#include "calibration/board_model.h"
#include "calibration/lens.h"

namespace sb::calib {

struct LocatorParams {
  // detect: the smallest marker to look for, its perimeter as a fraction of the image's larger side (0.03 at
  // 1280 px is a marker about 10 px wide).
  double min_marker_perimeter_rate = 0.03;
  // detect: the adaptive threshold's window sizes, min to max in steps (each size is one pass over the
  // image: two passes find the board's markers from 30 to 100 px per square).
  int threshold_window_min = 9;
  int threshold_window_max = 21;
  int threshold_window_step = 12;
  // fit: a corner farther than this from the RANSAC fit marks its marker as misread.
  double ransac_threshold_px = 3.0;
  // fit: fewer markers than this is no fit (one marker alone extrapolates badly across the board).
  int min_markers = 2;
  // fit: a fit whose RMS reprojection error is larger is refused.
  double max_error_px = 2.5;
  // refine: re-measure every visible marker's edges where the first fit predicts them.
  bool refine = true;
  // refine: look for the markers the detector missed where the fit predicts them (their cell pattern searched
  // within a few pixels), and fit again with them.
  bool sight_missed_markers = true;
  // outline: the least normalised correlation between the image and the drawn board for an outline to count.
  double min_outline_score = 0.35;
};

// One of the board's markers seen in the image: corners in image pixels, in ArUco's order.
struct MarkerSighting {
  int id = 0;
  std::array<cv::Point2d, 4> corners;
};

struct BoardFit {
  cv::Matx33d board_to_ideal = cv::Matx33d::eye();
  std::string method;                // "markers", "corners" or "outline"
  std::vector<int> marker_ids;       // the markers the fit used
  int points = 0;                    // point correspondences used
  double reprojection_error_px = 0;  // RMS distance of those points from the fit, image pixels
};

struct LocatorTimes {
  double detect_ms = 0;
  double fit_ms = 0;
  double refine_ms = 0;
};

class BoardLocator {
 public:
  explicit BoardLocator(BoardModel model, LocatorParams params = {}, std::optional<Lens> lens = std::nullopt);

  const BoardModel& model() const { return model_; }
  const std::optional<Lens>& lens() const { return lens_; }
  const LocatorParams& params() const { return params_; }

  // The board's markers in `image` (grey or BGR). Markers of other dictionaries or other boards are ignored;
  // `foreign_ids`, when given, receives ids the dictionary knows that are not on this board.
  std::vector<MarkerSighting> detect(const cv::Mat& image, std::vector<int>* foreign_ids = nullptr) const;
  // The homography from sightings; nullopt when there are too few consistent markers.
  std::optional<BoardFit> fit(const std::vector<MarkerSighting>& sightings) const;
  // The refine stage: each marker of `sightings` that `fit` used is measured again where the fit predicts it,
  // its corners taken as the intersections of its four edges found to subpixel; the board's drawn outline is
  // measured the same way (its corners anchor the fit where hands hide markers); the fit is repeated.
  std::optional<BoardFit> refine(const cv::Mat& gray, const BoardFit& fit,
                                 const std::vector<MarkerSighting>& sightings) const;
  // detect + fit + refine.
  std::optional<BoardFit> locate(const cv::Mat& image, LocatorTimes* times = nullptr,
                                 std::vector<MarkerSighting>* sightings = nullptr) const;

  // The fit that puts the playing area's corners (near-left, near-right, far-right, far-left) at the given
  // image points. Throws InputError when the four points do not form a convex quadrilateral in that order.
  BoardFit from_corners(const std::array<cv::Point2d, 4>& image_corners) const;

  // Looks for the board's outline (the largest convex quadrilateral of strong edges) and takes its lowest
  // side in the image as the first player's near side. nullopt when nothing board-like is found.
  std::optional<BoardFit> find_outline(const cv::Mat& image) const;

  // Image pixels of board points (mm, at board level) under `fit`, the lens distortion applied.
  std::vector<cv::Point2d> project(const BoardFit& fit, const std::vector<Vec2>& board_mm) const;

 private:
  // The homography through board points → image pixels (least squares, then Levenberg–Marquardt) and its RMS
  // error; points == 0 when none fits.
  BoardFit least_squares(const std::vector<cv::Point2d>& board, const std::vector<cv::Point2d>& image_px,
                         const std::string& method) const;
  // `marker` looked for near where `fit` puts it, by its cell pattern (row-major, black = true); nullopt unless
  // nearly every cell shows its own colour at the best offset and the marker's edges are found there.
  std::optional<MarkerSighting> sight_near(const cv::Mat& gray, const BoardFit& fit, const Marker& marker,
                                           const std::vector<bool>& pattern) const;
  std::vector<cv::Point2d> to_ideal(const std::vector<cv::Point2d>& image_px) const;
  std::vector<cv::Point2d> to_image(const std::vector<cv::Point2d>& ideal_px) const;

  BoardModel model_;
  LocatorParams params_;
  std::optional<Lens> lens_;
  cv::Ptr<cv::aruco::Dictionary> dictionary_;
  cv::Ptr<cv::aruco::DetectorParameters> detector_;
};

cv::Mat gray_of(const cv::Mat& image);
cv::Point2d apply_homography(const cv::Matx33d& h, cv::Point2d p);

}  // namespace sb::calib
