// count_dots (vision/face.h) measures its difference of Gaussians only round the pixels bright enough to be a
// dot's peak; this test holds it to the same count measured at every pixel, to the bit, on random mark maps.
#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>
#include <random>

#include "vision/face.h"

namespace sb::vision {
namespace {

// A mark map as mark_map gives one (−0.5 … 1.5, 0 outside 0.9 of the radius): dots of every size, touching
// ones, rings and strokes, blurred and noisy.
cv::Mat random_marks(std::mt19937& rng, int kind) {
  std::uniform_real_distribution<float> unit(0.f, 1.f);
  cv::Mat m(kFaceSize, kFaceSize, CV_32F, cv::Scalar(0.1 * unit(rng) - 0.05));
  const cv::Point2f c((kFaceSize - 1) / 2.f, (kFaceSize - 1) / 2.f);
  const int dots = kind % 10;
  for (int k = 0; k < dots; ++k) {
    const float a = 6.2832f * unit(rng), d = 15 * unit(rng);
    cv::circle(m, cv::Point(static_cast<int>(c.x + d * std::cos(a)), static_cast<int>(c.y + d * std::sin(a))),
               1 + static_cast<int>(4 * unit(rng)), cv::Scalar(0.6 + 0.6 * unit(rng)), cv::FILLED);
  }
  if (kind % 7 == 3) cv::circle(m, cv::Point(24, 24), 10 + static_cast<int>(6 * unit(rng)), cv::Scalar(1), 2);
  if (kind % 5 == 4)
    cv::line(m, cv::Point(static_cast<int>(48 * unit(rng)), 5), cv::Point(static_cast<int>(48 * unit(rng)), 42),
             cv::Scalar(1.1), 3);
  cv::GaussianBlur(m, m, cv::Size(0, 0), 0.4 + 1.6 * unit(rng));
  std::normal_distribution<float> noise(0.f, 0.03f + 0.12f * unit(rng));
  for (int v = 0; v < kFaceSize; ++v)
    for (int u = 0; u < kFaceSize; ++u) {
      float& x = m.at<float>(v, u);
      x = std::hypot(u - c.x, v - c.y) > 0.9f * kFaceRadius ? 0.f : std::clamp(x + noise(rng), -0.5f, 1.5f);
    }
  return m;
}

TEST(CountDots, TheDifferenceOfGaussiansRoundBrightPixelsCountsAsAtEveryPixel) {
  std::mt19937 rng(20261205);
  int with_dots = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const cv::Mat marks = random_marks(rng, trial);
    const DotCount fast = count_dots(marks), full = count_dots(marks, true);
    EXPECT_EQ(fast.dots, full.dots) << "trial " << trial;
    EXPECT_EQ(fast.blobs, full.blobs) << "trial " << trial;
    EXPECT_EQ(fast.largest_share, full.largest_share) << "trial " << trial;
    EXPECT_EQ(fast.regularity, full.regularity) << "trial " << trial;
    with_dots += full.dots >= 2;
  }
  EXPECT_GT(with_dots, 150);  // most maps showed dots to count
}

}  // namespace
}  // namespace sb::vision
