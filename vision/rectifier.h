// Canonical top-down images: the frame resampled onto a plane parallel to the board, in the board frame (mm), at
// a fixed scale. Two kinds: the motion gate's small image of the board and its surroundings at board level, and
// the reader's images of the piece-top planes (one per stack level: pieces are 5–10 mm tall, and a camera that
// is not straight above sees a top face displaced from its base, so a reader must look where the top face
// projects). Parallel planes map to each other by a similarity through the camera, so in a top-plane image a
// piece's top face is a circle whatever the tilt.
//
// The maps from canonical pixels to frame pixels (lens distortion included) are computed once per fit; each
// frame then costs one remap per image, sampled from the pyramid level whose scale is just above the canonical
// one (so a finely resolved frame is averaged, not aliased).
#pragma once

#include <array>
#include <opencv2/core.hpp>
#include <vector>

#include "calibration/board_model.h"
#include "calibration/calibration.h"

namespace sb::vision {

struct RectifyParams {
  double gate_px_per_pitch = 8;       // gate image scale: a fingertip stays a few pixels wide
  double gate_margin_pitches = 1.5;   // gate image: room around the sheet where hands come from
  double read_px_per_pitch_min = 32;  // top-plane images: at least this scale (small views are upsampled) ...
  double read_px_per_pitch_max = 44;  // ... and at most this (large views are averaged down)
  double read_margin_pitches = 0.8;   // top-plane images: room around the playing area's outer sites
};

// A canonical image's frame: board millimetres ↔ pixels (pixel centres at integers).
struct CanonicalFrame {
  calib::Vec2 origin_mm;  // the board point at pixel (0, 0)
  double px_per_mm = 1;
  cv::Size size;
  cv::Point2d to_px(calib::Vec2 mm) const {
    return {(mm.x - origin_mm.x) * px_per_mm, (mm.y - origin_mm.y) * px_per_mm};
  }
  calib::Vec2 to_mm(cv::Point2d px) const { return {origin_mm.x + px.x / px_per_mm, origin_mm.y + px.y / px_per_mm}; }
};

// The part of a frame the canonical images need, at halving scales, computed on demand once per frame.
class FramePyramid {
 public:
  void reset(const cv::Mat& frame, cv::Rect roi);
  const cv::Mat& level(int l);
  cv::Rect roi() const { return roi_; }

 private:
  cv::Mat frame_;
  cv::Rect roi_;
  std::vector<cv::Mat> levels_;
};

class Rectifier {
 public:
  // `top_height_mm`: the height of one piece's top face; `stack_levels`: how many piece heights a stack may
  // reach (top-plane images for 1..stack_levels pieces).
  Rectifier(const calib::BoardModel& model, const calib::Calibration& calibration, double top_height_mm,
            int stack_levels, const RectifyParams& params = {});

  const calib::BoardModel& model() const { return model_; }
  const calib::Calibration& calibration() const { return calibration_; }
  const RectifyParams& params() const { return params_; }
  double top_height_mm() const { return top_height_mm_; }
  int stack_levels() const { return static_cast<int>(tops_.size()); }

  // Frame pixels per millimetre at the board's centre (board level).
  double source_px_per_mm() const { return source_px_per_mm_; }
  // The rectangle of the frame that the canonical images read.
  cv::Rect frame_roi() const { return roi_; }

  const CanonicalFrame& gate_frame() const { return gate_.frame; }
  const CanonicalFrame& top_frame() const { return top_frame_; }
  // The gate's image (8-bit BGR, gate_frame().size).
  void gate_image(FramePyramid& pyramid, cv::Mat& out) const;
  // The plane of the top faces of `level`-piece stacks (1-based), top_frame().size. With `rects`, only those
  // rectangles of `out` are filled (out keeps its other pixels; it is allocated if empty).
  void top_image(FramePyramid& pyramid, int level, cv::Mat& out, const std::vector<cv::Rect>* rects = nullptr) const;

  // In the top-plane image of `level`, where a piece's base circle lies relative to its top face: the pixel
  // offset of board-level points behind the top (zero for a camera straight above). A reader uses it to tell
  // the top face's own rim from the outline of the piece's side.
  cv::Point2f base_offset(int site, int level) const;
  // The same for every pixel of the top-plane image of `level` (CV_32FC2).
  const cv::Mat& base_offset_map(int level) const;
  // Paint labels of the level-1 top-plane image (board_appearance.h), made on first use.
  const cv::Mat& paint_labels() const;
  // The paints within reach of each border pixel of paint_labels() (board_appearance.h), made with them.
  const cv::Mat& paint_borders() const;
  // Frame pixel of a board point `height_mm` above the board.
  cv::Point2d frame_point(calib::Vec2 mm, double height_mm = 0) const;
  // The homography from the plane `height_mm` above the board (mm) to ideal frame pixels.
  cv::Matx33d plane_homography(double height_mm) const;

  // Gate image masks (8-bit, 255 inside): the board zone (the outline grown by half a pitch, where a hand
  // counts as over the board), and the ring just outside it that an arm crosses to get there.
  const cv::Mat& zone_mask() const { return zone_mask_; }
  const cv::Mat& ring_mask() const { return ring_mask_; }
  // The gate image's pixels the camera does not see (the picture ends before the gate image does: black in every
  // gate image), 255 there. Arms reaching over the board come in from where the picture ends.
  const cv::Mat& gate_unseen_mask() const { return gate_unseen_; }
  // Whether `other` gives the motion gate the very same view: the same gate image of every frame (its part of the
  // frame, sampled alike), the same watched parts and the same cells.
  bool same_gate_view(const Rectifier& other) const;
  // Per site, the gate-image rectangle of its cell (one pitch square round the site).
  const std::vector<cv::Rect>& gate_cells() const { return gate_cells_; }
  // The board zone's outline in frame pixels (for overlays).
  std::vector<cv::Point2d> zone_outline_frame() const;

 private:
  struct PlaneMap {
    CanonicalFrame frame;
    double height_mm = 0;
    int level = 0;  // pyramid level sampled
    cv::Mat map1, map2;
  };
  void build_map(PlaneMap& plane) const;

  calib::BoardModel model_;
  calib::Calibration calibration_;
  RectifyParams params_;
  double top_height_mm_;
  cv::Matx33d anchor_;  // fit · pose(0)⁻¹: makes pose(h) reproduce the fit exactly at h = 0
  calib::CameraPose pose_;
  double source_px_per_mm_ = 1;
  cv::Rect roi_;
  PlaneMap gate_;
  CanonicalFrame top_frame_;
  std::vector<PlaneMap> tops_;
  cv::Mat zone_mask_, ring_mask_, gate_unseen_;
  std::vector<cv::Rect> gate_cells_;
  std::vector<std::vector<cv::Point2f>> base_offsets_;  // per level, per site
  std::vector<cv::Mat> base_offset_maps_;               // per level
  mutable cv::Mat paint_labels_, paint_borders_;
};

}  // namespace sb::vision
