// Every event type of the contract in every game, from scripted boards on the real
// engines: a wrong setup with its square, the setup accepted, a legal capture with
// its ply, side, notation, captured piece and score, an illegal move with its
// reason and squares, the board restored, a takeback, a piece from nowhere
// (unclear) and the board restored again, then the end of the game (by play where
// it is short, else by an operator's resignation or ruling).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tests/arbiter/games/script.h"

namespace sb::arbiter {
namespace {

using sb::testing::Script;
using sb::testing::summary;

using Edits = std::vector<std::pair<std::string, std::string>>;  // square → token ("" empty)

struct EventCase {
  const char* game;
  const char* fen;               // the position the game starts from
  Edits mismatch;                // a wrong setup: these squares differ from `fen`
  const char* move;              // a legal capture from `fen`
  const char* side;              // who makes it
  std::vector<std::string> captured;
  std::map<std::string, int> score;  // after it
  int points;                    // of the move: what it adds to its mover's score (draughts, Morris: pieces taken)
  Edits illegal;                 // an illegal change after the move
  const char* reason;            // words the illegal event's reason holds
  Edits unclear;                 // a change no move explains, from `fen`
  const char* end_play;          // moves from `fen` that end the game ("" none)
  nlohmann::json end_command;    // else this operator command ends it
  const char* result;
};

std::ostream& operator<<(std::ostream& os, const EventCase& c) { return os << c.game; }

std::vector<std::string> squares_of(const Edits& edits) {
  std::vector<std::string> squares;
  for (const auto& e : edits) squares.push_back(e.first);
  std::sort(squares.begin(), squares.end());
  return squares;
}

std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

Observation edited(const Script& s, Observation b, const Edits& edits) {
  for (const auto& [square, token] : edits) b = s.with(b, square, token);
  return b;
}

nlohmann::json resign(const char* side) { return {{"command", "resign"}, {"side", side}}; }

const EventCase kCases[] = {
    // White's 27 takes 23 (landing on 18); Black's man on 11 then steps backwards.
    {"brazilian", "W:W27,32:B23,11", {{"32", ""}}, "27x18", "white", {"23"}, {{"white", 1}, {"black", 0}}, 1,
     {{"11", ""}, {"7", "B"}}, "forward only", {{"16", "W"}}, "", resign("black"), "1-0"},
    // 10×10: White's 32 takes 27 (landing on 21); Black's man on 7 steps backwards.
    {"international", "W:W32,46:B27,7", {{"46", ""}}, "32x21", "white", {"27"}, {{"white", 1}, {"black", 0}}, 1,
     {{"7", ""}, {"2", "B"}}, "forward only", {{"25", "W"}},
     "", {{"command", "declare"}, {"result", "1/2-1/2"}, {"reason", "the arbiter's ruling"}}, "1/2-1/2"},
    // Black moves first: its 14 takes 18 (landing on 23); White's man on 22 steps backwards.
    {"english", "B:W18,22:B14,3", {{"3", ""}}, "14x23", "black", {"18"}, {{"white", 0}, {"black", 1}}, 1,
     {{"22", ""}, {"26", "W"}}, "forward only", {{"16", "W"}}, "", resign("white"), "0-1"},
    // White a5 c5 place e5: a mill, and Black's b4 goes; Black then slides in the placing phase.
    {"morris6", "WW.BB........... w 4 4", {{"a5", ""}}, "e5xb4", "white", {"b4"}, {{"white", 1}, {"black", 0}}, 1,
     {{"c4", ""}, {"d4", "B"}}, "to place", {{"a5", ""}}, "", resign("black"), "1-0"},
    // White a7 d7 place g7: a mill, and Black's b6 goes; Black then slides in the placing phase.
    {"morris9", "WW.BB................... w 7 7", {{"d7", ""}}, "g7xb6", "white", {"b6"},
     {{"white", 1}, {"black", 0}}, 1, {{"d6", ""}, {"d5", "B"}}, "to place", {{"a7", ""}}, "", resign("white"), "0-1"},
    {"morris12", "WW.BB................... w 10 10", {{"d7", ""}}, "g7xb6", "white", {"b6"},
     {{"white", 1}, {"black", 0}}, 1, {{"d6", ""}, {"d5", "B"}}, "to place", {{"a7", ""}}, "", resign("black"), "1-0"},
    // Three men's Morris takes nothing: a placement; the first mill wins.
    {"morris3", "WW.BB.... w 1 1", {{"a3", ""}}, "a1", "white", {}, {{"white", 0}, {"black", 0}}, 0,
     {{"b2", ""}, {"c2", "B"}}, "to place", {{"a3", ""}}, "c3", nlohmann::json(), "1-0"},
    // Red's 8 on e3 with its 5 on e4 in front: 8+5 = 13 → 3 squares beyond e4, Blue's 2 on e7.
    // Blue then moves its 0, which never moves.
    {"cotoan", "R:R0e2,1a1,2b1,3c1,4d1,5e4,6f1,7g1,8e3,9i1:B0e10,1i11,2e7,3g11,4f11,5e11,6d11,7c11,8b11,9a11",
     {{"a1", ""}}, "8:e3xe7", "red", {"e7"}, {{"red", 2}, {"blue", 0}}, 2, {{"e10", ""}, {"e9", "B0"}}, "0 never moves",
     {{"a5", "R3"}}, "", resign("blue"), "1-0"},
    // Red's tank takes Blue's infantry; Blue's commander then steps diagonally.
    {"cotulenh", "5c5/11/11/11/11/11/11/3i7/3T7/11/11/6C4 r", {{"g1", ""}}, "Td4xd5", "red", {"d5"},
     {{"red", 10}, {"blue", 0}}, 10, {{"f12", ""}, {"e11", "BC"}}, "", {{"j3", "RI"}}, "", resign("red"), "0-1"},
};

class EveryEventType : public ::testing::TestWithParam<EventCase> {};

TEST_P(EveryEventType, ScriptedBoardsGiveEachEventTypeWithItsFields) {
  const EventCase& c = GetParam();
  RefereeOptions o;
  o.start_fen = c.fen;
  Script s(c.game, o);
  const State start = s.state;

  // setup_mismatch names the wrong squares; the right board is setup_ok.
  auto ev = s.see(edited(s, s.board(), c.mismatch));
  ASSERT_EQ(summary(ev), "setup_mismatch");
  EXPECT_EQ(sorted(ev[0].squares), squares_of(c.mismatch));
  ASSERT_EQ(summary(s.start()), "setup_ok");

  // move: the capture with everything the contract lists.
  ev = s.play(c.move);
  ASSERT_EQ(summary(ev), std::string("move:") + c.move);
  EXPECT_EQ(ev[0].ply, 1);
  EXPECT_EQ(ev[0].side, c.side);
  EXPECT_EQ(ev[0].captured, c.captured);
  EXPECT_EQ(ev[0].score, c.score);
  EXPECT_EQ(ev[0].points, c.points);
  const nlohmann::json move_json = to_json(ev[0]);
  for (const char* field : {"type", "t", "ply", "side", "notation", "captured", "points", "score"})
    EXPECT_TRUE(move_json.contains(field)) << field << " in " << move_json.dump();

  // illegal: the reason in words and the squares touched; never recorded.
  ev = s.see(edited(s, s.board(), c.illegal));
  ASSERT_EQ(summary(ev), "illegal");
  EXPECT_FALSE(ev[0].reason.empty());
  EXPECT_NE(ev[0].reason.find(c.reason), std::string::npos) << ev[0].reason;
  EXPECT_EQ(sorted(ev[0].squares), squares_of(c.illegal));
  EXPECT_EQ(s.referee.ply(), 1);
  // restored: the board is back as it stood.
  ASSERT_EQ(summary(s.see(s.board())), "restored");

  // takeback: the board before the move.
  s.state = start;
  ev = s.see(s.board());
  ASSERT_EQ(summary(ev), "takeback:0");
  EXPECT_EQ(s.referee.ply(), 0);

  // unclear: a piece from nowhere, once it has stood a while; then restored.
  const Observation odd = edited(s, s.board(), c.unclear);
  EXPECT_EQ(summary(s.see(odd)), "");
  ev = s.see(odd);
  ASSERT_EQ(summary(ev), "unclear");
  EXPECT_EQ(sorted(ev[0].squares), squares_of(c.unclear));
  EXPECT_EQ(s.referee.ply(), 0);
  ASSERT_EQ(summary(s.see(s.board())), "restored");

  // game_over: by play, or by the operator.
  if (*c.end_play) {
    ev = s.play(c.end_play);
    ASSERT_EQ(summary(ev), std::string("move:") + c.end_play + " game_over:" + c.result);
  } else {
    ev = s.command(c.end_command);
    ASSERT_EQ(summary(ev), std::string("game_over:") + c.result);
  }
  const Event& over = ev.back();
  EXPECT_FALSE(over.reason.empty());
  EXPECT_EQ(over.score.size(), 2u);
  EXPECT_EQ(s.referee.phase(), Phase::GameOver);
  EXPECT_EQ(s.referee.game().result, c.result);
}

INSTANTIATE_TEST_SUITE_P(AllGames, EveryEventType, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<EventCase>& i) { return std::string(i.param.game); });

}  // namespace
}  // namespace sb::arbiter
