// disc_votes (vision/face.h) is written for speed (voters packed per row, four at a time); these tests hold it to
// the plain one-pixel-at-a-time voting it replaced: the same accumulator to the last bit, with and without a base
// map and a mask of voters, on the whole image and on a window at its border.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <opencv2/imgproc.hpp>

#include "vision/face.h"

namespace sb::vision {
namespace {

// The plain voting: every pixel of `roi` whose strongest channel's Sobel gradient is at least 24 votes at ±r
// along it for each radius (weight min(1, |g| / 120)), no vote for a centre whose edge's outward side faces the
// base; then the same 5×5 smoothing as disc_votes.
void plain_votes(const cv::Mat& bgr, cv::Rect roi, const std::vector<float>& radii, cv::Mat& acc, const cv::Mat& base,
                 const cv::Mat& voters) {
  roi &= cv::Rect(0, 0, bgr.cols, bgr.rows);
  if (acc.size() != bgr.size() || acc.type() != CV_32F) acc = cv::Mat::zeros(bgr.size(), CV_32F);
  cv::Mat gx, gy;
  cv::Sobel(bgr(roi), gx, CV_16S, 1, 0, 3);
  cv::Sobel(bgr(roi), gy, CV_16S, 0, 1, 3);
  const int ch = bgr.channels();
  for (int y = 1; y < roi.height - 1; ++y)
    for (int x = 1; x < roi.width - 1; ++x) {
      if (!voters.empty() && !voters.at<uchar>(roi.y + y, roi.x + x)) continue;
      int bx = 0, by = 0, best = -1;
      for (int c = 0; c < ch; ++c) {
        const int vx = gx.ptr<short>(y)[x * ch + c], vy = gy.ptr<short>(y)[x * ch + c];
        if (vx * vx + vy * vy > best) best = vx * vx + vy * vy, bx = vx, by = vy;
      }
      if (best < 24 * 24) continue;
      const float mag = std::sqrt(static_cast<float>(best));
      const float w = std::min(1.f, mag / 120.f);
      const float nx = bx / mag, ny = by / mag;
      float facing = 0;
      if (!base.empty()) {
        const cv::Vec2f b = base.at<cv::Vec2f>(roi.y + y, roi.x + x);
        const float bl = std::sqrt(b[0] * b[0] + b[1] * b[1]);
        if (bl > 1.f) facing = (nx * b[0] + ny * b[1]) / bl;
      }
      const float ox = static_cast<float>(roi.x + x), oy = static_cast<float>(roi.y + y);
      for (float r : radii)
        for (int s : {1, -1}) {
          const float fx = ox + s * (r * nx), fy = oy + s * (r * ny);
          if (!(fx > -0.5f && fy > -0.5f)) continue;
          const int cx = static_cast<int>(fx + 0.5f), cy = static_cast<int>(fy + 0.5f);
          if (cx >= acc.cols || cy >= acc.rows) continue;
          const bool faces_base = s > 0 ? facing < -0.35f : facing > 0.35f;
          acc.at<float>(cy, cx) += faces_base ? 0.f : w;
        }
    }
  const int m = static_cast<int>(std::ceil(*std::max_element(radii.begin(), radii.end()))) + 3;
  cv::Rect grown(roi.x - m, roi.y - m, roi.width + 2 * m, roi.height + 2 * m);
  grown &= cv::Rect(0, 0, acc.cols, acc.rows);
  cv::Mat a = acc(grown);
  cv::GaussianBlur(a, a, cv::Size(5, 5), 1.0);
}

// A noisy, textured plane with discs of several colours, some touching the image's border.
cv::Mat noisy_plane() {
  cv::RNG rng(11);
  cv::Mat img(131, 157, CV_8UC3);
  rng.fill(img, cv::RNG::UNIFORM, 80, 150);
  cv::GaussianBlur(img, img, cv::Size(3, 3), 0.7);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 5; ++x)
      cv::circle(img, cv::Point(4 + x * 37, 2 + y * 41), 14, cv::Scalar(30 + 40 * x, 220 - 30 * y, 90), cv::FILLED,
                 cv::LINE_AA);
  cv::Mat noise(img.size(), CV_8UC3);
  rng.fill(noise, cv::RNG::NORMAL, 0, 7);
  cv::add(img, noise, img);
  return img;
}

// A base map whose direction and length change across the image (some pixels below the length that counts).
cv::Mat varied_base(cv::Size size) {
  cv::Mat base(size, CV_32FC2);
  for (int y = 0; y < size.height; ++y)
    for (int x = 0; x < size.width; ++x)
      base.at<cv::Vec2f>(y, x) = cv::Vec2f(0.03f * (x - 70), 0.025f * (y - 40));
  return base;
}

bool same_bits(const cv::Mat& a, const cv::Mat& b) {
  if (a.size() != b.size() || a.type() != b.type()) return false;
  for (int y = 0; y < a.rows; ++y)
    if (std::memcmp(a.ptr(y), b.ptr(y), a.cols * a.elemSize()) != 0) return false;
  return true;
}

const std::vector<float> kRadii = {14 * 0.94f, 14.f, 14 * 1.06f};

TEST(DiscVotes, TheWholeImageGivesThePlainVotesToTheLastBit) {
  const cv::Mat img = noisy_plane();
  const cv::Rect all(0, 0, img.cols, img.rows);
  cv::Mat fast, plain;
  disc_votes(img, all, kRadii, fast);
  plain_votes(img, all, kRadii, plain, cv::Mat(), cv::Mat());
  EXPECT_GT(cv::norm(plain, cv::NORM_L1), 1000.0);
  EXPECT_TRUE(same_bits(fast, plain));
}

TEST(DiscVotes, ABaseMapAndAMaskOfVotersGiveThePlainVotesToTheLastBit) {
  const cv::Mat img = noisy_plane();
  const cv::Mat base = varied_base(img.size());
  cv::Mat voters = cv::Mat::zeros(img.size(), CV_8U);
  voters(cv::Rect(10, 5, 60, 50)).setTo(1);
  voters(cv::Rect(90, 70, 67, 61)).setTo(1);
  const cv::Rect all(0, 0, img.cols, img.rows);
  cv::Mat fast, plain;
  disc_votes(img, all, kRadii, fast, base, voters);
  plain_votes(img, all, kRadii, plain, base, voters);
  EXPECT_GT(cv::norm(plain, cv::NORM_L1), 100.0);
  EXPECT_TRUE(same_bits(fast, plain));
}

TEST(DiscVotes, AWindowAtTheBorderAddsThePlainVotesToWhatTheAccumulatorHeld) {
  const cv::Mat img = noisy_plane();
  const cv::Mat base = varied_base(img.size());
  cv::Mat fast = cv::Mat::zeros(img.size(), CV_32F);
  fast(cv::Rect(20, 20, 30, 30)).setTo(0.25f);
  cv::Mat plain = fast.clone();
  // Odd widths, a window hanging over the image's right and bottom edges.
  for (const cv::Rect roi : {cv::Rect(113, 87, 61, 57), cv::Rect(0, 0, 13, 29), cv::Rect(31, 40, 3, 9)}) {
    disc_votes(img, roi, kRadii, fast, base);
    plain_votes(img, roi, kRadii, plain, base, cv::Mat());
  }
  EXPECT_TRUE(same_bits(fast, plain));
}

}  // namespace
}  // namespace sb::vision
