// The calibration commands of CONTRACT.md end to end: print-board, calibrate, calibrate-lens.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/support/run_command.h"

namespace sb {
namespace {

using nlohmann::json;
using testing::lines_of;
using testing::run_smartboard;

// Per process: other worktrees and parallel ctest processes run these tests at the same time.
std::string temp(const std::string& name) {
  return ::testing::TempDir() + std::to_string(::getpid()) + "_cli_calib_" + name;
}

json read_json(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in);
}

std::string head(const std::string& path, size_t n) {
  std::ifstream in(path, std::ios::binary);
  std::string s(n, '\0');
  in.read(s.data(), static_cast<std::streamsize>(n));
  s.resize(static_cast<size_t>(in.gcount()));
  return s;
}

TEST(PrintBoardCli, EveryGamePrintsToPngWithTheTruthOfEverySite) {
  const std::map<std::string, size_t> sites = {{"brazilian", 32}, {"international", 50}, {"english", 32},
                                               {"morris9", 24},   {"morris3", 9},        {"morris6", 16},
                                               {"morris12", 24},  {"cotoan", 99},        {"cotulenh", 132}};
  for (const auto& [game, count] : sites) {
    auto r = run_smartboard(
        {"print-board", game, "--out", temp(game + ".png"), "--dpi", "50", "--truth", temp(game + ".json")});
    ASSERT_EQ(r.status, 0) << game << ": " << r.err;
    EXPECT_EQ(head(temp(game + ".png"), 4), "\x89PNG") << game;
    json truth = read_json(temp(game + ".json"));
    EXPECT_EQ(truth["sites"].size(), count) << game;
    EXPECT_NEAR(truth["px_per_mm"].get<double>(), 50 / 25.4, 1e-9);
  }
}

TEST(PrintBoardCli, PdfAndSvgAreWrittenAtTrueSize) {
  ASSERT_EQ(run_smartboard({"print-board", "cotoan", "--out", temp("cotoan.pdf")}).status, 0);
  EXPECT_EQ(head(temp("cotoan.pdf"), 5), "%PDF-");
  ASSERT_EQ(run_smartboard({"print-board", "morris3", "--out", temp("morris3.svg"), "--paper", "a4"}).status, 0);
  std::string svg = head(temp("morris3.svg"), 400);
  EXPECT_NE(svg.find("width=\"210mm\" height=\"297mm\""), std::string::npos) << svg;
}

TEST(PrintBoardCli, BadRequestsExitTwoWithOneLine) {
  for (std::vector<std::string> cmd : {
           std::vector<std::string>{"print-board", "cotoan", "--out", temp("x.png"), "--paper", "A4"},  // too big
           {"print-board", "cotoan", "--out", temp("x.jpg")},                                           // format
           {"print-board", "cotoan"},                                                                   // no --out
           {"print-board", "chess", "--out", temp("x.png")},                                            // game
           {"print-board", "cotoan", "--out", temp("x.png"), "--dpi", "5000"},                          // dpi
           {"print-board", "cotoan", "--out", temp("x.pdf"), "--truth", temp("x.json")},                // truth
           {"print-board", "cotoan", "--out", temp("x.png"), "--paper", "letter"},                      // paper
           {"print-board", "cotoan", "--out", "/nonexistent/dir/x.png"},                                // unwritable
       }) {
    auto r = run_smartboard(cmd);
    EXPECT_EQ(r.status, 2) << cmd.back() << ": " << r.err;
    EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;
  }
  auto r = run_smartboard({"print-board", "cotoan", "--out", temp("x.png"), "--paper", "A4"});
  EXPECT_NE(r.err.find("does not fit on A4"), std::string::npos) << r.err;
}

class CalibrateCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto r = run_smartboard(
        {"print-board", "cotulenh", "--out", temp("page.png"), "--dpi", "100", "--truth", temp("page.json")});
    ASSERT_EQ(r.status, 0) << r.err;
  }
};

void expect_sites_match(const json& got, const json& truth, double tolerance) {
  ASSERT_EQ(got.size(), truth.size());
  for (auto it = truth.begin(); it != truth.end(); ++it) {
    const json& g = got.at(it.key());
    EXPECT_LT(
        std::hypot(g[0].get<double>() - it.value()[0].get<double>(), g[1].get<double>() - it.value()[1].get<double>()),
        tolerance)
        << it.key();
  }
}

TEST_F(CalibrateCli, MarkersOfAPrintedPageGiveEverySiteAndTheError) {
  auto r = run_smartboard({"calibrate", "cotulenh", temp("page.png"), "--json", "--save", temp("saved.json")});
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(lines_of(r.out).size(), 1u);
  // Exactly the contract's keys, in its order.
  EXPECT_EQ(r.out.rfind("{\"sites\":{", 0), 0u) << r.out.substr(0, 40);
  json j = json::parse(r.out);
  EXPECT_EQ(j.size(), 3u);
  EXPECT_LT(r.out.find("\"reprojection_error_px\":"), r.out.find("\"markers\":"));
  EXPECT_EQ(j["markers"], 8);
  EXPECT_LT(j["reprojection_error_px"].get<double>(), 0.3);
  expect_sites_match(j["sites"], read_json(temp("page.json"))["sites"], 0.3);
  json saved = read_json(temp("saved.json"));
  EXPECT_EQ(saved["version"], 1);
  EXPECT_EQ(saved["method"], "markers");
  EXPECT_EQ(saved["sites"], j["sites"]);

  // The saved calibration gives the same sites without searching again.
  auto again =
      run_smartboard({"calibrate", "cotulenh", temp("page.png"), "--calibration", temp("saved.json"), "--json"});
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_EQ(json::parse(again.out), j);
}

TEST_F(CalibrateCli, CorruptOrMismatchedCalibrationFilesExitTwoSayingWhat) {
  ASSERT_EQ(run_smartboard({"calibrate", "cotulenh", temp("page.png"), "--save", temp("good.json")}).status, 0);
  json good = read_json(temp("good.json"));
  auto write = [](const std::string& name, const std::string& text) {
    std::ofstream(temp(name)) << text;
    return temp(name);
  };
  json other_version = good, no_homography = good, bad_row = good;
  other_version["version"] = 2;
  no_homography.erase("board_to_image");
  bad_row["board_to_image"][2] = {0, "x", 1};
  const std::vector<std::pair<std::string, std::string>> cases = {
      {write("truncated.json", good.dump().substr(0, 50)), "truncated.json"},
      {write("version.json", other_version.dump()), "version: is 2; this program reads calibrations of version 1"},
      {write("nohomography.json", no_homography.dump()), "board_to_image: missing"},
      {write("badrow.json", bad_row.dump()), "board_to_image[2][1]: expected a number"},
      {temp("page.json"), "not a calibration file"},  // print-board's truth, not a calibration
      {temp("missing.json"), "missing.json"},
  };
  for (const auto& [path, expected] : cases) {
    auto r = run_smartboard({"calibrate", "cotulenh", temp("page.png"), "--calibration", path});
    EXPECT_EQ(r.status, 2) << path;
    EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;
    EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
  }
  // A good file for another game, or for images of another size.
  auto game = run_smartboard({"calibrate", "cotoan", temp("page.png"), "--calibration", temp("good.json")});
  EXPECT_EQ(game.status, 2);
  EXPECT_NE(game.err.find("is a calibration of 'cotulenh', not 'cotoan'"), std::string::npos) << game.err;
  ASSERT_EQ(run_smartboard({"print-board", "cotulenh", "--out", temp("page60.png"), "--dpi", "60"}).status, 0);
  auto size = run_smartboard({"calibrate", "cotulenh", temp("page60.png"), "--calibration", temp("good.json")});
  EXPECT_EQ(size.status, 2);
  EXPECT_NE(size.err.find("was made on 1169x1654 images, these are 702x992"), std::string::npos) << size.err;
  EXPECT_EQ(lines_of(size.err).size(), 1u) << size.err;
}

TEST_F(CalibrateCli, FourCornersGiveTheSitesWithoutMarkers) {
  json truth = read_json(temp("page.json"))["sites"];
  std::string corners;
  for (const char* s : {"a1", "k1", "k12", "a12"}) {
    if (!corners.empty()) corners += ',';
    corners += std::to_string(truth[s][0].get<double>()) + "," + std::to_string(truth[s][1].get<double>());
  }
  auto r = run_smartboard({"calibrate", "cotulenh", temp("page.png"), "--corners", corners, "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["markers"], 0);
  EXPECT_EQ(j["reprojection_error_px"], 0.0);
  expect_sites_match(j["sites"], truth, 1e-3);
}

TEST_F(CalibrateCli, PlainTextOutputListsTheSites) {
  auto r = run_smartboard({"calibrate", "cotulenh", temp("page.png")});
  ASSERT_EQ(r.status, 0) << r.err;
  auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 133u);
  EXPECT_EQ(lines[0].rfind("cotulenh: located by markers (8 markers)", 0), 0u) << lines[0];
}

TEST_F(CalibrateCli, NoBoardOrBadInputExitsTwoSayingWhat) {
  auto wrong_game = run_smartboard({"calibrate", "brazilian", temp("page.png")});
  EXPECT_EQ(wrong_game.status, 2);
  EXPECT_NE(wrong_game.err.find("no brazilian board found"), std::string::npos) << wrong_game.err;
  EXPECT_NE(wrong_game.err.find("markers of cotulenh are in view"), std::string::npos) << wrong_game.err;
  EXPECT_EQ(lines_of(wrong_game.err).size(), 1u);

  ASSERT_EQ(run_smartboard({"calibrate-lens", "--sheet", temp("sheet.png"), "--dpi", "60"}).status, 0);
  auto no_board = run_smartboard({"calibrate", "morris9", temp("sheet.png")});
  EXPECT_EQ(no_board.status, 2);
  EXPECT_NE(no_board.err.find("no morris9 board found"), std::string::npos) << no_board.err;

  for (std::vector<std::string> cmd : {
           std::vector<std::string>{"calibrate", "cotulenh", temp("page.json")},         // not an image
           {"calibrate", "cotulenh", temp("missing.png")},                               // no file
           {"calibrate", "cotulenh", temp("page.png"), "--corners", "1,2,3"},            // 3 numbers
           {"calibrate", "cotulenh", temp("page.png"), "--corners", "0,0,9,9,9,0,0,9"},  // crossing sides
           {"calibrate", "cotulenh", temp("page.png"), "--lens", temp("page.json")},     // not a lens
           {"calibrate", "cotulenh"},                                                    // no image
       }) {
    auto r = run_smartboard(cmd);
    EXPECT_EQ(r.status, 2) << cmd.back() << ": " << r.err;
    EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;
  }
}

TEST(CalibrateLensCli, TooFewViewsExitTwoNamingHowMany) {
  ASSERT_EQ(run_smartboard({"calibrate-lens", "--sheet", temp("lens_sheet.png"), "--dpi", "60", "--truth",
                            temp("lens_sheet.json")})
                .status,
            0);
  EXPECT_EQ(read_json(temp("lens_sheet.json"))["sites"].size(), 35u);  // 6 × 8 squares: 5 × 7 inner corners
  auto r = run_smartboard({"calibrate-lens", temp("lens_sheet.png"), "--out", temp("lens.json")});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("only 1 of 1 images"), std::string::npos) << r.err;
  EXPECT_EQ(run_smartboard({"calibrate-lens", temp("lens_sheet.png")}).status, 2);  // no --out
}

}  // namespace
}  // namespace sb
