// The Morris rules of RULES.md §2, one case each: flying, mill protection, double
// mills, re-formed mills, the ends of the game and the draws, and the family.
#include <gtest/gtest.h>

#include "engines/common/errors.h"
#include "engines/morris/morris_rules.h"
#include "engines/registry.h"
#include "tests/engines/morris/morris_test_support.h"

namespace sb {
namespace {

using morris::MorrisRules;
using morris_test::fen_of;
using morris_test::notations;
using morris_test::notations_from;
using morris_test::words;

std::string reason_of(const Rules& rules, const State& s, const std::string& move) {
  try {
    rules.parse_move(s, move);
  } catch (const IllegalMoveError& e) {
    return e.reason();
  }
  return "(legal)";
}

// --- flying

TEST(Flying, ThreePiecesMayGoToEveryEmptyPoint) {
  auto rules = make_rules("morris9");
  const State s = rules->from_fen(fen_of(*rules, "a7 d5 f2", "b2 d1 g4 e3 c4", 'w', 0, 0));
  const std::vector<std::string> taken = words("a7 d5 f2 b2 d1 g4 e3 c4");
  std::vector<std::string> expected;
  for (const std::string& from : words("a7 d5 f2"))
    for (int i = 0; i < rules->site_count(); ++i) {
      const std::string to = rules->site_name(i);
      if (std::find(taken.begin(), taken.end(), to) == taken.end()) expected.push_back(from + "-" + to);
    }
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(notations(*rules, s), expected);
  EXPECT_EQ(expected.size(), 3u * 16u);
  EXPECT_EQ(rules->parse_move(s, "a7-g1").details.at("kind").as_string(), "fly");
}

TEST(Flying, FourPiecesMoveOnlyAlongLines) {
  auto rules = make_rules("morris9");
  const State s = rules->from_fen(fen_of(*rules, "a7 d5 f2 g7", "b2 d1 g4 e3 c4", 'w', 0, 0));
  EXPECT_EQ(notations(*rules, s), words("a7-a4 a7-d7 d5-c5 d5-d6 d5-e5 f2-d2 f2-f4 g7-d7"));
  EXPECT_EQ(reason_of(*rules, s, "a7-g1"),
            "a7-g1 is not along a line to a neighbouring point, and white may not fly yet: only a player with "
            "exactly 3 pieces flies (white has 4)");
  EXPECT_EQ(rules->parse_move(s, "a7-a4").details.at("kind").as_string(), "slide");
}

TEST(Flying, OptionOffKeepsThreePiecesOnTheLines) {
  auto rules = make_rules("morris9", Json::parse(R"({"flying": false})"));
  const State s = rules->from_fen(fen_of(*rules, "a7 d5 f2", "b2 d1 g4 e3 c4", 'w', 0, 0));
  EXPECT_EQ(notations(*rules, s), words("a7-a4 a7-d7 d5-c5 d5-d6 d5-e5 f2-d2 f2-f4"));
  EXPECT_EQ(reason_of(*rules, s, "a7-g1"), "a7-g1 is not along a line to a neighbouring point (flying is off in these rules)");
}

TEST(Flying, ThreePiecesWithPiecesInHandStillPlace) {
  auto rules = make_rules("morris9");
  const State s = rules->from_fen(fen_of(*rules, "a7 d5 f2", "b2 d1 g4 e3", 'w', 2, 1));
  for (const Move& m : rules->legal_moves(s)) EXPECT_EQ(m.from, -1) << m.notation;
  EXPECT_EQ(reason_of(*rules, s, "a7-a4"), "white still has 2 pieces to place: no piece moves before all are placed");
}

// --- removals

TEST(Removal, PiecesInAMillAreSafeWhileAnyOtherPieceIsNot) {
  auto rules = make_rules("morris9");
  const State s = rules->from_fen(fen_of(*rules, "a7 d7", "a1 d1 g1 b4", 'w', 3, 3));
  EXPECT_EQ(notations_from(*rules, s, "g7"), words("g7xb4"));
  EXPECT_EQ(reason_of(*rules, s, "g7xd1"), "d1 is in a mill, and not every black piece is: it may not be removed");
}

TEST(Removal, WhenEveryOpposingPieceIsInAMillAnyMayBeRemoved) {
  auto rules = make_rules("morris9");
  const State s = rules->from_fen(fen_of(*rules, "a7 d7", "a1 d1 g1", 'w', 3, 4));
  EXPECT_EQ(notations_from(*rules, s, "g7"), words("g7xa1 g7xd1 g7xg1"));
}

TEST(Removal, OptionAlwaysLetsMillPiecesGo) {
  auto rules = make_rules("morris9", Json::parse(R"({"remove_from_mill": "always"})"));
  const State s = rules->from_fen(fen_of(*rules, "a7 d7", "a1 d1 g1 b4", 'w', 3, 3));
  EXPECT_EQ(notations_from(*rules, s, "g7"), words("g7xa1 g7xb4 g7xd1 g7xg1"));
}

TEST(Removal, TheMoveAndItsRemovalAreOneMove) {
  auto rules = make_rules("morris9");
  const State s = rules->from_fen(fen_of(*rules, "a7 d7", "a1 d1 g1 b4", 'w', 3, 3));
  const Move m = rules->parse_move(s, "g7xb4");
  EXPECT_EQ(m.from, -1);
  EXPECT_EQ(rules->site_name(m.to), "g7");
  ASSERT_EQ(m.captured.size(), 1u);
  EXPECT_EQ(rules->site_name(m.captured[0]), "b4");
  EXPECT_EQ(m.points, 1);
  const State after = rules->apply(s, m);
  EXPECT_EQ(rules->fen(after), fen_of(*rules, "a7 d7 g7", "a1 d1 g1", 'b', 2, 3));
  // Taken: 9 - (3 on the board + 3 in hand) black pieces, 9 - (3 + 2) white ones.
  EXPECT_EQ(rules->score(after), (Score{3, 4}));
  EXPECT_EQ(reason_of(*rules, s, "g7"), "the move closes a mill: it must also remove a black piece (written g7x...)");
  EXPECT_EQ(reason_of(*rules, s, "a4xb4"), "no mill was formed, so nothing may be removed");
}

TEST(DoubleMill, RemovesOnePieceByDefault) {
  auto rules = make_rules("morris9");
  const State s = rules->from_fen(fen_of(*rules, "a7 g7 d6 d5", "b2 f2 c3", 'w', 3, 4));
  EXPECT_EQ(notations_from(*rules, s, "d7"), words("d7xb2 d7xc3 d7xf2"));
  EXPECT_EQ(rules->parse_move(s, "d7xb2").details.at("mills").as_int(), 2);
  EXPECT_EQ(reason_of(*rules, s, "d7xb2xc3"), "two mills at once remove only one piece in these rules");
}

TEST(DoubleMill, RemovesTwoPiecesWithTheOption) {
  auto rules = make_rules("morris9", Json::parse(R"({"double_mill_removals": 2})"));
  const State s = rules->from_fen(fen_of(*rules, "a7 g7 d6 d5 e5", "b2 f2 c3", 'w', 2, 4));
  EXPECT_EQ(notations_from(*rules, s, "d7"), words("d7xb2xc3 d7xb2xf2 d7xc3xf2"));
  const Move m = rules->parse_move(s, "d7xc3xb2");  // either order names the same move
  EXPECT_EQ(m.notation, "d7xb2xc3");
  EXPECT_EQ(m.points, 2);
  EXPECT_EQ(reason_of(*rules, s, "d7xb2"), "the move closes two mills: it removes two black pieces");
  // One mill still removes one piece.
  EXPECT_EQ(notations_from(*rules, s, "c5"), words("c5xb2 c5xc3 c5xf2"));
}

TEST(DoubleMill, TheSecondRemovalSeesTheBoardAfterTheFirst) {
  // Black's only piece outside a mill goes first; then every black piece is in a
  // mill, so any of them may follow.
  auto rules = make_rules("morris9", Json::parse(R"({"double_mill_removals": 2})"));
  const State s = rules->from_fen(fen_of(*rules, "a7 g7 d6 d5", "a1 d1 g1 b4", 'w', 3, 3));
  EXPECT_EQ(notations_from(*rules, s, "d7"), words("d7xa1xb4 d7xb4xd1 d7xb4xg1"));
  EXPECT_EQ(reason_of(*rules, s, "d7xa1xd1"), "a1 is in a mill, and not every black piece is: it may not be removed");
}

TEST(DoubleMill, OnlyAsManyRemovalsAsThereArePieces) {
  auto rules = make_rules("morris9", Json::parse(R"({"double_mill_removals": 2})"));
  const State s = rules->from_fen(fen_of(*rules, "a7 g7 d6 d5", "c3", 'w', 3, 5));
  EXPECT_EQ(notations_from(*rules, s, "d7"), words("d7xc3"));
}

TEST(Mill, ReformingAnOpenedMillRemovesAgain) {
  auto rules = make_rules("morris9");
  const State s = rules->from_fen(fen_of(*rules, "a1 d1 g1 f4", "c5 e5 b4 g7", 'w', 0, 0));
  const State opened = rules->play(s, "d1-d2 g7-d7");
  EXPECT_EQ(notations_from(*rules, opened, "d2-d1"), words("d2-d1xb4 d2-d1xc5 d2-d1xd7 d2-d1xe5"));
  EXPECT_EQ(reason_of(*rules, opened, "d2-d1"),
            "the move closes a mill: it must also remove a black piece (written d2-d1x...)");
  const State closed = rules->play(opened, "d2-d1xd7");
  EXPECT_EQ(rules->fen(closed), fen_of(*rules, "a1 d1 g1 f4", "c5 e5 b4", 'b', 0, 0));
}

TEST(Mill, NoMillWhenTheOpponentHasNoPieceOnTheBoard) {
  auto rules = make_rules("morris9");
  const State s = rules->from_fen(fen_of(*rules, "a7 d7", "", 'w', 5, 6));
  EXPECT_EQ(notations_from(*rules, s, "g7"), words("g7"));
  EXPECT_EQ(rules->parse_move(s, "g7").details.at("mills").as_int(), 1);
}

// --- the end of the game

TEST(End, ABlockedPlayerLoses) {
  auto rules = make_rules("morris9");
  const State s = rules->from_fen(fen_of(*rules, "a7 g7 a1 g1", "d7 a4 g4 d1", 'w', 0, 0));
  EXPECT_TRUE(rules->legal_moves(s).empty());
  EXPECT_EQ(rules->outcome(s).result(), "0-1");
  EXPECT_EQ(rules->outcome(s).reason, "white has no legal move");
  EXPECT_EQ(rules->state_line(s), "0-1 white has no legal move");
  EXPECT_EQ(reason_of(*rules, s, "a7-d7"), "the game is over (white has no legal move)");
}

TEST(End, ThreeBlockedPiecesFlyAway) {
  auto rules = make_rules("morris9");
  const State s = rules->from_fen(fen_of(*rules, "a7 g7 a1", "d7 a4 g4 d1", 'w', 0, 0));
  EXPECT_FALSE(rules->outcome(s).over());
  EXPECT_EQ(rules->legal_moves(s).size(), 3u * 17u);
}

TEST(End, TwoPiecesLeftLoses) {
  auto rules = make_rules("morris9");
  const State s = rules->from_fen(fen_of(*rules, "a7 c5 e3", "a1 d1 g4 b2", 'b', 0, 0));
  const State after = rules->play(s, "g4-g1xa7");
  EXPECT_EQ(rules->outcome(after).result(), "0-1");
  EXPECT_EQ(rules->outcome(after).reason, "white has only 2 pieces left");
  EXPECT_TRUE(rules->legal_moves(after).empty());
  EXPECT_EQ(rules->score(after), (Score{5, 7}));
}

TEST(End, PiecesInHandCountTowardsTheTwo) {
  // A player keeps playing with 2 on the board and pieces still to place; with 2
  // pieces in all (board and hand) no mill is possible again and the game is lost.
  auto rules = make_rules("morris9");
  EXPECT_FALSE(rules->outcome(rules->from_fen(fen_of(*rules, "a7 c5", "a1 d1 g4 b2", 'w', 1, 1))).over());
  const State two = rules->from_fen(fen_of(*rules, "a7", "a1 d1 g4 b2", 'w', 1, 1));
  EXPECT_EQ(rules->outcome(two).reason, "white has only 2 pieces left");
}

TEST(Draw, TheThirdOccurrenceOfAPositionIsADraw) {
  auto rules = make_rules("morris9");
  const State s = rules->from_fen("W.W...B.B......B.B...W.W w 0 0");
  const std::string shuffle = "a7-a4 c5-c4 a4-a7 c4-c5 ";
  const State twice = rules->play(s, shuffle);
  EXPECT_EQ(MorrisRules::occurrences(twice), 2);
  EXPECT_FALSE(rules->outcome(twice).over());
  const State seven = rules->play(twice, "a7-a4 c5-c4 a4-a7");
  EXPECT_FALSE(rules->outcome(seven).over());
  const State thrice = rules->play(seven, "c4-c5");
  EXPECT_EQ(MorrisRules::occurrences(thrice), 3);
  EXPECT_EQ(rules->outcome(thrice).result(), "1/2-1/2");
  EXPECT_EQ(rules->outcome(thrice).reason, "threefold repetition");
  EXPECT_TRUE(rules->legal_moves(thrice).empty());
}

// One ply of a walk that never repeats a position and never removes: the first
// move (in notation order) that removes nothing and leads somewhere new. False
// when there is none.
bool quiet_new_step(const Rules& rules, State& s) {
  std::vector<Move> moves = rules.legal_moves(s);
  std::sort(moves.begin(), moves.end(), [](const Move& a, const Move& b) { return a.notation < b.notation; });
  for (const Move& m : moves) {
    if (m.is_capture()) continue;
    const State next = rules.apply(s, m);
    if (MorrisRules::occurrences(next) > 1) continue;
    s = next;
    return true;
  }
  return false;
}

TEST(Draw, HundredPliesWithoutRemovalEndTheGame) {
  auto rules = make_rules("morris9");
  State s = rules->from_fen(fen_of(*rules, "a7 g7 a1 g1", "c5 e5 c3 e3", 'w', 0, 0));
  for (int ply = 1; ply <= 100; ++ply) {
    ASSERT_FALSE(rules->outcome(s).over()) << "ply " << ply << ": " << rules->outcome(s).reason;
    ASSERT_TRUE(quiet_new_step(*rules, s)) << "the walk found no new quiet move at ply " << ply;
    EXPECT_EQ(MorrisRules::position(s).quiet_plies, ply);
    if (ply == 99) {
      EXPECT_FALSE(rules->outcome(s).over());
    }
  }
  EXPECT_EQ(rules->outcome(s).result(), "1/2-1/2");
  EXPECT_EQ(rules->outcome(s).reason, "100 plies without a removal");
  EXPECT_TRUE(rules->legal_moves(s).empty());
}

TEST(Draw, ARemovalRestartsTheCount) {
  auto rules = make_rules("morris9", Json::parse(R"({"move_limit_plies": 4})"));
  const State s = rules->from_fen(fen_of(*rules, "a1 d1 g1 f4", "c5 e5 b4 g7", 'w', 0, 0));
  const State removed = rules->play(s, "d1-d2 g7-d7 d2-d1xb4");
  EXPECT_EQ(MorrisRules::position(removed).quiet_plies, 0);
  const State three = rules->play(removed, "d7-g7 f4-f2 g7-d7");
  EXPECT_FALSE(rules->outcome(three).over());
  const State four = rules->play(three, "f2-f4");
  EXPECT_EQ(rules->outcome(four).reason, "4 plies without a removal");
}

TEST(Draw, APlacementRestartsTheCount) {
  auto rules = make_rules("morris9", Json::parse(R"({"move_limit_plies": 2})"));
  // White has placed all its pieces; black still has one to place.
  const State s = rules->from_fen(fen_of(*rules, "a7 g7 a1 g1 b6 f6 b2 f2 d6", "c5 e5 c3 e3 d3 d2 c4 e4", 'w', 0, 1));
  const State slid = rules->play(s, "a7-d7");
  EXPECT_EQ(MorrisRules::position(slid).quiet_plies, 1);
  const State placed = rules->play(slid, "a4");
  EXPECT_EQ(MorrisRules::position(placed).quiet_plies, 0);
  EXPECT_FALSE(rules->outcome(rules->play(placed, "d7-a7")).over());
  EXPECT_EQ(rules->outcome(rules->play(placed, "d7-a7 a4-b4")).reason, "2 plies without a removal");
}

TEST(Draw, TheMoveLimitCanBeTurnedOff) {
  auto rules = make_rules("morris9", Json::parse(R"({"move_limit_plies": 0})"));
  State s = rules->from_fen(fen_of(*rules, "a7 g7 a1 g1", "c5 e5 c3 e3", 'w', 0, 0));
  for (int ply = 1; ply <= 150; ++ply) ASSERT_TRUE(quiet_new_step(*rules, s)) << ply;
  EXPECT_EQ(MorrisRules::position(s).quiet_plies, 150);
  EXPECT_FALSE(rules->outcome(s).over());
}

// --- the family

TEST(Morris3, TheFirstMillWinsWhilePlacing) {
  auto rules = make_rules("morris3");
  const State s = rules->play(rules->start(), "a1 a2 b1 b2");
  EXPECT_EQ(notations(*rules, s), words("a3 b3 c1 c2 c3"));
  const State won = rules->play(s, "c1");
  EXPECT_EQ(rules->outcome(won).result(), "1-0");
  EXPECT_EQ(rules->outcome(won).reason, "white closed the first mill");
  EXPECT_TRUE(rules->legal_moves(won).empty());
  EXPECT_EQ(reason_of(*rules, s, "c1xa2"), "in three men's morris the first mill wins the game: nothing is removed");
}

TEST(Morris3, TheFirstMillWinsWhileMovingAlongADiagonal) {
  auto rules = make_rules("morris3");
  const State s = rules->from_fen(fen_of(*rules, "a1 b2 b3", "a3 c1 a2", 'w', 0, 0));
  EXPECT_EQ(notations(*rules, s), words("a1-b1 b2-b1 b2-c2 b2-c3 b3-c3"));
  const State won = rules->play(s, "b3-c3");
  EXPECT_EQ(rules->outcome(won).reason, "white closed the first mill");
}

TEST(Morris3, PiecesNeverFly) {
  auto rules = make_rules("morris3");
  const State s = rules->from_fen(fen_of(*rules, "a1 c2 b3", "a3 c1 a2", 'w', 0, 0));
  EXPECT_EQ(reason_of(*rules, s, "a1-c3"), "a1-c3 is not along a line to a neighbouring point");
}

TEST(Morris3, OptionsThatNeedRemovalsAreUnknown) {
  EXPECT_THROW(make_rules("morris3", Json::parse(R"({"remove_from_mill": "always"})")), InputError);
  EXPECT_THROW(make_rules("morris3", Json::parse(R"({"double_mill_removals": 2})")), InputError);
}

TEST(Morris6, SixteenPointsWithMillsOnlyAlongTheSquares) {
  auto rules = make_rules("morris6");
  EXPECT_EQ(rules->site_count(), 16);
  EXPECT_EQ(rules->site_index("c3"), -1);  // no centre, no middle square
  EXPECT_EQ(rules->site_index("b2"), 10);
  // The squares are joined by lines of two (a3-b3, c5-c4, ...) that carry moves.
  const State s = rules->from_fen(fen_of(*rules, "a1 a5 b2 c5", "e1 e5 d2 d4", 'w', 0, 0));
  EXPECT_EQ(notations(*rules, s), words("a1-a3 a1-c1 a5-a3 b2-b3 b2-c2 c5-c4"));
  const State mill = rules->from_fen(fen_of(*rules, "a1 a5 b3 c5", "e1 e5 d2 d4", 'w', 0, 0));
  EXPECT_EQ(notations_from(*rules, mill, "b3-a3"), words("b3-a3xd2 b3-a3xd4 b3-a3xe1 b3-a3xe5"));
}

TEST(Morris12, AFullBoardAfterPlacingIsADraw) {
  // Twelve men each on the 24 points with no line of three of one colour, the
  // diagonals included, so no placement closes a mill.
  auto rules = make_rules("morris12");
  const std::vector<std::string> placements =
      words("a4 a1 b4 a7 c3 b2 c5 b6 d2 c4 d6 d1 d7 d3 e4 d5 e5 e3 f2 f4 g1 f6 g7 g4");
  State s = rules->start();
  for (size_t i = 0; i < placements.size(); ++i) {
    ASSERT_FALSE(rules->outcome(s).over()) << i;
    s = rules->apply(s, rules->parse_move(s, placements[i]));
  }
  EXPECT_EQ(rules->fen(s), "BWWBWBWBWWWBWBBWBBBWWBBW w 0 0");
  EXPECT_EQ(rules->outcome(s).result(), "1/2-1/2");
  EXPECT_EQ(rules->outcome(s).reason, "the board is full");
  EXPECT_TRUE(rules->legal_moves(s).empty());
}

TEST(Morris12, DiagonalsCarryMovesAndMills) {
  auto rules = make_rules("morris12");
  const State s = rules->from_fen(fen_of(*rules, "a1 b2 g7 g1", "d7 a4 d1 e4", 'w', 0, 0));
  EXPECT_EQ(notations_from(*rules, s, "b2-"), words("b2-b4 b2-c3 b2-d2"));
  // b2-c3 is a step along the diagonal a1-b2-c3, which is also a mill.
  const State mill = rules->from_fen(fen_of(*rules, "a1 c3 b4 g1", "d7 a4 d1 e4", 'w', 0, 0));
  EXPECT_EQ(notations_from(*rules, mill, "b4-b2"), words("b4-b2xa4 b4-b2xd1 b4-b2xd7 b4-b2xe4"));
}

TEST(Observe, ShowsOnlyThePiecesOnTheBoard) {
  auto rules = make_rules("morris9");
  const State s = rules->from_fen(fen_of(*rules, "a7 d7", "a1", 'b', 7, 8));
  const Observation o = rules->observe(s);
  ASSERT_EQ(o.sites.size(), 24u);
  int pieces = 0;
  for (const Token& t : o.sites) pieces += !t.empty();
  EXPECT_EQ(pieces, 3);
  EXPECT_EQ(o.sites[rules->site_index("a7")], (Token{'W', 0}));
  EXPECT_EQ(o.sites[rules->site_index("a1")], (Token{'B', 0}));
  EXPECT_TRUE(rules->valid_token(Token{'W', 0}));
  EXPECT_FALSE(rules->valid_token(Token{'R', 0}));
  EXPECT_FALSE(rules->valid_token(Token{'W', 'K'}));
}

}  // namespace
}  // namespace sb
