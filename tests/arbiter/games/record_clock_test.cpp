// Clock readings in the records: only where each side had a clock, never the
// "[0:00]" or negative times a game without one would otherwise show.
#include <gtest/gtest.h>

#include <string>

#include "arbiter/record.h"
#include "tests/arbiter/games/script.h"

namespace sb::arbiter {
namespace {

using sb::testing::Script;
using sb::testing::summary;

// Four moves a second apart from "W:W6,27:B20,23" (Brazilian).
void play_four_moves(Script& s) {
  ASSERT_EQ(summary(s.start()), "setup_ok");
  for (const char* m : {"27x18", "20-24", "6-2", "24-28"}) ASSERT_EQ(summary(s.play(m)), std::string("move:") + m);
}

TEST(RecordClockTest, ReadingsOnlyWhenEachSideHadAClockAndThenTheTimeLeft) {
  RefereeOptions o;
  o.start_fen = "W:W6,27:B20,23";
  Script plain("brazilian", o);
  play_four_moves(plain);
  const std::string text = text_record(*plain.rules, plain.referee.games());
  EXPECT_EQ(text.find('['), std::string::npos) << text;
  for (const nlohmann::json& m : json_record(*plain.rules, plain.referee.games())["games"][0]["moves"])
    EXPECT_FALSE(m.contains("clock")) << m.dump();

  o.clock.base_ms = 5 * 60000;
  Script clocked("brazilian", o);
  play_four_moves(clocked);
  // Each side spends one second a move from five minutes.
  const std::string with_clock = text_record(*clocked.rules, clocked.referee.games());
  EXPECT_NE(with_clock.find("  1. 27x18 [4:59]"), std::string::npos) << with_clock;
  EXPECT_NE(with_clock.find("20-24 [4:59]"), std::string::npos) << with_clock;
  EXPECT_NE(with_clock.find("  2. 6-2 [4:58]"), std::string::npos) << with_clock;
  EXPECT_NE(with_clock.find("24-28 [4:58]"), std::string::npos) << with_clock;
  const nlohmann::json moves = json_record(*clocked.rules, clocked.referee.games())["games"][0]["moves"];
  ASSERT_EQ(moves.size(), 4u);
  EXPECT_EQ(moves[0]["clock"], nlohmann::json({{"white", 299000}, {"black", 300000}}));
  EXPECT_EQ(moves[3]["clock"], nlohmann::json({{"white", 298000}, {"black", 298000}}));
}

}  // namespace
}  // namespace sb::arbiter
