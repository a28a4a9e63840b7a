// The board's main paint role gives its white reference and the role a Morris set keeps its empty board in: it
// must be a role whose colour was measured.
#include <gtest/gtest.h>

#include <random>

#include "vision/board_appearance.h"

namespace sb::vision {
namespace {

constexpr int kSheet = 5;  // the bare sheet's role, after calib::Paint's five

// A small board's top plane: the drawn board (light paint, even, a little noise) in the middle, and round it a
// bare sheet printed with marker-like black and white blocks that covers more of the picture than the board does.
struct SmallBoardOnAMarkedSheet {
  cv::Mat top, labels;
  cv::Vec3f light{200, 210, 220};
  SmallBoardOnAMarkedSheet() {
    std::mt19937 rng(9715101);
    std::normal_distribution<float> noise(0.f, 3.f);
    top.create(120, 120, CV_8UC3);
    labels.create(top.size(), CV_8U);
    const cv::Rect board(25, 25, 70, 70);
    for (int v = 0; v < top.rows; ++v)
      for (int u = 0; u < top.cols; ++u) {
        const bool on_board = board.contains({u, v});
        labels.at<uchar>(v, u) = static_cast<uchar>(on_board ? 0 : kSheet);
        const bool black_block = ((u / 4) + (v / 4)) % 2 == 0;
        for (int k = 0; k < 3; ++k) {
          const float level = on_board ? light[k] + noise(rng) : black_block ? 20.f : 245.f;
          top.at<cv::Vec3b>(v, u)[k] = cv::saturate_cast<uchar>(level);
        }
      }
  }
};

// morris3 seed 9715101 image 1337: the sheet round the board had the most pixels but fitted no colour; as the main
// role it left the white reference black and the empty board unkept, and the set was never learnt.
TEST(PaintMainRole, ASheetWithMostPixelsButNoMeasuredColourIsNotTheMainRole) {
  const SmallBoardOnAMarkedSheet picture;
  ASSERT_GT(cv::countNonZero(picture.labels == kSheet), cv::countNonZero(picture.labels == 0));
  const BoardPaint paint = measure_paint(picture.top, picture.labels);
  ASSERT_TRUE(paint.ok);
  ASSERT_FALSE(paint.seen[kSheet]) << "the sheet's colour was measured: the test proves nothing";
  ASSERT_TRUE(paint.seen[0]);
  EXPECT_EQ(paint.main_role, 0);
  const cv::Vec3f white = paint.reference();
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(white[k], picture.light[k], 6.f) << "channel " << k;
}

}  // namespace
}  // namespace sb::vision
