// Move inference on the test game (toy_rules.h): each kind of reading from
// hand-made boards.
#include <gtest/gtest.h>

#include <cmath>

#include "arbiter/inference.h"
#include "tests/arbiter/support.h"
#include "tests/arbiter/toy_rules.h"

namespace sb::arbiter {
namespace {

using sb::testing::frame_of;
using sb::testing::ToyRules;

class InferenceTest : public ::testing::Test {
 protected:
  Verdict read(const std::string& fen, const std::string& cells, std::vector<const Observation*> earlier = {}) {
    position = std::make_shared<Position>(rules, rules.from_fen(fen));
    return read_frame(*position, frame_of(rules, cells, 0), earlier, {});
  }
  std::vector<std::string> moves_of(const Verdict& v) {
    std::vector<std::string> names;
    Position* p = position.get();
    for (int i : v.moves) {
      names.push_back(p->successor(i).move.notation);
      p = p->successor(i).next.get();
    }
    return names;
  }
  ToyRules rules;
  std::shared_ptr<Position> position;
};

TEST_F(InferenceTest, UnchangedBoardIsNoChange) {
  Verdict v = read("WWW......BBB w", "WWW......BBB");
  EXPECT_EQ(v.kind, Reading::NoChange);
  EXPECT_EQ(v.cost, 0);
}

TEST_F(InferenceTest, OneFinishedMoveIsRead) {
  Verdict v = read("WWW......BBB w", "WW.W.....BBB");
  ASSERT_EQ(v.kind, Reading::Moves);
  EXPECT_EQ(moves_of(v), std::vector<std::string>{"c3-c4"});
  EXPECT_FALSE(v.ambiguous);
}

TEST_F(InferenceTest, DoubtfulMisreadIsOverruledAtItsLogOdds) {
  position = std::make_shared<Position>(rules, rules.start());
  Frame f = frame_of(rules, "WW.W.....BB.", 0);  // c12 misread as empty
  f.conf[11] = 0.45f;
  InferenceOptions o;
  o.token_kinds = 3;  // empty, W, B: a misread turns into one of two other readings
  Verdict v = read_frame(*position, f, {}, o);
  ASSERT_EQ(v.kind, Reading::Moves);
  EXPECT_EQ(moves_of(v), std::vector<std::string>{"c3-c4"});
  EXPECT_NEAR(v.fit, std::log(0.45 * 2 / 0.55), 1e-6);
  f.conf[11] = 0.2f;  // likelier a misread than not: overruling it costs nothing
  EXPECT_EQ(read_frame(*position, f, {}, o).fit, 0.0);
}

TEST_F(InferenceTest, DoubtfulMisreadAloneIsNoChange) {
  position = std::make_shared<Position>(rules, rules.start());
  Frame f = frame_of(rules, "WWW......BB.", 0);
  f.conf[11] = 0.2f;
  EXPECT_EQ(read_frame(*position, f, {}, {}).kind, Reading::NoChange);
}

TEST_F(InferenceTest, ConfidentMisreadIsNeverOverruled) {
  position = std::make_shared<Position>(rules, rules.start());
  Frame f = frame_of(rules, "WWW..W...BBB", 0);  // a piece from nowhere, read with confidence
  Verdict v = read_frame(*position, f, {}, {});
  ASSERT_EQ(v.kind, Reading::Unclear);
  EXPECT_EQ(v.squares, std::vector<int>{5});
  ASSERT_FALSE(v.suggestions.empty());
  EXPECT_EQ(v.suggestions.front(), "c3-c4");
}

TEST_F(InferenceTest, TwoMovesBetweenFramesAreBothRead) {
  Verdict v = read("WWW......BBB w", "WW.W....B.BB");
  ASSERT_EQ(v.kind, Reading::Moves);
  EXPECT_EQ(moves_of(v), (std::vector<std::string>{"c3-c4", "c10-c9"}));
  EXPECT_FALSE(v.then_under_way);
}

TEST_F(InferenceTest, FirstMoveIsReadWhenTheSecondIsUnderWay) {
  // White played c3-c4; Black has lifted its man from c10 and not put it down.
  Verdict v = read("WWW......BBB w", "WW.W......BB");
  ASSERT_EQ(v.kind, Reading::Moves);
  EXPECT_EQ(moves_of(v), std::vector<std::string>{"c3-c4"});
  EXPECT_TRUE(v.then_under_way);
}

TEST_F(InferenceTest, MultiCaptureRestingOnAWaypointIsUnderWay) {
  // c3xc5xc7: the man stops on c5 with both jumped pieces still on the board.
  EXPECT_EQ(read("..WB.B...... w", "...BWB......").kind, Reading::UnderWay);
}

TEST_F(InferenceTest, JumpedPiecesRemovedOneByOneAreUnderWay) {
  EXPECT_EQ(read("..WB.B...... w", "...B.BW.....").kind, Reading::UnderWay);
  EXPECT_EQ(read("..WB.B...... w", "...B..W.....").kind, Reading::UnderWay);
  EXPECT_EQ(read("..WB.B...... w", ".....BW.....").kind, Reading::UnderWay);
  Verdict done = read("..WB.B...... w", "......W.....");
  ASSERT_EQ(done.kind, Reading::Moves);
  EXPECT_EQ(moves_of(done), std::vector<std::string>{"c3xc5xc7"});
}

TEST_F(InferenceTest, LiftedPieceIsUnderWay) {
  EXPECT_EQ(read("WWW......BBB w", "WW.......BBB").kind, Reading::UnderWay);
}

TEST_F(InferenceTest, LandingThatIsAlsoHalfAStrikeIsAmbiguous) {
  // The king on c3 may land on c5 or strike it and fly back: the board after a
  // landing is also the board half way through a strike.
  Verdict landed = read("..w.B....... w", "....W.......");
  ASSERT_EQ(landed.kind, Reading::Moves);
  EXPECT_EQ(moves_of(landed), std::vector<std::string>{"c3>c5"});
  EXPECT_TRUE(landed.ambiguous);
  Verdict struck = read("..w.B....... w", "..W.........");
  ASSERT_EQ(struck.kind, Reading::Moves);
  EXPECT_EQ(moves_of(struck), std::vector<std::string>{"c3@c5"});
  EXPECT_FALSE(struck.ambiguous);
  EXPECT_EQ(read("..w.B....... w", "....B.......").kind, Reading::UnderWay);  // the king lifted
}

TEST_F(InferenceTest, ReturnToAnEarlierPositionIsATakeback) {
  State start = rules.start();
  Observation before = rules.observe(start);
  position = std::make_shared<Position>(rules, rules.play(start, "c3-c4"));
  Verdict v = read_frame(*position, frame_of(rules, "WWW......BBB", 0), {&before}, {});
  ASSERT_EQ(v.kind, Reading::Takeback);
  EXPECT_EQ(v.takeback_to, 0);
  // Without the earlier boards there is no takeback to read.
  EXPECT_NE(read_frame(*position, frame_of(rules, "WWW......BBB", 0), {}, {}).kind, Reading::Takeback);
}

TEST_F(InferenceTest, StepWhenACaptureIsMandatoryIsIllegalWithItsReason) {
  Verdict v = read("W.WB......B. w", ".WWB......B.");
  ASSERT_EQ(v.kind, Reading::Illegal);
  EXPECT_EQ(v.illegal.reason, "a capture is mandatory (c3xc5)");
  EXPECT_EQ(v.illegal.squares, (std::vector<int>{0, 1}));
  EXPECT_TRUE(v.moves.empty());
}

TEST_F(InferenceTest, IllegalReplyAfterALegalMoveKeepsTheLegalMove) {
  // White c3-c4, then Black steps c10-c9 although c5xc3 is mandatory.
  Verdict v = read("W.W.B....B.. w", "W..WB...B...");
  ASSERT_EQ(v.kind, Reading::Illegal);
  EXPECT_EQ(moves_of(v), std::vector<std::string>{"c3-c4"});
  EXPECT_EQ(v.illegal.reason, "a capture is mandatory (c5xc3)");
}

TEST_F(InferenceTest, HiddenKingIsFollowedFromHistory) {
  // A man reaching c12 becomes a king; the camera still shows "W", yet the king's
  // backward step is read as legal because the position knows it is a king.
  State s = rules.from_fen("...........w w");
  position = std::make_shared<Position>(rules, s);
  Verdict v = read_frame(*position, frame_of(rules, "..........W.", 0), {}, {});
  ASSERT_EQ(v.kind, Reading::Moves);
  EXPECT_EQ(moves_of(v), std::vector<std::string>{"c12-c11"});
}

TEST_F(InferenceTest, OptionsRoundTripThroughJson) {
  InferenceOptions o;
  o.doubt_below = 0.4;
  o.two_moves = false;
  InferenceOptions back = inference_options_from_json(to_json(o));
  EXPECT_EQ(back.doubt_below, 0.4);
  EXPECT_FALSE(back.two_moves);
  EXPECT_THROW(inference_options_from_json({{"doubt_below", 2}}), InputError);
  EXPECT_THROW(inference_options_from_json({{"nonsense", 1}}), InputError);
}

}  // namespace
}  // namespace sb::arbiter
