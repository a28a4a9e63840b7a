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
// board's corners under it) → refine (a knock told, its motion aligned by the views' grey levels over the board).
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
  // A knock told, its motion is refined by aligning the reference's grey levels with the new view's over the
  // board (ECC, a homography started from RANSAC's). ORB's corners are found to a pixel or so, on the levels of its
  // pyramid, and round a small board they are few and bunched: the homography through them put the sites of a
  // board 30 px to the pitch up to 5 px off, where every edge of the board's drawing and outline pins it to a few
  // tenths. The area: the playing area grown by refine_grow about its centre, as the features' zone (the board's
  // outline and the table round it move with the camera too, and fewer pieces cover them than the drawing).
  // Worked at a scale that keeps the area's longer side within refine_max_side px: a large board is precise
  // enough coarser (morris9 game 4, the area ~330 px wide, came within 0.2 px at 256), and ECC's cost grows with
  // the pixels. 0: not refined.
  double refine_grow = 1.5;
  int refine_max_side = 256;
  // ECC converges in a few steps from RANSAC's motion (the same result at 15 iterations as at 60): the limit is
  // for views it cannot settle on.
  int refine_iterations = 40;
  double refine_eps = 1e-5;  // least gain in correlation for another step
  // Pieces that moved between the views are outliers the alignment fits too: its motion is taken only when it
  // explains the views better than RANSAC's (a higher correlation over the area) and moves no corner by more than
  // refine_max_px from where RANSAC put it (RANSAC's own error reached 5.4 px on a small board under a lamp).
  double refine_max_px = 8;
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
  bool refined = false;        // image_motion is the intensity alignment's, not RANSAC's
  double correlation_ransac = 0, correlation_refined = 0;  // over the board, when the alignment converged
  double ms = 0;
  double refine_ms = 0;  // of ms, the alignment's
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
  // The told motion refined by intensity alignment over the board (refine_grow), into `r` when it does better.
  void refine(const cv::Mat& gray, Registration& r) const;

  RegistrationParams params_;
  std::vector<cv::Point2f> quad_;
  cv::Mat mask_;
  cv::Size size_;
  std::vector<cv::Point2f> ref_points_;
  cv::Mat ref_descriptors_;
  cv::Mat ref_small_;  // small_gray of the reference (empty when guided matching is off)
  cv::Mat ref_gray_;   // the reference's grey levels, for refine()
};

}  // namespace sb::vision
