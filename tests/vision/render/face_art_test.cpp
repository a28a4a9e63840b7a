#include "vision/render/face_art.h"

#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>

namespace sb::vision {
namespace {

PieceLook dots_look(DotArrangement a, ZeroMark z = ZeroMark::Ring) {
  PieceLook look = load_game_art("cotoan").pieces;
  look.dots = a;
  look.zero = z;
  look.material = PieceMaterial::Plastic;
  look.pattern_seed = 42;
  return look;
}

// Blobs of the mark colour inside the face (the dots).
int count_marks(const cv::Mat& face, const Rgb& mark) {
  cv::Mat bgr;
  cv::cvtColor(face, bgr, cv::COLOR_BGRA2BGR);
  cv::Vec3b m = mark.bgr8();
  cv::Mat close;
  cv::inRange(bgr, cv::Scalar(m[0] - 40, m[1] - 40, m[2] - 40), cv::Scalar(m[0] + 40, m[1] + 40, m[2] + 40), close);
  cv::Mat labels;
  return cv::connectedComponents(close, labels, 8) - 1;
}

TEST(FaceArt, EveryDotArrangementShowsExactlyTheDotCount) {
  for (DotArrangement a : {DotArrangement::Dice, DotArrangement::Ring, DotArrangement::Scattered}) {
    PieceLook look = dots_look(a);
    FaceArt art(look, 128);
    for (int n = 1; n <= 9; ++n) {
      std::string token = "R" + std::to_string(n);
      EXPECT_EQ(count_marks(art.face(token), look.colours('R').mark), n) << name_of(a) << " " << token;
    }
  }
}

TEST(FaceArt, DotLayoutsKeepDotsApartAndOnTheFace) {
  for (DotArrangement a : {DotArrangement::Dice, DotArrangement::Ring, DotArrangement::Scattered})
    for (int n = 1; n <= 9; ++n) {
      double r = 0.12;
      auto pts = FaceArt::dot_layout(a, n, r, 7);
      ASSERT_EQ(static_cast<int>(pts.size()), n);
      for (size_t i = 0; i < pts.size(); ++i) {
        EXPECT_LE(std::hypot(pts[i].x, pts[i].y) + r, 0.9);
        for (size_t j = i + 1; j < pts.size(); ++j) EXPECT_GE(cv::norm(pts[i] - pts[j]), 2 * r);
      }
    }
}

TEST(FaceArt, ScatteredDotsDifferBetweenSetsButNotBetweenPiecesOfOneSet) {
  auto a = FaceArt::dot_layout(DotArrangement::Scattered, 6, 0.1, 1);
  auto b = FaceArt::dot_layout(DotArrangement::Scattered, 6, 0.1, 1);
  auto c = FaceArt::dot_layout(DotArrangement::Scattered, 6, 0.1, 2);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

TEST(FaceArt, TheZeroPieceHasItsOwnMarkInEveryStyle) {
  for (ZeroMark z : {ZeroMark::Ring, ZeroMark::Cross, ZeroMark::Star, ZeroMark::Blank}) {
    FaceArt art(dots_look(DotArrangement::Dice, z), 96);
    const cv::Mat& zero = art.face("R0");
    for (int n = 1; n <= 9; ++n) EXPECT_GT(cv::norm(zero, art.face("R" + std::to_string(n)), cv::NORM_L1), 0) << n;
  }
}

TEST(FaceArt, EverySymbolStyleDrawsTwelveDistinctFacesPerSide) {
  for (SymbolStyle style : {SymbolStyle::Letters, SymbolStyle::Pictograms}) {
    PieceLook look = load_game_art("cotulenh").pieces;
    look.symbols = style;
    look.material = PieceMaterial::Plastic;
    FaceArt art(look, 96);
    const std::string letters = "CHIETAGSFNM";
    for (size_t i = 0; i < letters.size(); ++i)
      for (size_t j = i + 1; j < letters.size(); ++j) {
        double d =
            cv::norm(art.face(std::string("R") + letters[i]), art.face(std::string("R") + letters[j]), cv::NORM_L1);
        EXPECT_GT(d, 96 * 96 * 2.0) << name_of(style) << " " << letters[i] << " vs " << letters[j];
      }
    EXPECT_GT(cv::norm(art.face("RT"), art.face("BT"), cv::NORM_L1), 0);
  }
  for (char c : std::string("CHIETAGSFNM")) EXPECT_TRUE(FaceArt::has_pictogram(c));
}

}  // namespace
}  // namespace sb::vision
