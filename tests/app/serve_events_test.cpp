// `smartboard serve-events` end to end: it serves a recorded game and stops by
// itself with --exit-when-done; bad input exits 2 naming the file and line.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "tests/support/http_get.h"
#include "tests/support/run_command.h"

extern char** environ;

namespace {

using sb::testing::http_get;
using sb::testing::run_smartboard;

const char* kStart = "R:R0e2,1a1,2b1,3c1,4d1,5e1,6f1,7g1,8h1,9i1:B0e10,1i11,2h11,3g11,4f11,5e11,6d11,7c11,8b11,9a11";

std::string write_file(const std::string& name, const std::string& text) {
  std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

std::string short_game() {
  nlohmann::json setup = {{"type", "setup_ok"}, {"t", 0}, {"fen", kStart}};
  nlohmann::json move = {{"type", "move"}, {"t", 500}, {"ply", 1}, {"side", "red"}, {"notation", "4:d1-d5"},
                         {"captured", nlohmann::json::array()}, {"points", 0}, {"score", {{"red", 0}, {"blue", 0}}}};
  nlohmann::json illegal = {{"type", "illegal"}, {"t", 900}, {"reason", "the 0 never moves"}, {"squares", {"e10", "e9"}}};
  return setup.dump() + "\n" + move.dump() + "\n\n" + illegal.dump() + "\n";
}

TEST(ServeEvents, ReplaysAGameAndPrintsTheScreenAndToken) {
  std::string events = write_file("serve_events_game.jsonl", short_game());
  auto r = run_smartboard({"serve-events", "cotoan", events, "--http", "127.0.0.1:0", "--speed", "50", "--exit-when-done"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto lines = sb::testing::lines_of(r.out);
  ASSERT_EQ(lines.size(), 2u) << r.out;
  EXPECT_EQ(lines[0].rfind("screen http://127.0.0.1:", 0), 0u) << lines[0];
  EXPECT_EQ(lines[1].rfind("token ", 0), 0u);
  EXPECT_EQ(lines[1].size(), 6u + 32u);
  // The announcements, for people, on stderr.
  EXPECT_NE(r.err.find("Red  4:d1-d5"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("Illegal move  \u2014  the 0 never moves"), std::string::npos) << r.err;
}

TEST(ServeEvents, BadInputExitsTwoNamingWhatAndWhere) {
  std::string bad_json = write_file("serve_events_bad.jsonl", short_game() + "{oops\n");
  auto r = run_smartboard({"serve-events", "cotoan", bad_json, "--http", "127.0.0.1:0", "--exit-when-done"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "smartboard serve-events: " + bad_json + ":5: not a JSON object\n");

  std::string bad_event = write_file("serve_events_bad_event.jsonl", "{\"type\": \"teleport\", \"t\": 0}\n");
  r = run_smartboard({"serve-events", "cotoan", bad_event, "--exit-when-done"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find(bad_event + ":1: event: unknown type \"teleport\""), std::string::npos) << r.err;

  std::string good = write_file("serve_events_ok.jsonl", short_game());
  r = run_smartboard({"serve-events", "cotoan", good, "--http", "127.0.0.1:99999", "--exit-when-done"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("port 99999 is above 65535"), std::string::npos) << r.err;
  r = run_smartboard({"serve-events", "cotoan", good, "--http", "999.1.1.1:0", "--exit-when-done"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("bad address '999.1.1.1'"), std::string::npos) << r.err;
  r = run_smartboard({"serve-events", "cotoan", "/no/such/file.jsonl", "--exit-when-done"});
  EXPECT_EQ(r.status, 2);
  r = run_smartboard({"serve-events", "chess", good, "--exit-when-done"});
  EXPECT_EQ(r.status, 2);
  r = run_smartboard({"serve-events", "cotoan", good, "--speed", "0", "--exit-when-done"});
  EXPECT_EQ(r.status, 2);
}

// The PDN download of a replayed English game comes from the draughts engine's
// writer: GameType 21, Black's move first in move 1 (no "1. ..."), SetUp and FEN
// only for a set-up start.
TEST(ServeEvents, ThePdnDownloadIsTheDraughtsEnginesRecord) {
  auto move = [](int ply, const std::string& side, const std::string& notation, std::vector<std::string> captured) {
    return nlohmann::json{{"type", "move"}, {"t", 100 * ply}, {"ply", ply}, {"side", side}, {"notation", notation},
                          {"captured", captured}, {"points", 0}, {"score", {{"white", 0}, {"black", 0}}}}.dump() + "\n";
  };
  auto serve = [&](const std::string& name, const std::string& fen, const std::string& lines) {
    std::string file = write_file(name + ".jsonl", lines);
    std::string out_path = ::testing::TempDir() + name + ".out";
    std::vector<std::string> args = {SMARTBOARD_BINARY, "serve-events", "english", file, "--http", "127.0.0.1:0",
                                     "--speed", "1000"};
    if (!fen.empty()) args.insert(args.end(), {"--fen", fen});
    std::vector<char*> argv;
    for (std::string& s : args) argv.push_back(s.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, SMARTBOARD_BINARY, &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    std::string pdn;
    if (rc != 0) return pdn;
    // The screen's port from "screen http://127.0.0.1:PORT/", then the record once every move is on the screen.
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    int port = 0;
    while (std::chrono::steady_clock::now() < until) {
      if (port == 0) {
        std::ifstream in(out_path);
        std::string word;
        while (in >> word)
          if (word.rfind("http://127.0.0.1:", 0) == 0) port = std::atoi(word.c_str() + 17);
      } else {
        nlohmann::json state = nlohmann::json::parse(http_get(port, "/api/state"), nullptr, false);
        if (state.is_object() && state.contains("moves") && state["moves"].size() == 3) {
          pdn = http_get(port, "/api/record.pdn");
          break;
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ::kill(pid, SIGTERM);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return pdn;
  };

  const std::string game = move(1, "black", "11-15", {}) + move(2, "white", "23-19", {}) + move(3, "black", "8-11", {});
  const std::string pdn = serve("serve_events_english", "", game);
  EXPECT_NE(pdn.find("[GameType \"21\"]"), std::string::npos) << pdn;
  EXPECT_EQ(pdn.find("[SetUp"), std::string::npos) << pdn;
  EXPECT_NE(pdn.find("1. 11-15 23-19 2. 8-11 *"), std::string::npos) << pdn;
  EXPECT_EQ(pdn.find("..."), std::string::npos) << pdn;

  // From a set-up position with White to move: SetUp and FEN, and White's move is the second half of move 1.
  const std::string fen = "W:W23,30:B11,12";
  const std::string setup = move(1, "white", "23-19", {}) + move(2, "black", "11-16", {}) + move(3, "white", "19-15", {});
  const std::string set_up_pdn = serve("serve_events_english_setup", fen, setup);
  EXPECT_NE(set_up_pdn.find("[SetUp \"1\"]"), std::string::npos) << set_up_pdn;
  EXPECT_NE(set_up_pdn.find("[FEN \"" + fen + "\"]"), std::string::npos) << set_up_pdn;
  EXPECT_NE(set_up_pdn.find("1... 23-19 2. 11-16 19-15 *"), std::string::npos) << set_up_pdn;
}

}  // namespace
