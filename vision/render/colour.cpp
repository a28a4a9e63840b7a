#include "vision/render/colour.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engines/common/errors.h"

namespace sb::vision {

namespace {
double clamp01(double v) {
  return std::clamp(v, 0.0, 1.0);
}
int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

Rgb Rgb::clamped() const {
  return {clamp01(r), clamp01(g), clamp01(b)};
}

cv::Scalar Rgb::bgr255() const {
  return cv::Scalar(clamp01(b) * 255.0, clamp01(g) * 255.0, clamp01(r) * 255.0);
}

cv::Vec3b Rgb::bgr8() const {
  return cv::Vec3b(cv::saturate_cast<uchar>(b * 255.0), cv::saturate_cast<uchar>(g * 255.0),
                   cv::saturate_cast<uchar>(r * 255.0));
}

Rgb mix(const Rgb& a, const Rgb& b, double t) {
  return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t};
}

Rgb parse_rgb(std::string_view text, const std::string& where) {
  std::string_view s = text;
  if (!s.empty() && s[0] == '#') s.remove_prefix(1);
  if (s.size() != 6) throw InputError(where + ": expected a colour \"#rrggbb\", got \"" + std::string(text) + "\"");
  int v[6];
  for (int i = 0; i < 6; ++i) {
    v[i] = hex_digit(s[i]);
    if (v[i] < 0) throw InputError(where + ": expected a colour \"#rrggbb\", got \"" + std::string(text) + "\"");
  }
  return {(v[0] * 16 + v[1]) / 255.0, (v[2] * 16 + v[3]) / 255.0, (v[4] * 16 + v[5]) / 255.0};
}

std::string rgb_hex(const Rgb& c) {
  char buf[8];
  auto byte = [](double v) { return static_cast<int>(std::lround(clamp01(v) * 255.0)); };
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", byte(c.r), byte(c.g), byte(c.b));
  return buf;
}

Rgb from_hsv(double h, double s, double v) {
  h = std::fmod(std::fmod(h, 360.0) + 360.0, 360.0);
  s = clamp01(s);
  v = clamp01(v);
  double c = v * s, x = c * (1 - std::fabs(std::fmod(h / 60.0, 2.0) - 1)), m = v - c;
  Rgb o;
  if (h < 60)
    o = {c, x, 0};
  else if (h < 120)
    o = {x, c, 0};
  else if (h < 180)
    o = {0, c, x};
  else if (h < 240)
    o = {0, x, c};
  else if (h < 300)
    o = {x, 0, c};
  else
    o = {c, 0, x};
  return {o.r + m, o.g + m, o.b + m};
}

void to_hsv(const Rgb& c0, double& h, double& s, double& v) {
  Rgb c = c0.clamped();
  double mx = std::max({c.r, c.g, c.b}), mn = std::min({c.r, c.g, c.b}), d = mx - mn;
  v = mx;
  s = mx > 0 ? d / mx : 0;
  if (d <= 1e-12)
    h = 0;
  else if (mx == c.r)
    h = 60 * std::fmod((c.g - c.b) / d + 6.0, 6.0);
  else if (mx == c.g)
    h = 60 * ((c.b - c.r) / d + 2);
  else
    h = 60 * ((c.r - c.g) / d + 4);
}

Rgb vary_shade(const Rgb& c, double amount, Rng& rng) {
  double h, s, v;
  to_hsv(c, h, s, v);
  h += rng.normal(0, 6 * amount);
  s = s * (1 + rng.normal(0, 0.12 * amount));
  v = v * (1 + rng.normal(0, 0.10 * amount));
  return from_hsv(h, s, v);
}

Rgb light_colour(double kelvin) {
  // Anchor points of the black-body colour normalised to 6500 K, with a camera's auto white balance taking
  // roughly half of the cast away.
  struct Anchor {
    double k;
    Rgb c;
  };
  static const Anchor anchors[] = {
      {2000, {1.00, 0.54, 0.16}}, {2700, {1.00, 0.66, 0.34}},  {3500, {1.00, 0.77, 0.54}},
      {4500, {1.00, 0.87, 0.75}}, {5500, {1.00, 0.95, 0.90}},  {6500, {1.00, 1.00, 1.00}},
      {8000, {0.89, 0.92, 1.00}}, {10000, {0.80, 0.86, 1.00}}, {12000, {0.76, 0.83, 1.00}}};
  kelvin = std::clamp(kelvin, 2000.0, 12000.0);
  Rgb raw = anchors[0].c;
  for (size_t i = 1; i < std::size(anchors); ++i) {
    if (kelvin <= anchors[i].k) {
      double t = (kelvin - anchors[i - 1].k) / (anchors[i].k - anchors[i - 1].k);
      raw = mix(anchors[i - 1].c, anchors[i].c, t);
      break;
    }
  }
  Rgb balanced = mix(raw, Rgb{1, 1, 1}, 0.5);
  double l = balanced.luma();
  return balanced * (1.0 / l);
}

}  // namespace sb::vision
