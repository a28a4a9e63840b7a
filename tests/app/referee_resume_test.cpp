// `smartboard referee … --journal`: the process is killed (SIGKILL) in the middle
// of a Brazilian game and started again with the same journal and the same
// observations; it resumes where it was and ends with the journal and the record
// an uninterrupted run writes.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "engines/registry.h"
#include "tests/support/run_command.h"

namespace sb {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// One observation line per position of a random legal game, each seen twice.
std::vector<std::string> game_lines(const Rules& rules, unsigned seed, int plies) {
  std::mt19937 rng(seed);
  std::vector<std::string> lines;
  State s = rules.start();
  int64_t t = 0;
  auto add = [&](const State& state) {
    nlohmann::json board = nlohmann::json::object();
    const Observation seen = rules.observe(state);
    for (int i = 0; i < rules.site_count(); ++i)
      if (!seen.sites[static_cast<size_t>(i)].empty()) board[rules.site_name(i)] = seen.sites[static_cast<size_t>(i)].str();
    lines.push_back(nlohmann::json{{"t", t}, {"board", board}}.dump());
  };
  add(s);
  for (int ply = 0; ply < plies && !rules.outcome(s).over(); ++ply) {
    std::vector<Move> moves = rules.legal_moves(s);
    s = rules.apply(s, moves[rng() % moves.size()]);
    t += 1000;
    add(s);
    t += 300;
    add(s);
  }
  return lines;
}

size_t count_lines(const std::string& text) {
  size_t n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

TEST(RefereeResumeTest, KilledMidGameTheRefereeResumesFromItsJournal) {
  std::shared_ptr<const Rules> rules = make_rules("brazilian");
  const std::vector<std::string> lines = game_lines(*rules, 7, 30);
  const std::string dir = ::testing::TempDir() + "referee_resume_" + std::to_string(::getpid()) + "/";
  ::mkdir(dir.c_str(), 0755);
  const std::string all = dir + "all.jsonl";
  {
    std::ofstream out(all);
    for (const std::string& l : lines) out << l << "\n";
  }

  // The reference: one run over every line.
  const std::string ref_journal = dir + "ref.journal", ref_record = dir + "ref.json";
  testing::CommandResult ref = testing::run_smartboard(
      {"referee", "brazilian", "--observations", all, "--journal", ref_journal, "--record", ref_record, "--events",
       dir + "ref_events.jsonl"});
  ASSERT_EQ(ref.status, 0) << ref.err;
  const std::string expected_journal = slurp(ref_journal);
  ASSERT_GT(count_lines(expected_journal), 20u);

  // The killed run: observations through a pipe, half the game written, then
  // SIGKILL once the journal holds what those lines announce.
  const std::string fifo = dir + "obs.fifo", journal = dir + "killed.journal";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    int devnull = ::open("/dev/null", O_WRONLY);
    ::dup2(devnull, 1);
    ::dup2(devnull, 2);
    ::execl(SMARTBOARD_BINARY, SMARTBOARD_BINARY, "referee", "brazilian", "--observations", fifo.c_str(), "--journal",
            journal.c_str(), "--events", (dir + "killed_events.jsonl").c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  const size_t written = lines.size() / 2;
  {
    std::ofstream pipe(fifo);
    for (size_t i = 0; i < written; ++i) pipe << lines[i] << "\n";
    pipe.flush();
    // Journal lines the first `written` observation lines lead to (its header first).
    size_t want = 1;
    std::stringstream ss(expected_journal);
    std::string l;
    std::getline(ss, l);
    for (size_t k = 2; std::getline(ss, l); ++k)
      if (nlohmann::json::parse(l).value("line", int64_t{0}) <= static_cast<int64_t>(written)) want = k;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (count_lines(slurp(journal)) < want && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ASSERT_EQ(count_lines(slurp(journal)), want);
    ::kill(child, SIGKILL);  // mid-game, the pipe still open
    int status = 0;
    ::waitpid(child, &status, 0);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  }
  EXPECT_LT(count_lines(slurp(journal)), count_lines(expected_journal));

  // Started again with the same journal and every observation line.
  const std::string record = dir + "resumed.json";
  testing::CommandResult again = testing::run_smartboard(
      {"referee", "brazilian", "--observations", all, "--journal", journal, "--record", record});
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_EQ(slurp(journal), expected_journal);
  EXPECT_EQ(slurp(record), slurp(ref_record));
}

}  // namespace
}  // namespace sb
