// Whether the camera moved: a frame registered against a reference view of the same still scene.
//
// A plain board (no markers) is located once, from the operator's corners, a saved calibration or its drawn
// outline; a knocked camera then shows it elsewhere, and every read after that would be of the wrong cells.
// The scene round a board is mostly still (the table, the board's own drawing, the pieces that did not move),
// so features matched between the view the fit was made on and a new settled view tell the image motion: a
// homography (the board and the table are one plane, near enough) found by RANSAC, where the pieces moved
// since are outliers.
//
// Stages of check(): detect (ORB corners and descriptors of the new view, in a mask round the board) → match
// (mutual nearest neighbours against the reference's) → fit (RANSAC homography, then the displacement of the
// board's corners under it).
#pragma once

#include <opencv2/core.hpp>
#include <optional>
#include <vector>

namespace sb::vision {

struct RegistrationParams {
  int features = 1200;            // ORB corners per view
  double ransac_px = 2.0;         // RANSAC inlier distance, image pixels
  int min_inliers = 40;           // fewer: the check cannot tell (hands, a view too plain)
  double min_inlier_share = 0.3;  // of the matches
  double moved_px = 1.5;          // a board corner displaced by more than this: the camera moved ...
  // ... unless no motion at all explains the matches nearly as well, each within still_px, as the fitted one
  // does: at least still_share as many.
  double still_px = 1.0;
  double still_share = 0.5;
  // When the matches of the whole views tell nothing, the views' shift is found by phase correlation at
  // 1/shift_scale of their size, and each reference feature is matched only among the new view's within
  // guided_radius_px of where that shift puts it (0: not tried). A board's squares are one corner repeated: after
  // a knock of a pitch or so, matching over the whole view pairs most of them with a neighbour's.
  int shift_scale = 4;
  double guided_radius_px = 16;
};

struct Registration {
  bool told = false;                              // enough consistent matches to tell
  bool moved = false;                             // told, and a corner of the watched quad moved by more than moved_px
  cv::Matx33d image_motion = cv::Matx33d::eye();  // reference image pixels → the new view's
  int matches = 0, inliers = 0;
  double corner_shift_px = 0;  // largest displacement of the watched quad's corners
  int fitted_close = 0;        // matches within still_px of where the fitted motion puts them
  int still_close = 0;         // matches within still_px of where they were
  bool guided = false;         // told by the matches guided by the views' shift
  cv::Point2d shift;           // that shift (image pixels), when tried
  double ms = 0;
};

class ViewRegistration {
 public:
  explicit ViewRegistration(RegistrationParams params = {}) : params_(params) {}

  // The view the fit holds for; `quad` (4 image points, the board's outline) is what the displacement is
  // measured on; features are taken in `mask` (8-bit, the frame's size; empty: everywhere).
  void set_reference(const cv::Mat& frame, const std::vector<cv::Point2f>& quad, const cv::Mat& mask = {});
  bool has_reference() const { return !ref_descriptors_.empty(); }
  void clear() { ref_descriptors_.release(), ref_points_.clear(); }

  // Registers `frame` (same size) against the reference.
  Registration check(const cv::Mat& frame) const;

  const RegistrationParams& params() const { return params_; }

 private:
  // ORB features of a grey view, in mask_.
  void detect(const cv::Mat& gray, std::vector<cv::Point2f>& points, cv::Mat& descriptors) const;
  // A grey view at 1/shift_scale, as phase correlation takes it.
  cv::Mat small_gray(const cv::Mat& gray) const;
  // From matched points: the homography, the corner shift and whether the camera moved, into `r` (told or not).
  void judge(const std::vector<cv::Point2f>& from, const std::vector<cv::Point2f>& to, Registration& r) const;

  RegistrationParams params_;
  std::vector<cv::Point2f> quad_;
  cv::Mat mask_;
  cv::Size size_;
  std::vector<cv::Point2f> ref_points_;
  cv::Mat ref_descriptors_;
  cv::Mat ref_small_;  // small_gray of the reference (empty when guided matching is off)
};

}  // namespace sb::vision
