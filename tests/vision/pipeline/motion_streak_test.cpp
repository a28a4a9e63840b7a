// The motion streak (vision/motion_streak.h) is found from the picture alone and taken out: a picture of sharp
// shapes streaked by a known line kernel gives back that line's length and direction, the same picture unstreaked
// gives none, and the filter brings the streaked picture back nearer to the sharp one.
#include "vision/motion_streak.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <opencv2/imgproc.hpp>
#include <vector>

#include "vision/render/sensor.h"

namespace sb::vision {
namespace {

// Discs and bars of many shades and sizes on a mid-grey ground (what a board of pieces shows the spectrum: edges
// every way), with a little sensor noise.
cv::Mat sharp_shapes(uint64_t seed) {
  cv::RNG rng(seed);
  cv::Mat img(480, 640, CV_8UC3, cv::Scalar(120, 130, 140));
  for (int k = 0; k < 300; ++k) {
    const cv::Scalar colour(rng.uniform(0, 256), rng.uniform(0, 256), rng.uniform(0, 256));
    const cv::Point c(rng.uniform(0, img.cols), rng.uniform(0, img.rows));
    if (k % 2)
      cv::circle(img, c, rng.uniform(2, 18), colour, cv::FILLED, cv::LINE_AA);
    else
      cv::rectangle(img, cv::Rect(c.x, c.y, rng.uniform(2, 30), rng.uniform(2, 30)), colour, cv::FILLED);
  }
  return img;
}

cv::Mat with_noise(const cv::Mat& img, uint64_t seed) {
  cv::Mat noise(img.size(), CV_16SC3), out;
  cv::RNG(seed).fill(noise, cv::RNG::NORMAL, 0, 2);
  img.convertTo(out, CV_16SC3);
  out += noise;
  out.convertTo(out, CV_8UC3);
  return out;
}

cv::Mat streaked(const cv::Mat& img, double length_px, double angle_deg) {
  cv::Mat out;
  cv::filter2D(img, out, -1, motion_kernel(length_px, angle_deg), cv::Point(-1, -1), 0, cv::BORDER_REFLECT);
  return out;
}

double angle_apart(double a, double b) {
  const double d = std::fmod(std::abs(a - b), 180.0);
  return std::min(d, 180 - d);
}

const cv::Rect kRoi(40, 40, 560, 400);

TEST(MotionStreak, AStreakOfKnownLengthAndDirectionIsFoundAsSuch) {
  const cv::Mat sharp = sharp_shapes(7);
  const double lengths[] = {5.0, 7.0, 9.0}, angles[] = {17.0, 63.0, 128.0, 172.0};
  for (double length : lengths)
    for (double angle : angles) {
      const MotionStreak s = estimate_streak(with_noise(streaked(sharp, length, angle), 3), kRoi);
      ASSERT_TRUE(s.found()) << "length " << length << " at " << angle << "°: lobe " << s.lobe_share << ", notch "
                             << s.notch << ", ratio " << s.energy_ratio;
      EXPECT_NEAR(s.length_px, length, 1.0) << "at " << angle << "°";
      EXPECT_LE(angle_apart(s.angle_deg, angle), 6.0) << "length " << length << " at " << angle << "°";
    }
}

// Defocus after the streak and more noise (Cờ toán 9400032 image 208: a 7.5 px streak under 1.4 px of defocus and
// noise of 6 grey levels; its counts were misread 14 of 20): the power at the first zero is the noise's in every
// direction, no notch shows, and the streak is found by its main lobe.
TEST(MotionStreak, AStreakUnderDefocusAndNoiseIsFoundByItsMainLobe) {
  const cv::Mat sharp = sharp_shapes(7);
  const double lengths[] = {6.0, 7.5}, angles[] = {17.0, 95.0, 150.0};
  StreakParams notch_only;
  notch_only.min_lobe_share = 0;
  int notches = 0;
  std::vector<double> apart;  // degrees from the true direction
  for (double length : lengths)
    for (double angle : angles) {
      cv::Mat blurred = streaked(sharp, length, angle);
      cv::GaussianBlur(blurred, blurred, cv::Size(0, 0), 1.4);
      cv::Mat noisy(blurred.size(), CV_16SC3), out;
      cv::RNG(static_cast<uint64_t>(length * 100 + angle)).fill(noisy, cv::RNG::NORMAL, 0, 6);
      blurred.convertTo(out, CV_16SC3);
      out += noisy;
      out.convertTo(out, CV_8UC3);
      notches += estimate_streak(out, kRoi, notch_only).found();
      const MotionStreak s = estimate_streak(out, kRoi);
      ASSERT_TRUE(s.found()) << "length " << length << " at " << angle << "°: lobe " << s.lobe_share << ", notch "
                             << s.notch << ", ratio " << s.energy_ratio;
      EXPECT_NEAR(s.length_px, length, 1.0) << "at " << angle << "°";
      apart.push_back(angle_apart(s.angle_deg, angle));
      EXPECT_LE(apart.back(), 20.0) << "length " << length << " at " << angle << "°: found " << s.length_px << " px at "
                                    << s.angle_deg << "°";
    }
  // The direction comes from the notch's best near the lobe's length, which the noise blurs: within a few degrees
  // mostly (Cờ toán's 2,000 stills: median 2.4°, 90th percentile 9°), here within 8° for most.
  std::sort(apart.begin(), apart.end());
  EXPECT_LE(apart[apart.size() / 2], 8.0);
  EXPECT_LE(notches, 3) << "the notch alone found most of these streaks: the test no longer shows the lobe's use";
}

TEST(MotionStreak, ASharpPictureHasNoStreak) {
  for (uint64_t seed : {7, 8, 9}) {
    const MotionStreak s = estimate_streak(with_noise(sharp_shapes(seed), seed), kRoi);
    EXPECT_FALSE(s.found() && s.length_px >= StreakParams{}.min_undo_px)
        << "seed " << seed << ": " << s.length_px << " px at " << s.angle_deg << "°";
  }
}

TEST(MotionStreak, UndoingTheStreakBringsThePictureBackNearerTheSharpOne) {
  const cv::Mat sharp = sharp_shapes(11);
  const cv::Mat blurred = with_noise(streaked(sharp, 7.0, 40.0), 5);
  MotionStreak found;
  const cv::Mat undone = undo_motion_streak(blurred, kRoi, StreakParams{}, &found);
  ASSERT_TRUE(found.found());
  // Inside the region, the undone picture's brightness (what the filter sharpens) is much nearer the sharp one's;
  // outside the region it is the streaked picture's.
  auto brightness = [](const cv::Mat& bgr) {
    cv::Mat grey;
    cv::cvtColor(bgr, grey, cv::COLOR_BGR2GRAY);
    return grey;
  };
  const cv::Rect inner(kRoi.x + 20, kRoi.y + 20, kRoi.width - 40, kRoi.height - 40);
  const cv::Mat truth = brightness(sharp)(inner);
  const double before = cv::norm(brightness(blurred)(inner), truth, cv::NORM_L2);
  const double after = cv::norm(brightness(undone)(inner), truth, cv::NORM_L2);
  EXPECT_LT(after, 0.9 * before) << "before " << before << ", after " << after;
  EXPECT_EQ(cv::norm(undone(cv::Rect(0, 0, 640, 30)), blurred(cv::Rect(0, 0, 640, 30)), cv::NORM_INF), 0);
}

}  // namespace
}  // namespace sb::vision
