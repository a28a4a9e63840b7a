// `smartboard render` and `smartboard dataset` through the command line (CONTRACT.md: render GAME [--fen FEN]
// --out FILE.png [--seed S] [--truth FILE.json]).
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

std::string temp(const std::string& name) {
  return ::testing::TempDir() + "render_cli_" + name;
}

const char* kBoard = R"({"a1":"R1","e2":"R0","b11":"B8","e10":"B0"})";

TEST(RenderCli, WritesThePictureAndATruthListingThePieces) {
  std::string png = temp("cotoan.png"), truth = temp("cotoan.json");
  auto r = run_smartboard(
      {"render", "cotoan", "--board", kBoard, "--out", png, "--truth", truth, "--seed", "4", "--size", "640x360"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_GT(std::filesystem::file_size(png), 1000u);
  nlohmann::json t = read_json(truth);
  EXPECT_EQ(t["t"], 0);
  EXPECT_EQ(t["board"], nlohmann::json::parse(kBoard));
  EXPECT_EQ(t["stable"], true);
  EXPECT_EQ(t["sites"].size(), 99u);
  EXPECT_EQ(t["corners"].size(), 4u);
  EXPECT_TRUE(t.contains("camera"));
  EXPECT_TRUE(t.contains("look"));
}

TEST(RenderCli, SameSeedSameBytesOtherSeedOtherPicture) {
  std::string a = temp("a.png"), b = temp("b.png"), c = temp("c.png");
  for (auto [path, seed] : {std::pair{a, "9"}, std::pair{b, "9"}, std::pair{c, "10"}})
    ASSERT_EQ(run_smartboard({"render", "morris9", "--board", R"({"d7":"W","a1":"B"})", "--out", path, "--seed", seed,
                              "--size", "480x270"})
                  .status,
              0);
  auto bytes = [](const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  EXPECT_EQ(bytes(a), bytes(b));
  EXPECT_NE(bytes(a), bytes(c));
}

TEST(RenderCli, LookOptionPinsTheLookAndAHandMakesTheFrameUnstable) {
  std::string png = temp("hand.png"), truth = temp("hand.json");
  auto r = run_smartboard(
      {"render", "cotulenh", "--board", R"({"g1":"RC","g12":"BC","f4":["RT","RI"]})", "--out", png, "--truth", truth,
       "--look", R"({"board":{"material":"wood"},"pieces":{"symbols":"pictograms"}})", "--hand", "--size", "640x360"});
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json t = read_json(truth);
  EXPECT_EQ(t["look"]["board"]["material"], "wood");
  EXPECT_EQ(t["look"]["pieces"]["symbols"], "pictograms");
  EXPECT_EQ(t["board"]["f4"], "RI");
  EXPECT_EQ(t["pieces"]["f4"]["layers"], 2);
  EXPECT_EQ(t["stable"], false);
}

// The render benchmark reports every stage and the median, and its signature (a sum over the drawn frames)
// is the same on every run: the drawing is deterministic.
TEST(RenderCli, BenchRenderPrintsStagesAMedianAndARepeatableSignature) {
  auto a = run_smartboard({"bench", "render", "--games", "morris3", "--frames", "2"});
  ASSERT_EQ(a.status, 0) << a.err;
  EXPECT_NE(a.out.find("shadows"), std::string::npos) << a.out;
  EXPECT_NE(a.out.find("render frame 1280x720 median"), std::string::npos) << a.out;
  auto sig = [](const std::string& out) {
    auto at = out.find("signature ");
    return at == std::string::npos ? std::string() : out.substr(at);
  };
  ASSERT_FALSE(sig(a.out).empty()) << a.out;
  auto b = run_smartboard({"bench", "render", "--games", "morris3", "--frames", "2"});
  EXPECT_EQ(sig(a.out), sig(b.out));
}

TEST(RenderCli, BadArgumentsExitTwoWithOneLineNamingTheProblem) {
  std::string png = temp("bad.png");
  struct Case {
    std::vector<std::string> args;
    std::string needle;
  };
  std::vector<Case> cases = {
      {{"render", "chess", "--out", png}, "unknown game 'chess'"},
      {{"render", "cotoan", "--board", kBoard}, "--out"},
      {{"render", "cotoan", "--board", kBoard, "--out", png, "--seed", "-3"}, "--seed"},
      {{"render", "cotoan", "--board", kBoard, "--out", png, "--seed", "x"}, "--seed"},
      {{"render", "cotoan", "--board", kBoard, "--out", png, "--size", "100"}, "--size"},
      {{"render", "cotoan", "--board", kBoard, "--out", png, "--size", "20x20"}, "--size"},
      {{"render", "cotoan", "--board", kBoard, "--out", png, "--look", "{bad"}, "--look"},
      {{"render", "cotoan", "--board", kBoard, "--out", png, "--look", R"({"board":{"material":"glass"}})"},
       "material"},
      {{"render", "cotoan", "--board", kBoard, "--out", png, "--look", R"({"colour":1})"}, "unknown key \"colour\""},
      {{"render", "cotoan", "--board", R"({"z9":"R1"})", "--out", png}, "no site 'z9'"},
      {{"render", "cotoan", "--board", R"({"a1":"W"})", "--out", png}, "a1"},
      {{"render", "cotoan", "--board", R"({"a1":"R"})", "--out", png}, "'R'"},
      {{"render", "cotoan", "--board", "[1]", "--out", png}, "--board"},
      {{"render", "cotoan", "--board", kBoard, "--out", temp("bad.gif")}, "bad.gif"},
      {{"render", "cotoan", "--board", kBoard, "--out", "/nonexistent/dir/x.png"}, "/nonexistent/dir/x.png"},
      {{"render", "cotoan", "--board", kBoard, "--fen", "x", "--out", png}, "--board"},
      {{"render", "cotoan", "--board", kBoard, "--out", png, "--frobnicate"}, "--frobnicate"},
      {{"dataset", "cotoan", "--images", "0", "--out", temp("ds")}, "--images"},
      {{"dataset", "cotoan", "--out", temp("ds"), "--format", "gif"}, "--format"},
      {{"bench", "render", "--frames", "0"}, "--frames"},
  };
  for (const Case& c : cases) {
    auto r = run_smartboard(c.args);
    EXPECT_EQ(r.status, 2) << c.args[3] << " " << r.err;
    EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;
    EXPECT_NE(r.err.find(c.needle), std::string::npos) << c.needle << " in: " << r.err;
  }
}

}  // namespace
}  // namespace sb
