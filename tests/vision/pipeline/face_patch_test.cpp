// face_patch (vision/face.h) replaces cv::warpAffine in cut_face; these tests hold it to that reference on random
// images and random scale-and-shift maps: the same patch to the bit, inside the image and at its borders.
#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>
#include <random>

#include "vision/face.h"

namespace sb::vision {
namespace {

cv::Mat reference_patch(const cv::Mat& bgr, const cv::Matx23d& m) {
  cv::Mat out;
  cv::warpAffine(bgr, out, m, cv::Size(kFaceSize, kFaceSize), cv::INTER_LINEAR | cv::WARP_INVERSE_MAP,
                 cv::BORDER_REPLICATE);
  return out;
}

int pixels_differing(const cv::Mat& a, const cv::Mat& b) {
  if (a.size() != b.size() || a.type() != b.type()) return -1;
  cv::Mat diff;
  cv::absdiff(a, b, diff);
  return cv::countNonZero(diff.reshape(1));
}

TEST(FacePatch, EqualsWarpAffineOnRandomImagesAndMaps) {
  std::mt19937 rng(8150731);
  std::uniform_real_distribution<double> unit(0, 1);
  cv::Mat img(120, 160, CV_8UC3);
  int inside = 0;
  for (int trial = 0; trial < 400; ++trial) {
    cv::randu(img, cv::Scalar::all(0), cv::Scalar::all(256));
    // Faces of 8–30 px radius (scales 0.4–1.4 of the patch's), centres anywhere, some reaching past the border.
    const double s = 0.4 + unit(rng);
    const double cx = -10 + 180 * unit(rng), cy = -10 + 140 * unit(rng);
    const double c0 = (kFaceSize - 1) / 2.0;
    const cv::Matx23d m(s, 0, cx - c0 * s, 0, s, cy - c0 * s);
    cv::Mat patch;
    face_patch(img, m, patch);
    ASSERT_EQ(pixels_differing(patch, reference_patch(img, m)), 0) << "trial " << trial << " scale " << s;
    inside += cx - c0 * s >= 0 && cx + c0 * s + 2 < img.cols && cy - c0 * s >= 0 && cy + c0 * s + 2 < img.rows;
  }
  EXPECT_GT(inside, 100);  // most maps are done by face_patch itself, not by OpenCV
}

TEST(FacePatch, EqualsWarpAffineAtFloatPositionsCutFaceUses) {
  // cut_face's maps come from float discs: positions and scales that are not round in 1/32 pixel.
  cv::Mat img(64, 64, CV_8UC3);
  cv::randu(img, cv::Scalar::all(0), cv::Scalar::all(256));
  for (float r = 9.f; r < 20.f; r += 0.37f)
    for (float x = 30.f; x < 34.f; x += 0.173f) {
      const float s = r / kFaceRadius, c0 = (kFaceSize - 1) / 2.f;
      const cv::Matx23d m(s, 0, x - c0 * s, 0, s, (x - 1.3f) - c0 * s);
      cv::Mat patch;
      face_patch(img, m, patch);
      ASSERT_EQ(pixels_differing(patch, reference_patch(img, m)), 0) << "radius " << r << " x " << x;
    }
}

}  // namespace
}  // namespace sb::vision
