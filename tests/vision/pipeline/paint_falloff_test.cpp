// foreign_mask and glare_near take the paint's falloff from a table kept for the last paint (one exp per row and
// block of eight columns), glare_near may stop before ordering its pixels when the caller uses only glare of at
// least some amount, and GlareField measures each pixel's excess once for many centres. These tests hold them to
// what the plain computation gives.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
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

// glare_near as first written: every pixel of the window tested against the circle, each counted pixel's excess
// gathered, ordered, and its quantile compared with the floor.
float plain_glare(const Picture& p, const BoardPaint& paint, cv::Point2f centre, float reach, float share,
                  float below) {
  const cv::Mat& labels = p.labels;
  const float sx = 1.f / static_cast<float>(std::max(1, p.top.cols - 1)),
              sy = 1.f / static_cast<float>(std::max(1, p.top.rows - 1));
  auto excess_at = [&](int u, int v) {
    const uchar l = labels.at<uchar>(v, u);
    if (l == kNoPaint || !paint.seen[l]) return std::numeric_limits<float>::quiet_NaN();
    const float gain = paint.gain((8 * (u >> 3) + 4) * sx, v * sy);
    const cv::Vec3f pred = paint.colour[l] * gain;
    const cv::Vec3b px = p.top.at<cv::Vec3b>(v, u);
    float least = 1e9f, bound = 0;
    for (int k = 0; k < 3; ++k) {
      if (px[k] < 250.f)
        least = std::min(least, px[k] - pred[k]);
      else
        bound = std::max(bound, 255.f - pred[k]);
    }
    return least < 1e8f ? least : bound;
  };
  const int cx = std::clamp(static_cast<int>(std::lround(centre.x)), 0, labels.cols - 1);
  const int cy = std::clamp(static_cast<int>(std::lround(centre.y)), 0, labels.rows - 1);
  const uchar own = labels.at<uchar>(cy, cx);
  std::vector<float> excess;
  for (int v = std::max(0, static_cast<int>(centre.y - reach));
       v <= std::min(labels.rows - 1, static_cast<int>(centre.y + reach)); ++v)
    for (int u = std::max(0, static_cast<int>(centre.x - reach));
         u <= std::min(labels.cols - 1, static_cast<int>(centre.x + reach)); ++u) {
      const float dx = u - centre.x, dy = v - centre.y;
      if (dx * dx + dy * dy > reach * reach || labels.at<uchar>(v, u) == own) continue;
      const float e = excess_at(u, v);
      if (!std::isnan(e)) excess.push_back(e);
    }
  if (excess.size() < 30) return 0;
  std::sort(excess.begin(), excess.end());
  const float q = excess[static_cast<size_t>(std::clamp(share, 0.f, 1.f) * static_cast<float>(excess.size() - 1))];
  return q < below ? 0.f : std::max(0.f, q);
}

TEST(PaintFalloff, GlareCountedByRunsOfTheCircleEqualsThePixelByPixelQuantile) {
  // glare_near and GlareField count each row's run of the circle first and order the values only when the
  // quantile may reach the floor: the same glare as testing and ordering every pixel, for centres on and off the
  // picture, on pixel centres and halfway between, reaches of a pixel to wider than the picture, floors of none
  // to more than any glare.
  std::mt19937 rng(8150806);
  std::uniform_real_distribution<float> unit(0, 1);
  int glare = 0, zero = 0;
  for (int picture = 0; picture < 4; ++picture) {
    const Picture p = random_picture(8150810 + static_cast<uint32_t>(picture));
    const BoardPaint paint = paint_with(0.6f * unit(rng) - 0.3f);
    GlareField field(p.top, p.labels, paint);
    for (int trial = 0; trial < 150; ++trial) {
      cv::Point2f c(-20 + 170 * unit(rng), -20 + 135 * unit(rng));
      if (trial % 5 == 0) c = {std::round(c.x) + (trial % 10 ? 0.5f : 0.f), std::round(c.y)};
      const float reach = trial % 7 == 0 ? 1 + 3 * unit(rng) : 3 + 80 * unit(rng);
      const float share = unit(rng), below = trial % 3 == 0 ? 0.f : 60 * unit(rng) - 10;
      const float expected = plain_glare(p, paint, c, reach, share, below);
      EXPECT_EQ(glare_near(p.top, p.labels, paint, c, reach, share, below), expected) << "trial " << trial;
      EXPECT_EQ(field.near(c, reach, share, below), expected) << "trial " << trial;
      (expected > 0 ? glare : zero)++;
    }
  }
  EXPECT_GT(glare, 60);
  EXPECT_GT(zero, 60);
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
