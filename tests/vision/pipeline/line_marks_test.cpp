// The pixels on a drawn line are labelled no paint (paint_labels: the fit and the camera are never exact to a
// pixel), yet a piece's mark can lie along the line below it: Cờ tư lệnh's infantry, a light face on the light
// sheet whose red bar runs along the line through its site. Judged nowhere, the bar left the face nothing foreign
// once a knocked camera lined the two up (cotulenh seed 7512002369046855, k5: foreign share 0, read empty, and a
// capture no piece could make announced illegal). foreign_mask judges such a border pixel as a blend of the
// paints round it; the lines' colour is measured from their own pixels (measure_lines).
#include <gtest/gtest.h>

#include <vector>

#include "calibration/board_model.h"
#include "vision/board_appearance.h"

namespace sb::vision {
namespace {

constexpr int kInk = static_cast<int>(calib::Paint::Ink);
constexpr int kLand = static_cast<int>(calib::Paint::Land);

// The land paint and the lines beside k5 of that game after the knock (BGR, as the paint model predicted them).
BoardPaint land_with_lines(cv::Vec3f land, cv::Vec3f lines) {
  BoardPaint paint;
  paint.ok = true;
  paint.seen[kLand] = true;
  paint.colour[kLand] = land;
  paint.main_role = kLand;
  paint.lines = lines;
  paint.lines_seen = true;
  return paint;
}

// A 9×9 picture of one colour, every pixel on the border between the land and a line, judged in one roi.
uchar judged(cv::Vec3b colour, const BoardPaint& paint, bool with_borders = true) {
  const cv::Mat top(9, 9, CV_8UC3, cv::Scalar(colour[0], colour[1], colour[2]));
  const cv::Mat labels(9, 9, CV_8U, cv::Scalar(kNoPaint));
  const cv::Mat borders(9, 9, CV_8U, cv::Scalar((1 << kInk) | (1 << kLand)));
  const std::vector<cv::Rect> rois{cv::Rect(0, 0, 9, 9)};
  return foreign_mask(top, labels, paint, &rois, nullptr, with_borders ? &borders : nullptr).at<uchar>(4, 4);
}

TEST(LineMarks, AMarkLyingAlongALineIsForeign) {
  const BoardPaint paint = land_with_lines({136, 175, 199}, {29, 42, 47});
  // The infantry's red bar on k5, seen where the line runs below it.
  EXPECT_EQ(judged({49, 72, 164}, paint), 1);
  EXPECT_EQ(judged({46, 70, 159}, paint), 1);
  // Without the borders' paints the pixel is not judged at all: what the face showed before.
  EXPECT_EQ(judged({49, 72, 164}, paint, false), kNoPaint);
}

TEST(LineMarks, TheLineItsBlendWithTheLandAndALightFaceAreNot) {
  // The empty g5 of cotulenh seed 6744277767968092 after its lamp: a dark brown line whose core shows darker
  // than the lines' measured colour and of another hue (JPEG's chroma on a two-pixel line).
  const BoardPaint paint = land_with_lines({186, 244, 248}, {33, 54, 65});
  EXPECT_EQ(judged({2, 19, 26}, paint), 0);
  EXPECT_EQ(judged({15, 30, 47}, paint), 0);
  EXPECT_EQ(judged({21, 37, 55}, paint), 0);
  // Half line, half land.
  EXPECT_EQ(judged({110, 149, 157}, paint), 0);
  // The land itself, in the shade of a piece.
  EXPECT_EQ(judged({120, 160, 165}, paint), 0);
  // A blue piece's body is foreign on a line too.
  EXPECT_EQ(judged({170, 110, 50}, paint), 1);
}

TEST(LineMarks, TheLinesColourIsTheirDarkerQuarter) {
  // A line two pixels wide: its core ink, its edges blended with the land.
  cv::Mat top(40, 40, CV_8UC3, cv::Scalar(186, 244, 248));
  cv::Mat borders = cv::Mat::zeros(40, 40, CV_8U);
  for (int v = 0; v < 40; ++v) {
    top.at<cv::Vec3b>(v, 19) = {30, 50, 60};
    top.at<cv::Vec3b>(v, 20) = {100, 140, 150};
    borders.at<uchar>(v, 19) = borders.at<uchar>(v, 20) = kLineCore | (1 << kInk);
  }
  BoardPaint paint;
  paint.ok = true;
  paint.seen[kLand] = true;
  paint.colour[kLand] = {186, 244, 248};
  measure_lines(top, borders, paint);
  ASSERT_TRUE(paint.lines_seen);
  EXPECT_NEAR(paint.lines[0], 30, 1);
  EXPECT_NEAR(paint.lines[2], 60, 1);
  // Ink seen as a paint of its own (lines drawn thick enough to keep their label): that colour is used instead.
  paint.seen[kInk] = true;
  measure_lines(top, borders, paint);
  EXPECT_FALSE(paint.lines_seen);
}

}  // namespace
}  // namespace sb::vision
