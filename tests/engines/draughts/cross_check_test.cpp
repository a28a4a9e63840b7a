// The bit-board generator against the slow reference generator of reference.h:
// the same moves (start, end, pieces taken) and the same capture paths, in
// positions from random games, random positions full of kings, and perft.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <tuple>

#include "tests/engines/draughts/draughts_test_util.h"
#include "tests/engines/draughts/reference.h"

namespace sb::draughts {
namespace {

using testing::make;
namespace ref = reference;

using Effect = std::tuple<int, int, std::set<int>>;

struct Listing {
  std::set<Effect> effects;
  std::set<std::string> paths;
};

Listing engine_listing(const DraughtsRules& rules, const Board& b) {
  const Geometry& g = rules.geometry();
  Listing l;
  for (const DraughtsMove& m : rules.moves_of(b)) {
    std::set<int> caps;
    for (uint64_t c = m.raw.captured; c; c &= c - 1) caps.insert(g.square_of(lowest_bit(c)) + 1);
    const int from = g.square_of(m.raw.from) + 1;
    l.effects.insert({from, g.square_of(m.raw.to) + 1, caps});
    for (const auto& path : m.paths) {
      std::string text = std::to_string(from);
      for (int sq : path) {
        text += m.raw.count ? 'x' : '-';
        text += std::to_string(sq + 1);
      }
      l.paths.insert(text);
    }
  }
  return l;
}

Listing reference_listing(const ref::Game& game, const ref::Position& p) {
  Listing l;
  for (const ref::Move& m : ref::Generator(game, p).legal()) {
    l.effects.insert(ref::effect(m, game.size));
    l.paths.insert(ref::path_text(m, game.size));
  }
  return l;
}

// Compares the two generators on one position; returns the number of moves.
size_t expect_same_moves(const DraughtsRules& rules, const ref::Game& game, const ref::Position& p) {
  const std::string fen = ref::fen_of(p);
  const State s = rules.from_fen(fen);
  const Listing e = engine_listing(rules, rules.board(s));
  const Listing r = reference_listing(game, p);
  EXPECT_EQ(e.effects, r.effects) << rules.id() << " " << fen;
  EXPECT_EQ(e.paths, r.paths) << rules.id() << " " << fen;
  return r.effects.size();
}

struct Family {
  const char* id;
  ref::Game game;
};

const Family kFamilies[] = {
    {"brazilian", ref::brazilian()}, {"international", ref::international()}, {"english", ref::english()}};

ref::Position start_of(const ref::Game& g) {
  const int squares = g.size * g.size / 2, men = g.size == 8 ? 12 : 20;
  std::vector<int> white, black;
  for (int n = 1; n <= men; ++n) black.push_back(n);
  for (int n = squares - men + 1; n <= squares; ++n) white.push_back(n);
  return ref::make_position(g.size, true, white, {}, black, {});
}

TEST(DraughtsCrossCheck, RandomGamesAgreeWithTheReferenceGeneratorAtEveryPly) {
  std::mt19937 rng(20240611);
  for (const Family& f : kFamilies) {
    auto rules = make(f.id);
    size_t positions = 0, captures = 0, kings = 0;
    for (int game = 0; game < 40; ++game) {
      ref::Position p = start_of(f.game);
      p.white_to_move = std::string(f.id) != "english";
      for (int ply = 0; ply < 200; ++ply) {
        if (expect_same_moves(*rules, f.game, p) == 0) break;
        if (::testing::Test::HasFailure()) return;
        std::vector<ref::Move> moves = ref::Generator(f.game, p).legal();
        const ref::Move& m = moves[rng() % moves.size()];
        captures += !m.captured.empty();
        p = ref::Generator(f.game, p).apply(m);
        for (const std::string& row : p.grid)
          kings += std::count(row.begin(), row.end(), 'W') + std::count(row.begin(), row.end(), 'B');
        ++positions;
      }
    }
    // The games must reach the interesting positions, or the check proves little.
    EXPECT_GT(positions, 1500u) << f.id;
    EXPECT_GT(captures, 300u) << f.id;
    EXPECT_GT(kings, 500u) << f.id;
  }
}

TEST(DraughtsCrossCheck, RandomPositionsWithManyKingsAgreeWithTheReferenceGenerator) {
  std::mt19937 rng(7);
  for (const Family& f : kFamilies) {
    auto rules = make(f.id);
    const int squares = f.game.size * f.game.size / 2, half = f.game.size / 2;
    size_t capture_positions = 0;
    for (int i = 0; i < 1500; ++i) {
      std::vector<int> wm, wk, bm, bk;
      for (int n = 1; n <= squares; ++n) {
        const unsigned r = rng() % 100;
        const bool top = n <= half, bottom = n > squares - half;
        if (r < 8 && !top)
          wm.push_back(n);
        else if (r < 14)
          wk.push_back(n);
        else if (r < 22 && !bottom)
          bm.push_back(n);
        else if (r < 28)
          bk.push_back(n);
      }
      const ref::Position p = ref::make_position(f.game.size, rng() % 2 == 0, wm, wk, bm, bk);
      expect_same_moves(*rules, f.game, p);
      if (rules->generator().has_capture(rules->board(rules->from_fen(ref::fen_of(p))))) ++capture_positions;
      if (::testing::Test::HasFailure()) return;
    }
    EXPECT_GT(capture_positions, 500u) << f.id;
  }
}

// Middle-game and king positions, perft against the reference a few plies deep.
TEST(DraughtsCrossCheck, PerftOfMiddleGameAndKingPositionsMatchesTheReference) {
  struct Case {
    const char* id;
    ref::Position p;
    int depth;
  };
  const std::vector<Case> cases = {
      // Brazilian middle game, men only, captures both ways.
      {"brazilian",
       ref::make_position(8, true, {17, 19, 21, 22, 24, 25, 26, 27, 29, 30, 31}, {},
                          {1, 2, 3, 4, 6, 7, 9, 10, 12, 14, 15}, {}),
       5},
      // Brazilian kings and men.
      {"brazilian", ref::make_position(8, true, {21, 22, 24, 28}, {27, 31}, {9, 10, 12, 13}, {2, 7}), 5},
      // International middle game.
      {"international",
       ref::make_position(10, true, {27, 28, 31, 32, 33, 34, 36, 37, 38, 39, 41, 42, 43, 44, 45}, {},
                          {6, 7, 8, 9, 12, 13, 14, 16, 17, 18, 19, 20, 22, 23, 24}, {}),
       4},
      // International kings and men.
      {"international", ref::make_position(10, true, {31, 33, 36, 38, 39}, {44, 48}, {12, 14, 16, 18, 19}, {3, 7}), 3},
      // English kings and men.
      {"english", ref::make_position(8, false, {5, 17}, {1, 10}, {8, 12, 20, 21}, {23}), 5},
  };
  for (const Case& c : cases) {
    auto rules = make(c.id);
    const ref::Game game = c.id == std::string("brazilian")       ? ref::brazilian()
                           : c.id == std::string("international") ? ref::international()
                                                                  : ref::english();
    const State s = rules->from_fen(ref::fen_of(c.p));
    for (int d = 1; d <= c.depth; ++d)
      EXPECT_EQ(rules->perft(s, d), ref::perft(game, c.p, d)) << c.id << " " << ref::fen_of(c.p) << " depth " << d;
  }
}

// Counting every capture path (--duplicates keep) in positions where kings can
// take the same pieces in several orders.
TEST(DraughtsCrossCheck, PerftKeepingDuplicatePathsMatchesTheReference) {
  struct Case {
    const char* id;
    ref::Game game;
    ref::Position p;
    int depth;
  };
  const std::vector<Case> cases = {
      // A man and a king that can each go round the same four men both ways.
      {"brazilian", ref::brazilian(), ref::make_position(8, true, {30}, {32}, {17, 18, 25, 26}, {4}), 5},
      {"brazilian", ref::brazilian(), ref::make_position(8, true, {}, {30}, {17, 18, 25, 26}, {4}), 4},
      {"international", ref::international(), ref::make_position(10, true, {}, {47}, {31, 32, 41, 42}, {5}), 4},
  };
  PerftOptions keep;
  keep.keep_duplicates = true;
  for (const Case& c : cases) {
    auto rules = make(c.id);
    const State s = rules->from_fen(ref::fen_of(c.p));
    for (int d = 1; d <= c.depth; ++d) {
      EXPECT_EQ(rules->perft(s, d, keep), ref::perft(c.game, c.p, d, true)) << ref::fen_of(c.p) << " depth " << d;
      EXPECT_EQ(rules->perft(s, d), ref::perft(c.game, c.p, d)) << ref::fen_of(c.p) << " depth " << d;
    }
  }
}

}  // namespace
}  // namespace sb::draughts
