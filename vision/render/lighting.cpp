#include "vision/render/lighting.h"

#include <algorithm>
#include <cmath>

namespace sb::vision {

namespace {
constexpr double kDeg = 3.14159265358979323846 / 180.0;
}

Lighting::Lighting(const LightLook& light, const calib::BoardModel& model, const Camera& camera, double board_gloss,
                   uint64_t seed)
    : look_(light), board_gloss_(board_gloss) {
  Rgb c = light_colour(light.kelvin);
  colour_ = cv::Vec3f(static_cast<float>(c.b), static_cast<float>(c.g), static_cast<float>(c.r));
  double az = light.azimuth_deg * kDeg, el = light.elevation_deg * kDeg;
  towards_light_ = cv::Vec3d(std::cos(el) * std::sin(az), std::cos(el) * std::cos(az), -std::sin(el));
  norm_ = light.ambient + light.directional * std::sin(el);
  if (norm_ < 1e-6) norm_ = 1e-6;
  shadow_depth_ = light.directional * std::sin(el) / norm_;
  centre_mm_ = {model.size_mm.x / 2, model.size_mm.y / 2};
  radius_mm_ = std::hypot(model.size_mm.x, model.size_mm.y) / 2;
  gradient_dir_ = {std::cos(light.gradient_angle_deg * kDeg), std::sin(light.gradient_angle_deg * kDeg)};
  image_centre_ = {camera.image_size.width / 2.0, camera.image_size.height / 2.0};
  image_radius_ = std::hypot(image_centre_.x, image_centre_.y);
  Rng rng(seed);
  const auto& q = model.outline_corners();
  for (int i = 0; i < light.glare_spots; ++i) {
    double u = rng.uniform(0.1, 0.9), v = rng.uniform(0.1, 0.9);
    cv::Point2d xy(q[3].x + (q[2].x - q[3].x) * u, q[3].y + (q[0].y - q[3].y) * v);
    spots_.push_back(
        {xy, light.glare_size_mm * rng.uniform(0.6, 1.3) / 2, light.glare_strength * rng.uniform(0.7, 1.0)});
  }
}

double Lighting::falloff(cv::Point2d xy) const {
  double s = ((xy - centre_mm_).dot(gradient_dir_)) / radius_mm_;  // -1 .. 1 across the board
  return 1.0 - look_.gradient * (0.5 + 0.5 * std::clamp(s, -1.5, 1.5));
}

double Lighting::vignette(cv::Point2d px) const {
  double r = cv::norm(px - image_centre_) / image_radius_;
  return 1.0 - look_.vignette * r * r * (0.6 + 0.4 * r * r);
}

cv::Vec3f Lighting::gain(const cv::Vec3d& normal, cv::Point2d xy, cv::Point2d px) const {
  double lambert = std::max(0.0, normal.dot(towards_light_));
  double k = look_.exposure * (look_.ambient + look_.directional * lambert) / norm_ * falloff(xy) * vignette(px);
  return colour_ * static_cast<float>(k);
}

cv::Vec3f Lighting::glare(cv::Point2d xy) const {
  double g = 0;
  for (const Spot& s : spots_) {
    double d2 = (xy.x - s.xy.x) * (xy.x - s.xy.x) + (xy.y - s.xy.y) * (xy.y - s.xy.y);
    g += s.strength * std::exp(-d2 / (2 * s.sigma_mm * s.sigma_mm));
  }
  g *= board_gloss_ * look_.exposure;
  return colour_ * static_cast<float>(g);
}

}  // namespace sb::vision
