// A Morris start shows no piece: the first placements name the colours (vision/first_placements.h), so a set
// whose White is the dark colour (the config's White is light) still reads every side right.
#include "vision/first_placements.h"

#include <gtest/gtest.h>

#include <map>

#include "calibration/board_locator.h"
#include "still_board.h"
#include "vision/game_vision.h"
#include "vision/render/renderer.h"
#include "vision/render/truth.h"

namespace sb::vision {
namespace {

using testing::read_still;
using testing::render_with_look;
using testing::Rendered;

std::vector<SiteReading> reading(const std::vector<std::string>& tokens) {
  std::vector<SiteReading> r(tokens.size());
  for (size_t i = 0; i < tokens.size(); ++i) r[i].token = tokens[i];
  return r;
}

TEST(FirstPlacements, TheFirstNewPieceIsWhitesAndTheNextBlacks) {
  FirstPlacements fp(std::vector<std::string>(5), "WB");
  ASSERT_TRUE(fp.pending());
  EXPECT_FALSE(fp.board_to_learn(reading({"", "", "", "", ""})));    // nothing placed yet
  EXPECT_FALSE(fp.board_to_learn(reading({"B", "", "W", "", ""})));  // two at once: order unknown
  auto first = fp.board_to_learn(reading({"", "", "B", "", ""}));    // the colour read does not matter
  ASSERT_TRUE(first);
  EXPECT_EQ(*first, (std::vector<std::string>{"", "", "W", "", ""}));
  fp.learnt(*first);
  ASSERT_TRUE(fp.pending());
  EXPECT_FALSE(fp.board_to_learn(reading({"", "", "W", "", ""})));  // no new piece
  EXPECT_FALSE(fp.board_to_learn(reading({"W", "", "", "", ""})));  // White's piece gone: not a placement
  auto second = fp.board_to_learn(reading({"", "", "W", "", "W"}));
  ASSERT_TRUE(second);
  EXPECT_EQ(*second, (std::vector<std::string>{"", "", "W", "", "B"}));
  fp.learnt(*second);
  EXPECT_FALSE(fp.pending());
}

TEST(FirstPlacements, AStartThatShowsPiecesTeachesTheColoursItself) {
  EXPECT_FALSE(FirstPlacements({"W", "", "B"}, "WB").pending());
}

// morris9 with White's pieces dark brown and Black's ivory: the config's colours the other way round.
Rendered render_swapped(const BoardContents& board, uint64_t seed) {
  GameArt art = load_game_art("morris9");
  Look look;
  look.pieces = art.pieces;
  for (SideColours& s : look.pieces.sides) {
    s.body = s.side == 'W' ? Rgb{0.30, 0.18, 0.10} : Rgb{0.93, 0.88, 0.78};
    s.mark = s.body;
  }
  look.board.colours = art.board;
  look.camera.tilt_deg = 12;
  look.camera.px_per_pitch = 42;
  look.sensor.noise = 1.0;
  return render_with_look(calib::load_board_model("morris9"), look, board, seed);
}

TEST(FirstPlacements, ASetWhoseWhiteIsDarkReadsEverySideRightOnceTheFirstTwoPiecesAreLearnt) {
  Pipeline p = make_pipeline("morris9");
  const calib::BoardModel& model = p.model();
  const size_t n = model.sites.size();
  Rendered empty = render_swapped({}, 3);
  p.use_fit(calib::BoardLocator(model).from_corners(empty.corners), empty.image.size());
  ASSERT_TRUE(read_still(p, empty.image, 0).read);
  ASSERT_TRUE(p.learn(std::vector<std::string>(n), nullptr));

  FirstPlacements placements(std::vector<std::string>(n), "WB");
  const std::string w1 = model.sites[3].name, b1 = model.sites[10].name;
  int64_t t = 10000;
  for (const BoardContents& board : {BoardContents{{w1, {"W"}}}, BoardContents{{w1, {"W"}}, {b1, {"B"}}}}) {
    Rendered pic = render_swapped(board, 3 + static_cast<uint64_t>(t));
    BoardObservation obs = read_still(p, pic.image, t);
    t += 10000;
    ASSERT_TRUE(obs.read);
    auto learn_board = placements.board_to_learn(obs.sites);
    ASSERT_TRUE(learn_board) << "the placement was not seen as one new piece";
    ASSERT_TRUE(p.learn(*learn_board, nullptr));
    placements.learnt(*learn_board);
  }
  EXPECT_FALSE(placements.pending());

  // A later position, read with the learnt set: every side right.
  BoardContents later;
  for (size_t i = 0; i < n; i += 3) later[model.sites[i].name] = {(i / 3) % 2 ? "B" : "W"};
  Rendered pic = render_swapped(later, 77);
  BoardObservation obs = read_still(p, pic.image, t);
  ASSERT_TRUE(obs.read);
  std::vector<std::string> wrong;
  for (size_t i = 0; i < n; ++i) {
    auto it = pic.truth.find(model.sites[i].name);
    const std::string want = it == pic.truth.end() ? "" : it->second;
    if (obs.sites[i].token != want)
      wrong.push_back(model.sites[i].name + ": read '" + obs.sites[i].token + "', is '" + want + "'");
  }
  std::string all;
  for (const auto& w : wrong) all += w + "; ";
  EXPECT_TRUE(wrong.empty()) << wrong.size() << " misread: " << all;
}

}  // namespace
}  // namespace sb::vision
