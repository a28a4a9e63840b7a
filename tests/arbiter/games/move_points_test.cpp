// A move event's "points" is what the move added to its mover's score, in every
// game: for draughts and Morris, whose score counts the opposing pieces taken,
// the pieces the move captured. The JSON record says the same.
#include <gtest/gtest.h>

#include "arbiter/record.h"
#include "tests/arbiter/games/script.h"

namespace sb::arbiter {
namespace {

using sb::testing::Script;
using sb::testing::summary;

TEST(MovePointsTest, ACaptureScoresThePiecesItTakesInDraughtsAndMorris) {
  RefereeOptions o;
  o.start_fen = "W:W27:B23,15,K1";
  Script draughts("brazilian", o);
  ASSERT_EQ(summary(draughts.start()), "setup_ok");
  auto ev = draughts.play("27x11");
  ASSERT_EQ(summary(ev), "move:27x11");
  EXPECT_EQ(ev[0].captured.size(), 2u);
  EXPECT_EQ(ev[0].points, 2);
  EXPECT_EQ(to_json(ev[0])["points"], 2);
  EXPECT_EQ(json_record(*draughts.rules, draughts.referee.games())["games"][0]["moves"][0]["points"], 2);

  Script morris("morris9");
  ASSERT_EQ(summary(morris.start()), "setup_ok");
  for (const char* m : {"a7", "a1", "d7", "b2"}) ASSERT_EQ(summary(morris.play(m)), std::string("move:") + m);
  ev = morris.play("g7xb2");  // the mill a7-d7-g7 takes b2
  ASSERT_EQ(summary(ev), "move:g7xb2");
  EXPECT_EQ(ev[0].points, 1);
  EXPECT_EQ(ev[0].score.at("white"), 1);
  const nlohmann::json moves = json_record(*morris.rules, morris.referee.games())["games"][0]["moves"];
  EXPECT_EQ(moves[3]["points"], 0);
  EXPECT_EQ(moves[4]["points"], 1);
}

}  // namespace
}  // namespace sb::arbiter
