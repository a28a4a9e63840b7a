// Captures that replace and captures in place; what blocks a shot; the navy's three
// weapons; the headquarters; stacks taken whole (RULES.md §2-3).
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

std::vector<std::string> captures_from(const Position& p, const std::string& from) {
  std::vector<std::string> out;
  for (const std::string& m : moves_from(kRules, p, from))
    if (m.find('x') != std::string::npos || m.find('@') != std::string::npos) out.push_back(m);
  return out;
}

TEST(CotulenhCaptures, LandPiecesTakeANavyAtSeaInPlace) {
  // Infantry one step, tank two (over the empty b4), artillery three.
  EXPECT_EQ(captures_from(board({{"c4", "I"}, {"b4", "n"}}), "c4"), list({"Ic4@b4"}));
  EXPECT_EQ(captures_from(board({{"c4", "T"}, {"a4", "n"}}), "c4"), list({"Tc4@a4"}));
  EXPECT_EQ(captures_from(board({{"d5", "A"}, {"a2", "n"}}), "d5"), list({"Ad5@a2"}));
  const Position after = play(kRules, board({{"c4", "T"}, {"a4", "n"}, {"k12", "i"}}), "Tc4@a4");
  EXPECT_EQ(after.at[site_from_name("c4")].top().kind(), kTank);  // the tank stayed
  EXPECT_TRUE(after.at[site_from_name("a4")].empty());
  EXPECT_EQ(after.points[0], 80);
}

TEST(CotulenhCaptures, OnTheCoastTheCaptureReplaces) {
  EXPECT_EQ(captures_from(board({{"c4", "T"}, {"c6", "n"}}), "c4"), list({"Tc4xc6"}));
  EXPECT_EQ(captures_from(board({{"d5", "A"}, {"c4", "n"}}), "d5"), list({"Ad5xc4"}));
}

TEST(CotulenhCaptures, ArtilleryShootsOverPiecesAndAcrossDeepWater) {
  // Over its own infantry and across the deep river on file e: the capture replaces.
  EXPECT_EQ(captures_from(board({{"e5", "A"}, {"e6", "I"}, {"e8", "t"}}), "e5"), list({"Ae5xe8"}));
  const Position after = play(kRules, board({{"e5", "A"}, {"e6", "I"}, {"e8", "t"}}), "Ae5xe8");
  EXPECT_EQ(after.at[site_from_name("e8")].top().kind(), kArtillery);
}

TEST(CotulenhCaptures, DirectFireIsBlockedEvenByAHeadquarters) {
  EXPECT_TRUE(captures_from(board({{"e3", "T"}, {"e4", "H"}, {"e5", "t"}}), "e3").empty());
  EXPECT_TRUE(captures_from(board({{"e3", "S"}, {"e4", "h"}, {"e5", "t"}}), "e3") == list({"Se3xe4"}));
  EXPECT_TRUE(captures_from(board({{"e2", "S"}, {"e3", "H"}, {"e4", "t"}}), "e2").empty());
  EXPECT_EQ(captures_from(board({{"e2", "A"}, {"e3", "H"}, {"e4", "t"}}), "e2"), list({"Ae2xe4"}));
}

TEST(CotulenhCaptures, MissileTakesTwoOrthogonallyOrOneDiagonally) {
  EXPECT_EQ(captures_from(board({{"e4", "S"}, {"e6", "t"}, {"f5", "i"}, {"g6", "m"}, {"c4", "f"}}), "e4"),
            list({"Se4xc4", "Se4xe6", "Se4xf5"}));
}

TEST(CotulenhCaptures, NavyGunTakesInlandTargetsInPlaceAndCoastalOnesByReplacing) {
  EXPECT_EQ(captures_from(board({{"c5", "N"}, {"e5", "t"}}), "c5"), list({"Nc5@e5"}));
  EXPECT_EQ(captures_from(board({{"c5", "N"}, {"c7", "i"}}), "c5"), list({"Nc5xc7"}));
  EXPECT_EQ(captures_from(board({{"a5", "N"}, {"c5", "i"}}), "a5"), list({"Na5xc5"}));
  // Along the river mouth no land lies between: it replaces.
  EXPECT_EQ(captures_from(board({{"c8", "N"}, {"e6", "i"}}), "c8"), list({"Nc8xe6"}));
  // Over d5 (land) it cannot sail: in place.
  EXPECT_EQ(captures_from(board({{"c4", "N"}, {"e6", "i"}}), "c4"), list({"Nc4@e6"}));
  // The gun shoots over pieces, three steps at most.
  EXPECT_EQ(captures_from(board({{"c5", "N"}, {"d5", "I"}, {"f5", "t"}, {"g5", "t"}}), "c5"), list({"Nc5@f5"}));
}

TEST(CotulenhCaptures, NavyMissilesTakeNaviesOnlyAlongClearLines) {
  EXPECT_EQ(captures_from(board({{"b3", "N"}, {"b7", "n"}}), "b3"), list({"Nb3xb7"}));
  EXPECT_TRUE(captures_from(board({{"b3", "N"}, {"b5", "N"}, {"b7", "n"}}), "b3").empty());
  EXPECT_TRUE(captures_from(board({{"b3", "N"}, {"b8", "n"}}), "b3").empty());
  // Across land (d8) the ship cannot follow its missile: in place.
  EXPECT_EQ(captures_from(board({{"e7", "N"}, {"c9", "n"}}), "e7"), list({"Ne7@c9"}));
}

TEST(CotulenhCaptures, AtSeaANavyHitsAnAirForceOnlyWithItsAntiAircraftGun) {
  EXPECT_EQ(captures_from(board({{"b5", "N"}, {"a5", "f"}}), "b5"), list({"Nb5xa5"}));
  EXPECT_TRUE(captures_from(board({{"b5", "N"}, {"a6", "f"}}), "b5").empty());
  EXPECT_TRUE(captures_from(board({{"b5", "N"}, {"b7", "f"}}), "b5").empty());
  // Over land the gun takes it.
  EXPECT_EQ(captures_from(board({{"c5", "N"}, {"e5", "f"}}), "c5"), list({"Nc5@e5"}));
}

TEST(CotulenhCaptures, AirForceReplacesOrBombsAndReturnsButTakesAnAirForceByReplacing) {
  EXPECT_EQ(captures_from(board({{"e3", "F"}, {"e6", "t"}}), "e3"), list({"Fe3@e6", "Fe3xe6"}));
  EXPECT_EQ(captures_from(board({{"e3", "F"}, {"e6", "f"}}), "e3"), list({"Fe3xe6"}));
  const Move bomb = move_of(kRules, board({{"e3", "F"}, {"e6", "t"}}), "Fe3@e6");
  EXPECT_EQ(bomb.to, site_from_name("e3"));
  EXPECT_EQ(bomb.path, (std::vector<int>{site_from_name("e6"), site_from_name("e3")}));
  EXPECT_EQ(kRules.waypoints(kRules.make_state(board({{"e3", "F"}, {"e6", "t"}})), bomb),
            std::vector<int>{site_from_name("e6")});
}

TEST(CotulenhCaptures, CommanderCapturesOnlyOneStepAway) {
  EXPECT_EQ(captures_from(board({{"e5", "C"}, {"e6", "i"}, {"d5", "i"}, {"f6", "i"}}), "e5"),
            list({"Ce5xd5", "Ce5xe6"}));
  EXPECT_TRUE(captures_from(board({{"e5", "C"}, {"e7", "i"}}), "e5").empty());
  EXPECT_EQ(testing::refusal(kRules, board({{"e5", "C"}, {"e7", "i"}}), "Ce5xe7"),
            "the commander captures only one step away");
}

TEST(CotulenhCaptures, HeadquartersIsTakenWithTheCommanderInside) {
  const Position p = board({{"e5", "T"}, {"e7", "(hc)"}, {"k1", "C"}});
  EXPECT_EQ(captures_from(p, "e5"), list({"Te5xe7"}));
  const Position after = play(kRules, p, "Te5xe7");
  EXPECT_EQ(after.lost[1][kHeadquarters], 1);
  EXPECT_EQ(after.lost[1][kCommander], 1);
  EXPECT_TRUE(kRules.outcome(kRules.make_state(after)).over());
}

TEST(CotulenhCaptures, AStackIsTakenWholeAndScoresAllItsPieces) {
  const Position after = play(kRules, board({{"e3", "A"}, {"e6", "(ti)"}, {"k12", "m"}}), "Ae3xe6");
  EXPECT_EQ(after.points[0], 30);
  EXPECT_EQ(after.lost[1][kTank], 1);
  EXPECT_EQ(after.lost[1][kInfantry], 1);
}

TEST(CotulenhCaptures, HeavyPiecesCaptureAcrossDeepWaterButDoNotMoveAcross) {
  const Position p = board({{"e6", "G"}, {"e7", "i"}});
  EXPECT_TRUE(has_move(kRules, p, "Ge6xe7"));
  EXPECT_EQ(testing::refusal(kRules, board({{"e6", "G"}}), "Ge6-e7"),
            "heavy pieces cross deep water only at a ford (files f and h) or carried by an engineer");
}

TEST(CotulenhCaptures, OnlyAirDefenceTakesAnAirForceWhenTheClubSaysSo) {
  const CotulenhRules strict(Options::from_json(Json::parse(R"({"air_targets": "air_defence"})")));
  const Position p = board({{"e5", "T"}, {"e6", "f"}, {"d5", "G"}, {"d6", "f"}});
  EXPECT_FALSE(has_move(strict, p, "Te5xe6"));
  EXPECT_TRUE(has_move(strict, p, "Gd5xd6"));
  EXPECT_TRUE(has_move(kRules, p, "Te5xe6"));
  EXPECT_EQ(testing::refusal(strict, p, "Te5xe6"),
            "only anti-aircraft guns, missiles, navies and air forces can take an air force");
}

}  // namespace
}  // namespace sb::cotulenh
