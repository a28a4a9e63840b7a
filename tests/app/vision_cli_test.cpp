// `smartboard read` and `smartboard referee --source` through the command line (CONTRACT.md): a rendered board
// read with --corners, bad images as clear errors, and a simulated game refereed from its frames.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/support/run_command.h"
#include "tests/support/truth_files.h"

namespace sb {
namespace {

using testing::lines_of;
using testing::run_smartboard;
using testing::read_json;
using testing::corners_arg;

std::string temp(const std::string& name) { return ::testing::TempDir() + "vision_cli_" + name; }

TEST(ReadCli, ReadsAPlainBoardWithoutMarkersFromItsCorners) {
  for (const char* game : {"brazilian", "international"}) {
    const std::string png = temp(std::string(game) + ".png"), truth_path = temp(std::string(game) + ".json");
    auto r = run_smartboard({"render", game, "--out", png, "--truth", truth_path, "--seed", "5", "--look",
                             R"({"board":{"markers":false},"camera":{"tilt_deg":10}})"});
    ASSERT_EQ(r.status, 0) << r.err;
    nlohmann::json truth = read_json(truth_path);
    r = run_smartboard({"read", game, png, "--corners", corners_arg(truth)});
    ASSERT_EQ(r.status, 0) << r.err;
    auto lines = lines_of(r.out);
    ASSERT_EQ(lines.size(), 1u) << r.out;
    nlohmann::json obs = nlohmann::json::parse(lines[0]);
    EXPECT_EQ(obs["board"], truth["board"]) << game;
    ASSERT_TRUE(obs.contains("conf"));
    for (const auto& [site, token] : obs["board"].items()) EXPECT_TRUE(obs["conf"].contains(site)) << site;
    EXPECT_EQ(obs["stable"], true);
  }
}

TEST(ReadCli, FindsAMarkedBoardByItselfAndSaysHowWithJson) {
  const std::string png = temp("marked.png"), truth_path = temp("marked.json");
  auto r = run_smartboard({"render", "brazilian", "--out", png, "--truth", truth_path, "--seed", "10", "--look",
                            R"({"board":{"markers":true},"camera":{"tilt_deg":20}})"});
  ASSERT_EQ(r.status, 0) << r.err;
  r = run_smartboard({"read", "brazilian", png, "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json obs = nlohmann::json::parse(lines_of(r.out).at(0));
  EXPECT_EQ(obs["board"], read_json(truth_path)["board"]);
  EXPECT_EQ(obs["located_by"], "markers");
  EXPECT_TRUE(obs["times"].contains("read_ms"));
}

TEST(ReadCli, AnUnreadableImageOrBadCornersIsAClearError) {
  const std::string bad = temp("corrupt.png");
  std::ofstream(bad) << "not a picture";
  auto r = run_smartboard({"read", "cotoan", bad, "--corners", "0,0,10,0,10,10,0,10"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("corrupt.png"), std::string::npos) << r.err;
  r = run_smartboard({"read", "cotoan", temp("missing.png")});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("missing.png"), std::string::npos) << r.err;
  r = run_smartboard({"read", "cotoan", bad, "--corners", "1,2,3"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--corners"), std::string::npos) << r.err;
  r = run_smartboard({"read", "chess", bad});
  EXPECT_EQ(r.status, 2);
}

// The moves a referee's events announce, in order.
std::vector<std::string> announced_moves(const std::string& out) {
  std::vector<std::string> moves;
  for (const std::string& l : lines_of(out)) {
    nlohmann::json e = nlohmann::json::parse(l);
    if (e["type"] == "move") moves.push_back(e["notation"]);
  }
  return moves;
}

// The simulated board has no markers: it is found by its outline, turned the right way round by the start
// position, and the set learnt from it; the capture put down beside the board does not hold the gate up.
TEST(RefereeSourceCli, RefereesASimulatedGameFromItsFramesWithoutAnIllegalMove) {
  for (const char* game : {"brazilian"}) {
    const std::string dir = temp(std::string("sim_") + game);
    std::filesystem::remove_all(dir);
    auto r = run_smartboard({"simulate", game, "--out", dir, "--moves", "4", "--seed", "21", "--fps", "10"});
    ASSERT_EQ(r.status, 0) << r.err;
    std::vector<std::string> played;
    std::ifstream truth(dir + "/truth.jsonl");
    std::string line;
    while (std::getline(truth, line)) {
      nlohmann::json l = nlohmann::json::parse(line);
      if (l.contains("events"))
        for (const auto& e : l["events"])
          if (e["type"] == "move") played.push_back(e["notation"]);
    }
    ASSERT_FALSE(played.empty());
    r = run_smartboard({"referee", game, "--source", dir, "--fps", "10"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(announced_moves(r.out), played) << game << "\n" << r.out << r.err;
    EXPECT_EQ(r.out.find("\"illegal\""), std::string::npos) << r.out;
  }
}

TEST(RefereeSourceCli, ASourceThatCannotBeOpenedIsAClearError) {
  auto r = run_smartboard({"referee", "cotoan", "--source", temp("no_such_folder")});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("no_such_folder"), std::string::npos) << r.err;
  r = run_smartboard({"referee", "cotoan"});
  EXPECT_EQ(r.status, 2);
}

}  // namespace
}  // namespace sb
