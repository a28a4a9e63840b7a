// The game record in the seed's symbols (record.h).
#include "engines/cotulenh/record.h"

#include "tests/engines/cotulenh/test_support.h"

namespace sb::cotulenh {
namespace {

using testing::board;
using testing::move_of;

const CotulenhRules kRules;

std::string record(const Position& p, const std::string& move) {
  const Move m = move_of(kRules, p, move);
  const std::string r = kRules.record_notation(kRules.make_state(p), m);
  EXPECT_EQ(m.details.at("record").as_string(), r);
  return r;
}

// Enough pieces that no lone piece turns hero as the last defender.
Position crowd(std::initializer_list<std::pair<const char*, const char*>> extra) {
  Position p = board({{"k1", "I"}, {"k2", "I"}, {"k11", "i"}, {"k10", "i"}, {"j1", "C"}, {"i12", "c"}});
  for (auto [sq, tok] : extra) p.at[site_from_name(sq)] = *tok ? board({{sq, tok}}).at[site_from_name(sq)] : Stack{};
  return p;
}

TEST(CotulenhRecord, MovesUseTheSeedsRowColumnSquaresAndLetters) {
  const Position start = CotulenhRules::position(kRules.start());
  EXPECT_EQ(record(start, "Ad3-c2"), "P2.3_1.2");
  EXPECT_EQ(record(start, "Fe2-e5"), "K1.4_4.4");
  EXPECT_EQ(record(start, "Ic5-c4"), "B4.2_3.2");  // boarding the navy
  EXPECT_EQ(record_square(site_from_name("f4")), "3.5");
}

TEST(CotulenhRecord, CapturesInPlaceAreUnderlinedAndStacksInParentheses) {
  EXPECT_EQ(record(crowd({{"e5", "A"}, {"e8", "t"}}), "Ae5xe8"), "P4.4@T7.4");
  EXPECT_EQ(record(crowd({{"c4", "T"}, {"a4", "n"}}), "Tc4@a4"), "T3.2@\u0332H3.0");
  EXPECT_EQ(record(crowd({{"f4", "(TM)"}}), "(TM)f4-f6"), "(TDQ)3.5_5.5");
  EXPECT_EQ(record(crowd({{"f4", "(TM)"}}), "Tf4-f3/Mf4-e3"), "(TDQ)T3.5_2.5/DQ3.5_2.4");
}

TEST(CotulenhRecord, AirDefenceShotDownAndOneForOne) {
  EXPECT_EQ(record(crowd({{"e2", "F"}, {"e6", "g"}}), "Fe2-e5"), "K1.4@\u201D4.4");
  EXPECT_EQ(record(crowd({{"e2", "F"}, {"e4", "t"}, {"e5", "g"}}), "Fe2xe4"), "K1.4><T3.4");
}

TEST(CotulenhRecord, ThreatHeroesAndTheDecisiveBlow) {
  // The tank threatens the commander on e9 and becomes a hero (in bold).
  EXPECT_EQ(record(crowd({{"e5", "T"}, {"e9", "c"}, {"i12", ""}}), "Te5-e7"),
            "T4.4_6.4>*8.4{\U0001D413"
            "6.4}");
  // Taking the commander ends the game.
  EXPECT_EQ(record(crowd({{"e5", "T"}, {"e6", "c"}, {"i12", ""}}), "Te5xe6"), "T4.4@TL5.4^");
}

TEST(CotulenhRecord, EngineLettersAndAlgebraicSquaresOnRequest) {
  const Position start = CotulenhRules::position(kRules.start());
  const Turn t = CotulenhRules::turn_of(move_of(kRules, start, "Ad3-c2"));
  EXPECT_EQ(record_turn(start, t, kRules.rule_options(), RecordStyle{false, false}), "Ad3_c2");
}

TEST(CotulenhRecord, ResultAndViolationMarks) {
  EXPECT_EQ(record_violation("Tf4-f8"), "$Tf4-f8");
  const Outcome red_wins = Outcome::win(Side::First, "raid");
  EXPECT_EQ(record_result(red_wins, Side::Second), "!!");
  EXPECT_EQ(record_result(red_wins, Side::First), "");
  EXPECT_EQ(record_result(Outcome::draw("points"), Side::First), "=");
}

}  // namespace
}  // namespace sb::cotulenh
