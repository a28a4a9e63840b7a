// Carrying: who rides whom, boarding as a move, stacks moving as one, a stack's
// pieces acting in different directions on one turn, the engineer's ferry, and what
// a camera sees of a stack (RULES.md §1, §6).
#include "tests/engines/cotulenh/test_support.h"

namespace sb::cotulenh {
namespace {

using testing::board;
using testing::has_move;
using testing::list;
using testing::move_of;
using testing::moves_from;
using testing::play;
using testing::refusal;

const CotulenhRules kRules;

std::string at(const Position& p, const char* sq) {
  return stack_letters(p.at[site_from_name(sq)], true, true);
}

TEST(CotulenhStacks, BoardingIsAMoveEitherWay) {
  // The infantry climbs on the tank, or the tank picks it up.
  EXPECT_EQ(at(play(kRules, board({{"e5", "T"}, {"e6", "I"}}), "Ie6-e5"), "e5"), "(TI)");
  EXPECT_EQ(at(play(kRules, board({{"e5", "T"}, {"e6", "I"}}), "Te5-e6"), "e6"), "(TI)");
  // An air force lands on a navy at sea; a tank drives aboard from the coast.
  EXPECT_EQ(at(play(kRules, board({{"e4", "F"}, {"b4", "N"}}), "Fe4-b4"), "b4"), "(NF)");
  EXPECT_EQ(at(play(kRules, board({{"c4", "T"}, {"b4", "N"}}), "Tc4-b4"), "b4"), "(NT)");
  // Carriers with riders merge when the result is allowed.
  EXPECT_EQ(at(play(kRules, board({{"c4", "(TI)"}, {"b4", "(NF)"}}), "(TI)c4-b4"), "b4"), "(NTFI)");
  // The commander enters its headquarters.
  EXPECT_EQ(at(play(kRules, board({{"e5", "C"}, {"e6", "H"}}), "Ce5-e6"), "e6"), "(HC)");
}

TEST(CotulenhStacks, OnlyTheAllowedPiecesRide) {
  const Position p = board({{"e5", "T"}, {"e6", "I"}, {"f5", "A"}, {"d5", "F"}, {"e4", "M"}, {"f6", "G"}, {"f4", "E"}});
  EXPECT_EQ(refusal(kRules, p, "Af5-e5"), "a tank carries only a commander, an infantry or a militia");
  EXPECT_EQ(refusal(kRules, p, "Te5-d5"), "an air force carries only a commander, an infantry or a militia");
  EXPECT_EQ(refusal(kRules, p, "Ie6-f6"), "the infantry and an anti-aircraft gun cannot share a site");
  EXPECT_EQ(refusal(kRules, p, "Me4-f4"),
            "an engineer carries only one heavy weapon (artillery, anti-aircraft gun or missile)");
}

TEST(CotulenhStacks, ATankDoesNotDriveAcrossOpenSeaToBoard) {
  const Position p = board({{"c4", "T"}, {"a4", "N"}});
  EXPECT_FALSE(has_move(kRules, p, "Tc4-a4"));
  EXPECT_EQ(refusal(kRules, p, "Tc4-a4"), "a tank cannot cross the open sea");
}

TEST(CotulenhStacks, AStackMovesAsOneByItsCarriersRules) {
  // The pair moves as the tank (8), the tank leaves the infantry (8), the infantry steps off
  // (4), or both go, to different sites (8 x 4 - 4).
  EXPECT_EQ(moves_from(kRules, board({{"e5", "(TI)"}}), "e5").size(), 8u + 8u + 4u + 28u);
  // The air force carries its infantry over pieces and over the sea.
  const Position p = play(kRules, board({{"e5", "(FI)"}, {"e6", "G"}}), "(FI)e5-b5");
  EXPECT_EQ(at(p, "b5"), "(FI)");
}

TEST(CotulenhStacks, AStackSplitsWithEachPieceGoingItsOwnWay) {
  // Navy, tank and air force on c10: the navy takes the blue navy on c12, the tank drives
  // to e10, the air force strikes e12 and flies back... each from c10, on one turn.
  const Position p = board({{"c10", "(NTF)"}, {"c12", "n"}, {"e12", "i"}, {"k1", "C"}, {"k12", "c"}});
  const Move m = move_of(kRules, p, "Nc10xc12/Tc10-e10/Fc10@e12");
  EXPECT_EQ(m.details.at("kind").as_string(), "split");
  EXPECT_EQ(m.captured.size(), 2u);
  EXPECT_EQ(m.points, 90);
  const Position after = play(kRules, p, "Nc10xc12/Tc10-e10/Fc10@e12");
  EXPECT_EQ(at(after, "c12"), "N");
  EXPECT_EQ(at(after, "e10"), "T");
  EXPECT_EQ(at(after, "c10"), "F");  // the air force returned to where it took off
  // The parts may be written in any order.
  EXPECT_NO_THROW(kRules.parse_move(kRules.make_state(p), "Fc10@e12/Tc10-e10/Nc10xc12"));
}

TEST(CotulenhStacks, PiecesNotWrittenStayAndACarrierTakesOnlyThoseWrittenWithIt) {
  const Position p = board({{"c6", "(NTF)"}});
  EXPECT_EQ(at(play(kRules, p, "(NT)c6-c8"), "c6"), "F");
  EXPECT_EQ(at(play(kRules, p, "(NT)c6-c8"), "c8"), "(NT)");
  EXPECT_EQ(at(play(kRules, p, "(NTF)c6-c8"), "c8"), "(NTF)");
  // The tank and the air force cannot stay together without the ship.
  EXPECT_FALSE(has_move(kRules, p, "Nc6-c8"));
  EXPECT_EQ(refusal(kRules, p, "Nc6-c8"),
            "a tank carries only a commander, an infantry or a militia: those left behind cannot stay together");
}

TEST(CotulenhStacks, NoPieceIsLeftAloneAtSea) {
  const Position p = board({{"b5", "(NI)"}});
  EXPECT_FALSE(has_move(kRules, p, "Nb5-b7"));
  EXPECT_EQ(refusal(kRules, p, "Nb5-b7"), "the infantry cannot be left on b5 (b5 is open sea)");
  EXPECT_TRUE(has_move(kRules, p, "Ib5-c5"));
  EXPECT_TRUE(has_move(kRules, p, "(NI)b5-b7"));
  EXPECT_TRUE(has_move(kRules, p, "Nb5-b7/Ib5-c5"));
}

TEST(CotulenhStacks, TwoPartsOfASplitNeverEndOnTheSameSite) {
  const Position p = board({{"e5", "(TI)"}});
  EXPECT_FALSE(has_move(kRules, p, "Te5-e6/Ie5-e6"));
  EXPECT_EQ(refusal(kRules, p, "Te5-e6/Ie5-e6"), "two pieces of a stack cannot end on or take the same site");
  EXPECT_EQ(refusal(kRules, p, "Te5-e6/Te5-e7"), "each piece of a stack acts at most once in a turn");
}

TEST(CotulenhStacks, TheEngineerFerriesAHeavyWeaponOnlyAcrossTheRiver) {
  const Position p = board({{"e6", "(EA)"}});
  EXPECT_TRUE(has_move(kRules, p, "(EA)e6-e7"));
  EXPECT_FALSE(has_move(kRules, p, "(EA)e6-d6"));
  EXPECT_EQ(refusal(kRules, p, "(EA)e6-d6"),
            "an engineer carries a heavy weapon only across the river, from one bank to the other");
  // Alone, the artillery may not cross here.
  EXPECT_FALSE(has_move(kRules, p, "Ae6-e7"));
  // Loading is a move anywhere.
  EXPECT_EQ(at(play(kRules, board({{"e5", "A"}, {"e6", "E"}}), "Ae5-e6"), "e6"), "(EA)");
  // After the crossing, the load goes its own way.
  const Position across = play(kRules, board({{"e6", "(EA)"}, {"k12", "i"}}), "(EA)e6-e7 Ik12-k11");
  EXPECT_TRUE(has_move(kRules, across, "Ae7-e9"));
}

TEST(CotulenhStacks, TheCameraSeesTheTopPiece) {
  const Position p = board({{"e5", "(TI)"}, {"b4", "(NTF)"}, {"e7", "(hc)"}, {"g7", "f"}});
  const Observation o = kRules.observe(kRules.make_state(p));
  EXPECT_EQ(o.sites[site_from_name("e5")].str(), "RI");
  EXPECT_EQ(o.sites[site_from_name("b4")].str(), "RF");
  EXPECT_EQ(o.sites[site_from_name("e7")].str(), "BC");
  EXPECT_EQ(o.sites[site_from_name("g7")].str(), "BF");
  EXPECT_TRUE(o.sites[site_from_name("a1")].empty());
  EXPECT_TRUE(kRules.valid_token(parse_token("RT")));
  EXPECT_FALSE(kRules.valid_token(parse_token("WT")));
  EXPECT_FALSE(kRules.valid_token(parse_token("RX")));
  EXPECT_FALSE(kRules.valid_token(parse_token("R")));
}

}  // namespace
}  // namespace sb::cotulenh
