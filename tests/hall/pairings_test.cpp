#include <gtest/gtest.h>

#include <fstream>

#include "engines/common/errors.h"
#include "hall/pairings.h"
#include "hall_test_support.h"

namespace sb::hall {
namespace {

std::string csv_error(const std::string& text) {
  try {
    parse_pairings_csv(text, "round1.csv");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

std::string json_error(const std::string& text) {
  try {
    parse_pairings_json(text, "round1.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(HallPairings, CsvWithQuotedOptionsAndAnyColumnOrder) {
  Pairings p = parse_pairings_csv(
      "Game,Board,Red,Blue,Options\n"
      "cotoan,2,Chi,\"Dung, Jr.\",\"{\"\"target_score\"\": 20}\"\n"
      "\n"
      "brazilian,1,An,Binh,\n",
      "round1.csv");
  ASSERT_EQ(p.boards.size(), 2u);
  EXPECT_EQ(p.boards.at(2).second, "Dung, Jr.");
  EXPECT_EQ(p.boards.at(2).game, "cotoan");
  EXPECT_EQ(p.boards.at(1).first, "An");
  EXPECT_TRUE(p.boards.at(1).options.empty());
}

TEST(HallPairings, JsonWithEventRoundAndPlayerForms) {
  Pairings p = parse_pairings_json(R"({"event": "Hanoi Open", "round": 3, "boards": [
      {"board": 1, "game": "international", "white": "An", "black": "Binh"},
      {"board": 2, "game": "morris9", "players": ["Chi", "Dung"]}]})",
                                   "round1.json");
  EXPECT_EQ(p.event, "Hanoi Open");
  EXPECT_EQ(p.round, "3");
  EXPECT_EQ(p.boards.at(2).first, "Chi");
  EXPECT_EQ(p.boards.at(1).second, "Binh");
}

TEST(HallPairings, BadCsvFilesNameTheLineAndTheProblem) {
  EXPECT_EQ(csv_error(""), "round1.csv: empty (expected a header line: board,white,black,game[,options])");
  EXPECT_EQ(csv_error("board,white,black\n1,a,b\n"), "round1.csv line 1: no 'game' column");
  EXPECT_EQ(csv_error("board,white,black,game,colour\n"),
            "round1.csv line 1: unknown column 'colour' (expected board, white/red/first, black/blue/second, game, options)");
  EXPECT_EQ(csv_error("board,white,black,game\n1,a,b,brazilian\nx,c,d,brazilian\n"),
            "round1.csv line 3: board 'x' is not a number");
  EXPECT_EQ(csv_error("board,white,black,game\n1,a,b,chess\n"),
            "round1.csv line 2: unknown game 'chess' (see 'smartboard games')");
  EXPECT_EQ(csv_error("board,white,black,game\n1,a,b,brazilian\n1,c,d,brazilian\n"),
            "round1.csv line 3: board 1 is paired twice");
  EXPECT_EQ(csv_error("board,white,black,game\n1,a,b\n"), "round1.csv line 2: 3 fields where the header has 4");
  EXPECT_EQ(csv_error("board,white,black,game\n1, ,b,brazilian\n"), "round1.csv line 2: a player's name is empty");
  EXPECT_EQ(csv_error("board,white,black,game\n1,\"a,b,brazilian\n"), "round1.csv line 2: a quoted field is never closed");
  EXPECT_EQ(csv_error("board,white,black,game\n0,a,b,brazilian\n"), "round1.csv line 2: board 0 is out of 1..9999");
  EXPECT_EQ(csv_error("board,white,black,game,options\n1,a,b,brazilian,{oops\n"),
            "round1.csv line 2: options are not JSON: {oops");
  EXPECT_NE(csv_error("board,white,black,game,options\n1,a,b,brazilian,\"{\"\"no_such\"\": 1}\"\n")
                .find("round1.csv line 2: options for brazilian:"),
            std::string::npos);
  EXPECT_EQ(csv_error("board,white,black,game\n"), "round1.csv: no board is paired (only a header)");
}

TEST(HallPairings, BadJsonFilesNameTheEntryAndTheProblem) {
  EXPECT_EQ(json_error("{"), "round1.json: not JSON");
  EXPECT_EQ(json_error("{\"round\": 1}"), "round1.json: expected {\"boards\": [...]} or a list of pairings");
  EXPECT_EQ(json_error("[{\"game\": \"brazilian\", \"white\": \"a\", \"black\": \"b\"}]"),
            "round1.json entry 1: \"board\" is missing");
  EXPECT_EQ(json_error("[{\"board\": 1, \"game\": \"brazilian\", \"players\": [\"a\"]}]"),
            "round1.json entry 1: \"players\" must be a list of two names");
  EXPECT_EQ(json_error("[{\"board\": 1, \"white\": \"a\", \"black\": \"b\"}]"), "round1.json entry 1: \"game\" is missing");
  EXPECT_EQ(json_error("[{\"board\": 1, \"game\": \"morris9\", \"white\": \"a\", \"black\": \"b\", \"options\": 3}]"),
            "round1.json entry 1: options must be a JSON object");
  EXPECT_EQ(json_error("[]"), "round1.json: no board is paired");
}

TEST(HallPairings, ReadPairingsPicksTheFormatAndNamesAMissingFile) {
  const std::string dir = testing::fresh_dir("pairings");
  std::ofstream(dir + "/r.csv") << "board,white,black,game\n3,a,b,english\n";
  std::ofstream(dir + "/r.txt") << "[{\"board\": 4, \"game\": \"cotulenh\", \"red\": \"a\", \"blue\": \"b\"}]";
  EXPECT_EQ(read_pairings(dir + "/r.csv").boards.at(3).game, "english");
  EXPECT_EQ(read_pairings(dir + "/r.txt").boards.at(4).game, "cotulenh");
  try {
    read_pairings(dir + "/missing.csv");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "--pairings: cannot read '" + dir + "/missing.csv'");
  }
}

}  // namespace
}  // namespace sb::hall
