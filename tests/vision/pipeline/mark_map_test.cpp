// mark_map (vision/face.h) takes its pixels' positions and the first plane fit's sums of position terms from a
// table; these tests hold it to the pixel-by-pixel computation it replaced, to the bit, on random faces.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>

#include "vision/face.h"

namespace sb::vision {
namespace {

// Every pixel within 0.9 of the radius measured and fitted in turn, as mark_map did before its table.
cv::Mat pixel_by_pixel_marks(const Face& face, const cv::Vec3f& body, const cv::Vec3f& mark) {
  cv::Mat out = cv::Mat::zeros(kFaceSize, kFaceSize, CV_32F);
  const cv::Vec3f axis = mark - body;
  const float len2 = axis.dot(axis);
  if (len2 < 4) return out;
  const float inv = 1.f / len2;
  const float c0 = (kFaceSize - 1) / 2.f;
  struct Px {
    int at;
    float x, y, m;
  };
  std::vector<Px> px;
  for (int v = 0; v < kFaceSize; ++v)
    for (int u = 0; u < kFaceSize; ++u) {
      if (face_radii()[static_cast<size_t>(v * kFaceSize + u)] > 0.9f) continue;
      px.push_back({v * kFaceSize + u, (u - c0) / kFaceRadius, (v - c0) / kFaceRadius,
                    (face.patch.at<cv::Vec3f>(v, u) - body).dot(axis) * inv});
    }
  double a0 = 0, ax = 0, ay = 0;
  for (int iter = 0; iter < 3; ++iter) {
    double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0, sm = 0, sxm = 0, sym = 0;
    for (const Px& p : px) {
      const double x = p.x, y = p.y, m = p.m;
      if (iter > 0 && std::abs(m - (a0 + ax * x + ay * y)) > 0.22) continue;
      n += 1, sx += x, sy += y, sxx += x * x, sxy += x * y, syy += y * y;
      sm += m, sxm += x * m, sym += y * m;
    }
    if (n < 30) break;
    const double l00 = std::sqrt(n), l10 = sx / l00, l20 = sy / l00;
    const double d11 = sxx - l10 * l10;
    if (!(d11 > 1e-12)) break;
    const double l11 = std::sqrt(d11), l21 = (sxy - l20 * l10) / l11;
    const double d22 = syy - l20 * l20 - l21 * l21;
    if (!(d22 > 1e-12)) break;
    const double l22 = std::sqrt(d22);
    const double z0 = sm / l00, z1 = (sxm - l10 * z0) / l11, z2 = (sym - l20 * z0 - l21 * z1) / l22;
    ay = z2 / l22;
    ax = (z1 - l21 * ay) / l11;
    a0 = (z0 - l10 * ax - l20 * ay) / l00;
  }
  std::vector<float> vals;
  for (Px& p : px) {
    const double x = p.x, y = p.y;
    p.m = static_cast<float>(p.m - (a0 + ax * x + ay * y));
    vals.push_back(p.m);
  }
  auto p97 = vals.begin() + static_cast<long>(vals.size() * 97 / 100);
  std::nth_element(vals.begin(), p97, vals.end());
  const float scale = 1.f / std::max(0.35f, *p97);
  for (const Px& p : px) out.ptr<float>()[p.at] = std::clamp(p.m * scale, -0.5f, 1.5f);
  return out;
}

TEST(MarkMap, EqualsThePixelByPixelFitOnRandomFaces) {
  std::mt19937 rng(8150811);
  std::uniform_real_distribution<float> unit(0, 1);
  int with_marks = 0;
  for (int trial = 0; trial < 200; ++trial) {
    // A body colour with a lit side, dots of a mark colour here and there, noise.
    Face face;
    face.patch.create(kFaceSize, kFaceSize, CV_32FC3);
    const cv::Vec3f body(60 + 150 * unit(rng), 60 + 150 * unit(rng), 60 + 150 * unit(rng));
    const cv::Vec3f mark(200 * unit(rng), 200 * unit(rng), 200 * unit(rng));
    const float tilt = 40 * (unit(rng) - 0.5f);
    std::vector<cv::Point2f> dots(static_cast<size_t>(trial % 10));
    for (auto& d : dots) d = {8 + 32 * unit(rng), 8 + 32 * unit(rng)};
    for (int v = 0; v < kFaceSize; ++v)
      for (int u = 0; u < kFaceSize; ++u) {
        bool in_dot = false;
        for (const auto& d : dots) in_dot = in_dot || std::hypot(u - d.x, v - d.y) < 3.5f;
        cv::Vec3f c = in_dot ? mark : body;
        for (int k = 0; k < 3; ++k) c[k] += tilt * (u - 24) / 24.f + 6 * (unit(rng) - 0.5f);
        face.patch.at<cv::Vec3f>(v, u) = c;
      }
    // Some calls with the face's own colours, some with a side's (slightly off), a few without contrast.
    const cv::Vec3f b = trial % 3 == 0 ? body + cv::Vec3f(5, -3, 2) : body;
    const cv::Vec3f m = trial % 17 == 0 ? b + cv::Vec3f(1, 0, 1) : mark;
    const cv::Mat expected = pixel_by_pixel_marks(face, b, m), got = mark_map(face, b, m);
    ASSERT_EQ(got.size(), expected.size());
    ASSERT_EQ(got.type(), expected.type());
    EXPECT_EQ(std::memcmp(got.ptr(), expected.ptr(), expected.total() * expected.elemSize()), 0) << "trial " << trial;
    with_marks += cv::countNonZero(expected > 0.5f) > 0;
  }
  EXPECT_GT(with_marks, 100);
}

}  // namespace
}  // namespace sb::vision
