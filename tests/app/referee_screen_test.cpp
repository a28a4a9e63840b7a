// `smartboard referee … --http`: the same events on stdout as without the screen,
// and the screen's address and operator token announced on stderr.
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "tests/support/run_command.h"

namespace {

using sb::testing::run_smartboard;

// The start of Cờ toán as the camera reads it, then 4:d1-d5.
std::string observations() {
  nlohmann::json start = nlohmann::json::object();
  const char* red_files = "abcdefghi";
  for (int n = 1; n <= 9; ++n) {
    start[std::string(1, red_files[n - 1]) + "1"] = "R" + std::to_string(n);
    start[std::string(1, red_files[9 - n]) + "11"] = "B" + std::to_string(n);
  }
  start["e2"] = "R0";
  start["e10"] = "B0";
  nlohmann::json moved = start;
  moved.erase("d1");
  moved["d5"] = "R4";
  std::string text;
  int t = 0;
  for (const auto& board : {start, start, moved, moved}) {
    text += nlohmann::json{{"t", t}, {"board", board}, {"stable", true}}.dump() + "\n";
    t += 40;
  }
  return text;
}

TEST(RefereeScreen, ServesTheScreenAndKeepsTheEventsOnStdout) {
  std::string path = ::testing::TempDir() + "referee_screen_obs.jsonl";
  std::ofstream(path) << observations();
  const std::vector<std::string> fast = {"--referee", R"({"settle_ms": 0, "setup_settle_ms": 0, "unclear_after_ms": 0})"};
  std::vector<std::string> plain = {"referee", "cotoan", "--observations", path};
  plain.insert(plain.end(), fast.begin(), fast.end());
  auto without = run_smartboard(plain);
  ASSERT_EQ(without.status, 0) << without.err;

  std::vector<std::string> served = plain;
  for (const char* w : {"--http", "127.0.0.1:0", "--exit-when-done"}) served.push_back(w);
  auto with = run_smartboard(served);
  ASSERT_EQ(with.status, 0) << with.err;
  EXPECT_EQ(with.out, without.out);
  EXPECT_NE(with.out.find("\"notation\":\"4:d1-d5\""), std::string::npos) << with.out;
  EXPECT_NE(with.err.find("referee: screen http://127.0.0.1:"), std::string::npos) << with.err;
  EXPECT_NE(with.err.find("operator token "), std::string::npos) << with.err;

  served = plain;
  for (const char* w : {"--http", "127.0.0.1:x", "--exit-when-done"}) served.push_back(w);
  auto bad = run_smartboard(served);
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("--http '127.0.0.1:x': bad port 'x'"), std::string::npos) << bad.err;
}

}  // namespace
