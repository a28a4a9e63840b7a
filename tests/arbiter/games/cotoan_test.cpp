// The referee on Cờ toán: plain moves, a capture with its calculation in the
// announcement and the record, an illegal move in the player's words, a fast
// two-move sequence, a takeback, the target score, and the match as the seed
// plays it (every game unless a 0 is taken; the loser moves first next).
#include <gtest/gtest.h>

#include <algorithm>

#include "arbiter/record.h"
#include "engines/common/errors.h"
#include "tests/arbiter/games/script.h"

namespace sb::arbiter {
namespace {

using sb::testing::Script;
using sb::testing::summary;

// Red's 8 on e3 with its 5 on e4 in front; Blue's 2 on e7, three squares beyond.
const char* kCapture = "R:R0e2,1a1,2b1,3c1,4d1,5e4,6f1,7g1,8e3,9i1:B0e10,1i11,2e7,3g11,4f11,5e11,6d11,7c11,8b11,9a11";

TEST(CotoanRefereeTest, PlainMovesAreRead) {
  Script s("cotoan");
  ASSERT_EQ(summary(s.start()), "setup_ok");
  ASSERT_EQ(summary(s.play("3:c1-c4")), "move:3:c1-c4");
  auto ev = s.play("7:c11-c8");
  ASSERT_EQ(summary(ev), "move:7:c11-c8");
  EXPECT_EQ(ev[0].side, "blue");
}

TEST(CotoanRefereeTest, CaptureIsAnnouncedWithItsCalculationAndPoints) {
  RefereeOptions o;
  o.start_fen = kCapture;
  Script s("cotoan", o);
  ASSERT_EQ(summary(s.start()), "setup_ok");
  // The 8 is lifted, then put on e7 before Blue's 2 is taken off.
  Observation b = s.with(s.board(), "e3", "");
  EXPECT_EQ(summary(s.see(b)), "");
  b = s.with(b, "e7", "R8");
  auto ev = s.see(b);
  ASSERT_EQ(summary(ev), "move:8:e3xe7");
  EXPECT_EQ(ev[0].captured, std::vector<std::string>{"e7"});
  EXPECT_EQ(ev[0].score.at("red"), 2);
  EXPECT_NE(s.referee.game().moves[0].record.find("8+5"), std::string::npos) << s.referee.game().moves[0].record;
  const std::string text = write_record(RecordFormat::Text, *s.rules, s.referee.games());
  EXPECT_NE(text.find("8+5"), std::string::npos) << text;
}

TEST(CotoanRefereeTest, OperatorsFlagLetsPointsDecideSoTheSideOutOfTimeStillWinsOnPoints) {
  RefereeOptions o;
  o.start_fen = kCapture;
  Script s("cotoan", o);
  s.start();
  ASSERT_EQ(summary(s.play("8:e3xe7")), "move:8:e3xe7");  // Red leads 2-0
  auto ev = s.command({{"command", "flag"}, {"side", "red"}});
  ASSERT_EQ(summary(ev), "game_over:1-0");
  EXPECT_EQ(ev[0].reason, "red's time ran out (flag fall declared by the operator): points decide (2-0)");
  EXPECT_EQ(s.referee.game().reason, ev[0].reason);
  const std::string text = write_record(RecordFormat::Text, *s.rules, s.referee.games());
  EXPECT_NE(text.find("Result: 1-0 (" + ev[0].reason + ")"), std::string::npos) << text;
}

TEST(CotoanRefereeTest, MovingTheZeroIsIllegalInThePlayersWords) {
  Script s("cotoan");
  s.start();
  auto ev = s.see(s.with(s.with(s.board(), "e2", ""), "e3", "R0"));
  ASSERT_EQ(summary(ev), "illegal");
  EXPECT_NE(ev[0].reason.find("0 never moves"), std::string::npos) << ev[0].reason;
  EXPECT_NE(std::find(ev[0].squares.begin(), ev[0].squares.end(), "e2"), ev[0].squares.end());
  EXPECT_EQ(s.referee.ply(), 0);
  EXPECT_EQ(summary(s.see(s.board())), "restored");
}

TEST(CotoanRefereeTest, FastTwoMoveSequenceGivesBothMoves) {
  Script s("cotoan");
  s.start();
  EXPECT_EQ(summary(s.play("3:c1-c4 7:c11-c8")), "move:3:c1-c4 move:7:c11-c8");
}

TEST(CotoanRefereeTest, ReturnToTheEarlierPositionIsATakeback) {
  Script s("cotoan");
  s.start();
  s.play("3:c1-c4");
  auto ev = s.see(s.board(s.rules->start()));
  ASSERT_EQ(summary(ev), "takeback:0");
}

// The seed's example: A wins games 1 and 2 on points, B takes A's 0 in game 3 and
// wins the match. A majority of games alone does not end the match.
TEST(CotoanRefereeTest, MatchGoesOnPastAMajorityAndATakenZeroDecidesIt) {
  RefereeOptions o;
  o.match_games = 5;
  Script s("cotoan", o);
  for (int game = 1; game <= 2; ++game) {
    ASSERT_EQ(s.referee.phase(), Phase::Setup);
    s.state = s.referee.state();
    ASSERT_EQ(summary(s.start()), "setup_ok") << "game " << game;
    s.command({{"command", "resign"}, {"side", "blue"}});
    ASSERT_EQ(s.referee.games()[static_cast<size_t>(game) - 1].result, "1-0");
  }
  // Two games of five won by Red: not yet a majority; the third is played.
  ASSERT_EQ(s.referee.phase(), Phase::Setup);
  s.state = s.referee.state();
  // Blue lost game 2, so Blue moves first in game 3.
  EXPECT_EQ(s.rules->side_to_move(s.state), Side::Second);
  s.start();
  s.command({{"command", "resign"}, {"side", "blue"}});  // Red now has 3 of 5
  ASSERT_EQ(s.referee.phase(), Phase::Setup) << "a majority does not end a Cờ toán match";
  // Game 4: Blue takes Red's 0.
  s.state = s.referee.state();
  ASSERT_EQ(s.rules->side_to_move(s.state), Side::Second);
  s.start();
  const char* zero = "B:R0e2,1a1,2b1,3c1,4d1,5e1,6f1,7g1,8h1,9i1:B0e10,1i11,2h11,3g11,4f11,5e11,6d11,7c11,8e4,9e5";
  s.command({{"command", "new_game"}, {"fen", zero}});
  s.state = s.rules->from_fen(zero);
  s.start();
  std::string take;
  for (const Move& m : s.rules->legal_moves(s.state))
    if (m.to == s.rules->site_index("e2")) take = m.notation;
  ASSERT_FALSE(take.empty()) << "no move takes the 0 in " << zero;
  auto ev = s.play(take);
  ASSERT_GE(ev.size(), 3u) << summary(ev);
  EXPECT_EQ(ev[1].type, EventType::GameOver);
  EXPECT_EQ(ev[1].result, "0-1");
  EXPECT_EQ(ev[2].type, EventType::MatchOver);
  EXPECT_EQ(ev[2].result, "0-1") << ev[2].reason;
  EXPECT_EQ(s.referee.phase(), Phase::MatchOver);
}

TEST(CotoanRefereeTest, MatchOfGameWinsEndsAfterTheLastGame) {
  RefereeOptions o;
  o.match_games = 3;
  Script s("cotoan", o);
  const char* winners[] = {"blue", "red", "blue"};  // the resigning side
  for (int game = 0; game < 3; ++game) {
    ASSERT_EQ(s.referee.phase(), Phase::Setup) << "game " << game + 1;
    s.state = s.referee.state();
    s.start();
    s.command({{"command", "resign"}, {"side", winners[game]}});
  }
  EXPECT_EQ(s.referee.phase(), Phase::MatchOver);
  EXPECT_EQ(s.referee.games().size(), 3u);
}

TEST(CotoanRefereeTest, EvenMatchLengthIsRefused) {
  RefereeOptions o;
  o.match_games = 2;
  EXPECT_THROW(Script("cotoan", o), InputError);
}

}  // namespace
}  // namespace sb::arbiter
