// Reading moves, the reasons a move is refused (in a player's words), and the rule a
// physical change on the board breaks.
#include "tests/engines/cotulenh/test_support.h"

namespace sb::cotulenh {
namespace {

using testing::board;
using testing::refusal;

const CotulenhRules kRules;

TEST(CotulenhNotation, MalformedMovesAreInputErrorsNotIllegalMoves) {
  const State s = kRules.start();
  for (const char* bad : {"", "T", "Tf4", "Tf4-", "Tf4f6", "Tf4-f13", "Tf4-l6", "Xf4-f6", "(T)f4-f6", "(TIf4-f6",
                          "Tf4-f6/", "Tf4-f6/If5-f6", "Tf04-f6", "Tf4=f6"}) {
    try {
      kRules.parse_move(s, bad);
      ADD_FAILURE() << "accepted " << bad;
    } catch (const IllegalMoveError& e) {
      ADD_FAILURE() << bad << " read as a move: " << e.what();
    } catch (const InputError&) {
    }
  }
}

TEST(CotulenhNotation, LowerCaseLettersAndAnyOrderOfSplitPartsAreAccepted) {
  const State s = kRules.from_fen("11/11/11/11/11/11/11/4(TI)6/11/11/11/11 r");
  EXPECT_EQ(kRules.parse_move(s, "ie5-d5/te5-f5").notation, "Te5-f5/Ie5-d5");
}

struct Refusal {
  Position position;
  const char* move;
  const char* reason;
};

TEST(CotulenhNotation, RefusalsSayWhichRuleIsBroken) {
  const Position start = CotulenhRules::position(kRules.start());
  const std::vector<Refusal> cases = {
      {start, "Hf2-f3", "the headquarters never moves"},
      {start, "Te4-e5", "there is no tank on e4"},
      {start, "Ta1-a2", "there is no piece on a1"},
      {start, "Tf9-f8", "the piece on f9 is blue's; it is red's turn"},
      {start, "Tf4-g5", "a tank moves diagonally only as a hero"},
      {start, "Tf4-f7", "a tank moves at most 2 steps, not 3"},
      {start, "Cg1-h2", "the commander never moves diagonally (only a hero commander does)"},
      {start, "Ad3-f4", "pieces move and capture only along files, ranks and diagonals (no knight's jumps)"},
      {start, "Ad3-d6", "the way from d3 to d6 is blocked on d5 (only an air force flies over pieces)"},
      {start, "Ge4-e5/Ge4-e3", "each piece of a stack acts at most once in a turn"},
      {start, "Ic5-b5", "the infantry cannot stand on b5 (b5 is open sea)"},
      {start, "Nc4-d5", "a navy sails only on the sea, the coast and the river mouth (d6 e6 d7 e7)"},
      {start, "Nc4-d4", "a navy sails only on the sea, the coast and the river mouth (d6 e6 d7 e7)"},
      {start, "Tf4xf6", "there is nothing to capture on f6"},
      {start, "Ge4xf4", "you cannot capture your own tank"},
      {board({{"e5", "G"}}), "Ge5-e7", "an anti-aircraft gun moves at most 1 step, not 2"},
      {board({{"e6", "G"}, {"e7", "i"}}), "Ge6-e7",
       "e7 holds blue's infantry: a capture is written with x (taking its place) or @ (in place)"},
      {board({{"e6", "A"}}), "Ae6-e7",
       "heavy pieces cross deep water only at a ford (files f and h) or carried by an engineer"},
      {board({{"e1", "T"}, {"b1", "n"}}), "Te1xb1", "a tank captures at most 2 steps away"},
      {board({{"d1", "T"}, {"b1", "n"}}), "Td1xb1", "a tank cannot stand on b1: it captures in place (write @)"},
      {board({{"c1", "T"}, {"c2", "n"}}), "Tc1@c2",
       "a tank takes the place of what it captures here (write x); only targets at sea, or inland for a navy's guns, "
       "are taken in place"},
      {board({{"c1", "T"}, {"c2", "I"}, {"c3", "n"}}), "Tc1xc3",
       "a tank fires straight: c2 is in the way (only artillery and a navy's guns shoot over pieces)"},
      {board({{"e1", "F"}, {"e3", "f"}}), "Fe1@e3",
       "an air force that takes an air force must take its place (write x)"},
      {board({{"e7", "N"}, {"c9", "i"}}), "Ne7xc9", "land lies between: the navy takes c9 in place (write @)"},
      {board({{"c1", "N"}, {"e1", "t"}}), "Nc1xe1", "a navy cannot stand on e1: it captures in place (write @)"},
      {board({{"c1", "N"}, {"c3", "i"}}), "Nc1@c3",
       "a navy taking a target on the coast must take its place (write x)"},
      {board({{"b1", "N"}, {"b6", "n"}}), "Nb1xb6", "a navy's sea-to-sea missiles reach 4 steps"},
      {board({{"b1", "N"}, {"a2", "f"}}), "Nb1xa2",
       "at sea a navy hits anything but a navy only with its anti-aircraft gun, 1 step along a file or rank"},
      {board({{"e1", "F"}, {"e5", "g"}}), "Fe1-e6",
       "the air force would be shot down entering blue's air defence at e4 (write Fx-e4 to fly into it)"},
      {board({{"e8", "(EA)"}}), "(EA)e8-e9",
       "an engineer carries a heavy weapon only across the river, from one bank to the other"},
      {board({{"e1", "C"}, {"g1", "i"}}), "Ce1xg1", "the commander captures only one step away"},
      {board({{"e5", "T"}, {"e6", "H"}}), "Te5-e6", "only its commander may enter a headquarters"},
  };
  for (const Refusal& c : cases)
    EXPECT_EQ(refusal(kRules, c.position, c.move), c.reason) << write_fen(c.position) << " " << c.move;
}

TEST(CotulenhNotation, TheGameOverRefusesEveryMove) {
  Position p = board({{"e5", "T"}, {"k12", "c"}});
  p.lost[1][kCommander] = 1;
  EXPECT_EQ(refusal(kRules, p, "Te5-e6"), "the game is over");
}

Observation moved(const Observation& o, const char* from, const char* to, const char* token) {
  Observation a = o;
  a.sites[site_from_name(from)] = Token{};
  a.sites[site_from_name(to)] = parse_token(token);
  return a;
}

TEST(CotulenhExplainChange, APieceMovedTooFarIsExplained) {
  const State s = kRules.start();
  const auto c = kRules.explain_change(s, moved(kRules.observe(s), "f4", "f8", "RT"));
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->reason, "Tf4-f8: a tank moves at most 2 steps, not 4");
  EXPECT_EQ(c->squares, (std::vector<int>{site_from_name("f4"), site_from_name("f8")}));
}

TEST(CotulenhExplainChange, AHeavyPieceCarriedAcrossDeepWaterByHand) {
  const State s = kRules.make_state(board({{"e6", "A"}, {"g1", "C"}}));
  const auto c = kRules.explain_change(s, moved(kRules.observe(s), "e6", "e7", "RA"));
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->reason,
            "Ae6-e7: heavy pieces cross deep water only at a ford (files f and h) or carried by an engineer");
}

TEST(CotulenhExplainChange, ACaptureThatShouldHaveBeenInPlace) {
  // The tank was put on the navy's sea site: it cannot stand there.
  const State s = kRules.make_state(board({{"b1", "n"}, {"d1", "T"}, {"j1", "c"}}));
  Observation a = kRules.observe(s);
  a.sites[site_from_name("d1")] = Token{};
  a.sites[site_from_name("b1")] = parse_token("RT");
  const auto c = kRules.explain_change(s, a);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->reason, "Td1xb1: a tank cannot stand on b1: it captures in place (write @)");
}

TEST(CotulenhExplainChange, ALegalMoveOrAMisreadIsNotExplained) {
  const State s = kRules.start();
  EXPECT_FALSE(kRules.explain_change(s, moved(kRules.observe(s), "f4", "f6", "RT")).has_value());
  Observation a = kRules.observe(s);
  a.sites[site_from_name("f4")] = parse_token("RA");  // a token changed in place
  EXPECT_FALSE(kRules.explain_change(s, a).has_value());
}

TEST(CotulenhExplainChange, AnEnemyPieceTakenOffThatNothingCanReach) {
  const State s = kRules.make_state(board({{"e4", "T"}, {"a4", "n"}, {"g1", "C"}, {"h12", "c"}, {"f5", "I"}}));
  Observation a = kRules.observe(s);
  a.sites[site_from_name("a4")] = Token{};
  const auto c = kRules.explain_change(s, a);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->reason, "no red piece can take the navy on a4 from where it stands");
  EXPECT_EQ(c->squares, std::vector<int>{site_from_name("a4")});
  // Within a tank's reach it is a legal capture in place: nothing to explain.
  const State t = kRules.make_state(board({{"c4", "T"}, {"a4", "n"}, {"g1", "C"}, {"h12", "c"}, {"f5", "I"}}));
  Observation b = kRules.observe(t);
  b.sites[site_from_name("a4")] = Token{};
  EXPECT_FALSE(kRules.explain_change(t, b).has_value());
}

TEST(CotulenhExplainChange, ARiderLiftedOffItsCarrier) {
  // The infantry rides the tank on e5; the camera sees I on top. Lifted to e7: too far.
  const State s = kRules.make_state(board({{"e5", "(TI)"}, {"g1", "C"}}));
  Observation a = kRules.observe(s);
  a.sites[site_from_name("e5")] = parse_token("RT");  // the tank shows again
  a.sites[site_from_name("e7")] = parse_token("RI");
  const auto c = kRules.explain_change(s, a);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->reason, "Ie5-e7: the infantry moves at most 1 step, not 2");
}

}  // namespace
}  // namespace sb::cotulenh
