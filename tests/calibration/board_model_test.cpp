// The board models in configs/boards: every game's sites where RULES.md and CONTRACT.md put them, markers
// outside the board on every side, and clear errors for broken files.
#include "calibration/board_model.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "engines/common/errors.h"

namespace sb::calib {
namespace {

using nlohmann::json;

struct Expect {
  std::string game;
  size_t sites;
  BoardKind kind;
  int files, ranks;
};

const std::vector<Expect>& expectations() {
  static const std::vector<Expect> e = {
      {"brazilian", 32, BoardKind::Squares, 8, 8}, {"international", 50, BoardKind::Squares, 10, 10},
      {"english", 32, BoardKind::Squares, 8, 8},   {"morris9", 24, BoardKind::Lines, 7, 7},
      {"morris3", 9, BoardKind::Lines, 3, 3},      {"morris6", 16, BoardKind::Lines, 5, 5},
      {"morris12", 24, BoardKind::Lines, 7, 7},    {"cotoan", 99, BoardKind::Squares, 9, 11},
      {"cotulenh", 132, BoardKind::Lines, 11, 12}};
  return e;
}

// Lattice coordinates (file from the first player's left, rank from their side, both from 0) of a site name.
std::pair<int, int> lattice_of(const BoardModel& m, const std::string& name) {
  if (name[0] >= 'a' && name[0] <= 'z') return {name[0] - 'a', std::stoi(name.substr(1)) - 1};
  // PDN: numbered along the dark squares from the far row, left to right; a1 is dark.
  int n = std::stoi(name) - 1, per_row = m.files / 2;
  int row_from_far = n / per_row, rank = m.ranks - 1 - row_from_far;
  int file = 2 * (n % per_row) + (rank % 2 == 0 ? 0 : 1);
  return {file, rank};
}

// Where CONTRACT.md says a site is: evenly spaced between the four corners of the playing area.
Vec2 expected_centre(const BoardModel& m, int file, int rank) {
  const Quad& q = m.playing_area_corners();
  double u, v;
  if (m.kind == BoardKind::Squares)
    u = (file + 0.5) / m.files, v = (rank + 0.5) / m.ranks;
  else
    u = double(file) / (m.files - 1), v = double(rank) / (m.ranks - 1);
  Vec2 near{q[0].x + u * (q[1].x - q[0].x), q[0].y + u * (q[1].y - q[0].y)};
  Vec2 far{q[3].x + u * (q[2].x - q[3].x), q[3].y + u * (q[2].y - q[3].y)};
  return {near.x + v * (far.x - near.x), near.y + v * (far.y - near.y)};
}

TEST(BoardModel, EveryGameHasItsSitesEvenlySpacedBetweenThePlayingAreaCorners) {
  ASSERT_EQ(board_games().size(), expectations().size());
  for (const Expect& e : expectations()) {
    SCOPED_TRACE(e.game);
    BoardModel m = load_board_model(e.game);
    EXPECT_EQ(m.game, e.game);
    EXPECT_EQ(m.kind, e.kind);
    EXPECT_EQ(m.files, e.files);
    EXPECT_EQ(m.ranks, e.ranks);
    ASSERT_EQ(m.sites.size(), e.sites);
    for (const Site& s : m.sites) {
      auto [file, rank] = lattice_of(m, s.name);
      Vec2 want = expected_centre(m, file, rank);
      EXPECT_NEAR(s.centre.x, want.x, 1e-6) << s.name;
      EXPECT_NEAR(s.centre.y, want.y, 1e-6) << s.name;
    }
  }
}

TEST(BoardModel, DraughtsSquaresArePdnNumberedFromTheFarRow) {
  BoardModel m = load_board_model("brazilian");
  // RULES.md: square 1 is b8, 4 is h8, 29 is a1, 32 is g1; sites come in PDN order.
  EXPECT_EQ(lattice_of(m, "1"), std::make_pair(1, 7));
  EXPECT_EQ(lattice_of(m, "4"), std::make_pair(7, 7));
  EXPECT_EQ(lattice_of(m, "29"), std::make_pair(0, 0));
  EXPECT_EQ(lattice_of(m, "32"), std::make_pair(6, 0));
  for (size_t i = 0; i < m.sites.size(); ++i) EXPECT_EQ(m.sites[i].name, std::to_string(i + 1));
  BoardModel intl = load_board_model("international");
  EXPECT_EQ(lattice_of(intl, "46"), std::make_pair(0, 0));  // a1
  EXPECT_EQ(lattice_of(intl, "5"), std::make_pair(9, 9));   // j10
  // The site at a1 sits on a square drawn dark; b1 next to it is light.
  auto paint_at = [&](const BoardModel& b, Vec2 p) {
    Paint found = Paint::Ink;
    for (const Shape& s : b.drawing)
      if (s.type == Shape::Type::Polygon && p.x > s.points[0].x && p.x < s.points[2].x && p.y > s.points[0].y &&
          p.y < s.points[2].y)
        found = s.paint;
    return found;
  };
  Vec2 a1 = m.site("29").centre;
  EXPECT_EQ(paint_at(m, a1), Paint::Dark);
  EXPECT_EQ(paint_at(m, {a1.x + m.pitch_mm, a1.y}), Paint::Light);
}

TEST(BoardModel, AlgebraicBoardsNameTheirSitesAsRulesDoes) {
  BoardModel morris9 = load_board_model("morris9");
  for (const char* p : {"a1", "a4", "a7", "d7", "g7", "g4", "g1", "d1", "c3", "c4", "c5", "d5",
                        "e5", "e4", "e3", "d3", "b2", "b4", "b6", "d6", "f6", "f4", "f2", "d2"})
    EXPECT_GE(morris9.site_index(p), 0) << p;
  EXPECT_EQ(morris9.site_index("d4"), -1);  // the centre is no point
  BoardModel morris6 = load_board_model("morris6");
  EXPECT_EQ(morris6.site_index("c3"), -1);
  EXPECT_GE(morris6.site_index("e5"), 0);
  BoardModel cotulenh = load_board_model("cotulenh");
  EXPECT_GE(cotulenh.site_index("k12"), 0);
  EXPECT_EQ(cotulenh.site_index("l1"), -1);
  EXPECT_THROW(cotulenh.site("z9"), InputError);
}

TEST(BoardModel, LineBoardCornersAreTheCornerSites) {
  BoardModel m = load_board_model("cotulenh");
  const Quad& q = m.playing_area_corners();
  EXPECT_EQ(q[0], m.site("a1").centre);
  EXPECT_EQ(q[1], m.site("k1").centre);
  EXPECT_EQ(q[2], m.site("k12").centre);
  EXPECT_EQ(q[3], m.site("a12").centre);
}

TEST(BoardModel, MarkersSurroundTheBoardOnEverySideWithIdsNoOtherBoardUses) {
  std::set<int> all_ids;
  for (const std::string& game : board_games()) {
    SCOPED_TRACE(game);
    BoardModel m = load_board_model(game);
    ASSERT_GE(m.markers.markers.size(), 8u);
    const Quad& o = m.outline_corners();
    int far = 0, near = 0, left = 0, right = 0;
    for (const Marker& mk : m.markers.markers) {
      EXPECT_TRUE(all_ids.insert(mk.id).second) << "marker " << mk.id << " is on two boards";
      // At least 20 mm: readable at 30 px per square.
      EXPECT_GE(mk.size_mm, 20.0);
      auto c = mk.corners();
      far += c[2].y < o[3].y;
      near += c[0].y > o[0].y;
      left += c[1].x < o[0].x;
      right += c[0].x > o[1].x;
    }
    // A hand reaching in from one side leaves markers on three others.
    EXPECT_GE(far, 2);
    EXPECT_GE(near, 2);
    EXPECT_GE(left, 2);
    EXPECT_GE(right, 2);
  }
}

TEST(BoardModel, SheetsFitOnA3AndTheSmallestOnA4) {
  for (const std::string& game : board_games()) {
    BoardModel m = load_board_model(game);
    EXPECT_LE(m.size_mm.x, 297 - 10) << game;
    EXPECT_LE(m.size_mm.y, 420 - 40) << game;  // room for the title and the scale bar
  }
  BoardModel m = load_board_model("morris3");
  EXPECT_LE(m.size_mm.x, 210 - 10);
}

TEST(BoardModel, JsonRoundTripIsExact) {
  for (const std::string& game : board_games()) {
    BoardModel m = load_board_model(game);
    EXPECT_EQ(BoardModel::from_json(m.to_json(), "round trip"), m) << game;
  }
}

class BrokenBoardModel : public ::testing::Test {
 protected:
  json good = load_board_model("morris3").to_json();

  std::string error_of(const json& j) {
    try {
      BoardModel::from_json(j, "test.json");
    } catch (const InputError& e) {
      return e.what();
    }
    return "(no error)";
  }
};

TEST_F(BrokenBoardModel, MissingFieldIsNamed) {
  json j = good;
  j["lattice"].erase("pitch_mm");
  EXPECT_EQ(error_of(j), "test.json: lattice.pitch_mm: missing");
}

TEST_F(BrokenBoardModel, OtherVersionIsRejected) {
  json j = good;
  j["version"] = 2;
  EXPECT_NE(error_of(j).find("version: is 2; this program reads board models of version 1"), std::string::npos);
}

TEST_F(BrokenBoardModel, SiteOutsideThePlayingAreaIsNamed) {
  json j = good;
  j["sites"]["b2"] = json::array({1.0, 1.0});
  EXPECT_EQ(error_of(j), "test.json: sites.\"b2\": lies outside the playing area");
}

TEST_F(BrokenBoardModel, MarkerOverTheBoardIsRejected) {
  json j = good;
  j["markers"]["centres"]["47"] = j["sites"]["b2"];
  EXPECT_EQ(error_of(j), "test.json: markers.centres.\"47\": marker lies over the board's drawn area");
}

TEST_F(BrokenBoardModel, BadShapesAndPaintsAreNamed) {
  json j = good;
  j["drawing"][0] = {{"blob", 1}};
  EXPECT_EQ(error_of(j), "test.json: drawing[0]: expected one of rect, polygon, line, circle");
  j = good;
  j["drawing"][1]["stroke"] = "purple";
  EXPECT_NE(error_of(j).find("drawing[1].stroke: unknown paint 'purple'"), std::string::npos);
}

TEST_F(BrokenBoardModel, WrongTypesAreNamed) {
  json j = good;
  j["size_mm"] = "big";
  EXPECT_EQ(error_of(j), "test.json: size_mm: expected [x, y] in millimetres");
  j = good;
  j["markers"]["dictionary"] = "DICT_9X9_1";
  EXPECT_EQ(error_of(j), "test.json: markers.dictionary: unknown ArUco dictionary 'DICT_9X9_1'");
}

TEST(BoardModelFiles, CorruptFileGivesOneClearError) {
  std::string path = ::testing::TempDir() + std::to_string(::getpid()) + "_corrupt_board.json";
  std::ofstream(path) << "{\"version\": 1, \"game\": ";
  try {
    read_board_model(path);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path + ": not valid JSON"), std::string::npos) << e.what();
  }
  EXPECT_THROW(read_board_model(::testing::TempDir() + std::to_string(::getpid()) + "_no_such_board.json"), InputError);
  EXPECT_THROW(load_board_model("chess"), InputError);
}

TEST(BoardModelFiles, ConfigsFolderComesFromTheEnvironmentWhenSet) {
  std::string dir = ::testing::TempDir() + std::to_string(::getpid()) + "_sb_configs_test";
  std::filesystem::create_directories(dir + "/boards");
  json j = load_board_model("morris3").to_json();
  j["title"] = "Three men's morris, club copy";
  std::ofstream(dir + "/boards/morris3.json") << j.dump();
  ::setenv("SMARTBOARD_CONFIGS", dir.c_str(), 1);
  EXPECT_EQ(load_board_model("morris3").title, "Three men's morris, club copy");
  EXPECT_THROW(load_board_model("morris9"), InputError);  // not in that folder
  ::setenv("SMARTBOARD_CONFIGS", (dir + "/nowhere").c_str(), 1);
  EXPECT_THROW(configs_dir(), InputError);
  ::unsetenv("SMARTBOARD_CONFIGS");
  EXPECT_EQ(load_board_model("morris3").title, "Three men's morris");
}

}  // namespace
}  // namespace sb::calib
