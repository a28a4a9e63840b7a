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

TEST(CliBasics, HostileInputGetsOneShortPrintableLine) {
  // Messages quote the input they refuse; a line break, a control or invalid byte,
  // or a huge argument must still leave exactly one short line on stderr.
  const std::string huge(100000, '(');
  const std::vector<std::vector<std::string>> cases = {
      {"fen", "morris9", "--fen", "........\n................ w 9 9"},
      {"fen", "cotoan", "--fen", "R:R0e2,1a1\n:B0e10"},
      {"fen", "cotulenh", "--fen", "6c4/11/11/11/11/11/11/11/11/11/11/6C\r\n4 r"},
      {"moves", "morris12", "--play", "a1\x01"},
      {"fen", "morris6", "--fen", "\xff\xfe\xc3 w 6 6"},
      {"fen", "cotulenh", "--fen", huge + " r"},
      {"moves", "cotoan", "--play", "1:a1-a2 " + huge + "\x1b[2J"},
      {"frob\nnicate"},
  };
  for (const auto& args : cases) {
    auto r = run_smartboard(args);
    EXPECT_EQ(r.status, 2) << args[0];
    EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err.substr(0, 300);
    EXPECT_LT(r.err.size(), 1500u) << r.err.substr(0, 300);
    for (unsigned char c : r.err.substr(0, r.err.size() - 1))
      EXPECT_TRUE(c >= 0x20 && c != 0x7f && c < 0xf5 && c != 0xc0 && c != 0xc1)
          << static_cast<int>(c) << " in " << r.err;
  }
  // What is wrong and where survives the shortening: the message's end is kept.
  auto r = run_smartboard({"fen", "morris9", "--fen", std::string(5000, '.') + "X w 9 9"});
  EXPECT_NE(r.err.find("characters left out"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the board lists 5001 points, morris9 has 24 at column 1"), std::string::npos) << r.err;
  // Non-ASCII text of the messages themselves stays as it is.
  r = run_smartboard({"moves", "cotoan", "--play", "4:d1-f3"});
  EXPECT_NE(r.err.find("d1\u2013f3"), std::string::npos) << r.err;
}

TEST(CliBasics, HelpListsCommands) {
  auto r = run_smartboard({"help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("perft"), std::string::npos);
}

}  // namespace
}  // namespace sb
