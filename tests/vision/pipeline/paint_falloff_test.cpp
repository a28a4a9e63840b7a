// foreign_mask and glare_near take the paint's falloff from a table kept for the last paint (one exp per row and
// block of eight columns), glare_near may stop before ordering its pixels when the caller uses only glare of at
// least some amount, and GlareField measures each pixel's excess once for many centres. These tests hold them to
// what the plain computation gives.
#include <gtest/gtest.h>

#include <random>
#include <thread>

#include "vision/board_appearance.h"

namespace sb::vision {
namespace {

// A paint of two roles over a random picture, with a falloff of its own.
BoardPaint paint_with(float tilt) {
  BoardPaint paint;
  paint.ok = true;
  paint.seen = {true, true, false, false, false, false};
  paint.colour[0] = {150, 160, 170};
  paint.colour[1] = {60, 70, 90};
  paint.light = cv::Vec<float, 6>(0.f, tilt, -0.5f * tilt, 0.2f, -0.1f, 0.3f * tilt);
  paint.main_role = 0;
  return paint;
}

struct Picture {
  cv::Mat top, labels;
};

Picture random_picture(uint32_t seed) {
  std::mt19937 rng(seed);
  Picture p;
  p.top.create(97, 131, CV_8UC3);
  cv::randu(p.top, cv::Scalar::all(0), cv::Scalar::all(256));
  p.labels.create(p.top.size(), CV_8U);
  std::uniform_int_distribution<int> role(0, 3);
  for (int v = 0; v < p.labels.rows; ++v)
    for (int u = 0; u < p.labels.cols; ++u) {
      const int r = role(rng);
      p.labels.at<uchar>(v, u) = r == 3 ? kNoPaint : static_cast<uchar>(r % 2);
    }
  return p;
}

cv::Mat mask_in_fresh_thread(const Picture& p, const BoardPaint& paint) {
  cv::Mat out;
  std::thread([&] { out = foreign_mask(p.top, p.labels, paint); }).join();
  return out;
}

TEST(PaintFalloff, AMaskIsJudgedWithItsOwnPaintsFalloffAfterAnotherPaints) {
  const Picture p = random_picture(8150801);
  const BoardPaint first = paint_with(0.4f), second = paint_with(-0.7f);
  // The same thread judges the first paint, then the second: the second's mask must be what a thread that never
  // saw the first gives (a table kept from the first paint would judge it with the first's falloff).
  (void)foreign_mask(p.top, p.labels, first);
  const cv::Mat after = foreign_mask(p.top, p.labels, second);
  const cv::Mat fresh = mask_in_fresh_thread(p, second);
  EXPECT_EQ(cv::countNonZero(after != fresh), 0);
  EXPECT_GT(cv::countNonZero(fresh != mask_in_fresh_thread(p, first)), 0);  // the two paints judge differently
}

TEST(PaintFalloff, AMaskOverRoisEqualsTheWholeMaskThere) {
  const Picture p = random_picture(8150802);
  const BoardPaint paint = paint_with(0.3f);
  const cv::Mat whole = foreign_mask(p.top, p.labels, paint);
  // Rois starting off the blocks of eight, overlapping, one reaching past the picture.
  const std::vector<cv::Rect> rois{{3, 5, 21, 17}, {13, 9, 30, 30}, {117, 80, 40, 40}};
  const cv::Mat parts = foreign_mask(p.top, p.labels, paint, &rois);
  for (const cv::Rect& r : rois) {
    const cv::Rect in = r & cv::Rect(0, 0, p.top.cols, p.top.rows);
    EXPECT_EQ(cv::countNonZero(parts(in) != whole(in)), 0);
  }
}

TEST(PaintFalloff, GlareBelowTheCallersFloorIsZeroAndAnyOtherIsTheQuantile) {
  std::mt19937 rng(8150803);
  std::uniform_real_distribution<float> unit(0, 1);
  int at_floor = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const Picture p = random_picture(8150900 + static_cast<uint32_t>(trial));
    const BoardPaint paint = paint_with(unit(rng) - 0.5f);
    const cv::Point2f c(20 + 90 * unit(rng), 20 + 60 * unit(rng));
    const float reach = 8 + 20 * unit(rng), share = 0.5f + 0.5f * unit(rng);
    const float quantile = glare_near(p.top, p.labels, paint, c, reach, share);
    // A floor at the quantile itself keeps it; one just above it gives 0; one far below keeps it.
    EXPECT_EQ(glare_near(p.top, p.labels, paint, c, reach, share, quantile > 0 ? quantile : 1e-3f),
              quantile > 0 ? quantile : 0.f);
    at_floor += quantile > 0;
    const float above = std::nextafter(std::max(quantile, 1e-3f), 1e9f);
    EXPECT_EQ(glare_near(p.top, p.labels, paint, c, reach, share, above), 0.f);
    EXPECT_EQ(glare_near(p.top, p.labels, paint, c, reach, share, 1e-3f), quantile >= 1e-3f ? quantile : 0.f);
  }
  EXPECT_GT(at_floor, 10);  // the floor at the quantile was tried where there is glare
}

TEST(PaintFalloff, AGlareFieldGivesGlareNearsQuantileRoundEveryCentre) {
  std::mt19937 rng(8150804);
  std::uniform_real_distribution<float> unit(0, 1);
  const Picture p = random_picture(8150805);
  const BoardPaint paint = paint_with(0.25f);
  GlareField field(p.top, p.labels, paint);
  int glare = 0;
  // Centres anywhere (some near the border, windows overlapping), reaches and shares of all sizes, with and
  // without a floor.
  for (int trial = 0; trial < 300; ++trial) {
    const cv::Point2f c(-5 + 140 * unit(rng), -5 + 105 * unit(rng));
    const float reach = 3 + 30 * unit(rng), share = unit(rng), below = trial % 2 ? 0.f : 40 * unit(rng);
    const float expected = glare_near(p.top, p.labels, paint, c, reach, share, below);
    EXPECT_EQ(field.near(c, reach, share, below), expected) << "trial " << trial;
    glare += expected > 0;
  }
  EXPECT_GT(glare, 25);
}

}  // namespace
}  // namespace sb::vision
