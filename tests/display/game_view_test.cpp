#include "display/game_view.h"

#include <gtest/gtest.h>

#include "display/board_model.h"
#include "display_fixtures.h"

namespace sb::display {
namespace {

GameView cotoan_view() {
  return GameView("cotoan", testing::kCotoanStart, reading_order(testing::cotoan_board_model()));
}

TEST(CotoanCalculation, WritesTheCalculationAsPlayersDo) {
  EXPECT_EQ(cotoan_calculation(8, 5, '+', 3)->text(), "8 + 5 = 13 \u2192 3");
  EXPECT_EQ(cotoan_calculation(3, 4, '+', 7)->text(), "3 + 4 = 7");
  EXPECT_EQ(cotoan_calculation(8, 5, '-', 3)->text(), "8 \u2212 5 = 3");
  EXPECT_EQ(cotoan_calculation(3, 7, '*', 1)->text(), "3 \u00d7 7 = 21 \u2192 1");
  EXPECT_EQ(cotoan_calculation(8, 5, '/', 3)->text(), "8 \u00f7 5 = 1 r 3 \u2192 3");
  EXPECT_EQ(cotoan_calculation(8, 5, '/', 3)->text("dư"), "8 \u00f7 5 = 1 dư 3 \u2192 3");
  EXPECT_EQ(cotoan_calculation(8, 4, '/', 2)->text(), "8 \u00f7 4 = 2");
  EXPECT_EQ(cotoan_calculation(5, 8, '/', 5)->text(), "5 \u00f7 8 = 0 r 5 \u2192 5");
  // With division "both", the quotient may be the distance.
  EXPECT_EQ(cotoan_calculation(8, 5, '/', 1)->value, 1);
  EXPECT_FALSE(cotoan_calculation(5, 8, '*', 0));  // 40: worthless
  EXPECT_FALSE(cotoan_calculation(5, 8, '-', 3));  // not positive
  EXPECT_FALSE(cotoan_calculation(8, 5, '+', 4));  // reaches 3, not 4
}

TEST(GameView, FoldsAGameIntoMovesScoresAndPosition) {
  GameView v = cotoan_view();
  for (const auto& e : testing::cotoan_short_game()) v.apply(e);
  nlohmann::json s = v.state();
  EXPECT_EQ(s["status"], "playing");
  ASSERT_EQ(s["moves"].size(), 5u);
  EXPECT_EQ(s["moves"][0]["from"], "d1");
  EXPECT_EQ(s["moves"][0]["to"], "d5");
  EXPECT_EQ(s["moves"][4]["calculation"], "7 + 4 = 11 \u2192 1");
  EXPECT_EQ(s["score"], nlohmann::json({{"red", 6}, {"blue", 0}}));
  EXPECT_EQ(s["last"]["captured"], nlohmann::json({"d6"}));
  EXPECT_TRUE(s["alert"].is_null());
  EXPECT_EQ(s["position"]["to_move"], "blue");
}

TEST(GameView, AnIllegalMoveStandsUntilRestored) {
  GameView v = cotoan_view();
  auto game = testing::cotoan_short_game();
  for (size_t i = 0; i < 4; ++i) v.apply(game[i]);
  EXPECT_EQ(v.state()["status"], "illegal");
  EXPECT_EQ(v.state()["alert"]["squares"], nlohmann::json({"e2", "e3"}));
  EXPECT_EQ(v.state()["moves"].size(), 2u);  // never recorded as played
  v.apply(game[4]);
  EXPECT_EQ(v.state()["status"], "playing");
  EXPECT_TRUE(v.state()["alert"].is_null());
}

TEST(GameView, TakebackReturnsToTheEarlierPosition) {
  GameView v = cotoan_view();
  auto game = testing::cotoan_short_game();
  for (const auto& e : game) v.apply(e);
  v.apply({{"type", "takeback"}, {"t", 8000}, {"ply", 4}, {"score", {{"red", 0}, {"blue", 0}}}});
  nlohmann::json s = v.state();
  EXPECT_EQ(s["moves"].size(), 4u);
  EXPECT_EQ(s["fen"], game[6]["fen"]);
  EXPECT_EQ(s["score"]["red"], 0);
  EXPECT_EQ(s["last"]["to"], "i10");
}

TEST(GameView, GameOverAndRecords) {
  GameView v = cotoan_view();
  for (const auto& e : testing::cotoan_short_game()) v.apply(e);
  v.apply({{"type", "game_over"}, {"t", 9000}, {"result", "1-0"}, {"reason", "resignation"}, {"score", {{"red", 6}, {"blue", 0}}}});
  EXPECT_EQ(v.state()["status"], "over");
  EXPECT_EQ(v.state()["result"]["result"], "1-0");
  const std::string text = v.text_record();
  EXPECT_NE(text.find("Result: 1-0 (resignation)"), std::string::npos) << text;
  EXPECT_NE(text.find("1. 4:d1-d5  6:d11-d6\n"), std::string::npos) << text;
  EXPECT_NE(text.find("3. 7:d4xd6 (7 + 4 = 11 \u2192 1)\n"), std::string::npos) << text;
  nlohmann::json record = v.json_record();
  EXPECT_EQ(record["events"].size(), 9u);
  EXPECT_EQ(record["moves"][4]["fen"], testing::cotoan_short_game().back()["fen"]);
}

TEST(GameView, MoveSquaresAreReadFromEachGamesNotation) {
  nlohmann::json dm = {{"width_mm", 100}, {"height_mm", 100}, {"sites", nlohmann::json::object()}};
  for (int i = 1; i <= 32; ++i) dm["sites"][std::to_string(i)] = {i % 4 * 10, i / 4 * 10};
  GameView d("brazilian", "W:W21-32:B1-12", reading_order(dm));
  auto m = d.apply({{"type", "move"}, {"t", 0}, {"ply", 1}, {"side", "white"}, {"notation", "22x13x6"}, {"captured", {"17", "9"}}});
  EXPECT_EQ(m["from"], "22");
  EXPECT_EQ(m["to"], "6");
  EXPECT_EQ(m["path"], nlohmann::json({"22", "13", "6"}));

  nlohmann::json mm = {{"width_mm", 70}, {"height_mm", 70}, {"sites", nlohmann::json::object()}};
  const std::vector<std::string> order = {"a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4", "b4", "c4",
                                          "e4", "f4", "g4", "c3", "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1"};
  for (const std::string& s : order) mm["sites"][s] = {(s[0] - 'a') * 10, (7 - (s[1] - '0')) * 10};
  GameView mo("morris9", "........................ w 9 9", reading_order(mm));
  auto place = mo.apply({{"type", "move"}, {"t", 0}, {"ply", 1}, {"side", "white"}, {"notation", "d7xa4"}, {"captured", {"a4"}},
                         {"fen", "W....................... b 8 9"}});
  EXPECT_TRUE(place["from"].is_null());
  EXPECT_EQ(place["to"], "d7");
  auto slide = mo.apply({{"type", "move"}, {"t", 0}, {"ply", 2}, {"side", "black"}, {"notation", "a1-a4xg7"}, {"captured", {"g7"}}});
  EXPECT_EQ(slide["from"], "a1");
  EXPECT_EQ(slide["to"], "a4");
  EXPECT_EQ(mo.state()["position"]["pieces"][0]["site"], "a7");
  EXPECT_EQ(mo.state()["position"]["in_hand"]["white"], 8);
}

TEST(GameView, AnUnreadableFenKeepsThePiecesAndSaysWhy) {
  GameView v = cotoan_view();
  auto e = v.apply({{"type", "move"}, {"t", 0}, {"ply", 1}, {"side", "red"}, {"notation", "4:d1-d5"}, {"fen", "garbage"}});
  EXPECT_TRUE(e.contains("position_error"));
  EXPECT_EQ(v.state()["fen"], testing::kCotoanStart);
  EXPECT_EQ(v.state()["position"]["pieces"].size(), 20u);
}

}  // namespace
}  // namespace sb::display

namespace sb::display {
namespace {

TEST(GameView, ReadsTheRefereesMoveDetailsAndClock) {
  GameView v = cotoan_view();
  auto game = testing::cotoan_short_game();
  for (size_t i = 0; i + 1 < game.size(); ++i) v.apply(game[i]);
  nlohmann::json capture = game.back();
  capture["details"] = {{"pair", capture["pair"]}, {"op", capture["op"]}};
  capture.erase("pair");
  capture.erase("op");
  capture["clock"] = {{"red", 590000}, {"blue", 600000}};
  auto shown = v.apply(capture);
  EXPECT_EQ(shown["calculation"], "7 + 4 = 11 \u2192 1");
  EXPECT_EQ(v.state()["clock"]["red"], 590000);
  EXPECT_EQ(v.state()["clock"]["running"], "blue");
  v.apply({{"type", "clock"}, {"t", 9000}, {"red", 580000}, {"blue", 590000}, {"running", nullptr}});
  EXPECT_EQ(v.state()["clock"]["blue"], 590000);
  EXPECT_TRUE(v.state()["clock"]["running"].is_null());
}

}  // namespace
}  // namespace sb::display
