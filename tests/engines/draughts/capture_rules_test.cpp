// The capture rules of RULES.md §1, one position each, with the full list of
// legal moves worked out by hand. Boards are drawn as Rules::ascii prints them
// (White at the bottom; square 1 is the top-left dark square).
#include <gtest/gtest.h>

#include "tests/engines/draughts/draughts_test_util.h"

namespace sb::draughts {
namespace {

using testing::make;
using testing::move_list;
using testing::Strings;

// Square numbers of the 8x8 board, for reading the diagrams:
//      1   2   3   4        b8 d8 f8 h8
//    5   6   7   8          a7 c7 e7 g7
//      9  10  11  12        b6 d6 f6 h6
//   13  14  15  16          a5 c5 e5 g5
//     17  18  19  20        b4 d4 f4 h4
//   21  22  23  24          a3 c3 e3 g3
//     25  26  27  28        b2 d2 f2 h2
//   29  30  31  32          a1 c1 e1 g1

// The man on c1 can take three men (b2, b4, b6); the man on h2 two kings (g3, e5).
TEST(DraughtsCaptures, MajorityRuleCountsPiecesNotKings) {
  const char* fen = "W:W28,30:B9,17,25,K15,K24";
  auto brazilian = make("brazilian");
  EXPECT_EQ(brazilian->ascii(brazilian->from_fen(fen)),
            "  .   .   .   .\n"
            ".   .   .   .\n"
            "  b   .   .   .\n"
            ".   .   B   .\n"
            "  b   .   .   .\n"
            ".   .   .   B\n"
            "  b   .   .   w\n"
            ".   w   .   .\n"
            "white to move\n");
  EXPECT_EQ(move_list(*brazilian, fen), (Strings{"30x5"}));
  // International rules have the same majority rule; English has none.
  EXPECT_EQ(move_list(*make("english"), fen), (Strings{"28x10", "30x5"}));
}

// Two captures of two pieces each, one taking two kings and one taking two men: both are legal.
TEST(DraughtsCaptures, MajorityRuleLetsThePlayerChooseBetweenEqualCounts) {
  const char* fen = "W:W28,30:B17,25,K15,K24";
  EXPECT_EQ(move_list(*make("brazilian"), fen), (Strings{"28x10", "30x14"}));
}

// The white king on a7 takes c5 and may land on d4, e3, f2 or g1; only from e3 can
// it go on, taking g5 (landing h6) or d2 (landing c1). From c1 the way up the
// c1-h6 diagonal crosses d2, which was taken but stays on the board until the move
// ends (Turkish strike), so the king cannot reach g5 as well: two pieces, not three.
TEST(DraughtsCaptures, TurkishStrikeCapturedPiecesBlockUntilTheMoveEnds) {
  auto rules = make("brazilian");
  const char* fen = "W:WK5:B14,16,26";
  EXPECT_EQ(rules->ascii(rules->from_fen(fen)),
            "  .   .   .   .\n"
            "W   .   .   .\n"
            "  .   .   .   .\n"
            ".   b   .   b\n"
            "  .   .   .   .\n"
            ".   .   .   .\n"
            "  .   b   .   .\n"
            ".   .   .   .\n"
            "white to move\n");
  EXPECT_EQ(move_list(*rules, fen), (Strings{"5x12", "5x30"}));
  for (const Move& m : rules->legal_moves(rules->from_fen(fen))) EXPECT_EQ(m.captured.size(), 2u) << m.notation;
}

// A piece already taken may not be jumped again: the man on c1 goes round the
// four men and stops on its own start square, unable to take b2 a second time.
TEST(DraughtsCaptures, APieceIsNeverTakenTwice) {
  auto rules = make("brazilian");
  const State s = rules->from_fen("W:W30:B17,18,25,26");
  const std::vector<Move> moves = rules->legal_moves(s);
  ASSERT_EQ(moves.size(), 1u);
  EXPECT_EQ(moves[0].notation, "30x30");
  EXPECT_EQ(moves[0].captured.size(), 4u);
  EXPECT_EQ(rules->fen(rules->apply(s, moves[0])), "B:W30:B");
}

// The man on d6 takes e7 and lands on f8, the far row, in the middle of the
// capture; it goes on as a man, back over g7 to h6. As a king it could also have
// taken e3 along the h6-c1 diagonal. Ending on h6, it is not promoted.
TEST(DraughtsCaptures, AManCrossingTheFarRowMidCaptureStaysAMan) {
  auto rules = make("brazilian");
  const State s = rules->from_fen("W:W10:B7,8,23");
  EXPECT_EQ(move_list(*rules, s), (Strings{"10x12"}));
  const Move m = rules->parse_move(s, "10x12");
  EXPECT_EQ(m.path, (std::vector<int>{2, 11}));  // f8 (3), h6 (12), 0-based
  EXPECT_EQ(m.details.at("promotes").as_bool(), false);
  EXPECT_EQ(rules->fen(rules->apply(s, m)), "B:W12:B23");
}

TEST(DraughtsCaptures, AManEndingItsCaptureOnTheFarRowIsPromoted) {
  auto rules = make("brazilian");
  const State s = rules->from_fen("W:W10:B7,23");
  EXPECT_EQ(move_list(*rules, s), (Strings{"10x3"}));
  EXPECT_EQ(rules->fen(rules->apply(s, rules->parse_move(s, "10x3"))), "B:WK3:B23");
  // A step onto the far row promotes too.
  EXPECT_EQ(rules->fen(rules->play(rules->from_fen("W:W6:B23"), "6-1")), "B:WK1:B23");
}

// A flying king may land on any empty square beyond the piece it takes.
TEST(DraughtsCaptures, AFlyingKingMayLandAnywhereBeyondThePiece) {
  EXPECT_EQ(move_list(*make("brazilian"), "W:WK29:B22"), (Strings{"29x11", "29x15", "29x18", "29x4", "29x8"}));
  EXPECT_EQ(move_list(*make("international"), "W:WK46:B41"),
            (Strings{"46x10", "46x14", "46x19", "46x23", "46x28", "46x32", "46x37", "46x5"}));
}

// ...but when only one landing square lets it go on, the majority rule picks it:
// from e5 the king takes d6 as well (landing c7 or b8).
TEST(DraughtsCaptures, KingLandingSquaresAreNarrowedByTheMajorityRule) {
  EXPECT_EQ(move_list(*make("brazilian"), "W:WK29:B10,22"), (Strings{"29x1", "29x6"}));
}

TEST(DraughtsCaptures, AKingTakesAtAnyDistanceWithTheSquaresBetweenEmpty) {
  // Brazilian: the king on d4 takes f6 from two squares away; English: no capture, one-square steps.
  EXPECT_EQ(move_list(*make("brazilian"), "W:WK18:B11"), (Strings{"18x4", "18x8"}));
  EXPECT_EQ(move_list(*make("english"), "W:WK18:B11"), (Strings{"18-14", "18-15", "18-22", "18-23"}));
  // A piece in between blocks the capture.
  EXPECT_EQ(move_list(*make("brazilian"), "W:WK29:B18,22"), (Strings{"29-25"}));
}

// The man on d4 has a black man behind it on c3 with b2 empty.
TEST(DraughtsCaptures, MenCaptureBackwardExceptInEnglish) {
  EXPECT_EQ(move_list(*make("brazilian"), "W:W18:B22"), (Strings{"18x25"}));
  EXPECT_EQ(move_list(*make("international"), "W:W28:B33"), (Strings{"28x39"}));
  EXPECT_EQ(move_list(*make("english"), "W:W18:B22"), (Strings{"18-14", "18-15"}));
}

TEST(DraughtsCaptures, MenStepForwardOnlyAndOneSquare) {
  EXPECT_EQ(move_list(*make("brazilian"), "W:W18:B1"), (Strings{"18-14", "18-15"}));
  EXPECT_EQ(move_list(*make("brazilian"), "B:W32:B18"), (Strings{"18-22", "18-23"}));
}

// The king on e1 can take three pieces four ways; two of them go from e1 to a3
// taking different pieces (f2 f4 b4, or f2 f6 b4), so those two are written
// with their full paths.
TEST(DraughtsCaptures, CapturesSharingStartAndEndAreWrittenWithTheFullPath) {
  auto rules = make("brazilian");
  const char* fen = "W:WK31:B11,17,19,27";
  EXPECT_EQ(rules->ascii(rules->from_fen(fen)),
            "  .   .   .   .\n"
            ".   .   .   .\n"
            "  .   .   b   .\n"
            ".   .   .   .\n"
            "  b   .   b   .\n"
            ".   .   .   .\n"
            "  .   .   b   .\n"
            ".   .   W   .\n"
            "white to move\n");
  EXPECT_EQ(move_list(*rules, fen), (Strings{"31x20x7x21", "31x24x10x21", "31x4", "31x8"}));
  const State s = rules->from_fen(fen);
  // The start and end alone do not say which: an error names both paths.
  try {
    rules->parse_move(s, "31x21");
    FAIL() << "31x21 is ambiguous";
  } catch (const IllegalMoveError&) {
    FAIL() << "ambiguity is not an illegal move";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("31x20x7x21, 31x24x10x21"), std::string::npos) << e.what();
  }
  EXPECT_EQ(rules->parse_move(s, "31x24x10x21").captured, (std::vector<int>{26, 18, 16}));
}

// The same pieces taken in another order, with the same start and end, are one
// move; either full path names it.
TEST(DraughtsCaptures, EitherOrderOfTheSameCaptureIsAccepted) {
  auto rules = make("brazilian");
  const State s = rules->from_fen("W:W30:B17,18,25,26");
  EXPECT_EQ(rules->parse_move(s, "30x21x14x23x30").notation, "30x30");
  EXPECT_EQ(rules->parse_move(s, "30x23x14x21x30").notation, "30x30");
  EXPECT_EQ(rules->parse_move(s, "30x30").notation, "30x30");
}

// The man on c3 can take one piece (b4) or two (d4, f6); the man on a3 one
// (b4), or in Brazilian two, taking d4 backward from c5.
TEST(DraughtsCaptures, EnglishHasNoMajorityRuleButACaptureIsCompleted) {
  const char* fen = "W:W21,22:B11,17,18";
  EXPECT_EQ(move_list(*make("english"), fen), (Strings{"21x14", "22x13", "22x8"}));
  EXPECT_EQ(move_list(*make("brazilian"), fen), (Strings{"21x23", "22x8"}));
  auto english = make("english");
  EXPECT_THROW(english->parse_move(english->from_fen(fen), "22x15"), IllegalMoveError);
}

TEST(DraughtsCaptures, EnglishKingsCaptureOneSquareAwayInEveryDirection) {
  // White king on d4 next to black men on c3 and e5; it may take either, not both.
  EXPECT_EQ(move_list(*make("english"), "W:WK18:B22,15"), (Strings{"18x11", "18x25"}));
  // A king may turn and go on: d4 takes e5, lands f6, takes e7, lands d8.
  EXPECT_EQ(move_list(*make("english"), "W:WK18:B15,7"), (Strings{"18x2"}));
}

TEST(DraughtsCaptures, CaptureIsCompulsory) {
  auto rules = make("brazilian");
  const State s = rules->play(rules->start(), "22-18 11-15");
  EXPECT_EQ(move_list(*rules, s), (Strings{"18x11"}));
}

TEST(DraughtsCaptures, CapturedPiecesAndPathAreReportedInOrder) {
  auto rules = make("brazilian");
  const State s = rules->from_fen("W:W30:B9,17,25");
  const Move m = rules->parse_move(s, "30x5");
  EXPECT_EQ(m.from, 29);
  EXPECT_EQ(m.to, 4);
  EXPECT_EQ(m.path, (std::vector<int>{20, 13, 4}));
  EXPECT_EQ(m.captured, (std::vector<int>{24, 16, 8}));
  EXPECT_EQ(rules->score(rules->apply(s, m)), (Score{3, 0}));
}

}  // namespace
}  // namespace sb::draughts
