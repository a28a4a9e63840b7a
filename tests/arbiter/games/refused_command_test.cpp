// An operator command on a line of input that does not fit the moment is
// announced as a `refused` event and the referee goes on: nothing changes and
// nothing is journaled. A line whose time goes backwards is still an error.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "arbiter/journal.h"
#include "engines/common/errors.h"
#include "tests/arbiter/games/script.h"

namespace sb::arbiter {
namespace {

using sb::testing::Script;
using sb::testing::summary;

Frame command_line(int64_t t, const nlohmann::json& command, int64_t line) {
  Frame f;
  f.t = t;
  f.command = command;
  f.line = line;
  return f;
}

TEST(RefusedCommandTest, ACommandLineThatDoesNotFitIsAnnouncedAndChangesNothing) {
  Script s("brazilian");
  ASSERT_EQ(summary(s.start()), "setup_ok");
  ASSERT_EQ(summary(s.play("22-18")), "move:22-18");
  const std::string fen = s.rules->fen(s.referee.state());
  const nlohmann::json confirm = {{"command", "confirm"}};  // nothing waits to be confirmed
  auto ev = s.referee.on_frame(command_line(s.t += 100, confirm, 7));
  ASSERT_EQ(summary(ev), "refused");
  EXPECT_FALSE(ev[0].reason.empty());
  const nlohmann::json j = to_json(ev[0]);
  EXPECT_EQ(j["type"], "refused");
  EXPECT_EQ(j["t"], s.t);
  EXPECT_EQ(j["command"], confirm);
  EXPECT_EQ(j["reason"], ev[0].reason);
  const nlohmann::json green = {{"command", "resign"}, {"side", "green"}};
  ev = s.referee.on_frame(command_line(s.t += 100, green, 8));
  ASSERT_EQ(summary(ev), "refused");
  EXPECT_NE(ev[0].reason.find("green"), std::string::npos) << ev[0].reason;
  EXPECT_EQ(s.referee.ply(), 1);
  EXPECT_EQ(s.rules->fen(s.referee.state()), fen);
  EXPECT_EQ(s.referee.phase(), Phase::Playing);
  EXPECT_EQ(summary(s.play("11-15")), "move:11-15");  // the game goes on
  // A line whose time goes backwards is malformed input, not a command to refuse.
  EXPECT_THROW(s.referee.on_frame(command_line(s.t - 500, {{"command", "resign"}, {"side", "white"}}, 9)), InputError);
}

TEST(RefusedCommandTest, ARefusedCommandIsNotJournaled) {
  const std::string path = ::testing::TempDir() + "refused_command_" + std::to_string(::getpid()) + ".journal";
  std::remove(path.c_str());
  std::shared_ptr<const Rules> rules = make_rules("brazilian");
  RefereeOptions o;
  auto lines = [&] {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    return std::count(text.begin(), text.end(), '\n');
  };
  {
    Journal journal(path, Referee::journal_header(*rules, o));
    Referee referee(rules, o, &journal);
    Frame start;
    start.t = 1000;
    start.board = rules->observe(rules->start());
    start.conf.assign(start.board.sites.size(), 1.0f);
    ASSERT_EQ(summary(referee.on_frame(start)), "setup_ok");
    const auto before = lines();
    ASSERT_EQ(summary(referee.on_frame(command_line(1100, {{"command", "undo"}}, 2))), "refused");
    EXPECT_EQ(lines(), before);
    EXPECT_FALSE(journaled(EventType::Refused));
  }
  std::remove(path.c_str());
}

}  // namespace
}  // namespace sb::arbiter
