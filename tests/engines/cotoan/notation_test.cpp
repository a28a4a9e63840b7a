// Moves as text: the canonical notation, the input forms accepted, and the reason a
// player is told for every kind of illegal move; what a camera sees, and the reason
// for a physical move that breaks the rules.
#include <gtest/gtest.h>

#include "engines/common/errors.h"
#include "tests/engines/cotoan/cotoan_test_support.h"

namespace sb::cotoan {
namespace {

using testing::full_fen;
using testing::make;

const std::string kStacked = full_fen('R', "8c5,5c6", "4c9");

TEST(Notation, PlainMovesAndCapturesNameThePieceAndTheSquares) {
  auto rules = make();
  State s = rules->from_fen(kStacked);
  Move plain = testing::move_named(*rules, s, "1:a1-a2");
  ASSERT_EQ(plain.notation, "1:a1-a2");
  EXPECT_FALSE(plain.is_capture());
  EXPECT_EQ(plain.details.dump(), R"({"piece":1})");  // no pair, no operation: nothing is calculated
  Move capture = testing::move_named(*rules, s, "8:c5xc9");
  ASSERT_EQ(capture.notation, "8:c5xc9");
  EXPECT_EQ(capture.from, rules->site_index("c5"));
  EXPECT_EQ(capture.to, rules->site_index("c9"));
  EXPECT_EQ(capture.captured, std::vector<int>{rules->site_index("c9")});
  EXPECT_EQ(capture.path, std::vector<int>{rules->site_index("c9")});
  EXPECT_EQ(capture.points, 4);
  EXPECT_EQ(capture.details.at("calculation").as_string(), "8+5=13\u21923");
  EXPECT_EQ(capture.details.at("captured_piece").as_int(), 4);
  EXPECT_EQ(capture.details.at("calculations").as_array()[0].dump(),
            "{\"distance\":3,\"front\":5,\"op\":\"+\",\"rear\":8,\"text\":\"8+5=13\u21923\",\"value\":13}");
}

TEST(Notation, TheRecordWritesEachCaptureWithItsCalculation) {
  auto rules = make();
  State s = rules->from_fen(kStacked);
  EXPECT_EQ(rules->record_notation(s, testing::move_named(*rules, s, "8:c5xc9")), "8:c5xc9 (8+5=13\u21923)");
  EXPECT_EQ(rules->record_notation(s, testing::move_named(*rules, s, "1:a1-a2")), "1:a1-a2");
  // The record form reads back as the same move.
  EXPECT_EQ(rules->parse_move(s, "8:c5xc9 (8+5=13\u21923)").notation, "8:c5xc9");
  // The capturing piece travels straight to the target: no resting place on the way.
  EXPECT_TRUE(rules->waypoints(s, testing::move_named(*rules, s, "8:c5xc9")).empty());
}

TEST(Notation, ApplyRefusesAMoveFromAnotherPosition) {
  auto rules = make();
  State s = rules->from_fen(kStacked);
  const Move blue_move = testing::move_named(*rules, rules->play(s, "1:a1-a2"), "1:i11-i10");
  ASSERT_EQ(blue_move.notation, "1:i11-i10");
  EXPECT_THROW(rules->apply(s, blue_move), std::logic_error);
  EXPECT_THROW(rules->apply(s, Move{}), std::logic_error);
}

TEST(Notation, EveryLegalMoveHasANotationOfItsOwn) {
  auto rules = make();
  State s = rules->play(rules->from_fen(kStacked), "1:a1-a2 2:h11-h9");
  std::vector<std::string> all = testing::notations(*rules, s);
  EXPECT_EQ(std::adjacent_find(all.begin(), all.end()), all.end());
  for (const Move& m : rules->legal_moves(s)) EXPECT_EQ(rules->parse_move(s, m.notation).notation, m.notation);
}

TEST(Notation, InputVariantsNameTheSameMove) {
  auto rules = make();
  State s = rules->from_fen(kStacked);
  for (const char* text : {"8:c5xc9", "c5xc9", "8:C5XC9", "8:c5-c9", "c5\u00d7c9", "  8:c5xc9  ", "8:c5xc9(8+5)",
                           "8:c5xc9 (8+5=13\u21923)", "8:c5xc9(8\u22125=3)", "8:c5xc9 ( 8 - 5 )", "8:c5xc9(8:5)",
                           "8:c5xc9(8\u00f75=1 rest 3->3)", "8:c5xc9(8/5)"})
    EXPECT_EQ(rules->parse_move(s, text).notation, "8:c5xc9") << text;
  for (const char* text : {"1:a1-a2", "a1-a2", "A1-A2", "1:a1\u2013a2"})
    EXPECT_EQ(rules->parse_move(s, text).notation, "1:a1-a2") << text;
}

std::string input_error(const Rules& rules, const State& s, const std::string& text) {
  try {
    rules.parse_move(s, text);
  } catch (const IllegalMoveError& e) {
    return "illegal: " + e.reason();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(Notation, MalformedMovesAreInputErrorsSayingWhatIsWrong) {
  auto rules = make();
  State s = rules->from_fen(kStacked);
  EXPECT_EQ(input_error(*rules, s, ""), "move '': empty move (expected a move like 3:c1-c4 or 8:e3xe7)");
  EXPECT_EQ(input_error(*rules, s, "8:"), "move '8:': a square is missing (expected a move like 3:c1-c4 or 8:e3xe7)");
  EXPECT_EQ(input_error(*rules, s, "c5"),
            "move 'c5': it stops after the first square (expected a move like 3:c1-c4 or 8:e3xe7)");
  EXPECT_EQ(input_error(*rules, s, "c5c9"), "move 'c5c9': expected '-' or 'x' after c5, found 'c9'");
  EXPECT_EQ(input_error(*rules, s, "z9-a1"), "move 'z9-a1': 'z9' is not a square of the 9x11 board (a1-i11)");
  EXPECT_EQ(input_error(*rules, s, "a1-a12"), "move 'a1-a12': 'a12' is not a square of the 9x11 board (a1-i11)");
  EXPECT_EQ(input_error(*rules, s, "8:c5x9c"),
            "move '8:c5x9c': expected a square at '9c' (expected a move like 3:c1-c4 or 8:e3xe7)");
  EXPECT_EQ(input_error(*rules, s, "8:c5x"),
            "move '8:c5x': a square is missing (expected a move like 3:c1-c4 or 8:e3xe7)");
  EXPECT_EQ(input_error(*rules, s, "8:c5xc9 junk"), "move '8:c5xc9 junk': unexpected 'junk' after the move");
  EXPECT_EQ(input_error(*rules, s, "8:c5xc9(8^5)"),
            "move '8:c5xc9(8^5)': the calculation needs an operation: + - * / (or \u00d7 \u00f7 :)");
  EXPECT_EQ(input_error(*rules, s, "8:c5xc9(8+5"), "move '8:c5xc9(8+5': the calculation is not closed with ')'");
  EXPECT_EQ(input_error(*rules, s, "8:c5xc9(+5)"),
            "move '8:c5xc9(+5)': the calculation must start with the rear piece's number");
  EXPECT_EQ(input_error(*rules, s, "8:c5xc9(8+)"),
            "move '8:c5xc9(8+)': the calculation needs the front piece's number after its sign");
  EXPECT_EQ(input_error(*rules, s, "8:c5xc9(8+5)x"), "move '8:c5xc9(8+5)x': unexpected 'x' after the calculation");
}

TEST(Notation, IllegalMovesAreExplainedInAPlayersWords) {
  auto rules = make();
  State start = rules->start();
  EXPECT_EQ(input_error(*rules, start, "0:e2-e3"), "illegal: the 0 never moves");
  EXPECT_EQ(input_error(*rules, start, "3:c1-c5"), "illegal: a 3 moves at most 3 squares (c1 to c5 is 4 squares)");
  EXPECT_EQ(input_error(*rules, start, "1:a1-a3"), "illegal: a 1 moves at most 1 square (a1 to a3 is 2 squares)");
  EXPECT_EQ(input_error(*rules, start, "3:c1-d3"),
            "illegal: a 3 moves in a straight line: along a file, a rank or a diagonal");
  EXPECT_EQ(input_error(*rules, start, "1:a1-b1"), "illegal: a piece never moves onto a piece: b1 holds your 2");
  EXPECT_EQ(input_error(*rules, start, "4:d1-f3"), "illegal: the path d1\u2013f3 is blocked at e2");
  EXPECT_EQ(input_error(*rules, start, "4:e5-e6"), "illegal: there is no piece on e5");
  EXPECT_EQ(input_error(*rules, start, "1:i11-i10"), "illegal: the piece on i11 is Blue's, and it is Red's turn");
  EXPECT_EQ(input_error(*rules, start, "5:a1-a2"), "illegal: the piece on a1 is a 1, not a 5");
  EXPECT_EQ(input_error(*rules, start, "1:a1-a1"), "illegal: a move must leave its square");
  EXPECT_EQ(input_error(*rules, start, "3:c1xc9"), "illegal: there is nothing to capture on c9");

  State s = rules->from_fen(full_fen('R', "8c5", "4c9,7d9,6c6,5g9"));
  EXPECT_EQ(input_error(*rules, s, "8:c5xc6"),
            "illegal: a piece captures only by calculation, with a partner of its own between it and the target");
  EXPECT_EQ(input_error(*rules, s, "8:c5xc9"),
            "illegal: no calculation of a pair reaches c9: c6 holds an enemy piece, not a partner");
  EXPECT_EQ(input_error(*rules, s, "8:c5xd9"),
            "illegal: no calculation of a pair reaches d9: c5 and d9 are not on one line");
  EXPECT_EQ(input_error(*rules, s, "8:c5xg9"),
            "illegal: no calculation of a pair reaches g9: d6, in front of the 8, holds no partner");

  State stacked = rules->from_fen(kStacked);
  EXPECT_EQ(input_error(*rules, stacked, "8:c5xc9(8x5)"), "illegal: 8\u00d75=40 is worthless: its units digit is 0");
  EXPECT_EQ(input_error(*rules, stacked, "8:c5xc9(8+3)"), "illegal: the pair c5,c6 is 8 and 5, not 8 and 3");
  EXPECT_EQ(input_error(*rules, stacked, "1:a1-a2(1+2)"),
            "illegal: a plain move needs no calculation: nothing is captured");

  State over = rules->play(rules->from_fen(full_fen('R', "3e4,2e5", "")), "3:e4xe10");
  EXPECT_EQ(input_error(*rules, over, "1:i11-i10"), "illegal: the game is over (1-0, captured the 0)");
}

TEST(Notation, PlayNamesThePlyOfAnIllegalMove) {
  auto rules = make();
  try {
    rules->play(rules->start(), "1:a1-a2 0:e10-e9");
    FAIL();
  } catch (const IllegalMoveError& e) {
    EXPECT_STREQ(e.what(), "illegal move '0:e10-e9': (ply 2) the 0 never moves");
  }
}

TEST(Observe, TokensGiveTheSideAndTheDotCount) {
  auto rules = make();
  const Observation o = rules->observe(rules->start());
  ASSERT_EQ(o.sites.size(), 99u);
  EXPECT_EQ(o.sites[rules->site_index("a1")].str(), "R1");
  EXPECT_EQ(o.sites[rules->site_index("i1")].str(), "R9");
  EXPECT_EQ(o.sites[rules->site_index("e2")].str(), "R0");
  EXPECT_EQ(o.sites[rules->site_index("i11")].str(), "B1");
  EXPECT_EQ(o.sites[rules->site_index("a11")].str(), "B9");
  EXPECT_EQ(o.sites[rules->site_index("e10")].str(), "B0");
  EXPECT_TRUE(o.sites[rules->site_index("e6")].empty());
  int pieces = 0;
  for (const Token& t : o.sites) pieces += !t.empty();
  EXPECT_EQ(pieces, 20);
  for (const char* ok : {"R0", "R9", "B0", "B5"}) EXPECT_TRUE(rules->valid_token(parse_token(ok))) << ok;
  for (const char* bad : {"R", "B", "W5", "RX", "G1", "BT"}) EXPECT_FALSE(rules->valid_token(parse_token(bad))) << bad;
}

// The camera's view after the side to move carries its piece from `from` to `to`.
Observation carried(const Rules& rules, const State& s, const std::string& from, const std::string& to) {
  Observation o = rules.observe(s);
  const int f = rules.site_index(from), t = rules.site_index(to);
  o.sites[t] = o.sites[f];
  o.sites[f] = Token{};
  return o;
}

TEST(ExplainChange, APhysicalMoveThatBreaksTheRulesIsExplained) {
  auto rules = make();
  State start = rules->start();
  auto reason = [&](const State& s, const char* from, const char* to) {
    auto c = rules->explain_change(s, carried(*rules, s, from, to));
    return c ? c->reason : std::string("(none)");
  };
  EXPECT_EQ(reason(start, "e2", "e3"), "the 0 never moves");
  EXPECT_EQ(reason(start, "c1", "c5"), "a 3 moves at most 3 squares (c1 to c5 is 4 squares)");
  EXPECT_EQ(reason(start, "d1", "f3"), "the path d1\u2013f3 is blocked at e2");
  auto blocked = rules->explain_change(start, carried(*rules, start, "d1", "f3"));
  ASSERT_TRUE(blocked);
  EXPECT_EQ(blocked->squares,
            (std::vector<int>{rules->site_index("d1"), rules->site_index("f3"), rules->site_index("e2")}));
  EXPECT_EQ(reason(start, "c1", "d3"), "a 3 moves in a straight line: along a file, a rank or a diagonal");

  State s = rules->from_fen(full_fen('R', "8c5,5c6", "4c10"));
  EXPECT_EQ(reason(s, "c5", "c10"),
            "no calculation of 8 and 5 (c5,c6) reaches c10, 4 squares beyond c6: 8+5=13\u21923, 8\u22125=3, "
            "8\u00d75=40 (worthless), 8\u00f75=1 rest 3\u21923");
  State b = rules->from_fen(full_fen('R', "8c5,5c6", "4c9,7c8"));
  EXPECT_EQ(reason(b, "c5", "c9"), "the target c9 is behind a blocking piece on c8");
}

// The referee shows these squares to be put right: where the piece was put is one of them.
TEST(ExplainChange, TheZeroCarriedAwayNamesTheSquareItLeftAndTheSquareItWasPutOn) {
  auto rules = make();
  State start = rules->start();
  auto c = rules->explain_change(start, carried(*rules, start, "e2", "e3"));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->squares, (std::vector<int>{rules->site_index("e2"), rules->site_index("e3")}));
}

TEST(ExplainChange, LegalMovesMisreadsAndOtherChangesAreNotExplained) {
  auto rules = make();
  State start = rules->start();
  EXPECT_FALSE(rules->explain_change(start, carried(*rules, start, "c1", "c4")));    // legal
  EXPECT_FALSE(rules->explain_change(start, carried(*rules, start, "i11", "i10")));  // not Red's piece
  Observation misread = carried(*rules, start, "c1", "c5");
  misread.sites[rules->site_index("c5")] = parse_token("R8");
  EXPECT_FALSE(rules->explain_change(start, misread));
  Observation two = carried(*rules, start, "c1", "c5");
  two.sites[rules->site_index("a1")] = Token{};
  EXPECT_FALSE(rules->explain_change(start, two));            // two pieces gone
  EXPECT_FALSE(rules->explain_change(start, Observation{}));  // not a board of this game
}

}  // namespace
}  // namespace sb::cotoan
