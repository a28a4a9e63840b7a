// The command line for the Morris games (CONTRACT.md): perft, moves (--json), fen,
// and every bad input exiting 2 with one line.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/run_command.h"

namespace sb {
namespace {

using testing::lines_of;
using testing::run_smartboard;

TEST(MorrisCli, PerftPrintsEveryDepth) {
  auto r = run_smartboard({"perft", "morris9", "--depth", "3"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_of(r.out), (std::vector<std::string>{"perft 1 24", "perft 2 552", "perft 3 12144"}));
  r = run_smartboard({"perft", "morris3", "--depth", "2"});
  EXPECT_EQ(lines_of(r.out), (std::vector<std::string>{"perft 1 9", "perft 2 72"}));
  r = run_smartboard({"perft", "morris6", "--fen", "W.W...B..B...W.B w 0 0", "--depth", "1", "--duplicates", "keep"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_of(r.out).size(), 1u);
}

TEST(MorrisCli, MovesJsonHasNullFromForPlacementsAndTheRemovalInCaptured) {
  auto r = run_smartboard({"moves", "morris9", "--play", "a7 b4 d7 c4", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<std::string> lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 21u);  // 20 empty points, g7 twice (removing b4 or c4)
  bool saw_mill = false;
  for (const std::string& line : lines) {
    const nlohmann::json m = nlohmann::json::parse(line);
    EXPECT_TRUE(m.at("from").is_null()) << line;
    EXPECT_TRUE(m.at("to").is_string()) << line;
    if (m.at("notation") == "g7xb4") {
      saw_mill = true;
      EXPECT_EQ(m.at("to"), "g7");
      EXPECT_EQ(m.at("captured"), nlohmann::json::array({"b4"}));
      EXPECT_EQ(m.at("mills"), 1);
      EXPECT_EQ(m.at("points"), 1);
    } else if (m.at("notation") == "a1") {
      EXPECT_EQ(m.at("captured"), nlohmann::json::array());
      EXPECT_EQ(m.at("kind"), "place");
    }
  }
  EXPECT_TRUE(saw_mill);
}

TEST(MorrisCli, MovesListsSlidesSorted) {
  auto r = run_smartboard({"moves", "morris9", "--fen", "W.W...B.B......B.B...W.W w 0 0"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_of(r.out), (std::vector<std::string>{"a1-a4", "a1-d1", "a7-a4", "a7-d7", "g1-d1", "g1-g4", "g7-d7",
                                                       "g7-g4"}));
  r = run_smartboard({"moves", "morris9", "--fen", "W.W...B.B......B.B...W.W w 0 0", "--json"});
  const nlohmann::json first = nlohmann::json::parse(lines_of(r.out).at(0));
  EXPECT_EQ(first.at("from"), "a1");
  EXPECT_EQ(first.at("to"), "a4");
  EXPECT_EQ(first.at("kind"), "slide");
}

TEST(MorrisCli, FenPrintsThePositionAndTheState) {
  auto r = run_smartboard({"fen", "morris9", "--play", "a7 b4 d7 c4 g7xb4"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_of(r.out), (std::vector<std::string>{"WWW........B............ b 6 7", "ongoing"}));
  r = run_smartboard({"fen", "morris3", "--play", "a1 a2 b1 b2 c1"});
  EXPECT_EQ(lines_of(r.out), (std::vector<std::string>{"...BB.WWW b 0 1", "1-0 white closed the first mill"}));
  r = run_smartboard({"fen", "morris9", "--fen", "W.W...B.B......B.B...W.W w 0 0", "--play",
                      "a7-a4 c5-c4 a4-a7 c4-c5 a7-a4 c5-c4 a4-a7 c4-c5"});
  EXPECT_EQ(lines_of(r.out).at(1), "1/2-1/2 threefold repetition");
  r = run_smartboard({"fen", "morris12", "--config", std::string(SMARTBOARD_SOURCE_DIR) + "/configs/morris12.json"});
  EXPECT_EQ(lines_of(r.out), (std::vector<std::string>{"........................ w 12 12", "ongoing"}));
}

struct BadCase {
  std::vector<std::string> args;
  std::string message;  // a part of the one line on stderr
};

TEST(MorrisCli, BadInputExitsTwoWithOneLine) {
  const std::string config9 = std::string(SMARTBOARD_SOURCE_DIR) + "/configs/morris9.json";
  const std::vector<BadCase> cases = {
      {{"perft", "morris9", "--depth", "0"}, "--depth"},
      {{"perft", "morris9"}, "--depth N is required"},
      {{"perft", "morris9", "--depth", "2", "--fen", "........................ w 9"}, "expected 4 fields"},
      {{"perft", "morris6", "--depth", "2", "--fen", "........................ w 6 6"}, "morris6 has 16"},
      {{"perft", "morris9", "--depth", "2", "--fen", "...X.................... w 9 9"}, "bad point 'X'"},
      {{"perft", "morris9", "--depth", "2", "--options", R"({"flying": 1})"}, "rule option 'flying'"},
      {{"perft", "morris3", "--depth", "2", "--options", R"({"remove_from_mill": "always"})"},
       "unknown option 'remove_from_mill'"},
      {{"perft", "morris9", "--depth", "2", "--play", "a7"}, "unknown option '--play'"},
      {{"moves", "morris9", "--play", "a7 a7"}, "illegal move 'a7': (ply 2) a7 is already taken"},
      {{"moves", "morris9", "--play", "a7 h9"}, "'h9' is not a point of morris9"},
      {{"moves", "morris9", "--play", "a7-a4"}, "white still has 9 pieces to place"},
      {{"moves", "morris9", "--play", "a7 b4 d7 c4 g7"}, "the move closes a mill"},
      {{"moves", "morris9", "--play", "a7 b4 d7 c4 g7xa1"}, "there is no piece on a1 to remove"},
      {{"moves", "morris9", "--json", "--fen", "bad"}, "FEN 'bad'"},
      {{"moves", "morris9", "--json", "--options", R"({"double_mill_removals": 5})"}, "double_mill_removals"},
      {{"moves", "morris3", "--config", config9}, "not 'morris3'"},
      {{"moves", "morris3", "--play", "a1 a2 b1 b2 c1 c2"}, "the game is over (white closed the first mill)"},
      {{"fen", "morris9", "--fen", "........................ w 10 9"}, "more than the 9 pieces"},
      {{"fen", "morris9", "--fen", "........................ x 9 9"}, "side to move 'x'"},
      {{"fen", "morris12", "--play", "d7xg7"}, "no mill was formed, so nothing may be removed"},
      {{"fen", "morris6", "--play", "d4-d3"}, "white still has 6 pieces to place"},
      {{"fen", "morris6", "--play", "g7"}, "'g7' is not a point of morris6"},
      {{"fen", "morris3", "--play", "a1:b1"}, "unexpected ':'"},
      {{"fen", "morris9", "--options", "{"}, "--options"},
  };
  for (const BadCase& c : cases) {
    auto r = run_smartboard(c.args);
    std::string cmd;
    for (const std::string& a : c.args) cmd += a + " ";
    EXPECT_EQ(r.status, 2) << cmd;
    EXPECT_EQ(lines_of(r.err).size(), 1u) << cmd << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << cmd << "\n" << r.err;
    EXPECT_EQ(r.out, "") << cmd;
  }
}

}  // namespace
}  // namespace sb
