// Every example of the seed text (seeds/co-toan.vi.txt), each as its own test.
#include <gtest/gtest.h>

#include "engines/common/errors.h"
#include "tests/engines/cotoan/cotoan_test_support.h"

namespace sb::cotoan {
namespace {

using testing::calculation_texts;
using testing::captures;
using testing::full_fen;
using testing::make;
using testing::move_named;

// "8 đứng dưới, 5 đứng trên": Red's 8 on c5 below its 5 on c6. Blue's 4 stands on
// the 3rd square beyond the 5 (c9), Blue's 6 on the 3rd square beyond the 8 going
// back (c2). Every other piece stands on its start square.
const std::string kStacked = full_fen('R', "8c5,5c6", "4c9,6c2");

TEST(SeedExamples, StartPositionHasEachSideNumberedFromItsOwnLeftWithTheZeroOnTheFifthSquareOfRankTwo) {
  auto rules = make();
  EXPECT_EQ(rules->fen(rules->start()),
            "R:R0e2,1a1,2b1,3c1,4d1,5e1,6f1,7g1,8h1,9i1:B0e10,1i11,2h11,3g11,4f11,5e11,6d11,7c11,8b11,9a11");
  EXPECT_EQ(rules->ascii(rules->start()),
            "11 B9 B8 B7 B6 B5 B4 B3 B2 B1\n"
            "10  .  .  .  . B0  .  .  .  .\n"
            " 9  .  .  .  .  .  .  .  .  .\n"
            " 8  .  .  .  .  .  .  .  .  .\n"
            " 7  .  .  .  .  .  .  .  .  .\n"
            " 6  .  .  .  .  .  .  .  .  .\n"
            " 5  .  .  .  .  .  .  .  .  .\n"
            " 4  .  .  .  .  .  .  .  .  .\n"
            " 3  .  .  .  .  .  .  .  .  .\n"
            " 2  .  .  .  . R0  .  .  .  .\n"
            " 1 R1 R2 R3 R4 R5 R6 R7 R8 R9\n"
            "    a  b  c  d  e  f  g  h  i\n"
            "red to move; score red 0 blue 0\n");
}

TEST(SeedExamples, EightMinusFiveCapturesOnTheThirdSquareBeyondTheFive) {
  auto rules = make();
  State s = rules->from_fen(kStacked);
  Move m = move_named(*rules, s, "8:c5xc9");
  ASSERT_EQ(m.notation, "8:c5xc9");
  auto texts = calculation_texts(m);
  EXPECT_NE(std::find(texts.begin(), texts.end(), "8\u22125=3"), texts.end());
  EXPECT_EQ(rules->parse_move(s, "8:c5xc9(8-5)").notation, "8:c5xc9");
}

TEST(SeedExamples, EightPlusFiveIsThirteenAndCountsItsUnitsDigitThree) {
  auto rules = make();
  State s = rules->from_fen(kStacked);
  Move m = move_named(*rules, s, "8:c5xc9");
  auto texts = calculation_texts(m);
  EXPECT_NE(std::find(texts.begin(), texts.end(), "8+5=13\u21923"), texts.end());
  // The move names one pair and one operation: the first of + − × ÷ that works.
  EXPECT_EQ(m.details.at("op").as_string(), "+");
  EXPECT_EQ(m.details.at("pair").dump(), R"(["c5","c6"])");
  EXPECT_EQ(rules->parse_move(s, "8:c5xc9 (8+5=13\u21923)").notation, "8:c5xc9");
}

TEST(SeedExamples, TheEightMovesOntoTheCapturedPieceAndScoresItsNumber) {
  auto rules = make();
  State s = rules->from_fen(kStacked);
  State after = rules->apply(s, rules->parse_move(s, "8:c5xc9"));
  EXPECT_EQ(rules->fen(after),
            "B:R0e2,1a1,2b1,3c1,4d1,5c6,6f1,7g1,8c9,9i1:B0e10,1i11,2h11,3g11,5e11,6c2,7c11,8b11,9a11");
  EXPECT_EQ(rules->score(after), (Score{4, 0}));
  EXPECT_EQ(rules->state_line(after), "ongoing; score red 4 blue 0");
}

TEST(SeedExamples, FivePlusEightCapturesBackwardOnTheThirdSquareBeyondTheEight) {
  auto rules = make();
  State s = rules->from_fen(kStacked);
  Move m = move_named(*rules, s, "5:c6xc2");
  ASSERT_EQ(m.notation, "5:c6xc2");
  // Read backwards the 5 is the rear piece: 5−8 is not positive, 5×8 = 40 is
  // worthless and 5÷8 reaches 5 squares; only 5+8 = 13 → 3 reaches c2.
  EXPECT_EQ(calculation_texts(m), (std::vector<std::string>{"5+8=13\u21923"}));
  EXPECT_EQ(m.details.at("pair").dump(), R"(["c6","c5"])");
  State after = rules->apply(s, m);
  EXPECT_EQ(rules->fen(after),
            "B:R0e2,1a1,2b1,3c1,4d1,5c2,6f1,7g1,8c5,9i1:B0e10,1i11,2h11,3g11,4c9,5e11,7c11,8b11,9a11");
  EXPECT_EQ(rules->score(after), (Score{6, 0}));
}

TEST(SeedExamples, EightDividedByFiveIsOneRestThreeAndTheRemainderCaptures) {
  auto rules = make();
  State s = rules->from_fen(kStacked);
  auto texts = calculation_texts(move_named(*rules, s, "8:c5xc9"));
  EXPECT_EQ(texts, (std::vector<std::string>{"8+5=13\u21923", "8\u22125=3", "8\u00f75=1 rest 3\u21923"}));
  EXPECT_EQ(rules->parse_move(s, "8:c5xc9(8:5)").notation, "8:c5xc9");
}

TEST(SeedExamples, FiveTimesEightIsFortyAndWorthless) {
  auto rules = make();
  // The 5 rear and the 8 in front (c5 below c6), read upwards: 5+8 → 3, 5−8 not
  // allowed, 5×8 = 40 worthless, 5÷8 = 0 rest 5 → 5. An enemy on every square beyond
  // in turn: only distances 3 and 5 capture.
  for (int k = 1; k <= 5; ++k) {
    const std::string target = "c" + std::to_string(6 + k);
    State s = rules->from_fen(full_fen('R', "5c5,8c6", "4" + target + ",7h9"));
    const bool expected = k == 3 || k == 5;
    EXPECT_EQ(captures(*rules, s), expected ? std::vector<std::string>{"5:c5x" + target} : std::vector<std::string>{})
        << "distance " << k;
  }
  State s = rules->from_fen(full_fen('R', "5c5,8c6", "4c10,7h9"));
  try {
    rules->parse_move(s, "5:c5xc10(5x8)");
    FAIL() << "5x8 must not capture";
  } catch (const IllegalMoveError& e) {
    EXPECT_EQ(e.reason(),
              "no calculation of 5 and 8 (c5,c6) reaches c10, 4 squares beyond c6: 5+8=13\u21923, "
              "5\u22128=\u22123 (not allowed), 5\u00d78=40 (worthless), 5\u00f78=0 rest 5\u21925");
  }
}

TEST(SeedExamples, AnEnemyOnTheFirstOrSecondSquareBlocksTheTargetOnTheThird) {
  for (const char* block_by : {"any", "enemy"}) {
    auto rules = make(std::string(R"({"block_by": ")") + block_by + "\"}");
    for (const char* blocker : {"c7", "c8"}) {
      State s = rules->from_fen(full_fen('R', "8c5,5c6", std::string("4c9,7") + blocker));
      EXPECT_EQ(move_named(*rules, s, "8:c5xc9").notation, "") << block_by << " " << blocker;
      try {
        rules->parse_move(s, "8:c5xc9");
        FAIL();
      } catch (const IllegalMoveError& e) {
        EXPECT_EQ(e.reason(), std::string("the target c9 is behind a blocking piece on ") + blocker);
      }
    }
  }
}

TEST(SeedExamples, CapturingTheZeroIsAnAbsoluteWin) {
  // Red is far behind on points (Blue has taken 9+8+7 = 24, not reaching a target of 30),
  // but 3+2 = 5 from the pair e4,e5 reaches Blue's 0 on e10.
  auto r30 = make(R"({"target_score": 30})");
  State s = r30->from_fen("R:R0e2,1a1,2e5,3e4,4d1,5b1,6f1:B0e10,1i11,2h11,3g11,4f11,5e11,6d11,7c11,8b11,9a11");
  EXPECT_EQ(r30->score(s), (Score{0, 24}));
  State after = r30->apply(s, r30->parse_move(s, "3:e4xe10"));
  const Outcome o = r30->outcome(after);
  EXPECT_EQ(o.result(), "1-0");
  EXPECT_EQ(o.reason, "captured the 0");
  EXPECT_TRUE(r30->zero_captured(after));
  EXPECT_TRUE(r30->legal_moves(after).empty());
  EXPECT_EQ(r30->state_line(after), "1-0 captured the 0; score red 0 blue 24");
}

TEST(SeedExamples, EachPieceScoresItsNumberAndTheAgreedTargetEndsTheGame) {
  // 10, 15 or 20 points per game (the seed's "thang điểm"). Red has taken 9 (Blue's 9
  // is missing); taking Blue's 6 brings it to 15.
  const std::string fen = full_fen('R', "8c5,5c6", "6c9,9x");
  for (int target : {10, 15, 20}) {
    auto rules = make(R"({"target_score": )" + std::to_string(target) + "}");
    State s = rules->from_fen(fen);
    EXPECT_EQ(rules->score(s), (Score{9, 0}));
    State after = rules->apply(s, rules->parse_move(s, "8:c5xc9"));
    EXPECT_EQ(rules->score(after), (Score{15, 0}));
    const Outcome o = rules->outcome(after);
    if (target <= 15) {
      EXPECT_EQ(o.result(), "1-0") << target;
      EXPECT_EQ(o.reason, "reached the target score " + std::to_string(target));
    } else {
      EXPECT_FALSE(o.over()) << target;
    }
  }
}

TEST(SeedExamples, APieceMovesOneToItsNumberOfEmptySquaresAndTheZeroNeverMoves) {
  auto rules = make(R"({"target_score": 0})");  // a bare board: no target to have reached
  State s = rules->from_fen("R:R0e2,2a5:B0e10");
  EXPECT_EQ(testing::notations(*rules, s),
            (std::vector<std::string>{"2:a5-a3", "2:a5-a4", "2:a5-a6", "2:a5-a7", "2:a5-b4", "2:a5-b5", "2:a5-b6",
                                      "2:a5-c3", "2:a5-c5", "2:a5-c7"}));
}

}  // namespace
}  // namespace sb::cotoan
