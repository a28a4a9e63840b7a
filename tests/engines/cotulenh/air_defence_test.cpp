// Air defence: the zones, an air force shot down flying into one, the one-for-one
// strike inside one, the hero air force's immunity (RULES.md §4).
#include "tests/engines/cotulenh/test_support.h"

namespace sb::cotulenh {
namespace {

using testing::board;
using testing::has_move;
using testing::list;
using testing::move_of;
using testing::moves_from;
using testing::play;

const CotulenhRules kRules;

std::vector<std::string> zone_sites(const Position& p, Side side, const Options& o = {}) {
  std::vector<std::string> out;
  const SiteSet z = air_defence_zone(p, side, o);
  for (int s = 0; s < kSites; ++s)
    if (z[s]) out.push_back(site_name(s));
  std::sort(out.begin(), out.end());
  return out;
}

TEST(CotulenhAirDefence, ZonesAreDiscsOfRadiusOneAndTwo) {
  EXPECT_EQ(zone_sites(board({{"e5", "g"}}), Side::Second), list({"d5", "e4", "e5", "e6", "f5"}));
  EXPECT_EQ(zone_sites(board({{"b5", "n"}}), Side::Second), list({"a5", "b4", "b5", "b6", "c5"}));
  EXPECT_EQ(zone_sites(board({{"e5", "s"}}), Side::Second),
            list({"c5", "d4", "d5", "d6", "e3", "e4", "e5", "e6", "e7", "f4", "f5", "f6", "g5"}));
  // A hero covers one step more (radius 2 for the anti-aircraft gun).
  EXPECT_EQ(zone_sites(board({{"e5", "+g"}}), Side::Second).size(), 13u);
  Options o;
  o.hero_extends_air_defence = false;
  EXPECT_EQ(zone_sites(board({{"e5", "+g"}}), Side::Second, o).size(), 5u);
  o = {};
  o.zone_shape = Options::ZoneShape::Square;
  EXPECT_EQ(zone_sites(board({{"e5", "g"}}), Side::Second, o).size(), 9u);
  EXPECT_EQ(zone_sites(board({{"e5", "s"}}), Side::Second, o).size(), 25u);
  // A carried defender defends.
  EXPECT_EQ(zone_sites(board({{"e5", "(eg)"}}), Side::Second).size(), 5u);
}

TEST(CotulenhAirDefence, FlyingIntoAZoneShootsTheAirForceDownAtItsEdge) {
  // Blue's anti-aircraft gun on e6 covers e5: flying up the e file ends there.
  const Position p = board({{"e2", "F"}, {"e6", "g"}});
  const auto up = moves_from(kRules, p, "e2");
  EXPECT_TRUE(has_move(kRules, p, "Fe2-e3"));
  EXPECT_TRUE(has_move(kRules, p, "Fe2-e4"));
  EXPECT_TRUE(has_move(kRules, p, "Fe2-e5"));  // shot down there
  EXPECT_FALSE(has_move(kRules, p, "Fe2xe6"));
  const Move m = move_of(kRules, p, "Fe2-e5");
  EXPECT_EQ(m.details.at("kind").as_string(), "shot_down");
  EXPECT_EQ(kRules.waypoints(kRules.make_state(p), m), std::vector<int>{site_from_name("e5")});
  const Position after = kRules.position(kRules.apply(kRules.make_state(p), m));
  EXPECT_TRUE(after.at[site_from_name("e5")].empty());
  EXPECT_TRUE(after.at[site_from_name("e2")].empty());
  EXPECT_EQ(after.points[1], 40);
  EXPECT_EQ(after.lost[0][kAirForce], 1);
  EXPECT_EQ(m.details.at("opponent_points").as_int(), 40);
}

TEST(CotulenhAirDefence, StrikingInsideAZoneIsOneForOne) {
  // The tank on e4 sits in the zone of the gun on e5.
  const Position p = board({{"e2", "F"}, {"e4", "t"}, {"e5", "g"}});
  EXPECT_TRUE(has_move(kRules, p, "Fe2xe4"));
  EXPECT_FALSE(has_move(kRules, p, "Fe2@e4"));  // one outcome only: both destroyed
  const Move m = move_of(kRules, p, "Fe2xe4");
  EXPECT_TRUE(m.details.at("one_for_one").as_bool());
  const Position after = play(kRules, p, "Fe2xe4");
  EXPECT_TRUE(after.at[site_from_name("e4")].empty());
  EXPECT_TRUE(after.at[site_from_name("e2")].empty());
  EXPECT_EQ(after.points[0], 20);
  EXPECT_EQ(after.points[1], 40);
}

TEST(CotulenhAirDefence, AttackingADefenderItselfIsAlwaysOneForOne) {
  // Up the file the air force meets the navy's zone on b4 first and is shot down there;
  // along the diagonal (c4 is outside a disc of radius 1) it reaches the navy and trades.
  const Position p = board({{"b1", "F"}, {"d3", "F"}, {"b5", "n"}});
  EXPECT_TRUE(has_move(kRules, p, "Fb1-b4"));
  EXPECT_FALSE(has_move(kRules, p, "Fb1xb5"));
  const Move m = move_of(kRules, p, "Fd3xb5");
  EXPECT_TRUE(m.details.find("one_for_one"));
  EXPECT_FALSE(has_move(kRules, p, "Fd3@b5"));
}

TEST(CotulenhAirDefence, AHeroAirForceIsImmune) {
  const Position p = board({{"e2", "+F"}, {"e4", "t"}, {"e5", "g"}});
  EXPECT_TRUE(has_move(kRules, p, "Fe2@e4"));
  EXPECT_TRUE(has_move(kRules, p, "Fe2xe5"));
  EXPECT_TRUE(has_move(kRules, p, "Fe2-e6"));
  EXPECT_TRUE(has_move(kRules, p, "Fe2-e7"));  // five steps: a hero's range
  const Position after = play(kRules, p, "Fe2xe5");
  EXPECT_EQ(after.at[site_from_name("e5")].top().kind(), kAirForce);
  EXPECT_EQ(after.points[1], 0);
}

TEST(CotulenhAirDefence, TakingOffInsideAZoneIsFree) {
  // The air force on e4 sits in the gun's zone; flying away from it is no flight into it.
  const Position p = board({{"e4", "F"}, {"e5", "g"}});
  EXPECT_TRUE(has_move(kRules, p, "Fe4-e3"));
  const Position after = play(kRules, p, "Fe4-e1");
  EXPECT_EQ(after.at[site_from_name("e1")].top().kind(), kAirForce);
}

TEST(CotulenhAirDefence, OnlyAnAirForceInFlightMeetsAirDefence) {
  // A navy carrying an air force sails next to an enemy navy: nothing happens to it.
  const Position p = board({{"b2", "(NF)"}, {"a6", "n"}});
  const Position after = play(kRules, p, "(NF)b2-b5");
  EXPECT_EQ(after.at[site_from_name("b5")].n, 2);
  // Flying off the carrier into the zone is shot down.
  EXPECT_TRUE(has_move(kRules, p, "Fb2-b6"));  // b6 in the enemy navy's zone: shot down
  EXPECT_FALSE(has_move(kRules, p, "Fb2-b7"));
}

TEST(CotulenhAirDefence, MissileZoneReachesTwoStepsAndOneDiagonally) {
  const Position p = board({{"e1", "F"}, {"g4", "s"}});
  // f3 is one diagonal step from the missile: inside; e3 is not (two files, one rank).
  EXPECT_TRUE(has_move(kRules, p, "Fe1-e3"));
  EXPECT_TRUE(has_move(kRules, p, "Fe1-g3"));   // g3 inside: shot down there
  EXPECT_FALSE(has_move(kRules, p, "Fe1-h4"));  // the diagonal passes f2, g3
  const Move m = move_of(kRules, p, "Fe1-g3");
  EXPECT_EQ(m.details.at("kind").as_string(), "shot_down");
}

}  // namespace
}  // namespace sb::cotulenh
