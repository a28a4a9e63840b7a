// How a game of Cờ toán ends: the 0 taken, the target score, no legal move or a
// threefold repetition (the last two decided on points).
#include <gtest/gtest.h>

#include "tests/engines/cotoan/cotoan_test_support.h"

namespace sb::cotoan {
namespace {

using testing::full_fen;
using testing::make;

const char* kShuffle = "1:a1-a2 1:i11-i10 1:a2-a1 1:i10-i11";

TEST(GameEnd, ThreefoldRepetitionWithEqualPointsIsADraw) {
  auto rules = make();
  State s = rules->play(rules->start(), kShuffle);
  EXPECT_FALSE(rules->outcome(s).over());  // the start position a second time
  s = rules->play(s, "1:a1-a2 1:i11-i10 1:a2-a1");
  EXPECT_FALSE(rules->outcome(s).over());
  s = rules->play(s, "1:i10-i11");  // and a third time
  const Outcome o = rules->outcome(s);
  EXPECT_EQ(o.result(), "1/2-1/2");
  EXPECT_EQ(o.reason, "threefold repetition, equal points");
  EXPECT_TRUE(rules->legal_moves(s).empty());
  EXPECT_EQ(rules->state_line(s), "1/2-1/2 threefold repetition, equal points; score red 0 blue 0");
}

TEST(GameEnd, ThreefoldRepetitionIsWonByTheSideAheadOnPoints) {
  auto rules = make();
  State s = rules->from_fen(full_fen('R', "", "3x"));
  s = rules->play(s, std::string(kShuffle) + " " + kShuffle);
  const Outcome o = rules->outcome(s);
  EXPECT_EQ(o.result(), "1-0");
  EXPECT_EQ(o.reason, "threefold repetition, won on points");
}

TEST(GameEnd, RepetitionCountsOnlyTheSameSideToMove) {
  auto rules = make();
  // Red walks its 1 round a triangle (3 moves) while Blue shuffles (2 moves): the
  // start board comes back after 5 plies with Blue to move and after 12 with Red to
  // move. Three times the same pieces, but only twice the same position.
  State s = rules->play(rules->start(),
                        "1:a1-a2 1:i11-i10 1:a2-b2 1:i10-i11 1:b2-a1 1:i11-i10 1:a1-a2 1:i10-i11 1:a2-b2 1:i11-i10 "
                        "1:b2-a1 1:i10-i11");
  EXPECT_EQ(rules->fen(s), rules->fen(rules->start()));
  EXPECT_FALSE(rules->outcome(s).over());
}

TEST(GameEnd, ACaptureStartsTheRepetitionCountAfresh) {
  auto rules = make();
  State s = rules->from_fen(full_fen('R', "8c5,5c6", "4c9"));
  s = rules->play(s, "8:c5xc9");  // every earlier position is now out of reach
  EXPECT_TRUE(s.as<Position>().history.empty());
  s = rules->play(s, "1:i11-i10 1:a1-a2 1:i10-i11 1:a2-a1 1:i11-i10 1:a1-a2 1:i10-i11");
  EXPECT_FALSE(rules->outcome(s).over());
  s = rules->play(s, "1:a2-a1");  // the position after the capture, a third time
  EXPECT_EQ(rules->outcome(s).reason, "threefold repetition, won on points");
}

TEST(GameEnd, NoLegalMoveEndsTheGameOnPoints) {
  auto rules = make(R"({"target_score": 0})");
  // Blue's 1 is boxed into the corner and its 0 never moves.
  State s = rules->from_fen("B:R0e2,5a10,6b10,7b11:B0e10,1a11");
  EXPECT_EQ(rules->score(s), (Score{44, 27}));
  const Outcome o = rules->outcome(s);
  EXPECT_EQ(o.result(), "1-0");
  EXPECT_EQ(o.reason, "no legal move, won on points");
  EXPECT_TRUE(rules->legal_moves(s).empty());
}

TEST(GameEnd, WithoutATargetPointsAloneNeverEndTheGame) {
  auto rules = make(R"({"target_score": 0})");
  State s = rules->from_fen("R:R0e2,9i1:B0e10,9a11");
  EXPECT_EQ(rules->score(s), (Score{36, 36}));
  EXPECT_FALSE(rules->outcome(s).over());
}

TEST(GameEnd, TheTargetEndsTheGameTheMomentItIsReached) {
  auto rules = make();
  // Red has 7 (Blue's 7 is gone) and takes Blue's 3: 10, the default target.
  State s = rules->from_fen(full_fen('R', "8c5,5c6", "3c9,7x"));
  EXPECT_FALSE(rules->outcome(s).over());
  State after = rules->apply(s, rules->parse_move(s, "8:c5xc9"));
  EXPECT_EQ(rules->state_line(after), "1-0 reached the target score 10; score red 10 blue 0");
  EXPECT_TRUE(rules->legal_moves(after).empty());
}

}  // namespace
}  // namespace sb::cotoan
