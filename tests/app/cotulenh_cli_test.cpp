// The command line for Cờ tư lệnh (CONTRACT.md): perft, moves (--json), fen, and
// every bad input exiting 2 with one line naming what is wrong.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/run_command.h"

namespace sb {
namespace {

using testing::lines_of;
using testing::run_smartboard;

const char* const kStart = "6c4/1n2fh1hf2/3a2s2a1/2n1gt1tg2/2ie2m2ei/11/11/2IE2M2EI/2N1GT1TG2/3A2S2A1/1N2FH1HF2/6C4 r";

TEST(CotulenhCli, PerftFromTheStartPrintsEveryDepth) {
  auto r = run_smartboard({"perft", "cotulenh", "--depth", "2"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_of(r.out), (std::vector<std::string>{"perft 1 117", "perft 2 13692"}));
}

TEST(CotulenhCli, FenPrintsTheStartAndTheBattleStatus) {
  auto r = run_smartboard({"fen", "cotulenh"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], kStart);
  EXPECT_EQ(lines[1],
            "ongoing; score red 0 blue 0; battle mode, lost: red navies 0/2 air forces 0/2 land 0/6 commander 0/1, "
            "blue navies 0/2 air forces 0/2 land 0/6 commander 0/1");
}

TEST(CotulenhCli, FenAfterACaptureShowsPointsAndLosses) {
  // Red's tank takes the blue infantry on c8 from c6 (a capture two steps up the coast).
  auto r =
      run_smartboard({"fen", "cotulenh", "--fen", "6c4/11/11/11/2i7m/11/2T8/11/11/11/10I/5C5 r", "--play", "Tc6xc8"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 2u);
  // Blue's militia is all it has left besides the commander: the last defender, a hero.
  EXPECT_EQ(lines[0], "6c4/11/11/11/2T7+m/11/11/11/11/11/10I/5C5 b 10 0 i");
  EXPECT_NE(lines[1].find("score red 10 blue 0"), std::string::npos) << lines[1];
}

TEST(CotulenhCli, MovesJsonCarriesTheContractFields) {
  auto r = run_smartboard({"moves", "cotulenh", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 117u);
  for (const std::string& line : lines) {
    auto j = nlohmann::json::parse(line);
    EXPECT_TRUE(j["notation"].is_string());
    EXPECT_TRUE(j["from"].is_string());
    EXPECT_TRUE(j["to"].is_string());
    EXPECT_TRUE(j["captured"].is_array());
    EXPECT_TRUE(j["record"].is_string());
  }
  auto first = nlohmann::json::parse(lines[0]);
  EXPECT_EQ(first["notation"], "Ad3-c2");
  EXPECT_EQ(first["from"], "d3");
  EXPECT_EQ(first["to"], "c2");
  EXPECT_EQ(first["kind"], "move");
}

TEST(CotulenhCli, MovesAfterPlayAreSortedNotation) {
  auto r = run_smartboard({"moves", "cotulenh", "--play", "Mg5-f4 Ik8-k7"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto lines = lines_of(r.out);
  EXPECT_TRUE(std::is_sorted(lines.begin(), lines.end()));
  EXPECT_NE(std::find(lines.begin(), lines.end(), "(TM)f4-f6"), lines.end());
  EXPECT_NE(std::find(lines.begin(), lines.end(), "Tf4-f6/Mf4-e5"), lines.end());
}

void expect_one_line_error(const std::vector<std::string>& cmd, const std::string& needle) {
  auto r = run_smartboard(cmd);
  std::string joined;
  for (const auto& w : cmd) joined += w + " ";
  EXPECT_EQ(r.status, 2) << joined;
  EXPECT_EQ(lines_of(r.err).size(), 1u) << joined << "\n" << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << joined << "\n" << r.err;
  EXPECT_TRUE(r.out.empty() || cmd[0] == "perft") << joined;
}

// Each bad FEN through `fen`; the three commands share the reading, so `perft` and
// `moves --json` get a few of them (every launch of the binary costs time).
TEST(CotulenhCli, BadFenExitsTwoNamingTheProblem) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "empty FEN"},
      {"6c4/11 r", "2 ranks"},
      {"6c4/11/11/11/11/11/11/11/11/11/11/6C4", "side to move"},
      {"6c4/11/11/11/11/11/11/11/11/11/11/6C4 x", "'r' or 'b'"},
      {"6c5/11/11/11/11/11/11/11/11/11/11/6C4 r", "rank 12 has more than 11"},
      {"6c3/11/11/11/11/11/11/11/11/11/11/6C4 r", "rank 12 has 10 sites"},
      {"6c4/11/11/11/11/11/11/11/11/11/11/6Z4 r", "unexpected character 'Z'"},
      {"6c4/11/11/11/11/11/11/11/11/11/11/T5C4 r", "cannot stand on a1"},
      {"6c4/11/11/11/11/11/11/11/11/11/11/5(TA)C4 r", "not one the rules allow"},
      {"6c4/11/11/11/11/11/11/11/11/11/11/5(Tt)C4 r", "mixes red and blue"},
      {"6c4/11/11/11/11/11/11/11/11/11/11/5(TI4 r", "missing ')'"},
      {"6c4/11/11/11/11/11/11/11/11/11/11/5+HC4 r", "headquarters cannot be a hero"},
      {"6c4/11/11/11/11/11/11/11/11/11/11/4CC5 r", "more than 1"},
      {"6c4/11/11/11/11/11/11/11/11/11/11/6C4 r 10", "both sides' points"},
      {"6c4/11/11/11/11/11/11/11/11/11/11/6C4 r x 0", "bad red points"},
      {"6c4/11/11/11/11/11/11/11/11/11/11/6C4 r 0 0 Q", "bad lost piece"},
      {"6c4/11/11/11/11/11/11/11/11/11/11/6C4 r 0 0 - extra", "unexpected text"},
  };
  for (const auto& [fen, needle] : cases) expect_one_line_error({"fen", "cotulenh", "--fen", fen}, needle);
  for (size_t i : {1u, 8u, 15u}) {
    expect_one_line_error({"perft", "cotulenh", "--depth", "1", "--fen", cases[i].first}, cases[i].second);
    expect_one_line_error({"moves", "cotulenh", "--json", "--fen", cases[i].first}, cases[i].second);
  }
}

// Each bad move through `moves --json`; `fen` shares the path and gets a few.
TEST(CotulenhCli, BadMovesInPlayExitTwoSayingWhy) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"Hf2-f3", "the headquarters never moves"},
      {"Tf4-f8", "a tank moves at most 2 steps"},
      {"Ge4xf4", "you cannot capture your own tank"},
      {"Ad3-d6", "the way from d3 to d6 is blocked on d5"},
      {"Ae2-e3", "there is no artillery on e2"},
      {"Tf9-f7", "it is red's turn"},
      {"Zf4-f6", "not a Cờ tư lệnh move"},
      {"Tf4f6", "not a Cờ tư lệnh move"},
      {"Tf4-z6", "no site 'z6'"},
      {"Tf4-f6 Tf9-f7 Tf6xf7 Mg8xf8", "(ply 4) there is nothing to capture on f8"},
  };
  for (const auto& [play, needle] : cases)
    expect_one_line_error({"moves", "cotulenh", "--json", "--play", play}, needle);
  for (size_t i : {0u, 6u, 9u}) expect_one_line_error({"fen", "cotulenh", "--play", cases[i].first}, cases[i].second);
}

TEST(CotulenhCli, BadOptionsExitTwo) {
  expect_one_line_error({"moves", "cotulenh", "--options", "{\"mode\": \"blitz\"}"}, "rule option 'mode'");
  expect_one_line_error({"moves", "cotulenh", "--options", "{\"win_bonus\": -1}"}, "rule option 'win_bonus'");
  expect_one_line_error({"fen", "cotulenh", "--options", "{\"flying\": true}"}, "unknown option 'flying'");
  expect_one_line_error({"perft", "cotulenh", "--depth", "1", "--options", "{\"zone_shape\": 3}"},
                        "rule option 'zone_shape'");
}

TEST(CotulenhCli, ConfigFileGivesTheDefaults) {
  auto r =
      run_smartboard({"perft", "cotulenh", "--depth", "1", "--config", SMARTBOARD_SOURCE_DIR "/configs/cotulenh.json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_of(r.out), (std::vector<std::string>{"perft 1 117"}));
}

}  // namespace
}  // namespace sb
