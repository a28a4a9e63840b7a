// The command line of CONTRACT.md for the three draughts games, and every way
// bad input reaches it: exit status 2 and one line naming the problem.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/support/run_command.h"

namespace sb {
namespace {

using testing::lines_of;
using testing::run_smartboard;
using Lines = std::vector<std::string>;

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "draughts_cli_" + std::to_string(::getpid()) + "_" + name;
  std::ofstream(path) << text;
  return path;
}

// Runs a command that must fail on bad input; returns its one line of stderr.
std::string bad_input(const std::vector<std::string>& args) {
  auto r = run_smartboard(args);
  EXPECT_EQ(r.status, 2) << args[0] << ": " << r.err;
  EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  return r.err;
}

TEST(DraughtsCli, PerftFromTheStartOfEachGame) {
  auto r = run_smartboard({"perft", "brazilian", "--depth", "5"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_of(r.out), (Lines{"perft 1 7", "perft 2 49", "perft 3 302", "perft 4 1469", "perft 5 7473"}));
  r = run_smartboard({"perft", "international", "--depth", "3"});
  EXPECT_EQ(lines_of(r.out), (Lines{"perft 1 9", "perft 2 81", "perft 3 658"}));
  r = run_smartboard({"perft", "english", "--depth", "5"});
  EXPECT_EQ(lines_of(r.out).back(), "perft 5 7361");
}

TEST(DraughtsCli, PerftDuplicatesKeepOrDrop) {
  const std::string fen = "W:W30:B17,18,25,26";
  auto drop = run_smartboard({"perft", "brazilian", "--fen", fen, "--depth", "1"});
  auto keep = run_smartboard({"perft", "brazilian", "--fen", fen, "--depth", "1", "--duplicates", "keep"});
  EXPECT_EQ(drop.out, "perft 1 1\n");
  EXPECT_EQ(keep.out, "perft 1 2\n");
}

TEST(DraughtsCli, MovesAreSortedAndJsonHasTheContractFields) {
  auto r = run_smartboard({"moves", "brazilian"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_of(r.out), (Lines{"21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"}));

  r = run_smartboard({"moves", "brazilian", "--fen", "W:WK31:B11,17,19,27", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const Lines lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 4u);
  const nlohmann::json first = nlohmann::json::parse(lines[0]);
  EXPECT_EQ(first["notation"], "31x20x7x21");
  EXPECT_EQ(first["from"], "31");
  EXPECT_EQ(first["to"], "21");
  EXPECT_EQ(first["captured"], nlohmann::json({"27", "11", "17"}));
  EXPECT_EQ(first["path"], nlohmann::json({"20", "7", "21"}));
  EXPECT_EQ(first["king"], true);
  EXPECT_EQ(first["promotes"], false);
}

TEST(DraughtsCli, MovesAfterPlayAndAlgebraicOption) {
  auto r = run_smartboard({"moves", "english", "--play", "11-15 22-18"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_of(r.out), (Lines{"15x22"}));
  r = run_smartboard({"moves", "brazilian", "--options", R"({"notation":"algebraic"})", "--play", "c3-d4 f6-e5"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_of(r.out), (Lines{"d4xf6"}));
}

TEST(DraughtsCli, FenPrintsThePositionAndTheState) {
  auto r = run_smartboard({"fen", "international"});
  EXPECT_EQ(r.out, "W:W31-50:B1-20\nongoing\n");
  r = run_smartboard({"fen", "brazilian", "--fen", "W:W22:B18", "--play", "22x15"});
  EXPECT_EQ(r.out, "B:W15:B\n1-0 black has no pieces left\n");
  r = run_smartboard({"fen", "brazilian", "--fen", "W:WK29:BK1", "--play", "29-25 1-5 25-29 5-1 29-25 1-5 25-29 5-1"});
  EXPECT_EQ(r.out, "W:WK29:BK1\n1/2-1/2 threefold repetition\n");
}

TEST(DraughtsCli, PdnWriteReadAndStartFromAGame) {
  auto w = run_smartboard({"pdn", "write", "brazilian", "--play", "22-18 11-15 18x11 8x15", "--tag", "Event=Club night",
                           "--tag", "White=Ana"});
  ASSERT_EQ(w.status, 0) << w.err;
  EXPECT_EQ(w.out,
            "[Event \"Club night\"]\n[White \"Ana\"]\n[GameType \"26,W,8,8,N2,0\"]\n[Result \"*\"]\n\n"
            "1. 22-18 11-15 2. 18x11 8x15 *\n\n");
  const std::string path = write_temp("game.pdn", w.out);
  auto r = run_smartboard({"pdn", "read", path});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, w.out);
  r = run_smartboard({"fen", "brazilian", "--pdn", path});
  EXPECT_EQ(r.out, "W:W21,23-32:B1-7,9,10,12,15\nongoing\n");
  r = run_smartboard({"moves", "brazilian", "--pdn", path, "--play", "21-17"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(r.out.empty());
  // A whole game to its end keeps its result.
  w = run_smartboard({"pdn", "write", "brazilian", "--fen", "W:W22:B18", "--play", "22x15"});
  EXPECT_NE(w.out.find("1. 22x15 1-0"), std::string::npos) << w.out;
}

TEST(DraughtsCli, BadFenExitsTwoNamingTheColumn) {
  EXPECT_EQ(bad_input({"fen", "brazilian", "--fen", "W:W21-3x:B1-12"}),
            "smartboard fen: FEN 'W:W21-3x:B1-12': bad square '3x' at column 7\n");
  EXPECT_NE(bad_input({"moves", "international", "--fen", "W:W51:B1"}).find("bad square '51' at column 4"),
            std::string::npos);
  EXPECT_NE(bad_input({"perft", "english", "--fen", "Q:W1:B2", "--depth", "1"}).find("column 1"), std::string::npos);
}

TEST(DraughtsCli, MalformedAndIllegalMovesExitTwoWithTheReason) {
  EXPECT_EQ(bad_input({"moves", "brazilian", "--play", "22-18 11-"}),
            "smartboard moves: move 2 '11-': move '11-': expected a square at column 4\n");
  EXPECT_EQ(bad_input({"fen", "brazilian", "--play", "22-18 11-15 21-17"}),
            "smartboard fen: illegal move '21-17': (ply 3) a capture is mandatory: 18x11\n");
  EXPECT_EQ(bad_input({"moves", "brazilian", "--fen", "W:W28,30:B9,17,25,K15,K24", "--play", "28x10"}),
            "smartboard moves: illegal move '28x10': (ply 1) you must take the maximum, 3 pieces, e.g. 30x5\n");
  EXPECT_NE(bad_input({"moves", "brazilian", "--fen", "W:WK31:B11,17,19,27", "--play", "31x21"})
                .find("ambiguous: write the full path, one of 31x20x7x21, 31x24x10x21"),
            std::string::npos);
  EXPECT_NE(bad_input({"moves", "english", "--play", "22-18"}).find("the piece on 22 is white's; it is black's turn"),
            std::string::npos);
}

TEST(DraughtsCli, EachGameConfigLoadsWithItsRules) {
  for (const std::string game : {"brazilian", "international", "english"}) {
    const std::string config = std::string(SMARTBOARD_SOURCE_DIR) + "/configs/" + game + ".json";
    auto r = run_smartboard({"moves", game, "--config", config});
    EXPECT_EQ(r.status, 0) << game << ": " << r.err;
    EXPECT_FALSE(r.out.empty()) << game;
  }
  // --options overrides the config's rules.
  auto r =
      run_smartboard({"moves", "brazilian", "--config", std::string(SMARTBOARD_SOURCE_DIR) + "/configs/brazilian.json",
                      "--options", R"({"notation":"algebraic"})"});
  EXPECT_EQ(lines_of(r.out).front(), "a3-b4");
}

TEST(DraughtsCli, UnknownOrBadRuleOptionsExitTwo) {
  EXPECT_EQ(bad_input({"moves", "brazilian", "--options", R"({"flying_kings": false})"}),
            "smartboard moves: brazilian rule options: unknown option 'flying_kings'\n");
  EXPECT_NE(bad_input({"perft", "international", "--depth", "1", "--options", R"({"draw_rules": 1})"})
                .find("rule option 'draw_rules'"),
            std::string::npos);
}

TEST(DraughtsCli, BadPdnInputExitsTwoWithFileLineAndColumn) {
  const std::string unterminated = write_temp("bad1.pdn", "[GameType \"26\"]\n1. 22-18 {oops\n");
  EXPECT_EQ(bad_input({"pdn", "read", unterminated}),
            "smartboard pdn: " + unterminated + ":2:10: unterminated comment\n");
  const std::string illegal = write_temp("bad2.pdn", "[GameType \"26\"]\n1. 22-18 11-15\n2. 21-17 *\n");
  EXPECT_EQ(bad_input({"pdn", "read", illegal}),
            "smartboard pdn: illegal move '21-17': at " + illegal + ":3:4 (move 2.): a capture is mandatory: 18x11\n");
  EXPECT_NE(bad_input({"fen", "brazilian", "--pdn", illegal}).find("a capture is mandatory"), std::string::npos);
  const std::string intl = write_temp("intl.pdn", "[GameType \"20\"]\n1. 32-28 *\n");
  EXPECT_EQ(bad_input({"fen", "brazilian", "--pdn", intl}),
            "smartboard fen: " + intl + ": game 1 is international (GameType tag), not brazilian\n");
  EXPECT_NE(bad_input({"fen", "brazilian", "--pdn", intl, "--index", "2"}).find("holds 1 game(s)"), std::string::npos);
  EXPECT_NE(bad_input({"fen", "brazilian", "--pdn", "/nonexistent.pdn"}).find("cannot read file"), std::string::npos);
  EXPECT_NE(bad_input({"fen", "brazilian", "--pdn", intl, "--fen", "W:W1:B2"}).find("not both"), std::string::npos);
  EXPECT_NE(bad_input({"fen", "brazilian", "--index", "1"}).find("--index needs --pdn"), std::string::npos);
  const std::string empty = write_temp("empty.pdn", "\n");
  EXPECT_NE(bad_input({"pdn", "read", empty}).find("no game in the file"), std::string::npos);
  EXPECT_NE(bad_input({"pdn", "read", intl, "--as", "chess"}).find("not a draughts game"), std::string::npos);
  EXPECT_NE(bad_input({"pdn", "frob", "x"}).find("expected 'read FILE' or 'write GAME'"), std::string::npos);
  EXPECT_NE(bad_input({"pdn", "write", "brazilian", "--tag", "nonsense"}).find("expected NAME=VALUE"),
            std::string::npos);
  EXPECT_NE(bad_input({"pdn", "write", "brazilian", "--result", "3-0"}).find("--result"), std::string::npos);
  EXPECT_NE(bad_input({"pdn", "read", intl, "--play", "1-5"}).find("does not apply"), std::string::npos);
}

TEST(DraughtsCli, BenchEnginesRunsTheDraughtsCasesWithASignature) {
  auto r = run_smartboard({"bench", "engines", "--games", "english"});
  ASSERT_EQ(r.status, 0) << r.err;
  const Lines lines = lines_of(r.out);
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines.back().rfind("signature ", 0), 0u);
  EXPECT_NE(r.out.find("english"), std::string::npos);
}

}  // namespace
}  // namespace sb
