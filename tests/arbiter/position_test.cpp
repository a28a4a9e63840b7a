// A position builds only the legal moves near the sites it is asked about
// (Position::moves_touching) and they are the very moves of the full listing, at
// the same indices: so the search for a reply reads a frame exactly as it would
// over every reply, only without building the others.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "arbiter/position.h"
#include "engines/registry.h"

namespace sb::arbiter {
namespace {

bool names_one_of(const Move& m, const std::vector<int>& sites) {
  auto in = [&](int s) { return std::binary_search(sites.begin(), sites.end(), s); };
  return in(m.from) || in(m.to) || std::any_of(m.path.begin(), m.path.end(), in) ||
         std::any_of(m.captured.begin(), m.captured.end(), in);
}

// Positions along a few random Cờ tư lệnh games (stacks, strikes, captures come up).
std::vector<State> playout_positions(const Rules& rules, int games, int plies) {
  std::vector<State> out;
  std::mt19937_64 rng(7);
  for (int g = 0; g < games; ++g) {
    State s = rules.start();
    for (int p = 0; p < plies; ++p) {
      std::vector<Move> moves = rules.legal_moves(s);
      if (moves.empty()) break;
      s = rules.apply(s, moves[rng() % moves.size()]);
      if (p % 7 == 6) out.push_back(s);
    }
  }
  return out;
}

TEST(PositionTest, MovesBuiltNearSomeSitesAreTheListedMovesAtTheirIndices) {
  auto rules = make_rules("cotulenh");
  std::mt19937_64 rng(11);
  int checked = 0;
  for (const State& s : playout_positions(*rules, 3, 60)) {
    const std::vector<Move> all = rules->legal_moves(s);
    for (int trial = 0; trial < 3; ++trial) {
      std::vector<int> sites;
      for (int k = 0; k < 4; ++k) sites.push_back(static_cast<int>(rng() % rules->site_count()));
      std::sort(sites.begin(), sites.end());
      sites.erase(std::unique(sites.begin(), sites.end()), sites.end());
      Position cold(*rules, s);
      const std::vector<int> near = cold.moves_touching(sites);
      ASSERT_EQ(cold.move_count(), all.size());
      EXPECT_TRUE(std::is_sorted(near.begin(), near.end()));
      for (size_t i = 0; i < all.size(); ++i) {
        const bool listed = std::find(near.begin(), near.end(), static_cast<int>(i)) != near.end();
        if (names_one_of(all[i], sites)) {
          EXPECT_TRUE(listed) << all[i].notation;
        }
        if (!listed) continue;
        ++checked;
        const Move& m = cold.move(i);
        EXPECT_EQ(m.notation, all[i].notation);
        EXPECT_EQ(m.from, all[i].from);
        EXPECT_EQ(m.to, all[i].to);
        EXPECT_EQ(m.path, all[i].path);
        EXPECT_EQ(m.captured, all[i].captured);
        // Its successor and its index by notation, without listing the others.
        EXPECT_EQ(rules->fen(cold.successor(i).next->state()), rules->fen(rules->apply(s, all[i])));
        EXPECT_EQ(cold.find(all[i].notation), static_cast<int>(i));
      }
      // Listing them all afterwards keeps every index.
      ASSERT_EQ(cold.moves().size(), all.size());
      for (int i : near) EXPECT_EQ(cold.successor(static_cast<size_t>(i)).move.notation, all[static_cast<size_t>(i)].notation);
    }
  }
  EXPECT_GT(checked, 50);
}

TEST(PositionTest, AGameWithoutTheCapabilityFiltersItsFullListing) {
  auto rules = make_rules("brazilian");
  State s = rules->start();
  const std::vector<Move> all = rules->legal_moves(s);
  Position p(*rules, s);
  const std::vector<int> near = p.moves_touching({all[0].from});
  ASSERT_FALSE(near.empty());
  EXPECT_EQ(near[0], 0);
  for (int i : near) EXPECT_TRUE(names_one_of(all[static_cast<size_t>(i)], {all[0].from}));
}

}  // namespace
}  // namespace sb::arbiter
