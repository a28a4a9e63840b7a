// The light of a scene: ambient plus one directional lamp, tinted by its colour temperature, falling off
// across the board, darkened towards the image corners (vignetting), with glare spots where the lamp reflects
// on a glossy board. Brightness is normalised so that a horizontal surface in the middle of the light gets the
// look's exposure; surfaces turned towards the lamp get more, shadows keep only the ambient part.
#pragma once

#include <opencv2/core.hpp>
#include <vector>

#include "calibration/board_model.h"
#include "vision/render/camera.h"
#include "vision/render/look.h"

namespace sb::vision {

class Lighting {
 public:
  Lighting(const LightLook& light, const calib::BoardModel& model, const Camera& camera, double board_gloss,
           uint64_t seed);

  // BGR gain of a surface with unit normal `normal` (board frame; up is (0, 0, -1)) at board point `xy`,
  // seen at image pixel `px`.
  cv::Vec3f gain(const cv::Vec3d& normal, cv::Point2d xy, cv::Point2d px) const;
  // Gain of an upward-facing surface (board, table, a piece's top).
  cv::Vec3f flat_gain(cv::Point2d xy, cv::Point2d px) const { return gain({0, 0, -1}, xy, px); }
  // What fraction of a horizontal surface's light a full shadow takes away (the lamp's share).
  double shadow_depth() const { return shadow_depth_; }
  // Unit vector from the scene towards the lamp (board frame, z up is negative).
  const cv::Vec3d& towards_light() const { return towards_light_; }
  // Additive BGR glare (0..1 units) at a board point, for glossy board surfaces.
  cv::Vec3f glare(cv::Point2d xy) const;
  // Brightness lost to vignetting at a pixel (multiplier 0..1).
  double vignette(cv::Point2d px) const;
  double falloff(cv::Point2d xy) const;
  const cv::Vec3f& colour_bgr() const { return colour_; }

 private:
  LightLook look_;
  cv::Vec3f colour_;  // BGR
  cv::Vec3d towards_light_;
  double norm_ = 1, shadow_depth_ = 0, board_gloss_ = 0;
  cv::Point2d centre_mm_;
  double radius_mm_ = 1;
  cv::Point2d gradient_dir_;
  cv::Point2d image_centre_;
  double image_radius_ = 1;
  struct Spot {
    cv::Point2d xy;
    double sigma_mm, strength;
  };
  std::vector<Spot> spots_;
};

}  // namespace sb::vision
