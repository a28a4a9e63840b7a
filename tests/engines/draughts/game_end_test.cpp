// How games end: no move (blockade, no pieces), and each draw rule of RULES.md §1
// reached at exactly the ply it names and not one ply before.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "tests/engines/draughts/draughts_test_util.h"

namespace sb::draughts {
namespace {

using testing::make;

// The quiet moves of the wanted kind (man or king, never a promotion) after
// which the side to move next has nothing to take.
std::vector<State> safe_quiet_moves(const DraughtsRules& rules, const State& s, bool man) {
  std::vector<State> out;
  for (const Move& m : rules.legal_moves(s)) {
    if (m.is_capture() || m.details.at("king").as_bool() == man || m.details.at("promotes").as_bool()) continue;
    State next = rules.apply(s, m);
    if (!rules.generator().has_capture(rules.board(next))) out.push_back(next);
  }
  return out;
}

// Plays `plies` quiet moves from `s`: a man move on the plies listed in
// `man_plies`, king moves otherwise; never a move after which anything can be
// taken or the opponent has no such safe move; each time the move leading to the
// position seen least often, so that repetition does not end the game first.
// Returns every state.
std::vector<State> walk(const DraughtsRules& rules, State s, int plies, const std::set<int>& man_plies = {}) {
  std::vector<State> states = {s};
  std::map<std::string, int> seen;
  ++seen[rules.fen(s)];
  for (int ply = 0; ply < plies; ++ply) {
    std::optional<State> best;
    int best_seen = 1 << 30;
    for (const State& next : safe_quiet_moves(rules, s, man_plies.count(ply) > 0)) {
      if (ply + 1 < plies && safe_quiet_moves(rules, next, man_plies.count(ply + 1) > 0).empty()) continue;
      const int n = seen.count(rules.fen(next)) ? seen[rules.fen(next)] : 0;
      if (n < best_seen) {
        best = next;
        best_seen = n;
      }
    }
    if (!best) {
      ADD_FAILURE() << "no suitable move at ply " << ply << " in " << rules.fen(s) << " (" << rules.state_line(s)
                    << ")";
      return states;
    }
    s = *best;
    ++seen[rules.fen(s)];
    states.push_back(s);
  }
  return states;
}

// Checks that the draw comes at ply `at` exactly, for the reason given.
void expect_draw_at(const DraughtsRules& rules, const std::string& fen, int at, const std::string& reason,
                    const std::set<int>& man_plies = {}) {
  const std::vector<State> states = walk(rules, rules.from_fen(fen), at, man_plies);
  ASSERT_EQ(states.size(), static_cast<size_t>(at + 1));
  EXPECT_FALSE(rules.outcome(states[at - 1]).over()) << rules.state_line(states[at - 1]);
  const Outcome o = rules.outcome(states[at]);
  EXPECT_EQ(o.status, Outcome::Status::Draw) << rules.state_line(states[at]);
  EXPECT_EQ(o.reason, reason);
  EXPECT_TRUE(rules.legal_moves(states[at]).empty());
}

// --- losing by having no move

// White's man on a3 is blocked by b4, and cannot take b4 because c5 is occupied.
TEST(DraughtsGameEnd, BlockadeLosesForTheSideToMove) {
  for (const char* id : {"brazilian", "english"}) {
    auto rules = make(id);
    const State s = rules->from_fen("W:W21:B14,17");
    EXPECT_TRUE(rules->legal_moves(s).empty()) << id;
    const Outcome o = rules->outcome(s);
    EXPECT_EQ(o.result(), "0-1") << id;
    EXPECT_EQ(o.reason, "white cannot move") << id;
    EXPECT_EQ(rules->state_line(s), "0-1 white cannot move");
  }
}

TEST(DraughtsGameEnd, BlockadeByAMoveEndsTheGame) {
  // Black's man on h4 can only go to g3; White fills g3, and f2 behind it is white too.
  auto rules = make("brazilian");
  const State s = rules->play(rules->from_fen("W:W27,28:B20"), "28-24");
  EXPECT_EQ(rules->state_line(s), "1-0 black cannot move");
}

TEST(DraughtsGameEnd, NoPiecesLeftLoses) {
  auto rules = make("brazilian");
  const State s = rules->play(rules->from_fen("W:W22:B18"), "22x15");
  EXPECT_EQ(rules->state_line(s), "1-0 black has no pieces left");
  EXPECT_EQ(rules->fen(s), "B:W15:B");
}

TEST(DraughtsGameEnd, NoMovesAfterTheEndAndTheReasonIsGiven) {
  auto rules = make("brazilian");
  const State s = rules->from_fen("W:W21:B14,17");
  try {
    rules->parse_move(s, "21-17");
    FAIL() << "the game is over";
  } catch (const IllegalMoveError& e) {
    EXPECT_EQ(e.reason(), "the game is over (0-1, white cannot move)");
  }
}

// --- the seed's draw rules (brazilian and english by default)

TEST(DraughtsGameEnd, ThreefoldRepetitionDraws) {
  auto rules = make("brazilian");
  const State s = rules->from_fen("W:WK29:BK1");
  const State twice = rules->play(s, "29-25 1-5 25-29 5-1");
  EXPECT_FALSE(rules->outcome(twice).over());
  EXPECT_FALSE(rules->outcome(rules->play(twice, "29-25 1-5 25-29")).over());
  const State thrice = rules->play(twice, "29-25 1-5 25-29 5-1");
  EXPECT_EQ(rules->state_line(thrice), "1/2-1/2 threefold repetition");
}

TEST(DraughtsGameEnd, RepetitionNeedsTheSameSideToMove) {
  // White's king goes round a1-b2-c3-a1 (three moves) while Black's goes b8-a7-b8
  // (two): the board comes back every 5 plies, with the other side to move each
  // time, so the same position comes back only every 12 plies.
  auto rules = make("brazilian");
  const char* cycle = "29-25 1-5 25-22 5-1 22-29 1-5 29-25 5-1 25-22 1-5 22-29 5-1";
  const State once = rules->play(rules->from_fen("W:WK29:BK1"), cycle);
  EXPECT_EQ(rules->fen(once), "W:WK29:BK1");
  EXPECT_FALSE(rules->outcome(once).over());  // the board has been seen three times, the position twice
  EXPECT_EQ(rules->state_line(rules->play(once, cycle)), "1/2-1/2 threefold repetition");
}

TEST(DraughtsGameEnd, SeedRuleDrawsAfter25MovesEachWithoutCaptureOrManMove) {
  auto rules = make("brazilian");
  expect_draw_at(*rules, "W:WK29:BK1", 50, "25 moves each without a capture or a man move");
  // English follows the seed by default.
  expect_draw_at(*make("english"), "W:WK29:BK1", 50, "25 moves each without a capture or a man move");
}

TEST(DraughtsGameEnd, AManMoveRestartsTheSeedCount) {
  auto rules = make("brazilian");
  // A man move at ply 40: the 50 plies count again from there.
  expect_draw_at(*rules, "W:WK29,31:BK1", 91, "25 moves each without a capture or a man move", {40});
}

// --- FMJD-64 (draw_rules: "fmjd64")

TEST(DraughtsGameEnd, Fmjd64DrawsAfter15MovesOfKingsOnly) {
  auto rules = make("brazilian", Json::parse(R"({"draw_rules": "fmjd64"})"));
  expect_draw_at(*rules, "W:WK29:BK1", 30, "15 moves each with only kings moving and no capture");
}

TEST(DraughtsGameEnd, Fmjd64ThreeKingsAgainstALoneKingDrawAfter15Moves) {
  auto rules = make("brazilian", Json::parse(R"({"draw_rules": "fmjd64"})"));
  // White's man moves at plies 10 and 20 so that the kings-only count never reaches 30.
  expect_draw_at(*rules, "W:WK13,K21,K30,32:BK4", 30, "three or more kings against a lone king for 15 moves", {10, 20});
}

TEST(DraughtsGameEnd, Fmjd64TwoPiecesWithAKingAgainstALoneKingDrawAfter5Moves) {
  auto rules = make("brazilian", Json::parse(R"({"draw_rules": "fmjd64"})"));
  expect_draw_at(*rules, "W:WK30,K31:BK4", 10, "two pieces with a king against a lone king for 5 moves");
  expect_draw_at(*rules, "W:WK30,31:BK4", 10, "two pieces with a king against a lone king for 5 moves", {0, 4, 8});
}

TEST(DraughtsGameEnd, Fmjd64KingsOnBothSidesWith4Or5PiecesDrawAfter30Moves) {
  auto rules = make("brazilian", Json::parse(R"({"draw_rules": "fmjd64"})"));
  expect_draw_at(*rules, "W:WK30,32:BK4,1", 60, "30 moves with kings on both sides and 4 or 5 pieces without a change",
                 {20, 21, 40, 41});
}

TEST(DraughtsGameEnd, Fmjd64KingsOnBothSidesWith6Or7PiecesDrawAfter60Moves) {
  auto rules = make("brazilian", Json::parse(R"({"draw_rules": "fmjd64"})"));
  expect_draw_at(*rules, "W:WK30,31,32:BK4,1,2", 120,
                 "60 moves with kings on both sides and 6 or 7 pieces without a change", {20, 41, 60, 81, 100});
}

TEST(DraughtsGameEnd, Fmjd64CountRestartsWhenACaptureChangesThePieces) {
  auto rules = make("brazilian", Json::parse(R"({"draw_rules": "fmjd64"})"));
  State s = rules->from_fen("B:WK29,K30,K31:BK1,22");  // 5 pieces, kings on both sides
  EXPECT_EQ(rules->position(s).material_plies, 0);
  s = rules->play(s, "1-5");
  EXPECT_EQ(rules->position(s).material_plies, 1);
  EXPECT_EQ(rules->position(s).quiet_plies, 1);
  // Black's man on c3 is taken: the pieces changed, both counts start again.
  s = rules->play(s, "29x18");
  EXPECT_EQ(rules->position(s).material_plies, 0);
  EXPECT_EQ(rules->position(s).quiet_plies, 0);
}

// --- FMJD international (the default of "international")

TEST(DraughtsGameEnd, InternationalDrawsAfter25MovesOfKingsOnly) {
  auto rules = make("international");
  expect_draw_at(*rules, "W:WK47,K50:BK1,K4", 50, "25 moves each with only kings moving and no capture");
}

TEST(DraughtsGameEnd, InternationalSixteenMoveRule) {
  auto rules = make("international");
  expect_draw_at(*rules, "W:WK47,K48,K49:BK1", 32, "16 moves of three pieces against a lone king");
  expect_draw_at(*rules, "W:WK47,48,49:BK1", 32, "16 moves of three pieces against a lone king", {0, 10, 20, 30});
}

TEST(DraughtsGameEnd, InternationalFiveMoveRule) {
  auto rules = make("international");
  expect_draw_at(*rules, "W:WK47,K48:BK1", 10, "5 moves of at most two pieces against a lone king");
  expect_draw_at(*rules, "W:WK47:BK1", 10, "5 moves of at most two pieces against a lone king");
}

TEST(DraughtsGameEnd, DrawRulesAreAnOptionForEveryGame) {
  // International played with the seed's rules: a king against a king goes on to 50 plies.
  auto rules = make("international", Json::parse(R"({"draw_rules": "seed"})"));
  expect_draw_at(*rules, "W:WK47:BK1", 50, "25 moves each without a capture or a man move");
}

}  // namespace
}  // namespace sb::draughts
