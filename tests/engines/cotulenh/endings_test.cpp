// Points and the endings: the four battles, full battle, the bonus, both sides losing
// a battle on one move, no legal move (RULES.md §7).
#include "tests/engines/cotulenh/test_support.h"

namespace sb::cotulenh {
namespace {

using testing::board;
using testing::play;

const CotulenhRules kRules;
const CotulenhRules kFull(Options::from_json(Json::parse(R"({"mode": "full"})")));

Outcome outcome_of(const CotulenhRules& rules, const Position& p) {
  return rules.outcome(rules.make_state(p));
}

Position with_lost(Position p, Side s, std::initializer_list<Kind> kinds) {
  for (Kind k : kinds) ++p.lost[index_of(s)][k];
  return p;
}

TEST(CotulenhEndings, PointsFollowTheSeedsTable) {
  const std::pair<const char*, int> table[] = {{"i", 10}, {"e", 10}, {"g", 10}, {"m", 10}, {"t", 20},
                                               {"s", 20}, {"a", 30}, {"f", 40}, {"h", 0}};
  for (auto [tok, pts] : table) {
    const Position after = play(kRules, board({{"e5", "A"}, {"e7", tok}, {"k12", "i"}, {"k1", "I"}}), "Ae5xe7");
    EXPECT_EQ(after.points[0], pts) << tok;
  }
  // The navy: 80.
  EXPECT_EQ(play(kRules, board({{"c4", "I"}, {"b4", "n"}, {"k12", "i"}}), "Ic4@b4").points[0], 80);
}

TEST(CotulenhEndings, NavalBattleEndsWhenASideHasLostBothNavies) {
  const Position p = with_lost(board({{"c4", "I"}, {"b4", "n"}, {"k12", "c"}, {"k1", "C"}}), Side::Second, {kNavy});
  const Position after = play(kRules, p, "Ic4@b4");
  const Outcome o = outcome_of(kRules, after);
  EXPECT_EQ(o.result(), "1-0");
  EXPECT_EQ(o.reason, "naval battle: blue lost both navies");
  EXPECT_EQ(after.points[0], 80 + 100);
  EXPECT_TRUE(kRules.legal_moves(kRules.make_state(after)).empty());
  EXPECT_EQ(kRules.state_line(kRules.make_state(after)),
            "1-0 naval battle: blue lost both navies; score red 180 blue 0; battle mode, lost: red navies 0/2 air "
            "forces 0/2 land 0/6 commander 0/1, blue navies 2/2 air forces 0/2 land 0/6 commander 0/1");
  // In full battle the game goes on.
  EXPECT_FALSE(outcome_of(kFull, play(kFull, p, "Ic4@b4")).over());
}

TEST(CotulenhEndings, AirBattleEndsWhenASideHasLostBothAirForcesEvenShotDown) {
  const Position p = with_lost(board({{"e2", "F"}, {"e6", "g"}, {"k12", "c"}, {"k1", "C"}}), Side::First, {kAirForce});
  const Position after = play(kRules, p, "Fe2-e5");
  const Outcome o = outcome_of(kRules, after);
  EXPECT_EQ(o.result(), "0-1");
  EXPECT_EQ(o.reason, "air battle: red lost both air forces");
  EXPECT_EQ(after.points[1], 40 + 100);
}

TEST(CotulenhEndings, LandBattleNeedsBothInfantryTanksAndArtillery) {
  Position p = with_lost(board({{"e5", "T"}, {"e7", "a"}, {"k12", "c"}, {"k1", "C"}}), Side::Second,
                         {kInfantry, kInfantry, kTank, kTank, kArtillery});
  const Position after = play(kRules, p, "Te5xe7");
  EXPECT_EQ(outcome_of(kRules, after).reason, "land battle: blue lost both infantry, both tanks and both artillery");
  // One infantry short of it: no ending.
  Position q = with_lost(board({{"e5", "T"}, {"e7", "a"}, {"k12", "c"}, {"k1", "C"}}), Side::Second,
                         {kInfantry, kTank, kTank, kArtillery});
  EXPECT_FALSE(outcome_of(kRules, play(kRules, q, "Te5xe7")).over());
}

TEST(CotulenhEndings, RaidAndFullBattleEndWithTheCommanderAndOneBonus) {
  const Position p = board({{"e5", "T"}, {"e6", "c"}, {"k1", "C"}});
  for (const CotulenhRules* r : {&kRules, &kFull}) {
    const Position after = play(*r, p, "Te5xe6");
    EXPECT_EQ(outcome_of(*r, after).result(), "1-0");
    EXPECT_EQ(after.points[0], 100);  // the commander is worth nothing itself; the win adds 100 once
  }
  EXPECT_EQ(outcome_of(kFull, play(kFull, p, "Te5xe6")).reason, "full battle: blue lost its commander");
  const CotulenhRules big(Options::from_json(Json::parse(R"({"win_bonus": 250})")));
  EXPECT_EQ(play(big, p, "Te5xe6").points[0], 250);
}

TEST(CotulenhEndings, BothSidesLosingABattleOnOneMoveIsDecidedOnPoints) {
  // Red's last air force trades itself for Blue's last navy: Red loses the air battle,
  // Blue the naval battle. Red scores 80, Blue 40.
  Position p = board({{"d3", "F"}, {"b5", "n"}, {"k12", "c"}, {"k1", "C"}});
  p = with_lost(with_lost(p, Side::First, {kAirForce}), Side::Second, {kNavy});
  const Position after = play(kRules, p, "Fd3xb5");
  const Outcome o = outcome_of(kRules, after);
  EXPECT_EQ(o.result(), "1-0");
  EXPECT_EQ(o.reason, "both sides lost a battle on the same move; red has more points");
  EXPECT_EQ(after.points[0], 80);
  EXPECT_EQ(after.points[1], 40);
}

TEST(CotulenhEndings, NoLegalMoveEndsTheGameOnPoints) {
  // Red has only a headquarters: no move. Points decide.
  Position p = board({{"e2", "H"}, {"k12", "c"}});
  p.points = {30, 10};
  const Outcome o = outcome_of(kRules, p);
  EXPECT_EQ(o.result(), "1-0");
  EXPECT_EQ(o.reason, "red has no legal move; red has more points");
  p.points = {10, 10};
  EXPECT_EQ(outcome_of(kRules, p).result(), "1/2-1/2");
}

TEST(CotulenhEndings, LossesNotAbsencesEndABattle) {
  // A study position without navies is no finished naval battle.
  EXPECT_FALSE(outcome_of(kRules, board({{"e5", "T"}, {"k12", "c"}})).over());
}

}  // namespace
}  // namespace sb::cotulenh
