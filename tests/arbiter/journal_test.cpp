// The journal: every event on disk before it is announced, a restart resumes
// exactly (also after the process is killed with SIGKILL mid-game), a torn last
// write is set aside and never lost, damage elsewhere is refused.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <gtest/gtest.h>

#include "arbiter/journal.h"
#include "arbiter/referee.h"
#include "engines/common/errors.h"
#include "engines/registry.h"
#include "tests/arbiter/support.h"
#include "tests/arbiter/toy_rules.h"

namespace sb::arbiter {
namespace {

using sb::testing::frame_of;
using sb::testing::summary;
using sb::testing::ToyRules;

std::vector<std::string>& made_files() {
  static std::vector<std::string> files;
  return files;
}

std::string temp_path(const std::string& name) {
  std::string p = ::testing::TempDir() + "arbiter_journal_" + std::to_string(::getpid()) + "_" + name;
  std::remove(p.c_str());
  made_files().push_back(p);
  return p;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

size_t count_lines(const std::string& text) { return static_cast<size_t>(std::count(text.begin(), text.end(), '\n')); }

// The input lines of a whole game of the test game: random legal moves from the
// start, one frame a second, with a takeback, a draw offer and its refusal on the way.
std::vector<std::string> game_lines(const Rules& rules, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::string> lines;
  int64_t t = 0;
  State s = rules.start();
  auto add = [&](const Frame& f) { lines.push_back(frame_json(rules, f).dump()); };
  add(frame_of(rules, s, t));
  std::vector<State> seen{s};
  for (int ply = 0; ply < 40 && !rules.outcome(s).over(); ++ply) {
    std::vector<Move> moves = rules.legal_moves(s);
    s = rules.apply(s, moves[rng() % moves.size()]);
    add(frame_of(rules, s, t += 1000));
    add(frame_of(rules, s, t += 200));  // the camera keeps seeing it
    seen.push_back(s);
    if (ply == 2) {
      add(frame_of(rules, seen[seen.size() - 2], t += 1000));  // taken back…
      add(frame_of(rules, s, t += 1000));                      // …and played again
    }
    if (ply == 3) {
      lines.push_back(nlohmann::json{{"t", t += 10}, {"command", "offer_draw"}, {"side", "white"}}.dump());
      lines.push_back(nlohmann::json{{"t", t += 10}, {"command", "decline_draw"}, {"side", "black"}}.dump());
    }
  }
  return lines;
}

// Reads input lines like `smartboard referee` does: after a restart, from the
// line after the last journaled one.
void run_lines(Referee& referee, const Rules& rules, const std::vector<std::string>& lines, size_t upto) {
  std::optional<int64_t> previous;
  for (size_t i = 0; i < upto && i < lines.size(); ++i) {
    Frame f = parse_frame(rules, lines[i], "line " + std::to_string(i + 1), previous);
    previous = f.t;
    f.line = static_cast<int64_t>(i + 1);
    if (f.line <= referee.journaled_line()) continue;
    referee.on_frame(f);
  }
}

std::string reference_journal(const Rules& rules, const std::vector<std::string>& lines, const RefereeOptions& o) {
  std::string path = temp_path("reference");
  {
    auto shared = std::shared_ptr<const Rules>(&rules, [](const Rules*) {});
    Journal journal(path, Referee::journal_header(rules, o));
    Referee referee(shared, o, &journal);
    run_lines(referee, rules, lines, lines.size());
    referee.finish(referee.last_t());
  }
  return slurp(path);
}

// A referee in a child process reading observation lines from a pipe into the
// journal at `path` (resumed first, as a restarted referee is), so that a test can
// kill it with SIGKILL at any moment.
class ChildReferee {
 public:
  ChildReferee(const std::shared_ptr<const Rules>& rules, const RefereeOptions& options, const std::string& path) {
    int pipe_fds[2];
    if (::pipe(pipe_fds) != 0) throw std::runtime_error("pipe failed");
    pid_ = ::fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
      ::close(pipe_fds[1]);
      FILE* in = ::fdopen(pipe_fds[0], "r");
      Journal journal(path, Referee::journal_header(*rules, options));
      Referee referee(rules, options, &journal);
      referee.resume();
      char buf[16384];
      int64_t n = 0;
      while (std::fgets(buf, sizeof buf, in)) {
        Frame f = parse_frame(*rules, buf, "pipe");
        f.line = ++n;
        referee.on_frame(f);
      }
      ::_exit(0);
    }
    ::close(pipe_fds[0]);
    input_ = pipe_fds[1];
  }

  // Sends the first `count` lines; false when the pipe did not take one whole.
  bool send(const std::vector<std::string>& lines, size_t count) {
    for (size_t i = 0; i < count; ++i) {
      const std::string l = lines[i] + "\n";
      if (::write(input_, l.data(), l.size()) != static_cast<ssize_t>(l.size())) return false;
    }
    return true;
  }

  // Kills the child with SIGKILL and returns its wait status.
  int kill() {
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    ::close(input_);
    return status;
  }

 private:
  pid_t pid_ = -1;
  int input_ = -1;
};

class JournalTest : public ::testing::Test {
 protected:
  void TearDown() override {
    for (const std::string& p : made_files()) std::remove(p.c_str());
    made_files().clear();
  }
  std::shared_ptr<const Rules> rules = std::make_shared<ToyRules>();
  RefereeOptions options;
};

TEST_F(JournalTest, NewJournalStartsWithItsHeaderAndKeepsEveryEvent) {
  std::string path = temp_path("new");
  {
    Journal journal(path, Referee::journal_header(*rules, options));
    Referee referee(rules, options, &journal);
    referee.on_frame(frame_of(*rules, "WWW......BBB", 0));
    referee.on_frame(frame_of(*rules, "WW.W.....BBB", 100));
  }
  std::string text = slurp(path);
  ASSERT_EQ(count_lines(text), 3u);
  nlohmann::json header = nlohmann::json::parse(text.substr(0, text.find('\n')));
  EXPECT_EQ(header["journal"], "smartboard referee");
  EXPECT_EQ(header["game"], "toy");
  Journal reopened(path, Referee::journal_header(*rules, options));
  ASSERT_EQ(reopened.recorded().size(), 2u);
  EXPECT_EQ(reopened.recorded()[0]["type"], "setup_ok");
  EXPECT_EQ(reopened.recorded()[1]["notation"], "c3-c4");
  EXPECT_TRUE(reopened.repair_note().empty());
}

TEST_F(JournalTest, RestartResumesTheGameExactly) {
  std::vector<std::string> lines = game_lines(*rules, 7);
  const std::string expected = reference_journal(*rules, lines, options);
  std::string path = temp_path("restart");
  const size_t cut = lines.size() / 2;
  nlohmann::json before;
  {
    Journal journal(path, Referee::journal_header(*rules, options));
    Referee referee(rules, options, &journal);
    run_lines(referee, *rules, lines, cut);
    before = referee.state_json();
  }
  Journal journal(path, Referee::journal_header(*rules, options));
  Referee referee(rules, options, &journal);
  std::vector<Event> notes = referee.resume();
  ASSERT_FALSE(notes.empty());
  EXPECT_EQ(notes.back().type, EventType::Info);
  EXPECT_EQ(referee.state_json()["fen"], before["fen"]);
  EXPECT_EQ(referee.state_json()["moves"], before["moves"]);
  EXPECT_EQ(referee.state_json()["draw_offers"], before["draw_offers"]);
  run_lines(referee, *rules, lines, lines.size());
  referee.finish(referee.last_t());
  EXPECT_EQ(slurp(path), expected);
}

// The child reads input lines from a pipe and referees them into the journal; the
// parent kills it with SIGKILL, restarts from the journal and finishes the game.
// The journal must end exactly as in a run that was never interrupted.
TEST_F(JournalTest, ResumesExactlyAfterTheProcessIsKilledMidGame) {
  std::vector<std::string> lines = game_lines(*rules, 11);
  const std::string expected = reference_journal(*rules, lines, options);
  const std::vector<std::string> expected_lines = [&] {
    std::vector<std::string> v;
    std::stringstream ss(expected);
    for (std::string l; std::getline(ss, l);) v.push_back(l);
    return v;
  }();
  // Kill points: after a given number of lines was read whole, and at random
  // moments while the child is busy with everything.
  std::vector<size_t> points = {1, 4, lines.size() / 2, lines.size() - 3};
  for (int round = 0; round < static_cast<int>(points.size()) + 3; ++round) {
    const bool at_line = round < static_cast<int>(points.size());
    const size_t written = at_line ? points[round] : lines.size();
    std::string path = temp_path("killed" + std::to_string(round));
    ChildReferee child(rules, options, path);
    ASSERT_TRUE(child.send(lines, written));
    if (at_line) {
      // Wait until everything the first `written` lines announce is on disk.
      size_t want = 1;
      for (size_t k = 1; k < expected_lines.size(); ++k)
        if (nlohmann::json::parse(expected_lines[k]).value("line", int64_t{0}) <= static_cast<int64_t>(written))
          want = k + 1;
      auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
      while (count_lines(slurp(path)) < want && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      ASSERT_EQ(count_lines(slurp(path)), want) << "round " << round;
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(300 * (round - points.size() + 1)));
    }
    const int status = child.kill();
    EXPECT_TRUE(WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) == 0));

    Journal journal(path, Referee::journal_header(*rules, options));
    Referee referee(rules, options, &journal);
    referee.resume();
    run_lines(referee, *rules, lines, lines.size());
    referee.finish(referee.last_t());
    EXPECT_EQ(slurp(path), expected) << "round " << round << " (" << written << " lines written)";
  }
}

TEST_F(JournalTest, TornLastWriteIsSetAsideAndTheJournalCutBack) {
  std::string path = temp_path("torn");
  {
    Journal journal(path, Referee::journal_header(*rules, options));
    Referee referee(rules, options, &journal);
    referee.on_frame(frame_of(*rules, "WWW......BBB", 0));
  }
  const std::string whole = slurp(path);
  {
    std::ofstream out(path, std::ios::app | std::ios::binary);
    out << "{\"type\":\"move\",\"t\":100,\"notati";  // the power went here
  }
  Journal journal(path, Referee::journal_header(*rules, options));
  EXPECT_NE(journal.repair_note().find("torn"), std::string::npos);
  EXPECT_EQ(slurp(path), whole);
  std::string aside = path + ".torn-" + std::to_string(whole.size());
  EXPECT_EQ(slurp(aside), "{\"type\":\"move\",\"t\":100,\"notati");
  Referee referee(rules, options, &journal);
  std::vector<Event> notes = referee.resume();
  ASSERT_GE(notes.size(), 2u);
  EXPECT_NE(notes[0].reason.find(aside), std::string::npos);
  EXPECT_EQ(referee.phase(), Phase::Playing);
  std::remove(aside.c_str());
}

TEST_F(JournalTest, GarbageLinesAtTheEndAreSetAsideToo) {
  std::string path = temp_path("garbage");
  {
    Journal journal(path, Referee::journal_header(*rules, options));
  }
  const std::string whole = slurp(path);
  {
    std::ofstream out(path, std::ios::app | std::ios::binary);
    out << std::string(5, '\0') << "\n" << "not json\n";
  }
  Journal journal(path, Referee::journal_header(*rules, options));
  EXPECT_FALSE(journal.repair_note().empty());
  EXPECT_EQ(slurp(path), whole);
  std::remove((path + ".torn-" + std::to_string(whole.size())).c_str());
}

TEST_F(JournalTest, DamageBeforeGoodLinesIsRefusedAndTheFileLeftAlone) {
  std::string path = temp_path("damaged");
  {
    Journal journal(path, Referee::journal_header(*rules, options));
    Referee referee(rules, options, &journal);
    referee.on_frame(frame_of(*rules, "WWW......BBB", 0));
    referee.on_frame(frame_of(*rules, "WW.W.....BBB", 100));
  }
  std::string text = slurp(path);
  size_t second = text.find('\n') + 1;
  text[second] = '#';  // the line no longer opens a JSON object
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
  }
  try {
    Journal journal(path, Referee::journal_header(*rules, options));
    FAIL() << "a damaged journal was opened";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
  }
  EXPECT_EQ(slurp(path), text);
}

TEST_F(JournalTest, JournalOfAnotherGameOrOptionsIsRefused) {
  std::string path = temp_path("other");
  { Journal journal(path, Referee::journal_header(*rules, options)); }
  RefereeOptions other;
  other.match_games = 3;
  EXPECT_THROW(Journal(path, Referee::journal_header(*rules, other)), InputError);
}

TEST_F(JournalTest, EventThatDoesNotFitTheGameNamesItsJournalLine) {
  std::string path = temp_path("unfit");
  {
    Journal journal(path, Referee::journal_header(*rules, options));
    Referee referee(rules, options, &journal);
    referee.on_frame(frame_of(*rules, "WWW......BBB", 0));
  }
  {
    std::ofstream out(path, std::ios::app | std::ios::binary);
    out << R"({"type":"move","t":5,"notation":"c1-c9","ply":1,"side":"white","captured":[],"points":0,"score":{}})"
        << "\n";
  }
  Journal journal(path, Referee::journal_header(*rules, options));
  Referee referee(rules, options, &journal);
  try {
    referee.resume();
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("line 3"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("c1-c9"), std::string::npos) << e.what();
  }
}

// A question open when the process is killed (Cờ tư lệnh: moves the camera cannot
// tell apart) is still open after the restart, with the same candidates, and the
// operator's answer is taken: the record then follows the moves truly played.
TEST_F(JournalTest, QuestionOpenWhenTheProcessIsKilledIsStillOpenAndCanBeAnswered) {
  std::shared_ptr<const Rules> game = make_rules("cotulenh");
  // Random games until one where the referee asks and its provisional pick is not
  // the move played (so that the answer must rewrite the record).
  std::vector<std::string> lines;
  std::vector<State> truth;
  std::vector<std::string> played;
  size_t ask_line = 0;
  Question asked;
  for (unsigned seed = 1; seed < 60 && ask_line == 0; ++seed) {
    std::mt19937 rng(seed);
    lines.clear();
    played.clear();
    State s = game->start();
    truth = {s};
    int64_t t = 0;
    lines.push_back(frame_json(*game, frame_of(*game, s, t)).dump());
    for (int ply = 0; ply < 160 && !game->outcome(s).over(); ++ply) {
      std::vector<Move> moves = game->legal_moves(s);
      const Move& m = moves[rng() % moves.size()];
      played.push_back(m.notation);
      s = game->apply(s, m);
      truth.push_back(s);
      lines.push_back(frame_json(*game, frame_of(*game, s, t += 1000)).dump());
    }
    Referee reference(game, options);
    std::optional<int64_t> previous;
    for (size_t i = 0; i < lines.size(); ++i) {
      Frame f = parse_frame(*game, lines[i], "line", previous);
      previous = f.t;
      reference.on_frame(f);
      if (reference.questions().empty()) continue;
      const Question& q = reference.questions().front();
      std::string truly;
      for (int k = q.base; k < q.ply; ++k) truly += (truly.empty() ? "" : " ") + played[static_cast<size_t>(k)];
      if (q.candidates.front() == truly) break;  // a right pick: try another game
      ask_line = i + 1;
      asked = q;
      break;
    }
  }
  ASSERT_GT(ask_line, 0u) << "no game in 60 where the referee asked and picked wrong";

  std::string path = temp_path("question");
  ChildReferee child(game, options, path);
  ASSERT_TRUE(child.send(lines, ask_line));
  // Killed as soon as the question is on disk.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (slurp(path).find("\"ask\":true") == std::string::npos && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  child.kill();
  ASSERT_NE(slurp(path).find("\"ask\":true"), std::string::npos);

  auto journal = std::make_unique<Journal>(path, Referee::journal_header(*game, options));
  auto restarted = std::make_unique<Referee>(game, options, journal.get());
  Referee& referee = *restarted;
  referee.resume();
  ASSERT_EQ(referee.questions().size(), 1u);
  EXPECT_EQ(referee.questions()[0].ply, asked.ply);
  EXPECT_EQ(referee.questions()[0].candidates, asked.candidates);
  EXPECT_EQ(referee.state_json()["questions"].size(), 1u);
  std::string truly;
  for (int k = asked.base; k < asked.ply; ++k) truly += (truly.empty() ? "" : " ") + played[static_cast<size_t>(k)];
  std::vector<Event> answer =
      referee.on_command({{"command", "confirm"}, {"move", truly}, {"ply", asked.ply}}, referee.last_t() + 10);
  ASSERT_FALSE(answer.empty());
  EXPECT_EQ(answer.front().type, EventType::Takeback);
  EXPECT_EQ(answer.back().type, EventType::Answered);
  EXPECT_EQ(answer.back().extra.value("by", ""), "operator");
  EXPECT_TRUE(referee.questions().empty());
  for (int k = 0; k < referee.ply(); ++k)
    EXPECT_EQ(referee.game().moves[static_cast<size_t>(k)].fen, game->fen(truth[static_cast<size_t>(k) + 1]))
        << "ply " << k + 1;
  // The answer is on disk: a second restart has no question and the same record.
  const nlohmann::json after = referee.state_json();
  restarted.reset();
  journal.reset();
  Journal again(path, Referee::journal_header(*game, options));
  Referee resumed(game, options, &again);
  resumed.resume();
  EXPECT_TRUE(resumed.questions().empty());
  EXPECT_EQ(resumed.state_json()["moves"], after["moves"]);
}

}  // namespace
}  // namespace sb::arbiter
