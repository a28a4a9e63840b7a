// Why a move is illegal, in a player's words: for moves typed in notation and
// for moves seen on the board by the camera (explain_change).
#include <gtest/gtest.h>

#include "tests/engines/draughts/draughts_test_util.h"

namespace sb::draughts {
namespace {

using testing::make;

std::string reason(const DraughtsRules& rules, const std::string& fen, const std::string& move) {
  const State s = rules.from_fen(fen);
  try {
    rules.parse_move(s, move);
  } catch (const IllegalMoveError& e) {
    EXPECT_EQ(e.reason(), rules.why_illegal(s, move));
    return e.reason();
  }
  return "(legal)";
}

TEST(DraughtsWhyIllegal, CaptureIsMandatory) {
  auto rules = make("brazilian");
  EXPECT_EQ(reason(*rules, "W:W18,21:B15", "21-17"), "a capture is mandatory: 18x11");
  EXPECT_EQ(reason(*rules, "W:W18,21:B15", "18-14"), "a capture is mandatory: 18x11");
}

TEST(DraughtsWhyIllegal, TheMostPiecesMustBeTaken) {
  auto rules = make("brazilian");
  // The man on c1 takes three men; the man on h2 could take two kings, or stop after one.
  const char* fen = "W:W28,30:B9,17,25,K15,K24";
  EXPECT_EQ(reason(*rules, fen, "28x10"), "you must take the maximum, 3 pieces, e.g. 30x5");
  EXPECT_EQ(reason(*rules, fen, "28x19"), "you must take the maximum, 3 pieces, e.g. 30x5");
  EXPECT_EQ(reason(*rules, fen, "30x14"), "you must take the maximum, 3 pieces, e.g. 30x5");
  EXPECT_EQ(reason(*rules, fen, "30x21x14"), "you must take the maximum, 3 pieces, e.g. 30x5");
  // International too.
  EXPECT_EQ(reason(*make("international"), "W:W37,38:B32,23", "38x27"),
            "you must take the maximum, 2 pieces, e.g. 37x19");
}

TEST(DraughtsWhyIllegal, EnglishCapturesMustBeCompleted) {
  auto rules = make("english");
  EXPECT_EQ(reason(*rules, "W:W21,22:B11,17,18", "22x15"), "a capture must be completed: 22x8");
}

TEST(DraughtsWhyIllegal, StepsThatBreakTheRules) {
  auto rules = make("brazilian");
  const char* start = "W:W21-32:B1-12";
  EXPECT_EQ(reason(*rules, start, "17-13"), "there is no piece on 17");
  EXPECT_EQ(reason(*rules, start, "9-13"), "the piece on 9 is black's; it is white's turn");
  EXPECT_EQ(reason(*rules, start, "26-22"), "square 22 is occupied");
  EXPECT_EQ(reason(*rules, start, "22-19"), "22-19 is not along a diagonal");
  EXPECT_EQ(reason(*rules, "W:W18:B1", "18-22"), "a man moves forward only");
  EXPECT_EQ(reason(*rules, "W:W18:B1", "18-11"), "a man moves one square at a time (it jumps only to capture)");
  EXPECT_EQ(reason(*rules, start, "22x13"), "there is nothing to capture");
  EXPECT_EQ(reason(*rules, "W:WK29,22:B1", "29-15"), "the way from 29 to 15 is blocked on 22");
  EXPECT_EQ(reason(*make("english"), "W:WK29:B1", "29-22"), "a king moves one square at a time in english draughts");
}

TEST(DraughtsWhyIllegal, AlgebraicGamesExplainInAlgebraic) {
  auto rules = make("brazilian", Json::parse(R"({"notation":"algebraic"})"));
  EXPECT_EQ(reason(*rules, "W:W18,21:B15", "a3-b4"), "a capture is mandatory: d4xf6");
}

TEST(DraughtsExplainChange, AMoveIgnoringACompulsoryCapture) {
  auto rules = make("brazilian");
  const State s = rules->from_fen("W:W18,21:B15");
  Observation after = rules->observe(s);
  after.sites[20] = {};                // a3 lifted
  after.sites[16] = parse_token("W");  // put on b4
  const auto c = rules->explain_change(s, after);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->reason, "a capture is mandatory: 18x11");
  EXPECT_EQ(c->squares, (std::vector<int>{20, 16}));
}

TEST(DraughtsExplainChange, ACaptureTakingTooFew) {
  auto rules = make("brazilian");
  const State s = rules->from_fen("W:W28,30:B9,17,25,K15,K24");
  Observation after = rules->observe(s);
  after.sites[27] = {};               // h2 lifted
  after.sites[9] = parse_token("W");  // to d6
  after.sites[23] = {};               // g3 taken off
  after.sites[14] = {};               // e5 taken off
  const auto c = rules->explain_change(s, after);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->reason, "you must take the maximum, 3 pieces, e.g. 30x5");
}

TEST(DraughtsExplainChange, CapturedPiecesLeftOnTheBoardOrTheWrongOnesRemoved) {
  auto rules = make("brazilian");
  const State s = rules->from_fen("W:W30:B9,17,25,12");
  Observation moved = rules->observe(s);
  moved.sites[29] = {};
  moved.sites[4] = parse_token("W");  // c1 to a7, nothing removed yet
  auto c = rules->explain_change(s, moved);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->reason, "30x5 takes 25, 17 and 9: take them off the board");

  Observation wrong = moved;
  wrong.sites[24] = {};  // b2 off (right)
  wrong.sites[16] = {};  // b4 off (right)
  wrong.sites[11] = {};  // h6 off (wrong)
  c = rules->explain_change(s, wrong);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->reason, "30x5 does not take 12: put it back");

  Observation right = moved;
  right.sites[24] = right.sites[16] = right.sites[8] = {};
  EXPECT_FALSE(rules->explain_change(s, right).has_value());  // a legal move: nothing to explain
}

TEST(DraughtsExplainChange, MovingOutOfTurnAndMisreads) {
  auto rules = make("brazilian");
  const State s = rules->start();
  Observation after = rules->observe(s);
  after.sites[8] = {};                 // black's 9 lifted
  after.sites[12] = parse_token("B");  // to 13
  const auto c = rules->explain_change(s, after);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->reason, "it is white's turn");

  Observation flipped = rules->observe(s);
  flipped.sites[0] = parse_token("W");  // a black piece read as white: a misread, not a move
  EXPECT_FALSE(rules->explain_change(s, flipped).has_value());
  Observation lifted = rules->observe(s);
  lifted.sites[21] = {};  // a piece in the hand
  EXPECT_FALSE(rules->explain_change(s, lifted).has_value());
  EXPECT_FALSE(rules->explain_change(s, Observation{}).has_value());
}

TEST(DraughtsExplainChange, AManMovedBackwardOrTooFar) {
  auto rules = make("brazilian");
  const State s = rules->from_fen("W:W18:B1");
  Observation back = rules->observe(s);
  back.sites[17] = {};
  back.sites[21] = parse_token("W");  // d4 to c3
  EXPECT_EQ(rules->explain_change(s, back)->reason, "a man moves forward only");
  Observation far = rules->observe(s);
  far.sites[17] = {};
  far.sites[10] = parse_token("W");  // d4 to f6
  EXPECT_EQ(rules->explain_change(s, far)->reason, "a man moves one square at a time (it jumps only to capture)");
}

}  // namespace
}  // namespace sb::draughts
