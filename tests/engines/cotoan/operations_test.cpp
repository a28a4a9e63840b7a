// Each operation in each of the eight directions, for both sides; diagonal pairs;
// the edges of the board; the arithmetic itself.
#include <gtest/gtest.h>

#include "tests/engines/cotoan/cotoan_test_support.h"

namespace sb::cotoan {
namespace {

using testing::captures;
using testing::make;
using testing::notations;

// With 8 behind 3 each operation reaches its own distance:
// 8+3 = 11 → 1, 8−3 = 5, 8×3 = 24 → 4, 8÷3 = 2 rest 2 → 2.
struct OpCase {
  const char* op;
  int distance;
  const char* text;
};
const OpCase kEightThree[] = {{"+", 1, "8+3=11\u21921"},
                              {"-", 5, "8\u22123=5"},
                              {"*", 4, "8\u00d73=24\u21924"},
                              {"/", 2, "8\u00f73=2 rest 2\u21922"}};

const char* const kDirectionNames[] = {"north", "north-east", "east", "south-east",
                                       "south", "south-west", "west", "north-west"};

// A front square with the rear square behind it and 5 squares ahead, the line
// clear of both 0 squares.
int front_square_for(int d) {
  for (int sq = 0; sq < kSquares; ++sq) {
    const int f = file_of(sq), r = rank_of(sq);
    if (!on_board(f - kDirFile[d], r - kDirRank[d]) || !on_board(f + 5 * kDirFile[d], r + 5 * kDirRank[d])) continue;
    bool clear = true;
    for (int k = -1; k <= 5; ++k) {
      const int s = square_at(f + k * kDirFile[d], r + k * kDirRank[d]);
      clear = clear && s != kZeroHome[0] && s != kZeroHome[1];
    }
    if (clear) return sq;
  }
  return kNoSquare;
}

int step(int sq, int d, int k) {
  return square_at(file_of(sq) + k * kDirFile[d], rank_of(sq) + k * kDirRank[d]);
}

TEST(Operations, EachOperationCapturesInEachOfTheEightDirectionsForBothSides) {
  auto rules = make(R"({"target_score": 0})");
  for (int d = 0; d < kDirections; ++d) {
    const int front = front_square_for(d);
    ASSERT_NE(front, kNoSquare) << kDirectionNames[d];
    const std::string rear_name = square_name(step(front, d, -1)), front_name = square_name(front);
    for (const OpCase& c : kEightThree) {
      const std::string target = square_name(step(front, d, c.distance));
      const std::string pair = "8" + rear_name + ",3" + front_name;
      for (char side : {'R', 'B'}) {
        const std::string fen =
            side == 'R' ? "R:R0e2," + pair + ":B0e10,4" + target : "B:R0e2,4" + target + ":B0e10," + pair;
        State s = rules->from_fen(fen);
        const std::string expected = "8:" + rear_name + "x" + target;
        ASSERT_EQ(captures(*rules, s), std::vector<std::string>{expected})
            << kDirectionNames[d] << " " << c.op << " " << fen;
        Move m = testing::move_named(*rules, s, expected);
        EXPECT_EQ(m.details.at("op").as_string(), c.op);
        EXPECT_EQ(testing::calculation_texts(m), std::vector<std::string>{c.text});
        EXPECT_EQ(m.details.at("pair").dump(), "[\"" + rear_name + "\",\"" + front_name + "\"]");
        EXPECT_EQ(m.points, 4);
        State after = rules->apply(s, m);
        EXPECT_EQ(rules->observe(after).sites[rules->site_index(target)].str(), std::string(1, side) + "8");
      }
    }
  }
}

TEST(Operations, NoCaptureAtADistanceNoOperationGives) {
  auto rules = make(R"({"target_score": 0})");
  // 8 behind 3 reaches 1, 2, 4 and 5 squares beyond the 3, never 3.
  State s = rules->from_fen("R:R0e2,8c3,3c4:B0e10,4c7");
  EXPECT_TRUE(captures(*rules, s).empty());
}

TEST(Operations, DiagonalPairsCaptureAlongTheirDiagonalBothWays) {
  auto rules = make(R"({"target_score": 0})");
  // 6 on b3 and 2 on c4, on the a2–h9 diagonal. Up-right the 6 is the rear: 6+2 = 8,
  // 6−2 = 4, 6×2 = 12 → 2, 6÷2 = 3. Down-left the 2 is the rear: 2+6 = 8, 2×6 = 12 → 2,
  // 2÷6 = 0 rest 2 → 2, all beyond a2, the last square that way.
  State s = rules->from_fen("R:R0e2,6b3,2c4:B0e10,1e6,3f7,4g8");
  EXPECT_EQ(captures(*rules, s), (std::vector<std::string>{"6:b3xe6"}));  // the 1 on e6 blocks f7 and g8
  State s2 = rules->from_fen("R:R0e2,6b3,2c4:B0e10,3f7,4g8,5i10");
  EXPECT_EQ(captures(*rules, s2), (std::vector<std::string>{"6:b3xf7"}));  // 6÷2 = 3; g8 is behind f7
  State s3 = rules->from_fen("R:R0e2,2c4,6d5:B0e10,5a2");
  // Down-left from the pair d5 → c4: rear 6, front 2; 6×2 = 12 → 2 lands on a2, the rest fall off.
  EXPECT_EQ(captures(*rules, s3), (std::vector<std::string>{"6:d5xa2"}));
}

TEST(Operations, CapturesDoNotWrapAroundTheEdgeOfTheBoard) {
  auto rules = make(R"({"target_score": 0})");
  // 8 on h5, 3 on i5 facing east: every distance is off the board. The squares that
  // follow i5 in numbering (a6, b6, …) must not be reached.
  State s = rules->from_fen("R:R0e2,8h5,3i5:B0e10,1a6,2b6,3d6,4e6");
  EXPECT_TRUE(captures(*rules, s).empty());
  // The same facing west from the a-file.
  State w = rules->from_fen("R:R0e2,8b5,3a5:B0e10,1i4,2h4,3f4,4e4");
  EXPECT_TRUE(captures(*rules, w).empty());
  // North off the top rank.
  State n = rules->from_fen("R:R0e2,8c10,3c11:B0e10,1d1,2c1");
  EXPECT_TRUE(captures(*rules, n).empty());
}

TEST(Operations, PlainMovesStopAtTheEdgeOfTheBoard) {
  auto rules = make(R"({"target_score": 0})");
  State s = rules->from_fen("R:R0e2,9i11:B0e10");
  std::vector<std::string> moves = notations(*rules, s);
  // 9 on the corner i11: west 8 squares, south 9 (i10…i2), south-west 8 (h10…a3).
  EXPECT_EQ(moves.size(), 8u + 9u + 8u);
  for (const std::string& m : moves) EXPECT_EQ(m.substr(0, 5), "9:i11");
}

TEST(Operations, ATargetOnTheLastSquareOfTheBoardCanBeTaken) {
  auto rules = make(R"({"target_score": 0})");
  // 8 on a1 and 1 on b2 reach 9 (8+1), 7 (8−1) and 8 (8×1, 8÷1) squares up the long
  // diagonal, which ends at i9, 7 squares beyond b2.
  State s = rules->from_fen("R:R0e2,8a1,1b2:B0e10,4i9");
  EXPECT_EQ(captures(*rules, s), (std::vector<std::string>{"8:a1xi9"}));
}

TEST(Arithmetic, ResultsFollowTheSeed) {
  auto texts = [](int r, int f, Division div) {
    std::vector<std::string> out;
    for (const Calculation& c : calculations(r, f, div))
      out.push_back(c.text() + (c.reaches() ? "" : " [" + c.why_none + "]"));
    return out;
  };
  EXPECT_EQ(texts(8, 5, Division::One),
            (std::vector<std::string>{"8+5=13\u21923", "8\u22125=3", "8\u00d75=40 [worthless: its units digit is 0]",
                                      "8\u00f75=1 rest 3\u21923"}));
  EXPECT_EQ(texts(8, 4, Division::One),
            (std::vector<std::string>{"8+4=12\u21922", "8\u22124=4", "8\u00d74=32\u21922", "8\u00f74=2"}));
  EXPECT_EQ(texts(5, 5, Division::One),
            (std::vector<std::string>{"5+5=10 [worthless: its units digit is 0]",
                                      "5\u22125=0 [worthless: the result is 0]", "5\u00d75=25\u21925", "5\u00f75=1"}));
  EXPECT_EQ(texts(5, 8, Division::Both),
            (std::vector<std::string>{"5+8=13\u21923", "5\u22128=\u22123 [not allowed: a difference must be positive]",
                                      "5\u00d78=40 [worthless: its units digit is 0]",
                                      "5\u00f78=0 rest 5 [worthless: the quotient is 0]", "5\u00f78=0 rest 5\u21925"}));
  EXPECT_EQ(texts(8, 0, Division::One),
            (std::vector<std::string>{"8+0=8", "8\u22120=8", "8\u00d70=0 [worthless: the result is 0]",
                                      "8\u00f70 [not allowed: no division by 0]"}));
  EXPECT_TRUE(calculations(0, 5, Division::One).empty());  // the 0 is never the rear piece
}

TEST(Arithmetic, DistanceMasksCollectEveryReachingCalculation) {
  Options o;
  EXPECT_EQ(distance_mask(8, 5, o), 1u << 3);
  EXPECT_EQ(distance_mask(8, 3, o), (1u << 1) | (1u << 5) | (1u << 4) | (1u << 2));
  EXPECT_EQ(distance_mask(8, 0, o), 0u);  // the 0 is no partner by default
  o.zero_partner = true;
  EXPECT_EQ(distance_mask(8, 0, o), 1u << 8);
  EXPECT_EQ(distance_mask(0, 8, o), 0u);
  o.division = Division::Both;
  EXPECT_EQ(distance_mask(8, 5, o), (1u << 3) | (1u << 1));
}

}  // namespace
}  // namespace sb::cotoan
