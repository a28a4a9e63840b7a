#include "vision/render/scene.h"

#include <gtest/gtest.h>

#include "engines/common/errors.h"

namespace sb::vision {
namespace {

TEST(Scene, PiecesStayOffCentreWithinTheLimitAndNeverTouch) {
  for (const char* game : {"brazilian", "cotulenh", "morris9", "cotoan"}) {
    calib::BoardModel m = calib::load_board_model(game);
    PieceLook look = load_game_art(game).pieces;
    look.max_offset = 0.2;
    look.diameter_pitch = 0.86;
    BoardContents b;
    for (const auto& s : m.sites)
      b[s.name] = {std::string(1, look.sides[0].side) + (look.face == FaceKind::Dots      ? "1"
                                                         : look.face == FaceKind::Symbols ? "T"
                                                                                          : "")};
    Rng rng(17);
    auto pieces = place_pieces(m, look, b, rng);
    ASSERT_EQ(pieces.size(), m.sites.size());
    double r = piece_radius_mm(m, look);
    double largest = 0;
    for (size_t i = 0; i < pieces.size(); ++i) {
      const calib::Site& s = m.site(pieces[i].site);
      double off = std::hypot(pieces[i].xy.x - s.centre.x, pieces[i].xy.y - s.centre.y);
      EXPECT_LE(off, 0.2 * m.pitch_mm + 1e-9);
      largest = std::max(largest, off);
      for (size_t j = i + 1; j < pieces.size(); ++j)
        EXPECT_GE(std::hypot(pieces[i].xy.x - pieces[j].xy.x, pieces[i].xy.y - pieces[j].xy.y), 2 * r) << game;
    }
    EXPECT_GT(largest, 0.1 * m.pitch_mm) << game;
  }
}

TEST(Scene, UnknownSitesAreRefused) {
  calib::BoardModel m = calib::load_board_model("morris3");
  PieceLook look = load_game_art("morris3").pieces;
  Rng rng(1);
  EXPECT_THROW(place_pieces(m, look, {{"z9", {"W"}}}, rng), InputError);
}

TEST(Scene, CapturedPiecesLieOnTheTableBesideTheBoard) {
  calib::BoardModel m = calib::load_board_model("brazilian");
  PieceLook look = load_game_art("brazilian").pieces;
  BoardLook board;
  board.thickness_mm = 12;
  Rng rng(2);
  for (int player = 0; player < 2; ++player)
    for (int k = 0; k < 12; ++k) {
      PieceInstance p = beside_board(m, look, board, player, k, {"B"}, rng);
      EXPECT_EQ(p.base_mm, -12);
      EXPECT_TRUE(p.xy.x < 0 || p.xy.x > m.size_mm.x) << p.xy.x;
      EXPECT_TRUE(p.site.empty());
    }
  EXPECT_TRUE(visible_tokens({beside_board(m, look, board, 0, 0, {"B"}, rng)}).empty());
}

}  // namespace
}  // namespace sb::vision
