// `smartboard referee … --mqtt` and `smartboard hall` end to end, through a real
// Mosquitto on a loopback port.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <filesystem>
#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "hall/broker_process.h"
#include "tests/support/http_get.h"
#include "tests/support/run_command.h"
#include "tests/support/test_broker.h"

extern char** environ;

namespace {

using sb::testing::http_get;
using sb::testing::run_smartboard;

TEST(HallCli, ARefereesEventsReachTheHallsBoardsApi) {
  const std::string dir = ::testing::TempDir() + "hall_cli_" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  // The broker of the test run (scripts/test exports it), else one of our own.
  const sb::testing::TestBroker broker = sb::testing::test_broker(dir + "/broker");
  // An event of this test alone: a shared broker keeps other runs' retained boards.
  const std::string event = sb::testing::unique_event("cli");
  const int http = sb::hall::BrokerProcess::free_port();

  std::vector<std::string> args = {SMARTBOARD_BINARY, "hall", "--mqtt", broker.address, "--event", event,
                                   "--http", std::to_string(http)};
  std::vector<char*> argv;
  for (std::string& s : args) argv.push_back(s.data());
  argv.push_back(nullptr);
  pid_t hall = -1;
  ASSERT_EQ(posix_spawn(&hall, SMARTBOARD_BINARY, nullptr, nullptr, argv.data(), environ), 0);

  // Two white moves and one black one, as a camera would see them.
  auto board = [](std::vector<int> w, std::vector<int> b) {
    nlohmann::json j = nlohmann::json::object();
    for (int s : w) j[std::to_string(s)] = "W";
    for (int s : b) j[std::to_string(s)] = "B";
    return j;
  };
  std::vector<int> w, b;
  for (int s = 21; s <= 32; ++s) w.push_back(s);
  for (int s = 1; s <= 12; ++s) b.push_back(s);
  std::ofstream obs(dir + "/obs.jsonl");
  obs << nlohmann::json{{"t", 0}, {"board", board(w, b)}}.dump() << "\n";
  w[0] = 17;  // 21-17
  obs << nlohmann::json{{"t", 2000}, {"board", board(w, b)}}.dump() << "\n";
  b[8] = 13;  // 9-13
  obs << nlohmann::json{{"t", 4000}, {"board", board(w, b)}}.dump() << "\n";
  obs.close();

  auto r = run_smartboard({"referee", "brazilian", "--observations", dir + "/obs.jsonl", "--mqtt", broker.address,
                           "--board", "12", "--event", event, "--journal", dir + "/board12.journal"});
  EXPECT_EQ(r.status, 0) << r.err;
  nlohmann::json boards;
  for (int i = 0; i < 500; ++i) {
    std::string body = http_get(http, "/api/boards");
    boards = nlohmann::json::parse(body, nullptr, false);
    if (boards.is_array() && !boards.empty() && boards[0].value("moves", 0) == 2) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  // The board enlarged: the referee's screen for board 12, on a port of its own, showing the hall's game.
  nlohmann::json screen = nlohmann::json::parse(http_get(http, "/api/board/12/screen"), nullptr, false);
  nlohmann::json screen_state;
  if (screen.is_object() && screen.contains("port"))
    screen_state = nlohmann::json::parse(http_get(screen["port"].get<int>(), "/api/state"), nullptr, false);
  const std::string screen_page = screen.contains("port") ? http_get(screen["port"].get<int>(), "/") : "";
  nlohmann::json no_screen = nlohmann::json::parse(http_get(http, "/api/board/99/screen"), nullptr, false);
  nlohmann::json model = nlohmann::json::parse(http_get(http, "/api/model/brazilian"), nullptr, false);
  const std::string pdn = http_get(http, "/api/round.pdn");
  ::kill(hall, SIGTERM);
  int status = 0;
  ::waitpid(hall, &status, 0);
  ASSERT_TRUE(screen.is_object() && screen.contains("port")) << screen.dump();
  EXPECT_EQ(screen_state.value("fen", ""), "W:W17,22-32:B1-8,10-13") << screen_state.dump();
  EXPECT_EQ(screen_state.value("game", ""), "brazilian");
  EXPECT_NE(screen_page.find("<html"), std::string::npos);
  EXPECT_NE(no_screen.value("error", "").find("board 99"), std::string::npos) << no_screen.dump();
  ASSERT_TRUE(model.is_object() && model.contains("sites")) << model.dump().substr(0, 200);
  EXPECT_EQ(model["sites"].size(), 32u);
  EXPECT_NE(pdn.find("21-17"), std::string::npos) << pdn;
  EXPECT_NE(pdn.find("9-13"), std::string::npos) << pdn;
  EXPECT_NE(pdn.find("[GameType \"26"), std::string::npos) << pdn;
  ASSERT_TRUE(boards.is_array() && boards.size() == 1) << boards.dump();
  EXPECT_EQ(boards[0]["sites"]["17"], "W");
  EXPECT_EQ(boards[0]["sites"]["13"], "B");
  EXPECT_EQ(boards[0]["sites"].size(), 24u);
  EXPECT_EQ(boards[0]["board"], 12);
  EXPECT_EQ(boards[0]["game"], "brazilian");
  EXPECT_EQ(boards[0]["fen"], "W:W17,22-32:B1-8,10-13");
  EXPECT_EQ(boards[0]["moves"], 2);
  EXPECT_EQ(boards[0]["status"], "offline");  // the referee has stopped; its game did not end
  EXPECT_TRUE(boards[0]["score"].is_object());
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST(HallCli, BadHallOptionsExitTwoWithOneLine) {
  auto r = run_smartboard({"hall", "--http", "0"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "smartboard hall: --mqtt HOST[:PORT] is required (the tournament's broker)\n");
  r = run_smartboard({"hall", "--mqtt", "127.0.0.1:99999", "--http", "0"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("port 99999 is out of 1..65535"), std::string::npos) << r.err;
  r = run_smartboard({"hall", "--mqtt", "127.0.0.1", "--http", "0", "--pairings", "/nonexistent.csv"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "smartboard hall: --pairings: cannot read '/nonexistent.csv'\n");
  r = run_smartboard({"referee", "brazilian", "--observations", "/dev/null", "--mqtt", "127.0.0.1"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--mqtt needs --board N"), std::string::npos) << r.err;
  r = run_smartboard({"referee", "brazilian", "--observations", "/dev/null", "--board", "3"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--board needs --mqtt"), std::string::npos) << r.err;
  r = run_smartboard({"referee", "brazilian", "--observations", "/dev/null", "--mqtt", "h", "--board", "3", "--event", "a/b"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("only letters"), std::string::npos) << r.err;
}

}  // namespace
