// match_bound (vision/face.h) lets the count and symbol searches skip pictures that cannot beat the best match so
// far; the searches find the same best only while the bound is never below the match it bounds.
#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>

#include "vision/face.h"
#include "vision/symbol_reader.h"

namespace sb::vision {
namespace {

TEST(MatchBound, IsNeverBelowTheMatchItBoundsEvenForAPictureAndItsOwnTurnedCopy) {
  cv::RNG rng(20261205);
  std::vector<Polar> pictures;
  for (int i = 0; i < 60; ++i) {
    cv::Mat marks(kFaceSize, kFaceSize, CV_32F);
    rng.fill(marks, cv::RNG::UNIFORM, 0.f, 1.f);
    // Sharp noise, and blobs of several sizes (blurred marks, as faces show them).
    if (i % 3) cv::GaussianBlur(marks, marks, {0, 0}, 1 + i % 4);
    const cv::Point2f centre(rng.uniform(19.f, 28.f), rng.uniform(19.f, 28.f));
    pictures.push_back(SymbolReader::picture_about(marks, centre));
    pictures.push_back(rotate_polar(pictures.back(), i % kAngles));  // matches its original almost perfectly
  }
  std::vector<RingPower> power;
  for (const Polar& p : pictures) power.push_back(ring_power(p));
  for (size_t a = 0; a < pictures.size(); ++a)
    for (size_t b = 0; b < pictures.size(); ++b) {
      const float match = rotational_match(pictures[a], pictures[b]);
      ASSERT_GE(match_bound(pictures[a], pictures[b], power[a], power[b]), match) << a << " against " << b;
    }
}

}  // namespace
}  // namespace sb::vision
