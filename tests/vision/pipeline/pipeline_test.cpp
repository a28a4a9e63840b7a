// The whole pipeline on rendered boards of every game: located from the corners the truth gives, settled by
// the motion gate on a still scene, every site read right; a hand over the board is never settled.
#include <gtest/gtest.h>

#include <map>
#include <opencv2/imgcodecs.hpp>

#include "calibration/board_locator.h"
#include "still_board.h"
#include "vision/game_vision.h"
#include "vision/observation.h"
#include "vision/render/look.h"
#include "vision/render/renderer.h"
#include "vision/render/truth.h"

namespace sb::vision {
namespace {

using testing::misreads;
using testing::read_still;
using testing::render_with_look;
using testing::Rendered;

// A board with a piece on every third site, sides alternating, identities cycling (Cờ toán dots, Cờ tư lệnh
// letters); a few two-high stacks where the game has them.
BoardContents sample_board(const calib::BoardModel& model, const PieceVocabulary& vocab) {
  BoardContents b;
  for (size_t i = 0; i < model.sites.size(); i += 3) {
    const char side = vocab.sides[(i / 3) % 2];
    std::string token(1, side);
    if (vocab.has_identity()) token += vocab.kinds[(i / 3 / 2) % vocab.kinds.size()];
    std::vector<std::string> layers{token};
    if (vocab.max_stack > 1 && i % 5 == 0) {
      std::string under(1, side);
      if (vocab.face == PieceVocabulary::Face::Symbols) under += 'T';
      layers.insert(layers.begin(), under);
    }
    b[model.sites[i].name] = layers;
  }
  return b;
}

Rendered render_board(const std::string& game, const BoardContents& board, uint64_t seed, double tilt_deg = 15) {
  GameArt art = load_game_art(game);
  Look look;
  look.pieces = art.pieces;
  look.board.colours = art.board;
  look.camera.tilt_deg = tilt_deg;
  look.camera.px_per_pitch = 42;
  look.sensor.noise = 1.5;
  return render_with_look(calib::load_board_model(game), look, board, seed);
}

class EveryGame : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryGame, ReadsEverySiteOfARenderedBoardLocatedByItsCorners) {
  const std::string game = GetParam();
  PipelineParams params;
  params.debug = true;
  Pipeline p = make_pipeline(game, params);
  BoardContents board = sample_board(p.model(), vocabulary_for(game));
  Rendered r = render_board(game, board, 11);
  calib::BoardLocator locator(p.model());
  p.use_fit(locator.from_corners(r.corners), r.image.size());
  BoardObservation obs = read_still(p, r.image);
  ASSERT_TRUE(obs.located);
  ASSERT_TRUE(obs.settled);
  ASSERT_TRUE(obs.read);
  std::vector<std::string> wrong = misreads(p.model(), obs, r.truth);
  if (!wrong.empty()) cv::imwrite(::testing::TempDir() + "pipeline_" + game + ".png", p.debug_image());
  EXPECT_TRUE(wrong.empty()) << wrong.size() << " misread, first: " << wrong.front() << " (overlay in "
                             << ::testing::TempDir() << "pipeline_" << game << ".png)";
}

INSTANTIATE_TEST_SUITE_P(Games, EveryGame,
                         ::testing::Values("brazilian", "international", "english", "morris9", "cotoan"));
// Not yet: morris3 and morris6 miss a piece, morris12 takes its empty junctions for pieces (with the defaults; a
// set learnt from the empty start reads them better), and Cờ tư lệnh misreads a symbol on these boards (see the
// README's open points).

// A Morris game starts with every piece in hand: the set learnt from the empty board knows neither the pieces'
// size nor their colours. Its first pieces must read all the same: a lone light piece on the light sheet (its
// centre looks like the paint, only its rim tells it), then both colours.
class MorrisEmptyStart : public ::testing::TestWithParam<std::string> {};

TEST_P(MorrisEmptyStart, SetLearntFromTheEmptyBoardReadsTheFirstPiecesPlaced) {
  const std::string game = GetParam();
  Pipeline p = make_pipeline(game);
  const calib::BoardModel& model = p.model();
  calib::BoardLocator locator(model);
  Rendered empty = render_board(game, {}, 5);
  p.use_fit(locator.from_corners(empty.corners), empty.image.size());
  ASSERT_TRUE(read_still(p, empty.image).read);
  std::vector<std::string> problems;
  ASSERT_TRUE(p.learn(std::vector<std::string>(model.sites.size()), &problems));
  EXPECT_TRUE(problems.empty()) << problems.front();

  const std::string a = model.sites[0].name, b = model.sites[model.sites.size() / 2].name,
                    c = model.sites[model.sites.size() - 1].name;
  int64_t t = 10000;
  for (const BoardContents& board : {BoardContents{{a, {"W"}}}, BoardContents{{a, {"W"}}, {b, {"B"}}},
                                     BoardContents{{a, {"W"}}, {b, {"B"}}, {c, {"W"}}}}) {
    Rendered r = render_board(game, board, 5);
    BoardObservation obs = read_still(p, r.image, t);
    t += 10000;
    ASSERT_TRUE(obs.read);
    std::vector<std::string> wrong = misreads(model, obs, r.truth);
    EXPECT_TRUE(wrong.empty()) << board.size() << " pieces: " << wrong.size() << " misread, first: " << wrong.front();
  }
}

// eval-vision morris6 seed 8822006, game 5: the set learnt anew from White's first placement built the gate afresh;
// the next still frame, with Black's arm reaching in beside the board, became its settled scene whole, and the
// arm's absence held the board unsettled for a minute (10 of 13 hands never settled). A set learnt anew changes
// what is read, not the gate's view: a settled board stays settled through it.
TEST(PipelineGate, ASetLearntAnewKeepsTheBoardSettled) {
  Pipeline p = make_pipeline("morris6");
  calib::BoardLocator locator(p.model());
  Rendered empty = render_board("morris6", {}, 5);
  p.use_fit(locator.from_corners(empty.corners), empty.image.size());
  Frame f;
  f.image = empty.image;
  BoardObservation obs;
  for (f.t_ms = 0; f.t_ms < 2000 && !obs.read; f.t_ms += 33) obs = p.process(f);
  ASSERT_TRUE(obs.read) << "the still board was never read";
  std::vector<std::string> problems;
  ASSERT_TRUE(p.learn(std::vector<std::string>(p.model().sites.size()), &problems));
  EXPECT_TRUE(p.process(f).settled) << "the board was taken for unsettled after the set was learnt";
}

// morris3 (light pieces whose rim is hardly stronger than the empty points' under this noise) reads since the set
// keeps the empty board it was learnt from (PieceSet::empty_board). Not yet: morris12 takes empty junctions for
// pieces once three pieces stand (this test learns nothing from the placements).
INSTANTIATE_TEST_SUITE_P(Games, MorrisEmptyStart, ::testing::Values("morris3", "morris6", "morris9"));

// A board with markers given by its corners (as `referee --corners` does) under a look whose markers the
// detector mostly misses (small, under a glare and a light gradient: seen in `eval-vision cotoan --simulations`
// seed 8300001): a relocation from the two markers it finds is several pixels off. It must not replace the
// given fit, under which every marker still shows its pattern: that fit drifting half a site off at the far
// corner made the reader see red 0s on empty sites after the first hand.
TEST(CotoanReferee, ABoardGivenByItsCornersIsNotMovedByAFitFromTwoMarkers) {
  const std::string game = "cotoan";
  Pipeline p = make_pipeline(game);
  const calib::BoardModel& model = p.model();
  Look look;
  GameArt art = load_game_art(game);
  look.pieces = art.pieces;
  look.board.colours = art.board;
  look = apply_look_patch(look, nlohmann::json::parse(R"({
    "board": {"markers": true, "material": "cardboard", "texture": 0.71, "gloss": 0.29, "thickness_mm": 2.0},
    "camera": {"aim_offset_mm": [-5.35, 0.08], "azimuth_deg": 18.75, "hfov_deg": 65.1, "px_per_pitch": 33.17,
               "roll_deg": -1.1, "tilt_deg": 16.44},
    "light": {"ambient": 0.61, "azimuth_deg": 269.5, "directional": 0.35, "elevation_deg": 54.6, "exposure": 0.82,
              "glare_size_mm": 36.2, "glare_spots": 1, "glare_strength": 0.2, "gradient": 0.35,
              "gradient_angle_deg": 333.3, "kelvin": 7290, "vignette": 0.25},
    "sensor": {"noise": 4.3}})"),
                          "test look");
  const BoardContents start = testing::cotoan_start_contents();
  const cv::Size size(1280, 720);
  Renderer renderer(model, look, size, 8300001);
  Rng rng(8300001);
  Scene scene;
  scene.pieces = place_pieces(model, look.pieces, start, rng);
  const cv::Mat image = renderer.render(scene, 8300001);
  nlohmann::json g = geometry_json(renderer);
  std::array<cv::Point2d, 4> corners;
  for (size_t k = 0; k < 4; ++k) corners[k] = {g["corners"][k][0].get<double>(), g["corners"][k][1].get<double>()};
  calib::BoardLocator locator(model);
  const calib::BoardFit given = locator.from_corners(corners);
  p.use_fit(given, size);

  // The set learnt from the first read, as the referee does; long enough for two full relocations in a row
  // (every 15 frames, and the next to confirm a move).
  std::vector<std::string> expected(model.sites.size());
  for (const auto& [site, layers] : start) expected[static_cast<size_t>(model.site_index(site))] = layers.back();
  std::vector<std::string> states;
  BoardObservation obs;
  bool learnt = false;
  for (int i = 0; i < 40; ++i) {
    Frame f;
    f.image = image;
    f.t_ms = i * 33;
    f.index = i;
    obs = p.process(f);
    states.push_back(obs.board_state);
    if (obs.read && !learnt) {
      std::vector<std::string> problems;
      ASSERT_TRUE(p.learn(expected, &problems));
      learnt = true;
    }
  }
  EXPECT_EQ(std::count(states.begin(), states.end(), "moved"), 0);
  double worst = 0;
  for (const calib::Site& s : model.sites)
    worst = std::max(worst, cv::norm(p.rectifier()->frame_point(s.centre) - locator.project(given, {s.centre})[0]));
  EXPECT_LT(worst, 1.0) << "the fit in use moved the sites by up to " << worst << " px";
  ASSERT_TRUE(learnt);
  ASSERT_TRUE(obs.settled);
  std::vector<std::string> wrong = misreads(model, obs, visible_tokens(scene.pieces));
  EXPECT_TRUE(wrong.empty()) << wrong.size() << " misread, first: " << wrong.front();
}

// While a game goes on, a read takes the sites that did not change since the last read from it (ReadCache) and
// reads only the others: after a move, the two sites it changed (and their neighbours) are read again and read
// right, and a board that did not change is read from the cache alone.
TEST(CotoanReferee, AReadAfterAMoveReadsOnlyTheChangedSitesAgainAndReadsThemRight) {
  Pipeline p = make_pipeline("cotoan");
  const calib::BoardModel& model = p.model();
  const BoardContents start = testing::cotoan_start_contents();
  BoardContents moved = start;
  moved.erase("f1");
  moved["f6"] = {"R6"};
  Rendered before = render_board("cotoan", start, 21), after = render_board("cotoan", moved, 21);
  calib::BoardLocator locator(model);
  p.use_fit(locator.from_corners(before.corners), before.image.size());
  ASSERT_TRUE(read_still(p, before.image).read);
  std::vector<std::string> expected(model.sites.size());
  for (const auto& [site, layers] : start) expected[static_cast<size_t>(model.site_index(site))] = layers.back();
  std::vector<std::string> problems;
  ASSERT_TRUE(p.learn(expected, &problems));

  const int n = static_cast<int>(model.sites.size());
  BoardObservation obs = read_still(p, before.image, 10000);
  ASSERT_TRUE(obs.read);
  EXPECT_EQ(p.sites_reused(), 0);  // the first read of a set reads every site
  obs = read_still(p, before.image, 20000);
  ASSERT_TRUE(obs.read);
  EXPECT_EQ(p.sites_reused(), n);
  EXPECT_TRUE(misreads(model, obs, before.truth).empty());

  obs = read_still(p, after.image, 30000);
  ASSERT_TRUE(obs.read);
  // The move changed two sites; the render places every piece anew (other turns and offsets on their sites),
  // so the sites of pieces that turned are read again as well, the empty ones not.
  EXPECT_GE(p.sites_reused(), n - 20);
  EXPECT_LT(p.sites_reused(), n - 1);
  std::vector<std::string> wrong = misreads(model, obs, after.truth);
  EXPECT_TRUE(wrong.empty()) << wrong.size() << " misread, first: " << wrong.front();
}

}  // namespace
}  // namespace sb::vision
