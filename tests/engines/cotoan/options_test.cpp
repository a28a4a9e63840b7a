// The rule options: the JSON round trip, the shipped config, and what each option
// changes on the board.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "engines/common/errors.h"
#include "engines/cotoan/match.h"
#include "engines/registry.h"
#include "tests/engines/cotoan/cotoan_test_support.h"

namespace sb::cotoan {
namespace {

using testing::calculation_texts;
using testing::captures;
using testing::full_fen;
using testing::make;
using testing::move_named;

TEST(CotoanOptions, DefaultsAreThoseOfRulesMd) {
  const Options o;
  EXPECT_FALSE(o.zero_partner);
  EXPECT_EQ(o.block_by, BlockBy::Any);
  EXPECT_EQ(o.division, Division::One);
  EXPECT_EQ(o.target_score, 10);
  EXPECT_EQ(o.first, Side::First);
  EXPECT_FALSE(o.compulsory_capture);
  EXPECT_EQ(o.to_json().dump(),
            R"({"block_by":"any","compulsory_capture":false,"division":"one","first":"red","target_score":10,)"
            R"("zero_partner":false})");
  EXPECT_EQ(make_rules("cotoan")->options(), o.to_json());
}

TEST(CotoanOptions, JsonRoundTripKeepsEveryValue) {
  Options o;
  o.zero_partner = true;
  o.block_by = BlockBy::Enemy;
  o.division = Division::Both;
  o.target_score = 20;
  o.first = Side::Second;
  o.compulsory_capture = true;
  EXPECT_EQ(Options::from_json(o.to_json()), o);
  EXPECT_EQ(Options::from_json(Json::parse(R"({"division": "both"})")).division, Division::Both);
  EXPECT_EQ(Options::from_json(Json()), Options{});
}

TEST(CotoanOptions, TheShippedConfigHoldsTheDefaults) {
  std::ifstream in(std::string(SMARTBOARD_SOURCE_DIR) + "/configs/cotoan.json");
  ASSERT_TRUE(in);
  std::stringstream text;
  text << in.rdbuf();
  const Json config = Json::parse(text.str(), "configs/cotoan.json");
  EXPECT_EQ(config.at("game").as_string(), "cotoan");
  EXPECT_EQ(config.at("rules"), Options{}.to_json());
  EXPECT_EQ(config.at("match"), MatchOptions{}.to_json());
}

TEST(CotoanOptions, BadOptionsAreRejectedNamingTheKey) {
  auto error = [](const char* json) {
    try {
      Options::from_json(Json::parse(json));
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_EQ(error(R"({"zero_partner": 1})"), "cotoan rule option 'zero_partner': expected true or false, got 1");
  EXPECT_EQ(error(R"({"block_by": "own"})"),
            R"(cotoan rule option 'block_by': expected one of "any", "enemy", got "own")");
  EXPECT_EQ(error(R"({"division": "half"})"),
            R"(cotoan rule option 'division': expected one of "one", "both", got "half")");
  EXPECT_EQ(error(R"({"target_score": 46})"),
            "cotoan rule option 'target_score': expected an integer from 0 to 45, got 46");
  EXPECT_EQ(error(R"({"first": "white"})"),
            R"(cotoan rule option 'first': expected one of "red", "blue", got "white")");
  EXPECT_EQ(error(R"({"target": 10})"), "cotoan rule options: unknown option 'target'");
  EXPECT_EQ(error("[]"), "cotoan rule options: expected a JSON object, got []");
}

TEST(CotoanOptions, ZeroPartnerLetsTheZeroBeTheFrontPieceButNeverTheRear) {
  // Red's 5 on e1 stands behind its 0 on e2: 5+0 = 5−0 = 5 reaches e7; 5×0 = 0 and
  // 5÷0 reach nothing. The 4 on d1 with the 0 reaches 4 squares up-right: i6.
  const std::string fen = full_fen('R', "", "4e7,6i6");
  auto plain = make();
  EXPECT_TRUE(captures(*plain, plain->from_fen(fen)).empty());
  try {
    plain->parse_move(plain->from_fen(fen), "5:e1xe7");
    FAIL();
  } catch (const IllegalMoveError& e) {
    EXPECT_EQ(e.reason(), "the 0 takes part in no calculation");
  }
  auto with_zero = make(R"({"zero_partner": true})");
  State s = with_zero->from_fen(fen);
  EXPECT_EQ(captures(*with_zero, s), (std::vector<std::string>{"4:d1xi6", "5:e1xe7"}));
  EXPECT_EQ(calculation_texts(move_named(*with_zero, s, "5:e1xe7")), (std::vector<std::string>{"5+0=5", "5\u22120=5"}));
  // With Red's 5 on e3 the pair e2,e3 read upwards has the 0 as its rear piece: 0+5
  // would reach e8, but the rear piece moves and the 0 never does.
  State zero_behind = with_zero->from_fen(full_fen('R', "5e3", "4e8"));
  EXPECT_TRUE(captures(*with_zero, zero_behind).empty());
  for (const Move& m : with_zero->legal_moves(zero_behind)) EXPECT_NE(m.from, kZeroHome[0]) << m.notation;
}

TEST(CotoanOptions, BlockByEnemyLetsTheCapturePassOverOwnPieces) {
  const std::string fen = full_fen('R', "8c5,5c6,1c7", "4c9");
  auto any = make();
  EXPECT_TRUE(captures(*any, any->from_fen(fen)).empty());
  try {
    any->parse_move(any->from_fen(fen), "8:c5xc9");
    FAIL();
  } catch (const IllegalMoveError& e) {
    EXPECT_EQ(e.reason(), "the target c9 is behind a blocking piece on c7");
  }
  auto enemy = make(R"({"block_by": "enemy"})");
  State s = enemy->from_fen(fen);
  EXPECT_EQ(captures(*enemy, s), (std::vector<std::string>{"8:c5xc9"}));
  EXPECT_EQ(enemy->fen(enemy->play(s, "8:c5xc9")),
            "B:R0e2,1c7,2b1,3c1,4d1,5c6,6f1,7g1,8c9,9i1:B0e10,1i11,2h11,3g11,5e11,6d11,7c11,8b11,9a11");
}

TEST(CotoanOptions, DivisionBothLetsTheQuotientServeToo) {
  const std::string fen = full_fen('R', "8c5,5c6", "4c7");  // 1 square beyond the 5: 8÷5 = 1 rest 3
  auto one = make();
  EXPECT_TRUE(captures(*one, one->from_fen(fen)).empty());
  auto both = make(R"({"division": "both"})");
  State s = both->from_fen(fen);
  Move m = move_named(*both, s, "8:c5xc7");
  ASSERT_EQ(m.notation, "8:c5xc7");
  EXPECT_EQ(m.details.at("op").as_string(), "/");
  EXPECT_EQ(calculation_texts(m), (std::vector<std::string>{"8\u00f75=1 rest 3\u21921"}));
  EXPECT_EQ(m.details.at("calculations").as_array()[0].at("uses").as_string(), "quotient");
  // The remainder still serves as well.
  EXPECT_EQ(captures(*both, both->from_fen(full_fen('R', "8c5,5c6", "4c9"))), (std::vector<std::string>{"8:c5xc9"}));
}

TEST(CotoanOptions, FirstChoosesWhoMovesFirstFromTheStart) {
  auto rules = make(R"({"first": "blue"})");
  EXPECT_EQ(rules->side_to_move(rules->start()), Side::Second);
  EXPECT_EQ(rules->fen(rules->start()).substr(0, 2), "B:");
  EXPECT_EQ(rules->legal_moves(rules->start()).size(), 87u);  // Blue's start mirrors Red's
  EXPECT_EQ(rules->legal_moves(rules->start())[0].notation.substr(1, 2), ":i");
}

TEST(CotoanOptions, CompulsoryCaptureLeavesOnlyTheCaptures) {
  const std::string fen = full_fen('R', "8c5,5c6", "4c9");
  auto free_choice = make();
  EXPECT_GT(free_choice->legal_moves(free_choice->from_fen(fen)).size(), 2u);
  auto compulsory = make(R"({"compulsory_capture": true})");
  State s = compulsory->from_fen(fen);
  EXPECT_EQ(testing::notations(*compulsory, s), (std::vector<std::string>{"8:c5xc9"}));
  try {
    compulsory->parse_move(s, "1:a1-a2");
    FAIL();
  } catch (const IllegalMoveError& e) {
    EXPECT_EQ(e.reason(), "a capture is compulsory (8:c5xc9)");
  }
  // Without a capture on the board every move stays open.
  EXPECT_EQ(compulsory->legal_moves(compulsory->start()).size(), 87u);
}

}  // namespace
}  // namespace sb::cotoan
