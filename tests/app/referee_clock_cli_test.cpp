// `smartboard referee GAME --observations …` and the clock: the operator's flag
// line, a flag or a game limit that ran out between two lines (announced at the
// moment it ran out, the late move never recorded), and with the screen (--http)
// a flag that falls while no line comes at all.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "engines/registry.h"
#include "tests/support/run_command.h"

namespace sb {
namespace {

using testing::lines_of;
using testing::run_smartboard;

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The observation line of what a camera sees in `s` at `t`.
std::string board_line(const Rules& rules, const State& s, int64_t t) {
  nlohmann::json board = nlohmann::json::object();
  const Observation seen = rules.observe(s);
  for (int i = 0; i < rules.site_count(); ++i)
    if (!seen.sites[static_cast<size_t>(i)].empty())
      board[rules.site_name(i)] = seen.sites[static_cast<size_t>(i)].str();
  return nlohmann::json{{"t", t}, {"board", board}}.dump();
}

std::string write_lines(const std::string& name, const std::vector<std::string>& lines) {
  const std::string path = ::testing::TempDir() + name + "_" + std::to_string(::getpid()) + ".jsonl";
  std::ofstream out(path);
  for (const std::string& l : lines) out << l << "\n";
  return path;
}

std::vector<nlohmann::json> events_of(const std::string& text) {
  std::vector<nlohmann::json> events;
  for (const std::string& l : lines_of(text))
    if (!l.empty()) events.push_back(nlohmann::json::parse(l));
  return events;
}

std::vector<nlohmann::json> of_type(const std::vector<nlohmann::json>& events, const std::string& type) {
  std::vector<nlohmann::json> found;
  for (const nlohmann::json& e : events)
    if (e.value("type", "") == type) found.push_back(e);
  return found;
}

TEST(RefereeClockCli, AFlagLineEndsTheGameInTheEventsTheRecordsAndAfterAResume) {
  std::shared_ptr<const Rules> rules = make_rules("brazilian");
  const State start = rules->start();
  const std::string obs =
      write_lines("flag_line", {board_line(*rules, start, 0), board_line(*rules, rules->play(start, "22-18"), 1000),
                                R"({"t": 2000, "command": "flag", "side": "white"})",
                                board_line(*rules, rules->play(start, "22-18 11-15"), 3000)});
  const std::string dir = ::testing::TempDir() + "flag_line_" + std::to_string(::getpid());
  const std::string journal = dir + ".journal", pdn = dir + ".pdn", json = dir + ".json";
  auto run = run_smartboard({"referee", "brazilian", "--observations", obs, "--journal", journal, "--record", pdn});
  ASSERT_EQ(run.status, 0) << run.err;
  const auto events = events_of(run.out);
  const auto over = of_type(events, "game_over");
  ASSERT_EQ(over.size(), 1u) << run.out;
  EXPECT_EQ(over[0]["t"], 2000);
  EXPECT_EQ(over[0]["result"], "0-1");
  EXPECT_EQ(over[0]["reason"], "white's time ran out (flag fall declared by the operator)");
  EXPECT_EQ(of_type(events, "move").size(), 1u) << run.out;  // Black's reply came after the game ended
  EXPECT_NE(slurp(pdn).find("[Result \"0-1\"]"), std::string::npos) << slurp(pdn);

  // Started again on the same journal: the game stays over, nothing is added.
  const std::string journaled = slurp(journal);
  auto again = run_smartboard({"referee", "brazilian", "--observations", obs, "--journal", journal, "--record", json});
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_EQ(slurp(journal), journaled);
  EXPECT_TRUE(of_type(events_of(again.out), "game_over").empty()) << again.out;
  const nlohmann::json record = nlohmann::json::parse(slurp(json));
  EXPECT_EQ(record["games"][0]["result"], "0-1") << record.dump();
  EXPECT_EQ(record["games"][0]["reason"], over[0]["reason"]) << record.dump();
}

TEST(RefereeClockCli, AFlagThatFellBetweenLinesIsAnnouncedAtItsMomentAndTheLateMoveIsNotRecorded) {
  std::shared_ptr<const Rules> rules = make_rules("brazilian");
  const State start = rules->start();
  // 3 s a side plus 1 s a move. White: 3 - 1 + 1 = 3 s left after 22-18 at 1 s; Black
  // answers at 1.5 s; White's time then runs out at 4.5 s. The capture comes at 60 s.
  const std::string obs =
      write_lines("flag_between", {board_line(*rules, start, 0), board_line(*rules, rules->play(start, "22-18"), 1000),
                                   board_line(*rules, rules->play(start, "22-18 11-15"), 1500),
                                   board_line(*rules, rules->play(start, "22-18 11-15 18x11"), 60000)});
  const std::string record = ::testing::TempDir() + "flag_between_" + std::to_string(::getpid()) + ".json";
  auto run = run_smartboard({"referee", "brazilian", "--observations", obs, "--clock", "0.05+1", "--record", record});
  ASSERT_EQ(run.status, 0) << run.err;
  const auto events = events_of(run.out);
  const auto over = of_type(events, "game_over");
  ASSERT_EQ(over.size(), 1u) << run.out;
  EXPECT_EQ(over[0]["t"], 4500);
  EXPECT_EQ(over[0]["result"], "0-1");
  EXPECT_EQ(over[0]["reason"], "white's time ran out");
  EXPECT_EQ(over[0]["clock"]["white"], 0);
  EXPECT_EQ(over[0]["clock"]["black"], 3500);
  EXPECT_EQ(of_type(events, "move").size(), 2u) << run.out;
  EXPECT_EQ(nlohmann::json::parse(slurp(record))["games"][0]["moves"].size(), 2u);
}

TEST(RefereeClockCli, ACoTuLenhGameLimitReachedBetweenLinesEndsTheGameThenOnPoints) {
  std::shared_ptr<const Rules> rules = make_rules("cotulenh");
  const State start = rules->start();
  const std::vector<Move> red = rules->legal_moves(start);
  ASSERT_FALSE(red.empty());
  const State after = rules->apply(start, red.front());
  const std::vector<Move> blue = rules->legal_moves(after);
  ASSERT_FALSE(blue.empty());
  const std::string obs = write_lines("limit_between", {board_line(*rules, start, 0), board_line(*rules, after, 1000),
                                                        board_line(*rules, rules->apply(after, blue.front()), 20000)});
  auto run = run_smartboard(
      {"referee", "cotulenh", "--observations", obs, "--game-limit", "0.05", "--referee", R"({"settle_ms": 0})"});
  ASSERT_EQ(run.status, 0) << run.err;
  const auto events = events_of(run.out);
  const auto over = of_type(events, "game_over");
  ASSERT_EQ(over.size(), 1u) << run.out;
  EXPECT_EQ(over[0]["t"], 3000);
  EXPECT_NE(over[0]["reason"].get<std::string>().find("points decide"), std::string::npos) << over[0].dump();
  EXPECT_EQ(of_type(events, "move").size(), 1u) << run.out;
}

// `smartboard referee … --observations -` with its standard input and output on pipes.
class LiveReferee {
 public:
  explicit LiveReferee(const std::vector<std::string>& words) {
    int in[2], out[2];
    if (::pipe(in) != 0 || ::pipe(out) != 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(in[0], 0);
      ::dup2(out[1], 1);
      int devnull = ::open("/dev/null", O_WRONLY);
      ::dup2(devnull, 2);
      ::close(in[1]);
      ::close(out[0]);
      std::vector<std::string> argv = {SMARTBOARD_BINARY};
      argv.insert(argv.end(), words.begin(), words.end());
      std::vector<char*> args;
      for (auto& a : argv) args.push_back(a.data());
      args.push_back(nullptr);
      ::execv(SMARTBOARD_BINARY, args.data());
      ::_exit(127);
    }
    ::close(in[0]);
    ::close(out[1]);
    to_ = in[1];
    from_ = out[0];
  }
  ~LiveReferee() {
    close_input();
    if (from_ >= 0) ::close(from_);
    if (pid_ > 0 && !waited_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  bool started() const { return pid_ > 0 && to_ >= 0 && from_ >= 0; }
  void send(const std::string& line) {
    const std::string text = line + "\n";
    ASSERT_EQ(::write(to_, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  }
  void close_input() {
    if (to_ >= 0) ::close(to_);
    to_ = -1;
  }
  // The next line of its output, or "" if none comes before `deadline`.
  std::string line(std::chrono::steady_clock::time_point deadline) {
    for (;;) {
      if (auto nl = buffer_.find('\n'); nl != std::string::npos) {
        std::string l = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        return l;
      }
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return "";
      pollfd p{from_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
      char buf[4096];
      const ssize_t n = ::read(from_, buf, sizeof buf);
      if (n <= 0) return "";
      buffer_.append(buf, static_cast<size_t>(n));
    }
  }
  int wait() {
    int status = 0;
    ::waitpid(pid_, &status, 0);
    waited_ = true;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

 private:
  pid_t pid_ = -1;
  int to_ = -1, from_ = -1;
  bool waited_ = false;
  std::string buffer_;
};

TEST(RefereeClockCli, WithTheScreenAFlagFallsWhileNoLineComes) {
  std::shared_ptr<const Rules> rules = make_rules("brazilian");
  LiveReferee referee(
      {"referee", "brazilian", "--observations", "-", "--clock", "0.01", "--http", "127.0.0.1:0", "--exit-when-done"});
  ASSERT_TRUE(referee.started());
  referee.send(board_line(*rules, rules->start(), 0));
  // White's 0.6 s run out on the screen's clock; the deadline only bounds a failure.
  nlohmann::json over;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  for (std::string l = referee.line(deadline); !l.empty(); l = referee.line(deadline)) {
    nlohmann::json e = nlohmann::json::parse(l);
    if (e.value("type", "") == "game_over") {
      over = e;
      break;
    }
  }
  referee.close_input();
  EXPECT_EQ(referee.wait(), 0);
  ASSERT_TRUE(over.is_object()) << "no game_over while no line came";
  EXPECT_EQ(over["t"], 600);
  EXPECT_EQ(over["result"], "0-1");
  EXPECT_EQ(over["reason"], "white's time ran out");
}

TEST(RefereeClockCli, WithTheScreenAPacedFileEndsAtTheFlagsMomentAndIgnoresTheLateMove) {
  std::shared_ptr<const Rules> rules = make_rules("brazilian");
  const std::string obs = write_lines("flag_paced", {board_line(*rules, rules->start(), 0),
                                                     board_line(*rules, rules->play(rules->start(), "22-18"), 1500)});
  auto run = run_smartboard(
      {"referee", "brazilian", "--observations", obs, "--clock", "0.01", "--http", "127.0.0.1:0", "--exit-when-done"});
  ASSERT_EQ(run.status, 0) << run.err;
  const auto events = events_of(run.out);
  const auto over = of_type(events, "game_over");
  ASSERT_EQ(over.size(), 1u) << run.out;
  EXPECT_EQ(over[0]["t"], 600);
  EXPECT_TRUE(of_type(events, "move").empty()) << run.out;
}

}  // namespace
}  // namespace sb
