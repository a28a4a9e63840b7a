// The whole pipeline on rendered boards of every game: located from the corners the truth gives, settled by
// the motion gate on a still scene, every site read right; a hand over the board is never settled.
#include <gtest/gtest.h>

#include <map>

#include <opencv2/imgcodecs.hpp>

#include "calibration/board_locator.h"
#include "vision/game_vision.h"
#include "vision/observation.h"
#include "vision/render/renderer.h"
#include "vision/render/truth.h"

namespace sb::vision {
namespace {

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

struct Rendered {
  cv::Mat image;
  std::map<std::string, std::string> truth;
  std::array<cv::Point2d, 4> corners;
};

Rendered render_board(const std::string& game, const BoardContents& board, uint64_t seed, double tilt_deg = 15) {
  calib::BoardModel model = calib::load_board_model(game);
  GameArt art = load_game_art(game);
  Look look;
  look.pieces = art.pieces;
  look.board.colours = art.board;
  look.camera.tilt_deg = tilt_deg;
  look.camera.px_per_pitch = 42;
  look.sensor.noise = 1.5;
  const cv::Size size(1280, 720);
  look.camera.px_per_pitch = std::min(look.camera.px_per_pitch, max_px_per_pitch(model, look.camera, size));
  Renderer renderer(model, look, size, seed);
  Rng rng(seed);
  Scene scene;
  scene.pieces = place_pieces(model, look.pieces, board, rng);
  Rendered r;
  r.image = renderer.render(scene, seed);
  r.truth = visible_tokens(scene.pieces);
  nlohmann::json g = geometry_json(renderer);
  for (size_t k = 0; k < 4; ++k) r.corners[k] = {g["corners"][k][0].get<double>(), g["corners"][k][1].get<double>()};
  return r;
}

// Feeds a still picture until the gate has settled and the sites were read.
BoardObservation read_still(Pipeline& p, const cv::Mat& image, int64_t t0 = 0) {
  BoardObservation obs;
  for (int i = 0; i < 20 && !obs.read; ++i) {
    Frame f;
    f.image = image;
    f.t_ms = t0 + i * 50;
    f.index = i;
    obs = p.process(f);
  }
  return obs;
}

std::vector<std::string> misreads(const calib::BoardModel& model, const BoardObservation& obs,
                                  const std::map<std::string, std::string>& truth) {
  std::vector<std::string> wrong;
  for (size_t i = 0; i < model.sites.size(); ++i) {
    auto it = truth.find(model.sites[i].name);
    const std::string want = it == truth.end() ? "" : it->second;
    if (obs.sites[i].token != want)
      wrong.push_back(model.sites[i].name + ": read '" + obs.sites[i].token + "', is '" + want + "'");
  }
  return wrong;
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

INSTANTIATE_TEST_SUITE_P(Games, MorrisEmptyStart, ::testing::Values("morris6", "morris9"));
// Not yet on these renders (sensor noise 1.5, tilt 15°): morris3 misses the third piece (its light pieces show a
// rim hardly stronger than the empty points' under this noise), morris12 takes empty junctions for pieces once
// three pieces stand. The demo's look reads both games' first pieces (README, "The demo").

}  // namespace
}  // namespace sb::vision
