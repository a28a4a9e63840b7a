// The commanders facing each other, the headquarters as shelter, and the
// commander-safety option (RULES.md §5).
#include "tests/engines/cotulenh/test_support.h"

namespace sb::cotulenh {
namespace {

using testing::board;
using testing::has_move;
using testing::play;
using testing::refusal;

const CotulenhRules kRules;

CotulenhRules with(const char* json) {
  return CotulenhRules(Options::from_json(Json::parse(json)));
}

TEST(CotulenhFacing, TheSideToMoveTakesAnExposedCommanderAlongTheOpenFile) {
  const Position p = board({{"e2", "C"}, {"e10", "c"}, {"k5", "I"}, {"a12", "n"}});
  EXPECT_TRUE(commanders_facing(p, {}));
  EXPECT_TRUE(has_move(kRules, p, "Ce2xe10"));
  const Position after = play(kRules, p, "Ce2xe10");
  const Outcome o = kRules.outcome(kRules.make_state(after));
  EXPECT_EQ(o.result(), "1-0");
  EXPECT_EQ(o.reason, "raid: blue lost its commander");
  EXPECT_EQ(after.points[0], 100);
}

TEST(CotulenhFacing, OpeningTheLineIsABlunderTheOpponentPunishes) {
  // Red moves its commander onto Blue's file; Blue takes it along the file.
  const Position p = board({{"d2", "C"}, {"e10", "c"}});
  const Position after = play(kRules, p, "Cd2-e2");
  EXPECT_TRUE(has_move(kRules, after, "Ce10xe2"));
  // A piece between closes the line.
  EXPECT_FALSE(commanders_facing(board({{"e2", "C"}, {"e6", "I"}, {"e10", "c"}}), {}));
  EXPECT_FALSE(has_move(kRules, board({{"e2", "C"}, {"e6", "I"}, {"e10", "c"}}), "Ce2xe10"));
}

TEST(CotulenhFacing, IllegalWhenTheClubSaysSo) {
  const CotulenhRules strict = with(R"({"commander_facing": "illegal"})");
  const Position p = board({{"d2", "C"}, {"e10", "c"}});
  EXPECT_FALSE(has_move(strict, p, "Cd2-e2"));
  EXPECT_EQ(refusal(strict, p, "Cd2-e2"), "the commanders would face each other on an open line");
  EXPECT_TRUE(has_move(kRules, p, "Cd2-e2"));
}

TEST(CotulenhFacing, ACarriedCommanderPassesTheEnemyCommandersFace) {
  // In a tank on the open file: no facing, no capture along it.
  const Position p = board({{"e2", "(TC)"}, {"e10", "c"}});
  EXPECT_FALSE(commanders_facing(p, {}));
  EXPECT_FALSE(has_move(kRules, p, "Ce2xe10"));
  // Blue cannot take it along the file either.
  Position q = p;
  q.to_move = Side::Second;
  EXPECT_FALSE(has_move(kRules, q, "Ce10xe2"));
}

TEST(CotulenhFacing, ACommanderInItsHeadquartersIsSheltered) {
  const Position p = board({{"e2", "(HC)"}, {"e10", "c"}});
  EXPECT_FALSE(commanders_facing(p, {}));
  const CotulenhRules open = with(R"({"hq_shelters_commander": false})");
  EXPECT_TRUE(commanders_facing(p, open.rule_options()));
  EXPECT_TRUE(has_move(open, p, "Ce2xe10"));
  EXPECT_FALSE(has_move(kRules, p, "Ce2xe10"));
}

TEST(CotulenhCommander, EntersOnlyItsOwnHeadquartersAndLeavesIt) {
  const Position p = board({{"e5", "C"}, {"e7", "H"}, {"f5", "I"}, {"f7", "H"}});
  EXPECT_TRUE(has_move(kRules, p, "Ce5-e7"));
  Position q = play(kRules, p, "Ce5-e7");
  EXPECT_EQ(stack_letters(q.at[site_from_name("e7")], false, false), "(HC)");
  // The camera sees the commander on top.
  EXPECT_EQ(kRules.observe(kRules.make_state(q)).sites[site_from_name("e7")].str(), "RC");
  q.to_move = Side::First;
  EXPECT_TRUE(has_move(kRules, q, "Ce7-e6"));
  EXPECT_FALSE(has_move(kRules, q, "Hf7-f8"));
  EXPECT_EQ(refusal(kRules, q, "If5-f7"), "only its commander may enter a headquarters");
  EXPECT_EQ(refusal(kRules, q, "Hf7-f8"), "the headquarters never moves");
}

TEST(CotulenhCommander, SafetyOptionForbidsLeavingItWhereItCanBeTaken) {
  const CotulenhRules safe = with(R"({"commander_safety": "must_escape"})");
  // The blue tank on e7 covers e5 and e6.
  const Position p = board({{"d5", "C"}, {"e7", "t"}, {"k12", "c"}});
  EXPECT_TRUE(has_move(kRules, p, "Cd5-e5"));
  EXPECT_FALSE(has_move(safe, p, "Cd5-e5"));
  EXPECT_EQ(refusal(safe, p, "Cd5-e5"), "your commander would be left where it can be taken");
  // With no way out, the side loses.
  const Position trapped = board({{"k1", "C"}, {"j3", "t"}, {"i1", "t"}, {"k3", "t"}, {"k12", "c"}});
  EXPECT_TRUE(safe.legal_moves(safe.make_state(trapped)).empty());
  const Outcome o = safe.outcome(safe.make_state(trapped));
  EXPECT_EQ(o.result(), "0-1");
  EXPECT_EQ(o.reason, "red cannot save its commander");
}

}  // namespace
}  // namespace sb::cotulenh
