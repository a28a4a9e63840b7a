// A lamp can brighten a light paint beyond white in one channel: the camera shows that channel clipped, and the
// paint model, which knows no white, predicts more. foreign_mask must judge such a pixel as the camera can see it.
#include <gtest/gtest.h>

#include <vector>

#include "vision/board_appearance.h"

namespace sb::vision {
namespace {

// One paint role, even light: the light wooden sheet of Cờ toán seed 6007801591341153 near Red's home row under
// its warm lamp (BGR as the paint model predicted it there: red beyond white).
BoardPaint warm_wood() {
  BoardPaint paint;
  paint.ok = true;
  paint.seen = {true, false, false, false, false, false};
  paint.colour[0] = {175, 230, 277};
  paint.main_role = 0;
  return paint;
}

// A 9×9 picture of one colour, all of it painted with role 0, judged in one roi with `glare` allowed.
uchar judged(cv::Vec3b colour, float glare) {
  const cv::Mat top(9, 9, CV_8UC3, cv::Scalar(colour[0], colour[1], colour[2]));
  const cv::Mat labels(9, 9, CV_8U, cv::Scalar(0));
  const std::vector<cv::Rect> rois{cv::Rect(0, 0, 9, 9)};
  const std::vector<float> allowance{glare};
  return foreign_mask(top, labels, warm_wood(), &rois, &allowance).at<uchar>(4, 4);
}

TEST(ClippedPaint, APaintSeenClippedWhereItsPredictionPassesWhiteIsNoForeignPixel) {
  // The empty c3 of that game, seen with green and red clipped: unclipped, the prediction's colour was redder
  // than anything the camera can show, and the pixel foreign.
  EXPECT_EQ(judged({219, 253, 253}, 0), 0);
  // The blue and the red piece's bodies stay foreign.
  EXPECT_EQ(judged({150, 90, 40}, 0), 1);
  EXPECT_EQ(judged({40, 80, 200}, 0), 1);
}

TEST(ClippedPaint, TheGlareAllowanceIsMeasuredOnTheChannelsLeftBelowWhite) {
  // Nearer the middle of the glare spot (the empty d3): blue 70 grey levels over the paint, green and red
  // clipped. The clipped red lies 22 below its prediction; counted as the pixel's least excess, it allowed no
  // glare at all.
  EXPECT_EQ(judged({245, 253, 255}, 0), 1);
  EXPECT_EQ(judged({245, 253, 255}, 14), 0);
  // A glare allowance does not turn a piece into paint.
  EXPECT_EQ(judged({150, 90, 40}, 14), 1);
  EXPECT_EQ(judged({40, 80, 200}, 14), 1);
}

}  // namespace
}  // namespace sb::vision
