// Each piece's moves from a few sites of an empty board and next to the sea and the
// river (RULES.md §1-2).
#include "tests/engines/cotulenh/test_support.h"

namespace sb::cotulenh {
namespace {

using testing::board;
using testing::list;
using testing::moves_from;

const CotulenhRules kRules;

std::vector<std::string> alone(const char* sq, const char* token) {
  return moves_from(kRules, board({{sq, token}}), sq);
}

TEST(CotulenhPieces, InfantryStepsOneSiteAlongFilesAndRanks) {
  EXPECT_EQ(alone("e5", "I"), list({"Ie5-d5", "Ie5-e4", "Ie5-e6", "Ie5-f5"}));
  // On the coast: the sea is no ground for it.
  EXPECT_EQ(alone("c5", "I"), list({"Ic5-c4", "Ic5-c6", "Ic5-d5"}));
  // It wades across deep water.
  EXPECT_EQ(alone("e6", "I"), list({"Ie6-d6", "Ie6-e5", "Ie6-e7", "Ie6-f6"}));
  EXPECT_EQ(alone("k12", "I"), list({"Ik12-j12", "Ik12-k11"}));
}

TEST(CotulenhPieces, EngineerMovesLikeInfantryAndCrossesDeepWater) {
  EXPECT_EQ(alone("d6", "E"), list({"Ed6-c6", "Ed6-d5", "Ed6-d7", "Ed6-e6"}));
}

TEST(CotulenhPieces, AntiAircraftGunIsHeavyAndCrossesOnlyAtAFord) {
  EXPECT_EQ(alone("e6", "G"), list({"Ge6-d6", "Ge6-e5", "Ge6-f6"}));
  EXPECT_EQ(alone("f6", "G"), list({"Gf6-e6", "Gf6-f5", "Gf6-f7", "Gf6-g6"}));
  EXPECT_EQ(alone("h7", "g"), std::vector<std::string>{});  // Blue's piece: Red to move
  EXPECT_EQ(moves_from(kRules, board({{"h7", "g"}}, Side::Second), "h7"),
            list({"Gh7-g7", "Gh7-h6", "Gh7-h8", "Gh7-i7"}));
}

TEST(CotulenhPieces, MilitiaStepsOneSiteInEightDirections) {
  EXPECT_EQ(alone("e5", "M").size(), 8u);
  EXPECT_EQ(alone("c5", "M"), list({"Mc5-c4", "Mc5-c6", "Mc5-d4", "Mc5-d5", "Mc5-d6"}));
  // A diagonal step across the river is fine for a militia (only heavy pieces need a ford).
  EXPECT_EQ(alone("e6", "M").size(), 8u);
}

TEST(CotulenhPieces, TankMovesOneOrTwoAlongFilesAndRanks) {
  EXPECT_EQ(alone("e5", "T"), list({"Te5-c5", "Te5-d5", "Te5-e3", "Te5-e4", "Te5-e6", "Te5-e7", "Te5-f5", "Te5-g5"}));
  EXPECT_EQ(alone("d5", "T"), list({"Td5-c5", "Td5-d3", "Td5-d4", "Td5-d6", "Td5-d7", "Td5-e5", "Td5-f5"}));
  // Blocked: it never passes over a piece (here an anti-aircraft gun it cannot carry).
  EXPECT_EQ(moves_from(kRules, board({{"e5", "T"}, {"e6", "G"}}), "e5"),
            list({"Te5-c5", "Te5-d5", "Te5-e3", "Te5-e4", "Te5-f5", "Te5-g5"}));
}

TEST(CotulenhPieces, ArtilleryReachesThreeInEightDirectionsButNotAcrossDeepWater) {
  const auto m = alone("e4", "A");
  EXPECT_EQ(m.size(), 19u);
  EXPECT_EQ(std::count(m.begin(), m.end(), "Ae4-e6"), 1);
  EXPECT_EQ(std::count(m.begin(), m.end(), "Ae4-e7"), 0);  // e6-e7 is deep water
  EXPECT_EQ(std::count(m.begin(), m.end(), "Ae4-h7"), 0);  // g6-h7: a diagonal crosses deep water
  EXPECT_EQ(std::count(m.begin(), m.end(), "Ae4-b1"), 0);  // b1 is sea
  // On file f the artillery crosses at the ford.
  const auto f = alone("f5", "A");
  EXPECT_EQ(std::count(f.begin(), f.end(), "Af5-f8"), 1);
  EXPECT_EQ(std::count(f.begin(), f.end(), "Af5-h7"), 0);
}

TEST(CotulenhPieces, MissileMovesTwoOrthogonallyOrOneDiagonally) {
  EXPECT_EQ(alone("e4", "S"), list({"Se4-c4", "Se4-d3", "Se4-d4", "Se4-d5", "Se4-e2", "Se4-e3", "Se4-e5", "Se4-e6",
                                    "Se4-f3", "Se4-f4", "Se4-f5", "Se4-g4"}));
  // From e5 the second step up would cross deep water.
  const auto m = alone("e5", "S");
  EXPECT_EQ(std::count(m.begin(), m.end(), "Se5-e7"), 0);
  EXPECT_EQ(std::count(m.begin(), m.end(), "Se5-e6"), 1);
}

TEST(CotulenhPieces, AirForceFliesFourInEightDirectionsAnywhere) {
  EXPECT_EQ(alone("e5", "F").size(), 32u);
  // It flies over pieces and may stand over the sea.
  const auto m = moves_from(kRules, board({{"e5", "F"}, {"e6", "I"}, {"d5", "T"}}), "e5");
  EXPECT_EQ(m.size(), 31u);  // it picks up its infantry on e6, but cannot land on its tank on d5
  EXPECT_EQ(std::count(m.begin(), m.end(), "Fe5-e6"), 1);
  EXPECT_EQ(std::count(m.begin(), m.end(), "Fe5-d5"), 0);
  EXPECT_EQ(std::count(m.begin(), m.end(), "Fe5-e9"), 1);
  EXPECT_EQ(std::count(m.begin(), m.end(), "Fe5-a5"), 1);
}

TEST(CotulenhPieces, NavySailsTheSeaTheCoastAndTheRiverMouth) {
  EXPECT_EQ(alone("b5", "N"), list({"Nb5-a4", "Nb5-a5", "Nb5-a6", "Nb5-b1", "Nb5-b2", "Nb5-b3", "Nb5-b4", "Nb5-b6",
                                    "Nb5-b7", "Nb5-b8", "Nb5-b9", "Nb5-c4", "Nb5-c5", "Nb5-c6", "Nb5-d7"}));
  EXPECT_EQ(alone("d6", "N"), list({"Nd6-a3", "Nd6-a6", "Nd6-a9", "Nd6-b4", "Nd6-b6", "Nd6-b8", "Nd6-c5", "Nd6-c6",
                                    "Nd6-c7", "Nd6-d7", "Nd6-e6", "Nd6-e7"}));
}

TEST(CotulenhPieces, CommanderMovesAnyDistanceAlongClearFilesAndRanks) {
  const auto m = alone("e5", "C");
  EXPECT_EQ(m.size(), 19u);
  EXPECT_EQ(std::count(m.begin(), m.end(), "Ce5-e12"), 1);
  EXPECT_EQ(std::count(m.begin(), m.end(), "Ce5-b5"), 0);  // sea
  EXPECT_EQ(std::count(m.begin(), m.end(), "Ce5-f6"), 0);  // never diagonally
  // Up the file it stops at its headquarters, which it may enter.
  const auto h = moves_from(kRules, board({{"e5", "C"}, {"e8", "H"}}), "e5");
  EXPECT_EQ(h.size(), 15u);
  EXPECT_EQ(std::count(h.begin(), h.end(), "Ce5-e8"), 1);
}

TEST(CotulenhPieces, HeadquartersNeverMoves) {
  EXPECT_TRUE(alone("f2", "H").empty());
}

}  // namespace
}  // namespace sb::cotulenh
