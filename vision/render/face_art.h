// The top faces of pieces, drawn once per piece set as small BGRA pictures (alpha outside the disc): the
// material, a rim, and what the face shows: grooves (draughts men), dots in a dice grid, a ring or scattered
// (Cờ toán, with the 0 piece's own mark), letters or pictograms (Cờ tư lệnh). The renderer maps them onto each
// piece's top through the camera.
#pragma once

#include <map>
#include <opencv2/core.hpp>
#include <string>
#include <vector>

#include "vision/render/look.h"

namespace sb::vision {

class FaceArt {
 public:
  // `size_px`: side of each face picture; the disc fills it but for a one-pixel margin.
  FaceArt(const PieceLook& look, int size_px);

  int size() const { return size_; }
  // The face of a token ("W", "R5", "BT"): drawn on first use, then kept.
  const cv::Mat& face(const std::string& token);

  // Where the dots of `count` (1..9) lie, in units of the face radius (y down), for an arrangement; the same
  // for every piece of that count in a set. Exposed so tests can check what was drawn.
  static std::vector<cv::Point2d> dot_layout(DotArrangement arrangement, int count, double dot_radius,
                                             uint64_t pattern_seed);
  // The Cờ tư lệnh letters that have pictograms.
  static bool has_pictogram(char letter);

 private:
  cv::Mat draw(const std::string& token) const;
  PieceLook look_;
  int size_;
  std::map<std::string, cv::Mat> cache_;
};

}  // namespace sb::vision
