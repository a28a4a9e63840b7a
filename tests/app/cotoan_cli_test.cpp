// The command line for Cờ toán (CONTRACT.md): perft, moves --json with pair and op,
// fen with the score line, and one clear line with exit status 2 for every bad input.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/run_command.h"

namespace sb {
namespace {

using testing::lines_of;
using testing::run_smartboard;

// Red's 8 on c5 below its 5 on c6; Blue's 4 on c9, three squares beyond the 5.
const std::string kStacked =
    "R:R0e2,1a1,2b1,3c1,4d1,5c6,6f1,7g1,8c5,9i1:B0e10,1i11,2h11,3g11,4c9,5e11,6d11,7c11,8b11,9a11";

TEST(CotoanCli, PerftFromTheStart) {
  auto r = run_smartboard({"perft", "cotoan", "--depth", "3"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_of(r.out), (std::vector<std::string>{"perft 1 87", "perft 2 7456", "perft 3 701333"}));
}

TEST(CotoanCli, PerftKeepCountsEachCalculation) {
  auto drop = run_smartboard({"perft", "cotoan", "--fen", kStacked, "--depth", "1"});
  auto keep = run_smartboard({"perft", "cotoan", "--fen", kStacked, "--depth", "1", "--duplicates", "keep"});
  ASSERT_EQ(drop.status, 0) << drop.err;
  ASSERT_EQ(keep.status, 0) << keep.err;
  const int n = std::stoi(drop.out.substr(8));
  EXPECT_EQ(keep.out, "perft 1 " + std::to_string(n + 2) + "\n");  // 8+5, 8−5 and 8÷5 all give 8:c5xc9
}

TEST(CotoanCli, MovesJsonNamesThePairAndTheOperation) {
  auto r = run_smartboard({"moves", "cotoan", "--fen", kStacked, "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  int captures = 0;
  for (const std::string& line : lines_of(r.out)) {
    const auto j = nlohmann::json::parse(line);
    ASSERT_TRUE(j.contains("notation") && j.contains("from") && j.contains("to") && j.contains("captured"));
    if (j["captured"].empty()) {
      EXPECT_FALSE(j.contains("pair") || j.contains("op")) << line;  // a plain move calculates nothing
      continue;
    }
    ++captures;
    EXPECT_EQ(j["notation"], "8:c5xc9");
    EXPECT_EQ(j["from"], "c5");
    EXPECT_EQ(j["to"], "c9");
    EXPECT_EQ(j["captured"], nlohmann::json::array({"c9"}));
    EXPECT_EQ(j["pair"], nlohmann::json::array({"c5", "c6"}));
    EXPECT_EQ(j["op"], "+");
    EXPECT_EQ(j["points"], 4);
    ASSERT_EQ(j["calculations"].size(), 3u);
    EXPECT_EQ(j["calculations"][1]["op"], "-");
    EXPECT_EQ(j["calculations"][2]["op"], "/");
  }
  EXPECT_EQ(captures, 1);
}

TEST(CotoanCli, MovesAreSortedAndPlayAcceptsTheNotation) {
  auto r = run_smartboard({"moves", "cotoan", "--play", "2:b1-c2 7:c11-c8"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto lines = lines_of(r.out);
  EXPECT_TRUE(std::is_sorted(lines.begin(), lines.end()));
  EXPECT_NE(std::find(lines.begin(), lines.end(), "3:c1xc8"), lines.end());
}

TEST(CotoanCli, FenPrintsThePositionAndTheStateWithBothScores) {
  auto r = run_smartboard({"fen", "cotoan", "--fen", kStacked, "--play", "8:c5xc9"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_of(r.out),
            (std::vector<std::string>{
                "B:R0e2,1a1,2b1,3c1,4d1,5c6,6f1,7g1,8c9,9i1:B0e10,1i11,2h11,3g11,5e11,6d11,7c11,8b11,9a11",
                "ongoing; score red 4 blue 0"}));
  auto won = run_smartboard({"fen", "cotoan", "--fen",
                             "R:R0e2,1a1,2e5,3e4,4d1,5b1,6f1:B0e10,1i11,2h11,3g11,4f11,5e11,6d11,7c11,8b11,9a11",
                             "--options", R"({"target_score": 30})", "--play", "3:e4xe10"});
  ASSERT_EQ(won.status, 0) << won.err;
  EXPECT_EQ(lines_of(won.out)[1], "1-0 captured the 0; score red 0 blue 24");
}

TEST(CotoanCli, TheShippedConfigAndOptionsApply) {
  const std::string config = std::string(SMARTBOARD_SOURCE_DIR) + "/configs/cotoan.json";
  auto r = run_smartboard({"perft", "cotoan", "--config", config, "--depth", "2"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_of(r.out)[1], "perft 2 7456");
  auto blue = run_smartboard({"fen", "cotoan", "--config", config, "--options", R"({"first": "blue"})"});
  ASSERT_EQ(blue.status, 0) << blue.err;
  EXPECT_EQ(blue.out.substr(0, 2), "B:");
}

// Every bad input: exit status 2, one line on stderr containing `needle`, nothing on stdout.
void expect_rejected(const std::vector<std::string>& args, const std::string& needle) {
  auto r = run_smartboard(args);
  std::string cmd;
  for (const auto& a : args) cmd += a + " ";
  EXPECT_EQ(r.status, 2) << cmd;
  EXPECT_EQ(lines_of(r.err).size(), 1u) << cmd << "\n" << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << cmd << "\n" << r.err;
  EXPECT_EQ(r.out, "") << cmd;
}

TEST(CotoanCli, BadInputToPerftExitsTwoWithOneLine) {
  expect_rejected({"perft", "cotoan"}, "--depth N is required");
  expect_rejected({"perft", "cotoan", "--depth", "0"}, "--depth");
  expect_rejected({"perft", "cotoan", "--depth", "two"}, "--depth");
  expect_rejected({"perft", "cotoan", "--depth", "1", "--fen", "R:R0e2"}, "expected 3 fields");
  expect_rejected({"perft", "cotoan", "--depth", "1", "--fen", "R:R0e2,5j1:B0e10"}, "'j1' is not a square");
  expect_rejected({"perft", "cotoan", "--depth", "1", "--fen", "R:R0e2,5a1,5b1:B0e10"}, "Red has only one 5");
  expect_rejected({"perft", "cotoan", "--depth", "1", "--fen", "R:R0e4:B0e10"}, "Red's 0 never moves from e2");
  expect_rejected({"perft", "cotoan", "--depth", "1", "--options", R"({"division": "half"})"},
                  "cotoan rule option 'division'");
  expect_rejected({"perft", "cotoan", "--depth", "1", "--options", R"({"zero": true})"}, "unknown option 'zero'");
  expect_rejected({"perft", "cotoan", "--depth", "1", "--options", R"({"target_score": -1})"}, "target_score");
  expect_rejected({"perft", "cotoan", "--depth", "1", "--duplicates", "some"}, "--duplicates");
  expect_rejected({"perft", "cotoan", "--depth", "1", "--play", "0:e2-e3"}, "unknown option '--play'");
}

TEST(CotoanCli, BadInputToMovesJsonExitsTwoWithOneLine) {
  expect_rejected({"moves", "cotoan", "--json", "--fen", "X:R0e2:B0e10"}, "side to move 'X'");
  expect_rejected({"moves", "cotoan", "--json", "--fen", ""}, "empty FEN");
  expect_rejected({"moves", "cotoan", "--json", "--play", "1:a1-a2 0:e10-e9"},
                  "illegal move '0:e10-e9': (ply 2) the 0 never moves");
  expect_rejected({"moves", "cotoan", "--json", "--play", "3:c1-c5"}, "a 3 moves at most 3 squares");
  expect_rejected({"moves", "cotoan", "--json", "--play", "4:d1-f3"}, "the path d1\u2013f3 is blocked at e2");
  expect_rejected({"moves", "cotoan", "--json", "--fen", kStacked, "--play", "8:c5xc11"},
                  "no calculation of 8 and 5 (c5,c6) reaches c11, 5 squares beyond c6");
  expect_rejected({"moves", "cotoan", "--json", "--fen", kStacked, "--play", "8:c5xc9(8*5)"}, "worthless");
  expect_rejected({"moves", "cotoan", "--json", "--play", "c1c4"}, "expected '-' or 'x' after c1");
  expect_rejected({"moves", "cotoan", "--json", "--play", "3:c1-k4"}, "'k4' is not a square");
  expect_rejected({"moves", "cotoan", "--json", "--options", "{bad"}, "--options");
  expect_rejected({"moves", "cotoan", "--json", "--config", "/nonexistent/cotoan.json"}, "cannot read file");
  expect_rejected({"moves", "cotoan", "--json", "--bogus"}, "--bogus");
}

TEST(CotoanCli, BadInputToFenExitsTwoWithOneLine) {
  expect_rejected({"fen", "cotoan", "--fen", "R:R0e2,1a1:B0e10,1a1"}, "square a1 is already taken");
  expect_rejected({"fen", "cotoan", "--fen", "R:R1a1:B1b1"}, "both 0 pieces are missing");
  expect_rejected({"fen", "cotoan", "--fen", "R:R0e2,,1a1:B0e10"}, "empty item");
  expect_rejected({"fen", "cotoan", "--fen", "R:R0e2,1a1,2b1,3c1:B0e10,1i11,2h11,3g11"},
                  "both sides have reached the target score 10");
  expect_rejected({"fen", "cotoan", "--play", "1:i11-i10"}, "the piece on i11 is Blue's, and it is Red's turn");
  expect_rejected({"fen", "cotoan", "--play", "5:a1-a2"}, "the piece on a1 is a 1, not a 5");
  expect_rejected({"fen", "cotoan", "--fen", kStacked, "--play", "8:c5xc9 9:i1-i2"},
                  "(ply 2) the piece on i1 is Red's, and it is Blue's turn");
  expect_rejected({"fen", "cotoan", "--options", "[1]"}, "--options: expected a JSON object");
}

}  // namespace
}  // namespace sb
