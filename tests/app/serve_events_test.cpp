// `smartboard serve-events` end to end: it serves a recorded game and stops by
// itself with --exit-when-done; bad input exits 2 naming the file and line.
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "tests/support/run_command.h"

namespace {

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

}  // namespace
