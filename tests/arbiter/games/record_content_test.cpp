// What the referee's records say, read field by field: the PDN 3.0 text of a short
// Brazilian game exactly as other draughts software reads it, and the JSON record's
// content (draughts, and Cờ toán with its calculation).
#include <gtest/gtest.h>

#include <string>

#include "arbiter/record.h"
#include "tests/arbiter/games/script.h"

namespace sb::arbiter {
namespace {

using sb::testing::Script;
using sb::testing::summary;

// White's men on 6 (c7) and 27 (f2), Black's on 20 (h4) and 23 (e3). 27x18 takes 23,
// 6-2 crowns a king; Black resigns after its second move.
const char* kShortGameFen = "W:W6,27:B20,23";

RefereeOptions starting_at(const char* fen) {
  RefereeOptions o;
  o.start_fen = fen;
  return o;
}

void play_short_game(Script& s) {
  EXPECT_EQ(summary(s.start()), "setup_ok");
  EXPECT_EQ(summary(s.play("27x18")), "move:27x18");
  EXPECT_EQ(summary(s.play("20-24")), "move:20-24");
  EXPECT_EQ(summary(s.play("6-2")), "move:6-2");
  EXPECT_EQ(summary(s.play("24-28")), "move:24-28");
  EXPECT_EQ(summary(s.command({{"command", "resign"}, {"side", "black"}})), "game_over:1-0");
}

TEST(RecordContentTest, PdnOfAShortBrazilianGameIsExactlyThePdn30Text) {
  Script s("brazilian", starting_at(kShortGameFen));
  play_short_game(s);
  // PDN 3.0: the seven-tag roster, GameType 26 with the numeric notation spelt out
  // (Brazilian's usual notation is algebraic), SetUp/FEN for a game not from the
  // start, numbered moves, captures with x, the result after the moves.
  const std::string expected =
      "[Event \"smartboard referee\"]\n"
      "[Site \"?\"]\n"
      "[Date \"????.??.??\"]\n"
      "[Round \"1\"]\n"
      "[White \"?\"]\n"
      "[Black \"?\"]\n"
      "[GameType \"26,W,8,8,N2,0\"]\n"
      "[SetUp \"1\"]\n"
      "[FEN \"W:W6,27:B20,23\"]\n"
      "[Result \"1-0\"]\n"
      "\n"
      "1. 27x18 20-24 2. 6-2 24-28 1-0\n"
      "\n";
  EXPECT_EQ(write_record(RecordFormat::Pdn, *s.rules, s.referee.games()), expected);
}

TEST(RecordContentTest, PdnOfAGameFromTheStartHasNoSetUpAndCountsMovesFromOne) {
  Script s("brazilian");
  s.start();
  s.play("22-18");
  s.play("11-15");
  s.play("18x11");
  s.play("8x15");
  s.command({{"command", "declare"}, {"result", "1/2-1/2"}, {"reason", "agreed"}});
  const std::string expected =
      "[Event \"smartboard referee\"]\n"
      "[Site \"?\"]\n"
      "[Date \"????.??.??\"]\n"
      "[Round \"1\"]\n"
      "[White \"?\"]\n"
      "[Black \"?\"]\n"
      "[GameType \"26,W,8,8,N2,0\"]\n"
      "[Result \"1/2-1/2\"]\n"
      "\n"
      "1. 22-18 11-15 2. 18x11 8x15 1/2-1/2\n"
      "\n";
  EXPECT_EQ(write_record(RecordFormat::Pdn, *s.rules, s.referee.games()), expected);
}

TEST(RecordContentTest, JsonRecordHoldsTheGameItsMovesAndTheResult) {
  Script s("brazilian", starting_at(kShortGameFen));
  play_short_game(s);
  RecordTags tags;
  tags.first_player = "Ana";
  tags.second_player = "Bia";
  const nlohmann::json j = nlohmann::json::parse(write_record(RecordFormat::Json, *s.rules, s.referee.games(), tags));
  EXPECT_EQ(j.at("game"), "brazilian");
  EXPECT_EQ(j.at("players"), nlohmann::json({{"white", "Ana"}, {"black", "Bia"}}));
  ASSERT_EQ(j.at("games").size(), 1u);
  const nlohmann::json& g = j.at("games")[0];
  EXPECT_EQ(g.at("game_no"), 1);
  EXPECT_EQ(g.at("start_fen"), kShortGameFen);
  EXPECT_EQ(g.at("result"), "1-0");
  EXPECT_FALSE(g.at("reason").get<std::string>().empty());
  EXPECT_EQ(g.at("score"), nlohmann::json({{"white", 1}, {"black", 0}}));
  const nlohmann::json& moves = g.at("moves");
  ASSERT_EQ(moves.size(), 4u);
  const char* notation[] = {"27x18", "20-24", "6-2", "24-28"};
  const char* side[] = {"white", "black", "white", "black"};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(moves[i].at("ply"), static_cast<int>(i) + 1);
    EXPECT_EQ(moves[i].at("side"), side[i]);
    EXPECT_EQ(moves[i].at("notation"), notation[i]);
  }
  EXPECT_EQ(moves[0].at("from"), "27");
  EXPECT_EQ(moves[0].at("to"), "18");
  EXPECT_EQ(moves[0].at("captured"), nlohmann::json({"23"}));
  EXPECT_EQ(moves[0].at("score"), nlohmann::json({{"white", 1}, {"black", 0}}));
  EXPECT_EQ(moves[1].at("captured"), nlohmann::json::array());
  // The position after each move, as the rules replay it: 6-2 made a king.
  State replay = s.rules->from_fen(kShortGameFen);
  for (size_t i = 0; i < 4; ++i) {
    replay = s.rules->play(replay, notation[i]);
    EXPECT_EQ(moves[i].at("fen"), s.rules->fen(replay)) << notation[i];
  }
  EXPECT_NE(moves[2].at("fen").get<std::string>().find("K2"), std::string::npos) << moves[2].at("fen");
}

TEST(RecordContentTest, JsonRecordOfCotoanKeepsTheCapturesCalculationAndPoints) {
  RefereeOptions o;
  o.start_fen = "R:R0e2,1a1,2b1,3c1,4d1,5e4,6f1,7g1,8e3,9i1:B0e10,1i11,2e7,3g11,4f11,5e11,6d11,7c11,8b11,9a11";
  Script s("cotoan", o);
  s.start();
  ASSERT_EQ(summary(s.play("8:e3xe7")), "move:8:e3xe7");
  s.command({{"command", "resign"}, {"side", "blue"}});
  const nlohmann::json j = json_record(*s.rules, s.referee.games());
  EXPECT_EQ(j.at("game"), "cotoan");
  const nlohmann::json& g = j.at("games")[0];
  EXPECT_EQ(g.at("result"), "1-0");
  EXPECT_EQ(g.at("score"), nlohmann::json({{"red", 2}, {"blue", 0}}));
  const nlohmann::json& m = g.at("moves")[0];
  EXPECT_EQ(m.at("ply"), 1);
  EXPECT_EQ(m.at("side"), "red");
  EXPECT_EQ(m.at("notation"), "8:e3xe7");
  EXPECT_EQ(m.at("from"), "e3");
  EXPECT_EQ(m.at("to"), "e7");
  EXPECT_EQ(m.at("captured"), nlohmann::json({"e7"}));
  EXPECT_EQ(m.at("points"), 2);
  EXPECT_EQ(m.at("pair"), nlohmann::json({"e3", "e4"}));
  EXPECT_EQ(m.at("op"), "+");
  EXPECT_NE(m.at("record").get<std::string>().find("8+5"), std::string::npos) << m.at("record");
}

}  // namespace
}  // namespace sb::arbiter
