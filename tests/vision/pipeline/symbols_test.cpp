// Cờ tư lệnh through the pipeline: the set learnt from the start position (also a set like no default), every
// piece found with its side on a position the learning never saw, the empty sites' drawings (river, lines)
// never taken for pieces, the symbols read at any rotation (a few still confused, see kSymbolSlack), never more
// faces of a kind than a side owns; and the enrollment layout that shows each kind once.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <opencv2/imgcodecs.hpp>

#include "calibration/board_locator.h"
#include "still_board.h"
#include "vision/enrollment.h"
#include "vision/game_vision.h"
#include "vision/render/renderer.h"
#include "vision/render/truth.h"

namespace sb::vision {
namespace {

using testing::listed;
using testing::read_still;
using testing::render_with_look;
using testing::Rendered;

// A Cờ tư lệnh board under `look`.
Rendered shoot(const Look& look, const BoardContents& board, uint64_t seed) {
  return render_with_look(calib::load_board_model("cotulenh"), look, board, seed);
}

// RULES.md §4 (the engine's kStartFen), ranks 12 down to 1; no stacks at the start.
const char* const kStartRanks[12] = {"6c4", "1n2fh1hf2", "3a2s2a1",   "2n1gt1tg2", "2ie2m2ei",  "11",
                                     "11",  "2IE2M2EI",  "2N1GT1TG2", "3A2S2A1",   "1N2FH1HF2", "6C4"};

BoardContents start_contents() {
  BoardContents b;
  for (int r = 0; r < 12; ++r) {
    const std::string rank = kStartRanks[r];
    int file = 0;
    for (size_t k = 0; k < rank.size(); ++k) {
      if (std::isdigit(static_cast<unsigned char>(rank[k]))) {
        int n = rank[k] - '0';
        if (k + 1 < rank.size() && std::isdigit(static_cast<unsigned char>(rank[k + 1])))
          n = n * 10 + (rank[++k] - '0');
        file += n;
        continue;
      }
      const char c = rank[k];
      const std::string token = std::string(1, std::isupper(static_cast<unsigned char>(c)) ? 'R' : 'B') +
                                static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      b[std::string(1, static_cast<char>('a' + file)) + std::to_string(12 - r)] = {token};
      ++file;
    }
  }
  return b;
}

// The start's pieces scattered over other sites (every kind of both sides, on land, water and the river).
BoardContents scattered(const calib::BoardModel& model, const BoardContents& start, uint64_t seed) {
  std::vector<std::string> sites;
  for (const auto& s : model.sites) sites.push_back(s.name);
  return testing::scattered(sites, start, seed);
}

Look base_look(double tilt_deg) {
  GameArt art = load_game_art("cotulenh");
  Look look;
  look.pieces = art.pieces;
  look.board.colours = art.board;
  look.camera.tilt_deg = tilt_deg;
  look.camera.px_per_pitch = 42;  // capped to the frame when drawn
  look.sensor.noise = 1.5;
  return look;
}

std::vector<std::string> expected_tokens(const calib::BoardModel& model,
                                         const std::map<std::string, std::string>& truth) {
  std::vector<std::string> out(model.sites.size());
  for (size_t i = 0; i < model.sites.size(); ++i) {
    auto it = truth.find(model.sites[i].name);
    if (it != truth.end()) out[i] = it->second;
  }
  return out;
}

// Sites read wrong: `side_only` compares only whether a piece stands there and whose it is.
std::vector<std::string> misreads(const calib::BoardModel& model, const BoardObservation& obs,
                                  const std::map<std::string, std::string>& truth, bool side_only = false) {
  std::vector<std::string> wrong;
  const std::vector<std::string> want = expected_tokens(model, truth);
  for (size_t i = 0; i < model.sites.size(); ++i) {
    const std::string& got = obs.sites[i].token;
    const bool same = side_only ? got.substr(0, 1) == want[i].substr(0, 1) : got == want[i];
    if (!same) wrong.push_back(model.sites[i].name + ": read '" + got + "', is '" + want[i] + "'");
  }
  return wrong;
}

// The symbols are not yet read at the 99.5 % on every look (README, Vision accuracy): these boards allow
// this many of their 38 symbols wrong, never a piece missed, seen where none stands, or given to the wrong side.
constexpr size_t kSymbolSlack = 6;

struct Misreads {
  std::vector<std::string> sides;   // occupancy or side wrong
  std::vector<std::string> tokens;  // anything wrong
};

// Learns from the start under `look`, then reads the scattered position under the same look (other noise,
// other placements and turns). Returns the misreads of the second picture.
Misreads learn_then_read(const Look& look, uint64_t seed, std::vector<std::string>* learn_problems,
                         PipelineParams params = {}) {
  params.debug = true;
  Pipeline p = make_pipeline("cotulenh", params);
  const BoardContents start = start_contents();
  Rendered first = shoot(look, start, seed);
  calib::BoardLocator locator(p.model());
  p.use_fit(locator.from_corners(first.corners), first.image.size());
  BoardObservation obs = read_still(p, first.image, 0);
  EXPECT_TRUE(obs.read);
  EXPECT_TRUE(p.learn(expected_tokens(p.model(), first.truth), learn_problems));
  Rendered second = shoot(look, scattered(p.model(), start, seed + 1), seed + 1);
  obs = read_still(p, second.image, 10000);
  EXPECT_TRUE(obs.read);
  Misreads m{misreads(p.model(), obs, second.truth, true), misreads(p.model(), obs, second.truth)};
  if (!m.tokens.empty())
    cv::imwrite(::testing::TempDir() + "symbols_" + std::to_string(seed) + ".png", p.debug_image());
  return m;
}

TEST(CotulenhSymbols, TheConfigSetLearntFromTheStartReadsAnotherPositionWithEverySideRight) {
  Look look = base_look(15);
  look.pieces.symbols = SymbolStyle::Letters;
  std::vector<std::string> problems;
  const Misreads wrong = learn_then_read(look, 21, &problems);
  EXPECT_LE(problems.size(), 1u) << "the start after learning, " << listed(problems);
  EXPECT_TRUE(wrong.sides.empty()) << listed(wrong.sides);
  EXPECT_LE(wrong.tokens.size(), kSymbolSlack) << listed(wrong.tokens);
}

TEST(CotulenhSymbols, ASetLikeNoDefaultWithPictogramsIsLearntAndItsSidesNeverSwapped) {
  Look look = base_look(25);
  look.pieces.symbols = SymbolStyle::Pictograms;
  look.pieces.max_turn_deg = 180;
  // Dark green and yellow bodies with light and dark marks: nothing like the config's ivory pieces.
  look.pieces.sides = {SideColours{'R', Rgb{0.12, 0.38, 0.20}, Rgb{0.95, 0.94, 0.90}},
                       SideColours{'B', Rgb{0.92, 0.80, 0.20}, Rgb{0.10, 0.08, 0.06}}};
  std::vector<std::string> problems;
  const Misreads wrong = learn_then_read(look, 33, &problems);
  EXPECT_LE(problems.size(), 1u) << "the start after learning, " << listed(problems);
  EXPECT_TRUE(wrong.sides.empty()) << listed(wrong.sides);
  EXPECT_LE(wrong.tokens.size(), kSymbolSlack) << listed(wrong.tokens);
}

// On a steep view (tilt 42°) the plane of a three-high stack shows a neighbour's top a third of a pitch and more
// off an empty site's centre: it must not be read as a stack there (the start's empty sites beside pieces read
// as pieces, learning failed and the board was read with the defaults, sides swapped).
TEST(CotulenhSymbols, OnASteepViewANeighboursTopIsNotTakenForAStackOnAnEmptySite) {
  Look look = base_look(42);
  look.camera.px_per_pitch = 48;
  look.pieces.symbols = SymbolStyle::Letters;
  std::vector<std::string> problems;
  const Misreads wrong = learn_then_read(look, 61, &problems);
  EXPECT_TRUE(problems.empty()) << "the start after learning, " << listed(problems);
  EXPECT_TRUE(wrong.sides.empty()) << listed(wrong.sides);
}

// Small, noisy, compressed views of pictograms (22 px per pitch, tilt 15° and 30°, JPEG quality 64, defocus 0.6
// px, noise 5.4; as image 23 of the tuning set seed 5200003): a top face of 9–10 px radius is found a pixel off,
// and its marks' centre of mass lies off the symbol's centre wherever the cut leaves a crescent of rim or blur
// takes a stroke; the picture about that point smears the strokes that tell a flag from a bridge or a star.
// Matched about nine centres round it, each kind at the one that suits it best, 17 of the six boards' 228
// symbols wrong become 8.
TEST(CotulenhSymbols, SmallBlurredPictogramsAreMatchedAboutTheCentreThatSuitsEachKind) {
  auto symbols_wrong = [&](bool search) {
    PipelineParams params;
    params.reader.symbol_centre_search = search;
    size_t wrong = 0;
    for (double tilt : {15.0, 30.0}) {
      Look look = base_look(tilt);
      look.camera.px_per_pitch = 22;
      look.pieces.symbols = SymbolStyle::Pictograms;
      look.pieces.max_turn_deg = 180;
      look.sensor.noise = 5.4;
      look.sensor.defocus_px = 0.6;
      look.sensor.jpeg_quality = 64;
      for (uint64_t seed : {91u, 191u, 291u}) {
        std::vector<std::string> problems;
        const Misreads m = learn_then_read(look, seed, &problems, params);
        // Symbols only: a piece missed or given the wrong side is other tests' matter.
        wrong += m.tokens.size() - m.sides.size();
      }
    }
    return wrong;
  };
  const size_t without = symbols_wrong(false), with = symbols_wrong(true);
  EXPECT_GE(without, 14u) << "the scenes no longer show the fault";
  EXPECT_LE(with, 10u) << with << " of 228 symbols wrong (" << without << " about the marks' centre alone)";
}

// How many faces of each token an observation shows.
std::map<std::string, int> token_counts(const BoardObservation& obs) {
  std::map<std::string, int> n;
  for (const SiteReading& s : obs.sites)
    if (s.token.size() == 2) ++n[s.token];
  return n;
}

// The limits the reader holds a side to are the start's army (RULES.md §4), kind by kind.
TEST(CotulenhSymbols, EachKindsLimitIsHowManyPiecesOfItASideHasAtTheStart) {
  const PieceVocabulary vocab = vocabulary_for("cotulenh");
  ASSERT_EQ(vocab.most_per_side.size(), vocab.kinds.size());
  std::map<std::string, int> start;
  for (const auto& [site, layers] : start_contents()) ++start[layers.back()];
  for (char side : vocab.sides)
    for (size_t k = 0; k < vocab.kinds.size(); ++k) {
      const std::string token = std::string(1, side) + vocab.kinds[k];
      EXPECT_EQ(vocab.most_per_side[k], start[token]) << token;
    }
}

// A small, noisy, compressed view (30 px per pitch, JPEG quality 50, defocus 1.7 px, as the tuning set's
// hardest looks, seed 5200001): E and F, H and N, I and T differ by a stroke the blur nearly takes, and a face
// was read as a kind its side already showed twice (RE as a third RT, BN as a third BH: 8 symbols wrong on
// these two boards). A side owns one commander, missile and militia and two of every other kind; a face whose
// best kind surer faces have taken gets its next.
TEST(CotulenhSymbols, NoSideIsReadWithMoreFacesOfAKindThanItOwns) {
  Look look = base_look(25);
  look.camera.px_per_pitch = 30;
  look.pieces.symbols = SymbolStyle::Letters;
  look.pieces.max_turn_deg = 180;
  look.sensor.noise = 4.6;
  look.sensor.defocus_px = 1.7;
  look.sensor.jpeg_quality = 50;
  const std::map<char, int> owned = {{'C', 1}, {'S', 1}, {'M', 1}};
  std::vector<std::string> over, symbols;
  for (uint64_t seed : {83u, 183u}) {
    Pipeline p = make_pipeline("cotulenh");
    const BoardContents start = start_contents();
    Rendered first = shoot(look, start, seed);
    calib::BoardLocator locator(p.model());
    p.use_fit(locator.from_corners(first.corners), first.image.size());
    ASSERT_TRUE(read_still(p, first.image, 0).read);
    std::vector<std::string> problems;
    ASSERT_TRUE(p.learn(expected_tokens(p.model(), first.truth), &problems)) << listed(problems);
    Rendered second = shoot(look, scattered(p.model(), start, seed + 1), seed + 1);
    const BoardObservation obs = read_still(p, second.image, 10000);
    ASSERT_TRUE(obs.read);
    for (const auto& [token, n] : token_counts(obs)) {
      const auto it = owned.find(token[1]);
      if (n > (it == owned.end() ? 2 : it->second)) over.push_back(std::to_string(n) + " " + token);
    }
    // Symbols only: a piece missed or given the wrong side is another test's matter.
    const std::vector<std::string> sides = misreads(p.model(), obs, second.truth, true);
    for (const std::string& w : misreads(p.model(), obs, second.truth))
      if (std::find(sides.begin(), sides.end(), w) == sides.end()) symbols.push_back(w);
  }
  EXPECT_TRUE(over.empty()) << listed(over);
  EXPECT_LE(symbols.size(), 2u) << listed(symbols);
}

// While a game goes on, a read takes the sites that did not change since the last read from it (ReadCache): a
// board read again unchanged is read from the cache alone, and after a move (one piece onto another: a stack) the
// sites read again give what a read from scratch gives.
TEST(CotulenhSymbols, AReadAfterAMoveReadsOnlyTheChangedSitesAgainAsAReadFromScratchDoes) {
  Look look = base_look(15);
  look.pieces.symbols = SymbolStyle::Letters;
  Pipeline p = make_pipeline("cotulenh");
  PipelineParams cold_params;
  cold_params.reuse_unchanged_sites = false;
  Pipeline cold = make_pipeline("cotulenh", cold_params);
  const calib::BoardModel& model = p.model();
  const BoardContents start = start_contents();
  BoardContents moved = start;
  moved.erase("b2");
  moved["b5"] = {"RN"};
  moved.erase("c5");
  moved["d5"] = {"RE", "RI"};  // the infantry set on the engineer: a stack of two
  Rendered before = shoot(look, start, 51), after = shoot(look, moved, 51);
  calib::BoardLocator locator(model);
  p.use_fit(locator.from_corners(before.corners), before.image.size());
  cold.use_fit(locator.from_corners(before.corners), before.image.size());
  ASSERT_TRUE(read_still(p, before.image).read);
  std::vector<std::string> problems;
  ASSERT_TRUE(p.learn(expected_tokens(model, before.truth), &problems)) << listed(problems);
  cold.set_piece_set(p.piece_set());

  const int n = static_cast<int>(model.sites.size());
  BoardObservation first = read_still(p, before.image, 10000);
  ASSERT_TRUE(first.read);
  EXPECT_EQ(p.sites_reused(), 0);  // the first read of a set reads every site
  BoardObservation again = read_still(p, before.image, 20000);
  ASSERT_TRUE(again.read);
  EXPECT_EQ(p.sites_reused(), n);
  for (int i = 0; i < n; ++i) EXPECT_EQ(again.sites[i].token, first.sites[i].token) << model.sites[i].name;

  BoardObservation warm = read_still(p, after.image, 30000);
  ASSERT_TRUE(warm.read);
  // The render places every piece anew (other turns and offsets), so pieces that turned are read again too.
  EXPECT_GT(p.sites_reused(), n / 2);
  EXPECT_LT(p.sites_reused(), n - 3);
  BoardObservation scratch = read_still(cold, after.image, 30000);
  ASSERT_TRUE(scratch.read);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(warm.sites[i].token, scratch.sites[i].token) << model.sites[i].name;
    EXPECT_EQ(warm.sites[i].level, scratch.sites[i].level) << model.sites[i].name;
  }
  const std::vector<std::string> wrong = misreads(model, warm, after.truth, true);
  EXPECT_TRUE(wrong.empty()) << listed(wrong);
}

TEST(Enrollment, TheKindsLayoutShowsEachCotulenhKindOnTheHomeRanks) {
  const calib::BoardModel model = calib::load_board_model("cotulenh");
  const std::vector<std::string> layout = kinds_layout(model, vocabulary_for("cotulenh"));
  const std::string told = describe_layout(model, layout);
  EXPECT_NE(told.find("a1 RC"), std::string::npos) << told;
  EXPECT_NE(told.find("k12 BM"), std::string::npos) << told;
  std::map<std::string, std::string> by_site;
  for (size_t i = 0; i < model.sites.size(); ++i)
    if (!layout[i].empty()) by_site[model.sites[i].name] = layout[i];
  const std::map<std::string, std::string> want = {
      {"a1", "RC"},  {"b1", "RH"},  {"c1", "RI"},  {"d1", "RE"},  {"e1", "RT"},  {"f1", "RA"},
      {"g1", "RG"},  {"h1", "RS"},  {"i1", "RF"},  {"j1", "RN"},  {"k1", "RM"},  {"a12", "BC"},
      {"b12", "BH"}, {"c12", "BI"}, {"d12", "BE"}, {"e12", "BT"}, {"f12", "BA"}, {"g12", "BG"},
      {"h12", "BS"}, {"i12", "BF"}, {"j12", "BN"}, {"k12", "BM"}};
  EXPECT_EQ(by_site, want);
}

TEST(Enrollment, ASetLearntFromEachKindShownOnceReadsTheStart) {
  Look look = base_look(15);
  Pipeline p = make_pipeline("cotulenh");
  const std::vector<std::string> layout = kinds_layout(p.model(), vocabulary_for("cotulenh"));
  BoardContents board;
  for (size_t i = 0; i < layout.size(); ++i)
    if (!layout[i].empty()) board[p.model().sites[i].name] = {layout[i]};
  Rendered enrol = shoot(look, board, 41);
  calib::BoardLocator locator(p.model());
  p.use_fit(locator.from_corners(enrol.corners), enrol.image.size());
  ASSERT_TRUE(read_still(p, enrol.image, 0).read);
  std::vector<std::string> problems;
  ASSERT_TRUE(p.learn(layout, &problems)) << listed(problems);
  Rendered start = shoot(look, start_contents(), 42);
  BoardObservation obs = read_still(p, start.image, 10000);
  ASSERT_TRUE(obs.read);
  EXPECT_TRUE(misreads(p.model(), obs, start.truth, true).empty())
      << listed(misreads(p.model(), obs, start.truth, true));
  std::vector<std::string> wrong = misreads(p.model(), obs, start.truth);
  EXPECT_LE(wrong.size(), kSymbolSlack) << listed(wrong);
}

}  // namespace
}  // namespace sb::vision
