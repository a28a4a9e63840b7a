// Positions as text (RULES.md §3): round trips, the points a board implies, and a
// clear error for every kind of bad FEN.
#include <gtest/gtest.h>

#include "engines/common/errors.h"
#include "engines/registry.h"
#include "tests/engines/cotoan/cotoan_test_support.h"

namespace sb::cotoan {
namespace {

using testing::make;

const char* kStart = "R:R0e2,1a1,2b1,3c1,4d1,5e1,6f1,7g1,8h1,9i1:B0e10,1i11,2h11,3g11,4f11,5e11,6d11,7c11,8b11,9a11";

TEST(Fen, TheStartRoundTripsAndTheRegistryBuildsTheGame) {
  auto rules = make_rules("cotoan");
  EXPECT_EQ(rules->id(), "cotoan");
  EXPECT_EQ(rules->fen(rules->start()), kStart);
  EXPECT_EQ(rules->fen(rules->from_fen(kStart)), kStart);
  EXPECT_EQ(rules->side_to_move(rules->start()), Side::First);
  EXPECT_TRUE(rules->keeps_score());
  EXPECT_EQ(rules->site_count(), 99);
  EXPECT_EQ(rules->site_name(0), "a1");
  EXPECT_EQ(rules->site_name(98), "i11");
  EXPECT_EQ(rules->site_index("e10"), square_at(4, 9));
  EXPECT_EQ(rules->site_index("j1"), -1);
  EXPECT_EQ(rules->side_name(Side::Second), "blue");
  EXPECT_EQ(rules->side_letter(Side::Second), 'B');
}

TEST(Fen, ItemsInAnyOrderSpacesAndALowerCaseTurnAreAccepted) {
  auto rules = make(R"({"target_score": 0})");
  State s = rules->from_fen("  b : B 3c3 , 0e10 : R 9i1,0e2  ");
  EXPECT_EQ(rules->fen(s), "B:R0e2,9i1:B0e10,3c3");
  EXPECT_EQ(rules->side_to_move(s), Side::Second);
}

TEST(Fen, PointsAreTheNumbersOfTheOpposingPiecesMissing) {
  auto rules = make(R"({"target_score": 0})");
  State s = rules->from_fen("R:R0e2,1a1,2b1,3c1,4d1,5e1,6f1,7g1:B0e10,1i11,2h11,3g11,4f11,5e11,6d11,7c11,8b11,9a11");
  EXPECT_EQ(rules->score(s), (Score{0, 17}));  // Red's 8 and 9 are gone
  EXPECT_EQ(rules->state_line(s), "ongoing; score red 0 blue 17");
}

TEST(Fen, APositionWithoutAZeroIsAWonGame) {
  auto rules = make();
  State s = rules->from_fen(testing::full_fen('R', "0x", "5e7,2x"));
  EXPECT_EQ(rules->outcome(s).result(), "0-1");
  EXPECT_EQ(rules->outcome(s).reason, "captured the 0");
  EXPECT_TRUE(rules->legal_moves(s).empty());
  EXPECT_EQ(rules->perft(s, 2), 0u);
  EXPECT_EQ(rules->fen(s), "R:R1a1,2b1,3c1,4d1,5e1,6f1,7g1,8h1,9i1:B0e10,1i11,3g11,4f11,5e7,6d11,7c11,8b11,9a11");
}

std::string fen_error(const std::string& fen, const std::string& options = "{}") {
  try {
    make(options)->from_fen(fen);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(Fen, EveryBadFenIsRejectedNamingTheProblemAndWhere) {
  EXPECT_EQ(fen_error(""), "FEN '': empty FEN (expected <turn>:R<items>:B<items>) (at column 1)");
  EXPECT_EQ(fen_error("R:R0e2"),
            "FEN 'R:R0e2': expected 3 fields separated by ':' (<turn>:R<items>:B<items>), "
            "found 2 (at column 1)");
  EXPECT_EQ(fen_error("W:R0e2:B0e10"), "FEN 'W:R0e2:B0e10': side to move 'W' is not R or B (at column 1)");
  EXPECT_EQ(fen_error("R:X0e2:B0e10"),
            "FEN 'R:X0e2:B0e10': field 2 must start with R or B (the side whose pieces it lists) (at column 3)");
  EXPECT_EQ(fen_error("R:R0e2:R0e10"), "FEN 'R:R0e2:R0e10': the pieces of Red are listed twice (at column 8)");
  EXPECT_EQ(fen_error("R:R0e2,x5:B0e10"),
            "FEN 'R:R0e2,x5:B0e10': item 'x5' must start with the piece's number 0-9, then its square (e.g. 5e1) "
            "(at column 8)");
  EXPECT_EQ(fen_error("R:R0e2,5j1:B0e10"),
            "FEN 'R:R0e2,5j1:B0e10': item '5j1': 'j1' is not a square of the 9x11 board (a1-i11) (at column 8)");
  EXPECT_EQ(fen_error("R:R0e2,5a12:B0e10"),
            "FEN 'R:R0e2,5a12:B0e10': item '5a12': 'a12' is not a square of the 9x11 board (a1-i11) (at column 8)");
  EXPECT_EQ(fen_error("R:R0e2,5a1:B0e10,3a1"),
            "FEN 'R:R0e2,5a1:B0e10,3a1': item '3a1': square a1 is already taken (at column 18)");
  EXPECT_EQ(fen_error("R:R0e2,5a1,5b1:B0e10"),
            "FEN 'R:R0e2,5a1,5b1:B0e10': item '5b1': Red has only one 5 (already on a1) (at column 12)");
  EXPECT_EQ(fen_error("R:R0e3:B0e10"), "FEN 'R:R0e3:B0e10': item '0e3': Red's 0 never moves from e2 (at column 4)");
  EXPECT_EQ(fen_error("R:R0e2,,1a1:B0e10"), "FEN 'R:R0e2,,1a1:B0e10': empty item (two commas in a row?) (at column 8)");
  EXPECT_EQ(
      fen_error("R:R1a1:B2b2"),
      "FEN 'R:R1a1:B2b2': both 0 pieces are missing, but a game ends when the first one is captured (at column 1)");
  EXPECT_EQ(fen_error("R:R0e2,1a1,2b1,3c1:B0e10,1i11,2h11,3g11"),
            "FEN 'R:R0e2,1a1,2b1,3c1:B0e10,1i11,2h11,3g11': both sides have reached the target score 10 (red 39, "
            "blue 39), but the game ends when the first does");
  EXPECT_EQ(fen_error("R:R0e2,1a1,2b1,3c1:B0e10,1i11,2h11,3g11", R"({"target_score": 0})"), "(accepted)");
}

}  // namespace
}  // namespace sb::cotoan
