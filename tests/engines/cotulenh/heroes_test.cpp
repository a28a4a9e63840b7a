// Heroes: promotion by threatening the enemy commander, the last defender, and what a
// hero gains (RULES.md §5).
#include "tests/engines/cotulenh/test_support.h"

namespace sb::cotulenh {
namespace {

using testing::board;
using testing::has_move;
using testing::move_of;
using testing::moves_from;
using testing::play;

const CotulenhRules kRules;

bool hero_at(const Position& p, const char* sq) {
  const Stack& st = p.at[site_from_name(sq)];
  for (int i = 0; i < st.n; ++i)
    if (st.p[i].hero()) return true;
  return false;
}

// Enough pieces on both sides that nobody is a last defender.
Position crowd(std::initializer_list<std::pair<const char*, const char*>> extra) {
  Position p = board({{"k1", "I"}, {"k2", "I"}, {"k11", "i"}, {"k10", "i"}});
  for (auto [sq, tok] : extra) p.at[site_from_name(sq)] = board({{sq, tok}}).at[site_from_name(sq)];
  return p;
}

TEST(CotulenhHeroes, APieceThatThreatensTheEnemyCommanderBecomesAHero) {
  const Position p = crowd({{"e5", "T"}, {"e9", "c"}, {"a1", "N"}});
  const Move m = move_of(kRules, p, "Te5-e7");
  ASSERT_TRUE(m.details.find("heroes"));
  EXPECT_EQ(m.details.at("heroes").as_array()[0].at("site").as_string(), "e7");
  const Position after = play(kRules, p, "Te5-e7");
  EXPECT_TRUE(hero_at(after, "e7"));
  EXPECT_EQ(write_fen(after).substr(0, 40).find("+T") != std::string::npos, true);
  // It stays a hero after the threat is gone.
  const Position later = play(kRules, after, "Ce9-d9 Na1-a2");
  EXPECT_TRUE(hero_at(later, "e7"));
}

TEST(CotulenhHeroes, AHeroGainsAStepAndTheDiagonals) {
  // Hero tank: three steps in eight directions.
  // (up 3, down 3, toward the sea 2, inland 3, diagonals 3 + 2 + 3 + 2).
  EXPECT_EQ(moves_from(kRules, board({{"e4", "+T"}}), "e4").size(), 21u);
  // Hero infantry: two steps in eight directions.
  EXPECT_EQ(moves_from(kRules, board({{"e4", "+I"}}), "e4").size(), 16u);
  // Hero missile: three orthogonally, two diagonally.
  EXPECT_TRUE(has_move(kRules, board({{"e2", "+S"}}), "Se2-e5"));
  EXPECT_TRUE(has_move(kRules, board({{"e2", "+S"}}), "Se2-g4"));
  EXPECT_FALSE(has_move(kRules, board({{"e2", "+S"}}), "Se2-h5"));
  // Hero commander: moves diagonally, captures two steps away.
  EXPECT_TRUE(has_move(kRules, board({{"e2", "+C"}}), "Ce2-i6"));
  EXPECT_TRUE(has_move(kRules, board({{"e2", "+C"}, {"g4", "i"}}), "Ce2xg4"));
  EXPECT_FALSE(has_move(kRules, board({{"e2", "C"}, {"g4", "i"}}), "Ce2xg4"));
}

TEST(CotulenhHeroes, AHeroIsWorthTenPointsMore) {
  const Position after = play(kRules, crowd({{"e5", "A"}, {"e7", "+t"}, {"a12", "n"}}), "Ae5xe7");
  EXPECT_EQ(after.points[0], 30);
}

TEST(CotulenhHeroes, TheLastDefenderBecomesAHero) {
  // Blue has its commander, a headquarters and one tank; after any move the tank is a hero.
  const Position p = board({{"e5", "I"}, {"f5", "I"}, {"h12", "c"}, {"g12", "h"}, {"d11", "t"}});
  const Position after = play(kRules, p, "Ie5-e6");
  EXPECT_TRUE(hero_at(after, "d11"));
  Options o;
  o.last_defender_hero = false;
  const CotulenhRules off(o);
  EXPECT_FALSE(hero_at(play(off, p, "Ie5-e6"), "d11"));
}

TEST(CotulenhHeroes, ThreatsOfBothSidesCount) {
  // Red walks its commander into the blue tank's reach: the blue tank becomes a hero.
  const Position p = crowd({{"d5", "C"}, {"e7", "t"}, {"a12", "n"}, {"a1", "N"}});
  const Position after = play(kRules, p, "Cd5-e5");
  EXPECT_TRUE(hero_at(after, "e7"));
}

TEST(CotulenhHeroes, AHeroAirForceBecomesImmuneOnPromotion) {
  // The air force on e4 threatens the commander on e8 through the gun's zone: no threat.
  const Position p = crowd({{"e2", "F"}, {"e8", "c"}, {"d7", "g"}, {"a1", "N"}});
  const Position after = play(kRules, p, "Fe2-e4");
  EXPECT_FALSE(hero_at(after, "e4"));  // the flight to e8 would be shot down on e7
  // Without the gun the threat makes it a hero, which ignores air defence from then on.
  const Position q = crowd({{"e2", "F"}, {"e8", "c"}, {"a1", "N"}});
  EXPECT_TRUE(hero_at(play(kRules, q, "Fe2-e4"), "e4"));
}

}  // namespace
}  // namespace sb::cotulenh
