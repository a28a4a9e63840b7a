// Colours for the renderer: linear-ish RGB in 0..1, written as "#rrggbb" in JSON, with the small amount of
// colour science a synthetic photo needs (shade variation, light colour temperature).
#pragma once

#include <opencv2/core.hpp>
#include <string>
#include <string_view>

#include "vision/render/rng.h"

namespace sb::vision {

struct Rgb {
  double r = 0, g = 0, b = 0;

  Rgb operator*(double k) const { return {r * k, g * k, b * k}; }
  Rgb operator*(const Rgb& o) const { return {r * o.r, g * o.g, b * o.b}; }
  Rgb operator+(const Rgb& o) const { return {r + o.r, g + o.g, b + o.b}; }
  bool operator==(const Rgb&) const = default;
  double luma() const { return 0.299 * r + 0.587 * g + 0.114 * b; }
  Rgb clamped() const;
  // For OpenCV's drawing functions on 8-bit BGR images.
  cv::Scalar bgr255() const;
  cv::Vec3b bgr8() const;
};

Rgb mix(const Rgb& a, const Rgb& b, double t);  // a at t = 0, b at t = 1

// "#rrggbb" (or "rrggbb"); throws InputError naming `where` otherwise.
Rgb parse_rgb(std::string_view text, const std::string& where);
std::string rgb_hex(const Rgb& c);

// Hue (degrees), saturation and value (0..1) both ways.
Rgb from_hsv(double h, double s, double v);
void to_hsv(const Rgb& c, double& h, double& s, double& v);

// The same colour as a different batch of paint or plastic: hue, saturation and brightness moved a little.
// `amount` 0 leaves it, 1 is a clearly different shade.
Rgb vary_shade(const Rgb& c, double amount, Rng& rng);

// The colour of a light source of `kelvin` relative to daylight white (6500 K ≈ 1,1,1), after a camera's
// partial white balance: warm lamps still look warm. A smooth fit of the black-body locus, 2000–12000 K.
Rgb light_colour(double kelvin);

}  // namespace sb::vision
