#include "vision/render/textures.h"

#include <cmath>
#include <opencv2/imgproc.hpp>

namespace sb::vision {

namespace {

constexpr double kPi = 3.14159265358979323846;

// Draws a noise pattern in an axis-aligned frame big enough that turning it by `angle_deg` still covers `size`.
cv::Mat turned(const cv::Mat& axis_aligned, cv::Size size, double angle_deg) {
  if (std::fmod(std::fabs(angle_deg), 180.0) < 1e-9)
    return axis_aligned(cv::Rect(0, 0, size.width, size.height)).clone();
  cv::Point2f centre(axis_aligned.cols / 2.0f, axis_aligned.rows / 2.0f);
  cv::Mat m = cv::getRotationMatrix2D(centre, angle_deg, 1.0);
  m.at<double>(0, 2) -= (axis_aligned.cols - size.width) / 2.0;
  m.at<double>(1, 2) -= (axis_aligned.rows - size.height) / 2.0;
  cv::Mat out;
  cv::warpAffine(axis_aligned, out, m, size, cv::INTER_LINEAR, cv::BORDER_REFLECT);
  return out;
}

cv::Size covering(cv::Size size) {
  int d = static_cast<int>(std::ceil(std::hypot(size.width, size.height))) + 4;
  return {d, d};
}

}  // namespace

cv::Mat value_noise(cv::Size size, double cell_x, double cell_y, Rng& rng) {
  cell_x = std::max(cell_x, 1.0);
  cell_y = std::max(cell_y, 1.0);
  int gw = static_cast<int>(std::ceil(size.width / cell_x)) + 3;
  int gh = static_cast<int>(std::ceil(size.height / cell_y)) + 3;
  cv::Mat grid(gh, gw, CV_32F);
  cv::RNG cvrng(rng.next());
  cvrng.fill(grid, cv::RNG::UNIFORM, -1.0, 1.0);
  cv::Mat big;
  cv::resize(grid, big,
             cv::Size(static_cast<int>(std::lround(gw * cell_x)), static_cast<int>(std::lround(gh * cell_y))), 0, 0,
             cv::INTER_CUBIC);
  int ox = static_cast<int>(cell_x), oy = static_cast<int>(cell_y);
  ox = std::min(ox, big.cols - size.width);
  oy = std::min(oy, big.rows - size.height);
  return big(cv::Rect(ox, oy, size.width, size.height)).clone();
}

cv::Mat fractal_noise(cv::Size size, double cell_px, int octaves, Rng& rng) {
  cv::Mat sum(size, CV_32F, cv::Scalar(0));
  double amp = 1, total = 0;
  for (int o = 0; o < octaves && cell_px >= 1.0; ++o) {
    sum += value_noise(size, cell_px, cell_px, rng) * amp;
    total += amp;
    amp *= 0.5;
    cell_px *= 0.5;
  }
  if (total > 0) sum *= 1.0 / total;
  return sum;
}

cv::Mat wood_pattern(cv::Size size, double ring_px, double angle_deg, Rng& rng) {
  ring_px = std::max(ring_px, 2.0);
  cv::Size big = covering(size);
  cv::Mat warp = value_noise(big, ring_px * 12, ring_px * 3, rng);
  cv::Mat warp2 = value_noise(big, ring_px * 40, ring_px * 8, rng);
  cv::Mat fibre = value_noise(big, std::max(ring_px * 6, 8.0), 1.2, rng);
  cv::Mat out(big, CV_32F);
  for (int y = 0; y < big.height; ++y) {
    const float* w = warp.ptr<float>(y);
    const float* w2 = warp2.ptr<float>(y);
    const float* f = fibre.ptr<float>(y);
    float* o = out.ptr<float>(y);
    for (int x = 0; x < big.width; ++x) {
      double d = (y + ring_px * (1.2 * w[x] + 3.0 * w2[x])) / ring_px;
      double frac = d - std::floor(d);
      // Late wood: a sharp dark band at the end of each ring.
      double f2 = frac * frac, band = f2 * f2 * frac;
      o[x] =
          static_cast<float>(std::clamp(0.65 * band + 0.2 * (0.5 + 0.5 * f[x]) + 0.15 * (0.5 + 0.5 * w2[x]), 0.0, 1.0));
    }
  }
  return turned(out, size, angle_deg);
}

cv::Mat colour_by_pattern(const cv::Mat& pattern, const Rgb& base, const Rgb& accent) {
  cv::Mat out(pattern.size(), CV_8UC3);
  cv::Vec3f a(base.b * 255, base.g * 255, base.r * 255), b(accent.b * 255, accent.g * 255, accent.r * 255);
  for (int y = 0; y < pattern.rows; ++y) {
    const float* p = pattern.ptr<float>(y);
    cv::Vec3b* o = out.ptr<cv::Vec3b>(y);
    for (int x = 0; x < pattern.cols; ++x) {
      float t = std::clamp(p[x], 0.0f, 1.0f);
      cv::Vec3f c = a + (b - a) * t;
      o[x] = cv::Vec3b(cv::saturate_cast<uchar>(c[0]), cv::saturate_cast<uchar>(c[1]), cv::saturate_cast<uchar>(c[2]));
    }
  }
  return out;
}

cv::Mat table_texture(const TableLook& look, cv::Size size, double px_per_mm, Rng& rng) {
  double s = look.scale_mm * px_per_mm;
  cv::Mat pattern;
  switch (look.surface) {
    case TableSurface::Wood:
      pattern = wood_pattern(size, s, look.angle_deg, rng);
      break;
    case TableSurface::Cloth: {
      // A weave finer than a pixel is seen only as mottling; a coarse one shows its threads.
      cv::Size big = covering(size);
      cv::Mat mottle = fractal_noise(big, 60 * px_per_mm, 3, rng);
      cv::Mat fuzz = value_noise(big, 1.5, 1.5, rng);
      cv::Mat p(big, CV_32F);
      double period = std::max(s, 1.0);
      double weave_visible = std::clamp((period - 2.0) / 3.0, 0.0, 1.0);
      for (int y = 0; y < big.height; ++y) {
        const float* m = mottle.ptr<float>(y);
        const float* f = fuzz.ptr<float>(y);
        float* o = p.ptr<float>(y);
        for (int x = 0; x < big.width; ++x) {
          double weave = 0.5 + 0.5 * std::sin(2 * kPi * x / period) * std::sin(2 * kPi * y / period);
          o[x] = static_cast<float>(0.45 + 0.3 * weave_visible * (weave - 0.5) + 0.25 * m[x] + 0.1 * f[x]);
        }
      }
      pattern = turned(p, size, look.angle_deg);
      break;
    }
    case TableSurface::Laminate: {
      cv::Mat speck = value_noise(size, std::max(s * 0.3, 1.0), std::max(s * 0.3, 1.0), rng);
      cv::Mat mottle = fractal_noise(size, 150 * px_per_mm, 3, rng);
      pattern = 0.5 + 0.25 * speck + 0.35 * mottle;
      break;
    }
    case TableSurface::Stone: {
      cv::Size big = covering(size);
      cv::Mat turb = fractal_noise(big, s, 4, rng);
      cv::Mat speck = value_noise(big, 1.5, 1.5, rng);
      cv::Mat p(big, CV_32F);
      for (int y = 0; y < big.height; ++y) {
        const float* t = turb.ptr<float>(y);
        const float* sp = speck.ptr<float>(y);
        float* o = p.ptr<float>(y);
        for (int x = 0; x < big.width; ++x) {
          double v = std::fabs(std::sin((x + 0.4 * y) / std::max(s, 1.0) * 2.0 + 6.0 * t[x]));
          double w = 1.0 - v, w2 = w * w, w4 = w2 * w2;
          o[x] = static_cast<float>(0.9 * w4 * w4 + 0.15 * (0.5 + 0.5 * sp[x]));
        }
      }
      pattern = turned(p, size, look.angle_deg);
      break;
    }
  }
  return colour_by_pattern(pattern, look.base, look.accent);
}

cv::Mat board_material_factor(const BoardLook& look, cv::Size size, double px_per_mm, Rng& rng) {
  cv::Mat f;
  double k = look.texture;
  switch (look.material) {
    case BoardMaterial::Paper: {
      cv::Mat fibre = value_noise(size, 0.35 * px_per_mm + 1, 0.35 * px_per_mm + 1, rng);
      cv::Mat cloud = fractal_noise(size, 40 * px_per_mm, 3, rng);
      f = 1.0 + 0.025 * k * fibre + 0.03 * k * cloud;
      break;
    }
    case BoardMaterial::Cardboard: {
      cv::Mat speck = value_noise(size, 0.5 * px_per_mm + 1, 0.5 * px_per_mm + 1, rng);
      cv::Mat cloud = fractal_noise(size, 25 * px_per_mm, 3, rng);
      f = 1.0 + 0.05 * k * speck + 0.05 * k * cloud;
      break;
    }
    case BoardMaterial::Wood: {
      cv::Mat grain = wood_pattern(size, rng.uniform(3, 8) * px_per_mm, rng.uniform(-5, 5), rng);
      f = 1.08 - 0.3 * k * grain;
      break;
    }
  }
  return f;
}

}  // namespace sb::vision
