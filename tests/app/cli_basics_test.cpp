// The command line's contract common to every game (CONTRACT.md).
#include <gtest/gtest.h>

#include "tests/support/run_command.h"

namespace sb {
namespace {

using testing::lines_of;
using testing::run_smartboard;

TEST(CliBasics, GamesListsEveryIdInContractOrder) {
  auto r = run_smartboard({"games"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_of(r.out), (std::vector<std::string>{"brazilian", "international", "english", "morris9", "morris3",
                                                       "morris6", "morris12", "cotoan", "cotulenh"}));
}

TEST(CliBasics, UnknownCommandExitsTwoWithOneLine) {
  auto r = run_smartboard({"frobnicate"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(lines_of(r.err).size(), 1u);
  EXPECT_NE(r.err.find("frobnicate"), std::string::npos);
}

TEST(CliBasics, UnknownGameExitsTwoNamingIt) {
  for (std::vector<std::string> cmd : {std::vector<std::string>{"perft", "chess", "--depth", "1"},
                                       std::vector<std::string>{"moves", "chess"}, std::vector<std::string>{"fen", "chess"}}) {
    auto r = run_smartboard(cmd);
    EXPECT_EQ(r.status, 2) << cmd[0];
    EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;
    EXPECT_NE(r.err.find("unknown game 'chess'"), std::string::npos) << r.err;
  }
}

TEST(CliBasics, BadOptionsExitTwo) {
  EXPECT_EQ(run_smartboard({"perft", "brazilian"}).status, 2);                        // no --depth
  EXPECT_EQ(run_smartboard({"perft", "brazilian", "--depth", "x"}).status, 2);        // not a number
  EXPECT_EQ(run_smartboard({"perft", "brazilian", "--depth", "0"}).status, 2);        // out of range
  EXPECT_EQ(run_smartboard({"moves", "brazilian", "--bogus"}).status, 2);             // unknown option
  EXPECT_EQ(run_smartboard({"moves", "brazilian", "--fen"}).status, 2);               // missing value
  EXPECT_EQ(run_smartboard({"moves", "brazilian", "--options", "{bad"}).status, 2);   // malformed JSON
  EXPECT_EQ(run_smartboard({"moves", "brazilian", "--config", "/nonexistent"}).status, 2);
  EXPECT_EQ(run_smartboard({"perft", "brazilian", "--depth", "1", "--duplicates", "maybe"}).status, 2);
  EXPECT_EQ(run_smartboard({"games", "extra"}).status, 2);
}

TEST(CliBasics, HelpListsCommands) {
  auto r = run_smartboard({"help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("perft"), std::string::npos);
}

}  // namespace
}  // namespace sb
