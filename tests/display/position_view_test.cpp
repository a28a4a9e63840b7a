#include "display/position_view.h"

#include <gtest/gtest.h>

#include "engines/common/errors.h"

namespace sb::display {
namespace {

const PieceView* find(const PositionView& v, const std::string& site) {
  for (const PieceView& p : v.pieces)
    if (p.site == site) return &p;
  return nullptr;
}

TEST(PositionView, DraughtsFenListsMenAndKings) {
  PositionView v = position_view("brazilian", "B:W21-23,K30:BK1,5", {});
  EXPECT_EQ(v.to_move, "black");
  ASSERT_EQ(v.pieces.size(), 6u);
  EXPECT_EQ(find(v, "22")->side, "white");
  EXPECT_FALSE(find(v, "22")->king);
  EXPECT_TRUE(find(v, "30")->king);
  EXPECT_TRUE(find(v, "1")->king);
  EXPECT_FALSE(find(v, "5")->king);
  EXPECT_EQ(position_view("international", "W:W31-50:B1-20", {}).pieces.size(), 40u);
}

TEST(PositionView, MorrisFenFollowsTheBoardsReadingOrderAndCountsPiecesInHand) {
  const std::vector<std::string> order = {"a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4", "b4", "c4",
                                          "e4", "f4", "g4", "c3", "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1"};
  PositionView v = position_view("morris9", "W......................B b 8 8", order);
  EXPECT_EQ(v.to_move, "black");
  ASSERT_EQ(v.pieces.size(), 2u);
  EXPECT_EQ(find(v, "a7")->side, "white");
  EXPECT_EQ(find(v, "g1")->side, "black");
  EXPECT_EQ(v.in_hand.at("white"), 8);
  EXPECT_EQ(v.in_hand.at("black"), 8);
  EXPECT_THROW(position_view("morris9", "W.. w 9 9", order), InputError);
}

TEST(PositionView, CotoanFenGivesEachPieceItsNumber) {
  PositionView v = position_view(
      "cotoan", "R:R0e2,1a1,2b1,3c1,4d1,5e1,6f1,7g1,8h1,9i1:B0e10,1i11,2h11,3g11,4f11,5e11,6d11,7c11,8b11,9a11", {});
  EXPECT_EQ(v.to_move, "red");
  ASSERT_EQ(v.pieces.size(), 20u);
  EXPECT_EQ(find(v, "e2")->label, "0");
  EXPECT_EQ(find(v, "a11")->label, "9");
  EXPECT_EQ(find(v, "a11")->side, "blue");
}

TEST(PositionView, CotulenhFenShowsSymbolsStacksAndHeroes) {
  PositionView v = position_view(
      "cotulenh", "6c4/1n2fh1hf2/3a2s2a1/2n1gt1tg2/2ie2m2ei/11/11/2IE2M2EI/2N1GT1TG2/3A2S2A1/1N2FH1HF2/6C4 r", {});
  EXPECT_EQ(v.to_move, "red");
  EXPECT_EQ(v.pieces.size(), 38u);
  EXPECT_EQ(find(v, "g1")->label, "C");
  EXPECT_EQ(find(v, "g1")->side, "red");
  EXPECT_EQ(find(v, "b11")->side, "blue");
  EXPECT_EQ(find(v, "b11")->label, "N");
  PositionView s = position_view("cotulenh", "6c4/11/11/11/11/11/11/11/11/11/11/5(T+I)+C4 b 20 0 i", {});
  EXPECT_EQ(s.to_move, "blue");
  const PieceView* stack = find(s, "f1");
  ASSERT_NE(stack, nullptr);
  EXPECT_EQ(stack->stack, (std::vector<std::string>{"T", "I"}));
  EXPECT_EQ(stack->label, "I");
  EXPECT_TRUE(stack->hero);
  EXPECT_EQ(find(s, "g1")->label, "C");
  EXPECT_TRUE(find(s, "g1")->hero);
  EXPECT_FALSE(find(s, "g12")->hero);
}

TEST(PositionView, BadFensNameTheProblem) {
  try {
    position_view("cotoan", "R:R0e2,Xa1", {});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad piece 'Xa1'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(position_view("brazilian", "X:W1", {}), InputError);
  EXPECT_THROW(position_view("brazilian", "W:W1-x", {}), InputError);
  EXPECT_THROW(position_view("cotulenh", "11/11 r", {}), InputError);
  EXPECT_THROW(position_view("cotulenh", "12/11/11/11/11/11/11/11/11/11/11/11 r", {}), InputError);
  EXPECT_THROW(position_view("cotulenh", "(TI/11/11/11/11/11/11/11/11/11/11/11 r", {}), InputError);
  EXPECT_THROW(position_view("cotulenh", "10+/11/11/11/11/11/11/11/11/11/11/11 r", {}), InputError);
  EXPECT_THROW(position_view("chess", "x", {}), InputError);
}

TEST(PositionView, JsonListsOnlyWhatIsThere) {
  PositionView v = position_view("brazilian", "W:WK5:B9", {});
  nlohmann::json j = to_json(v);
  EXPECT_EQ(j["pieces"][0], nlohmann::json({{"site", "5"}, {"side", "white"}, {"king", true}}));
  EXPECT_EQ(j["pieces"][1], nlohmann::json({{"site", "9"}, {"side", "black"}}));
  EXPECT_FALSE(j.contains("in_hand"));
}

}  // namespace
}  // namespace sb::display
