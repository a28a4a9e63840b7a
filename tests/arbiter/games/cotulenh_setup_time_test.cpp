// Cờ tư lệnh at the referee: a free setup ("chơi nâng cao") refused for a piece
// missing and for a piece outside its own half, and the full battle's 30-minute
// limit (the battle mode's 15 minutes do not end it).
#include <gtest/gtest.h>

#include <string>

#include "tests/arbiter/games/script.h"

namespace sb::arbiter {
namespace {

using sb::testing::Script;
using sb::testing::summary;

RefereeOptions free_setup() {
  RefereeOptions o;
  o.free_setup = true;
  return o;
}

// The reasons of a setup_mismatch event's problems, one per line.
std::string problems_of(const Event& e) {
  std::string text;
  for (const nlohmann::json& p : e.extra.value("problems", nlohmann::json::array()))
    text += p.value("reason", "") + "\n";
  return text;
}

TEST(CotulenhFreeSetupTest, APieceMissingIsRefusedNamingThePieceAndNoGameStarts) {
  Script s("cotulenh", free_setup());
  const Observation missing = s.with(s.board(s.rules->start()), "c5", "");  // Red's infantry on c5 left out
  auto ev = s.see(missing);
  ASSERT_EQ(summary(ev), "setup_mismatch");
  EXPECT_NE(problems_of(ev[0]).find("red is missing 1 infantry"), std::string::npos) << problems_of(ev[0]);
  // However long it stands, the arrangement never starts a game.
  EXPECT_EQ(summary(s.see(missing, 5000)), "");
  EXPECT_EQ(s.referee.phase(), Phase::Setup);
  // The infantry put anywhere in Red's half completes it.
  const Observation complete = s.with(missing, "d4", "RI");
  EXPECT_EQ(summary(s.see(complete)), "");
  ASSERT_EQ(summary(s.see(complete, 3000)), "setup_ok");
  EXPECT_EQ(s.referee.phase(), Phase::Playing);
}

TEST(CotulenhFreeSetupTest, APieceOutsideItsOwnHalfIsRefusedWithItsSquare) {
  Script s("cotulenh", free_setup());
  // Red's infantry from c5 to e7, across the river in Blue's half.
  const Observation across = s.with(s.with(s.board(s.rules->start()), "c5", ""), "e7", "RI");
  auto ev = s.see(across);
  ASSERT_EQ(summary(ev), "setup_mismatch");
  EXPECT_EQ(ev[0].squares, std::vector<std::string>{"e7"});
  EXPECT_NE(problems_of(ev[0]).find("the red infantry on e7 is outside red's half"), std::string::npos)
      << problems_of(ev[0]);
  EXPECT_EQ(summary(s.see(across, 5000)), "");
  EXPECT_EQ(s.referee.phase(), Phase::Setup);
  // The same for Blue: its militia from g8 to g6.
  const Observation blue_across = s.with(s.with(s.board(s.rules->start()), "g8", ""), "g6", "BM");
  ev = s.see(blue_across);
  ASSERT_EQ(summary(ev), "setup_mismatch");
  EXPECT_EQ(ev[0].squares, std::vector<std::string>{"g6"});
  EXPECT_NE(problems_of(ev[0]).find("outside blue's half"), std::string::npos) << problems_of(ev[0]);
}

TEST(CotulenhTimeLimitTest, FullBattleGoesOnPastFifteenMinutesAndEndsAtThirtyOnPoints) {
  RefereeOptions o;
  o.start_fen = "5c5/11/11/11/11/11/11/3i7/3T7/11/11/6C4 r";  // Red's tank takes Blue's infantry: 10 points
  Script s("cotulenh", o, Json::parse(R"({"mode": "full"})"));
  ASSERT_EQ(summary(s.start()), "setup_ok");
  const int64_t started = s.t;
  ASSERT_EQ(summary(s.play("Td4xd5")), "move:Td4xd5");
  // Battle mode would end here; the full battle does not.
  EXPECT_EQ(summary(s.referee.on_time(started + 15 * 60000 + 1000)), "");
  EXPECT_EQ(summary(s.referee.on_time(started + 29 * 60000)), "");
  EXPECT_EQ(s.referee.phase(), Phase::Playing);
  auto ev = s.referee.on_time(started + 30 * 60000 + 1000);
  ASSERT_EQ(summary(ev), "game_over:1-0");
  EXPECT_NE(ev[0].reason.find("30 min"), std::string::npos) << ev[0].reason;
  EXPECT_NE(ev[0].reason.find("points decide"), std::string::npos) << ev[0].reason;
  EXPECT_EQ(ev[0].score.at("red"), 10);
}

}  // namespace
}  // namespace sb::arbiter
