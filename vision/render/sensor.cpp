#include "vision/render/sensor.h"

#include <cmath>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "vision/render/rng.h"

namespace sb::vision {

namespace {
constexpr int kNoiseMargin = 64;
constexpr double kDeg = 3.14159265358979323846 / 180.0;
}  // namespace

cv::Mat motion_kernel(double length_px, double angle_deg) {
  int n = std::max(3, static_cast<int>(std::ceil(length_px)) | 1);
  cv::Mat k(n, n, CV_32F, cv::Scalar(0));
  double c = (n - 1) / 2.0, dx = std::cos(angle_deg * kDeg), dy = std::sin(angle_deg * kDeg);
  // Sample the streak finely so short and oblique streaks keep their length.
  int steps = 8 * n;
  for (int i = 0; i <= steps; ++i) {
    double t = (i / static_cast<double>(steps) - 0.5) * length_px;
    double x = c + t * dx, y = c + t * dy;
    int x0 = static_cast<int>(std::floor(x)), y0 = static_cast<int>(std::floor(y));
    double fx = x - x0, fy = y - y0;
    for (int oy = 0; oy < 2; ++oy)
      for (int ox = 0; ox < 2; ++ox) {
        int xx = x0 + ox, yy = y0 + oy;
        if (xx < 0 || yy < 0 || xx >= n || yy >= n) continue;
        k.at<float>(yy, xx) += static_cast<float>((ox ? fx : 1 - fx) * (oy ? fy : 1 - fy));
      }
  }
  k /= cv::sum(k)[0];
  return k;
}

Sensor::Sensor(const SensorLook& look, cv::Size image_size, uint64_t seed) : look_(look) {
  if (look.noise > 0) {
    cv::Mat n(image_size.height + 2 * kNoiseMargin, image_size.width + 2 * kNoiseMargin, CV_32FC3);
    cv::RNG rng(seed * 0x2545F4914F6CDD1Dull + 1);
    rng.fill(n, cv::RNG::NORMAL, 0.0, look.noise);
    // Sensor noise is mostly brightness with a little colour: pull the channels towards their mean.
    cv::Mat grey;
    cv::transform(n, grey, cv::Matx13f(1 / 3.f, 1 / 3.f, 1 / 3.f));
    cv::Mat grey3;
    cv::merge(std::vector<cv::Mat>{grey, grey, grey}, grey3);
    n = grey3 * 1.4 + n * 0.45;
    n.convertTo(noise_, CV_8SC3);
  }
}

void Sensor::apply(cv::Mat& img, uint64_t frame_seed, double extra_motion_px, double extra_angle_deg) const {
  double motion = look_.motion_px, angle = look_.motion_angle_deg;
  if (extra_motion_px > motion) {
    motion = extra_motion_px;
    angle = extra_angle_deg;
  }
  if (motion >= 1.0) cv::filter2D(img, img, -1, motion_kernel(motion, angle), cv::Point(-1, -1), 0, cv::BORDER_REFLECT);
  if (look_.defocus_px > 0.05) cv::GaussianBlur(img, img, cv::Size(0, 0), look_.defocus_px);
  if (!noise_.empty()) {
    Rng rng(frame_seed);
    int ox = rng.below(2 * kNoiseMargin), oy = rng.below(2 * kNoiseMargin);
    const int w = img.cols * 3;
    for (int y = 0; y < img.rows; ++y) {
      uchar* p = img.ptr<uchar>(y);
      const schar* q = noise_.ptr<schar>(y + oy) + ox * 3;
      for (int x = 0; x < w; ++x) {
        int v = p[x] + q[x];
        p[x] = static_cast<uchar>(v < 0 ? 0 : v > 255 ? 255 : v);
      }
    }
  }
  if (look_.jpeg_quality > 0) {
    std::vector<uchar> buf;
    cv::imencode(".jpg", img, buf, {cv::IMWRITE_JPEG_QUALITY, look_.jpeg_quality});
    img = cv::imdecode(buf, cv::IMREAD_COLOR);
  }
}

}  // namespace sb::vision
