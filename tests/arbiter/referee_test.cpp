// The referee's state machine on the test game (toy_rules.h): scripted frames
// and operator commands, and the events they must produce.
#include <gtest/gtest.h>

#include "arbiter/referee.h"
#include "engines/common/errors.h"
#include "tests/arbiter/support.h"
#include "tests/arbiter/toy_rules.h"

namespace sb::arbiter {
namespace {

using sb::testing::command;
using sb::testing::feed;
using sb::testing::frame_of;
using sb::testing::summary;
using sb::testing::ToyRules;
using sb::testing::operator+;

// The test game, keeping score (as Cờ toán and Cờ tư lệnh do).
class ScoringToyRules : public ToyRules {
 public:
  bool keeps_score() const override { return true; }
};

class RefereeTest : public ::testing::Test {
 protected:
  void make(RefereeOptions o = {}, std::shared_ptr<Rules> r = nullptr) {
    rules = r ? r : std::make_shared<ToyRules>();
    referee = std::make_unique<Referee>(rules, o);
  }
  // Sets up the start position at t=0 and returns nothing on success.
  void start_game() { ASSERT_EQ(summary(referee->on_frame(frame_of(*rules, "WWW......BBB", 0))), "setup_ok"); }
  std::vector<Event> board(const std::string& cells, int64_t t) { return referee->on_frame(frame_of(*rules, cells, t)); }
  std::vector<Event> cmd(int64_t t, nlohmann::json body) { return referee->on_command(body, t); }

  std::shared_ptr<Rules> rules;
  std::unique_ptr<Referee> referee;
};

TEST_F(RefereeTest, SetupListsWrongSquaresUntilTheBoardMatches) {
  make();
  auto ev = board("WW.......BBB", 0);
  ASSERT_EQ(summary(ev), "setup_mismatch");
  EXPECT_EQ(ev[0].squares, std::vector<std::string>{"c3"});
  EXPECT_EQ(ev[0].extra["expected"]["c3"], "W");
  EXPECT_EQ(summary(board("WW.......BBB", 100)), "");  // said once
  ev = board("WW...W...BB.", 200);
  ASSERT_EQ(summary(ev), "setup_mismatch");
  EXPECT_EQ(ev[0].squares, (std::vector<std::string>{"c3", "c6", "c12"}));
  EXPECT_EQ(summary(board("WWW......BBB", 300)), "setup_ok");
  EXPECT_EQ(referee->phase(), Phase::Playing);
}

TEST_F(RefereeTest, SetupFromAGivenFen) {
  RefereeOptions o;
  o.start_fen = "..WB.B...... w";
  make(o);
  EXPECT_EQ(summary(board("WWW......BBB", 0)), "setup_mismatch");
  auto ev = board("..WB.B......", 10);
  ASSERT_EQ(summary(ev), "setup_ok");
  EXPECT_EQ(ev[0].fen, "..WB.B...... w");
}

TEST_F(RefereeTest, MoveEventCarriesPlySideNotationCapturedPointsScore) {
  RefereeOptions o;
  o.start_fen = "WWWB.B.....B w";
  make(o);
  board("WWWB.B.....B", 0);
  auto ev = board("WW....W....B", 1000);
  ASSERT_EQ(summary(ev), "move:c3xc5xc7");
  const Event& m = ev[0];
  EXPECT_EQ(m.ply, 1);
  EXPECT_EQ(m.side, "white");
  EXPECT_EQ(m.captured, (std::vector<std::string>{"c4", "c6"}));
  EXPECT_EQ(m.score.at("white"), 2);
  EXPECT_EQ(m.score.at("black"), 0);
  EXPECT_EQ(m.fen, "WW....W....B b");
  EXPECT_EQ(m.extra["path"], nlohmann::json({"c5", "c7"}));
  nlohmann::json j = to_json(m);
  EXPECT_EQ(j["type"], "move");
  EXPECT_EQ(j["t"], 1000);
  EXPECT_EQ(j["score"]["white"], 2);
}

TEST_F(RefereeTest, IntermediateBoardsOfACaptureAreNeverAnnounced) {
  RefereeOptions o;
  o.start_fen = "WWWB.B.....B w";
  make(o);
  board("WWWB.B.....B", 0);
  std::vector<Event> ev;
  for (auto cells : {"WW.BWB.....B", "WW.B.BW....B", "WW.B..W....B"}) {
    auto e = board(cells, 100 + 100 * static_cast<int>(ev.size()));
    ev.insert(ev.end(), e.begin(), e.end());
  }
  EXPECT_EQ(summary(ev), "");
  EXPECT_EQ(summary(board("WW....W....B", 2000)), "move:c3xc5xc7");
}

TEST_F(RefereeTest, GameEndsWhenTheSideToMoveHasNoMove) {
  RefereeOptions o;
  o.start_fen = "..WB.B...... w";
  make(o);
  board("..WB.B......", 0);
  auto ev = board("......W.....", 500);
  ASSERT_EQ(summary(ev), "move:c3xc5xc7 game_over:1-0");
  EXPECT_EQ(ev[1].reason, "no legal move");
  EXPECT_EQ(ev[1].score.at("white"), 3);  // the toy counts pieces taken from three a side
  EXPECT_EQ(referee->phase(), Phase::GameOver);
  EXPECT_EQ(summary(board("WWW......BBB", 600)), "");  // a finished single game ignores the board
}

TEST_F(RefereeTest, IllegalMoveIsAnnouncedOnceNeverPlayedThenRestored) {
  RefereeOptions o;
  o.start_fen = "W.WB......B. w";
  make(o);
  board("W.WB......B.", 0);
  auto ev = board(".WWB......B.", 100);
  ASSERT_EQ(summary(ev), "illegal");
  EXPECT_EQ(ev[0].reason, "a capture is mandatory (c3xc5)");
  EXPECT_EQ(ev[0].squares, (std::vector<std::string>{"c1", "c2"}));
  EXPECT_EQ(ev[0].side, "white");
  EXPECT_EQ(summary(board(".WWB......B.", 200)), "");
  EXPECT_EQ(referee->ply(), 0);
  EXPECT_EQ(summary(board("W.WB......B.", 300)), "restored");
  EXPECT_EQ(summary(board("W...W.....B.", 400)), "move:c3xc5");
}

TEST_F(RefereeTest, IllegalMoveCorrectedStraightToALegalOne) {
  RefereeOptions o;
  o.start_fen = "W.WB......B. w";
  make(o);
  board("W.WB......B.", 0);
  EXPECT_EQ(summary(board(".WWB......B.", 100)), "illegal");
  // The player puts c1 back and captures in one go.
  EXPECT_EQ(summary(board("W...W.....B.", 200)), "move:c3xc5");
}

TEST_F(RefereeTest, UnclearBoardIsReportedOnceItStaysThenRestored) {
  make();
  start_game();
  EXPECT_EQ(summary(board("WWW..W...BBB", 100)), "");  // not yet: it may be a passing state
  auto ev = board("WWW..W...BBB", 1200);
  ASSERT_EQ(summary(ev), "unclear");
  EXPECT_EQ(ev[0].squares, std::vector<std::string>{"c6"});
  EXPECT_EQ(ev[0].extra["suggestions"][0], "c3-c4");
  EXPECT_EQ(summary(board("WWW..W...BBB", 1500)), "");
  EXPECT_EQ(summary(board("WWW......BBB", 1600)), "restored");
  EXPECT_EQ(referee->ply(), 0);
}

TEST_F(RefereeTest, FastTwoMoveSequenceIsRecordedInOrder) {
  make();
  start_game();
  auto ev = board("WW.W....B.BB", 800);
  ASSERT_EQ(summary(ev), "move:c3-c4 move:c10-c9");
  EXPECT_EQ(ev[0].ply, 1);
  EXPECT_EQ(ev[1].ply, 2);
  EXPECT_EQ(ev[1].side, "black");
}

TEST_F(RefereeTest, ReturnToTheEarlierPositionIsATakeback) {
  make();
  start_game();
  EXPECT_EQ(summary(board("WW.W.....BBB", 100)), "move:c3-c4");
  EXPECT_EQ(summary(board("WW.W....B.BB", 200)), "move:c10-c9");
  auto ev = board("WW.W.....BBB", 300);
  ASSERT_EQ(summary(ev), "takeback:1");
  EXPECT_EQ(ev[0].fen, "WW.W.....BBB b");
  EXPECT_EQ(referee->ply(), 1);
  EXPECT_EQ(summary(board("WW.W....B.BB", 400)), "move:c10-c9");
}

TEST_F(RefereeTest, TakebackRefusedIsIllegalAndNotApplied) {
  RefereeOptions o;
  o.allow_takebacks = false;
  make(o);
  start_game();
  board("WW.W.....BBB", 100);
  auto ev = board("WWW......BBB", 200);
  ASSERT_EQ(summary(ev), "illegal");
  EXPECT_EQ(ev[0].reason, "takebacks are not allowed in this game");
  EXPECT_EQ(ev[0].squares, (std::vector<std::string>{"c3", "c4"}));
  EXPECT_EQ(referee->ply(), 1);
  EXPECT_EQ(summary(board("WW.W.....BBB", 300)), "restored");
}

TEST_F(RefereeTest, AmbiguousLandingWaitsForTheStrikeOrSettles) {
  RefereeOptions o;
  o.start_fen = "..w.B......B w";
  o.settle_ms = 1000;
  make(o);
  board("..W.B......B", 0);
  // The king flies onto c5: landing, or half a strike? Wait.
  EXPECT_EQ(summary(board("....W......B", 100)), "");
  // It flies back: a strike.
  EXPECT_EQ(summary(board("..W........B", 300)), "move:c3@c5");

  make(o);
  board("..W.B......B", 0);
  EXPECT_EQ(summary(board("....W......B", 100)), "");
  EXPECT_EQ(summary(board("....W......B", 600)), "");
  auto ev = board("....W......B", 1100);  // it stayed: a landing, timed when it was first seen
  ASSERT_EQ(summary(ev), "move:c3>c5");
  EXPECT_EQ(ev[0].t, 100);

  make(o);
  board("..W.B......B", 0);
  EXPECT_EQ(summary(board("....W......B", 100)), "");
  // Black answered before the wait ran out: the landing, then Black's move.
  EXPECT_EQ(summary(board("....W.....B.", 400)), "move:c3>c5 move:c12-c11");
}

// The king flown onto c5 and put back on c3 before the wait ran out: no reply of
// Black's explains the board as it was, so the waiting landing is dropped (the same
// board after a reply that undoes a move's picture is the move and the reply).
TEST_F(RefereeTest, AWaitingMovePutBackWhereNoReplyExplainsTheBoardIsDropped) {
  RefereeOptions o;
  o.start_fen = "..w.B......B w";
  o.settle_ms = 1000;
  make(o);
  board("..W.B......B", 0);
  EXPECT_EQ(summary(board("....W......B", 100)), "");
  EXPECT_EQ(summary(board("..W.B......B", 400)), "");
  EXPECT_EQ(summary(board("..W.B......B", 2000)), "");
  EXPECT_EQ(summary(referee->finish(3000)), "");
  EXPECT_EQ(referee->ply(), 0);
}

TEST_F(RefereeTest, OperatorConfirmsCorrectsAndUndoes) {
  make();
  start_game();
  EXPECT_THROW(cmd(10, {{"command", "confirm"}}), InputError);  // nothing to confirm
  EXPECT_THROW(cmd(10, {{"command", "confirm"}, {"move", "c1-c2"}}), InputError);
  auto ev = cmd(20, {{"command", "confirm"}, {"move", "c3-c4"}});
  ASSERT_EQ(summary(ev), "move:c3-c4");
  EXPECT_EQ(ev[0].extra["by"], "operator");
  ev = cmd(30, {{"command", "correct"}, {"move", "c3-c4"}});
  EXPECT_EQ(summary(ev), "takeback:0 move:c3-c4");
  ev = cmd(40, {{"command", "undo"}});
  EXPECT_EQ(summary(ev), "takeback:0");
  EXPECT_EQ(referee->ply(), 0);
  EXPECT_THROW(cmd(50, {{"command", "undo"}}), InputError);
}

TEST_F(RefereeTest, OperatorConfirmsTheSuggestionOfAnUnclearBoard) {
  make();
  start_game();
  board("WW.W.W...BBB", 100);  // c3-c4 and a stray piece on c6
  ASSERT_EQ(summary(board("WW.W.W...BBB", 1200)), "unclear");
  EXPECT_EQ(summary(cmd(1300, {{"command", "confirm"}})), "move:c3-c4");
}

TEST_F(RefereeTest, DrawOffersAreLimitedPerPlayerAndAgreedDrawEndsTheGame) {
  RefereeOptions o;
  o.max_draw_offers = 3;
  make(o);
  start_game();
  for (int i = 0; i < 3; ++i) {
    auto ev = cmd(10 + i * 10, {{"command", "offer_draw"}, {"side", "white"}});
    ASSERT_EQ(summary(ev), "draw_offer");
    EXPECT_EQ(ev[0].extra["offers_left"], 2 - i);
    EXPECT_EQ(summary(cmd(15 + i * 10, {{"command", "decline_draw"}, {"side", "black"}})), "draw_declined");
  }
  EXPECT_THROW(cmd(100, {{"command", "offer_draw"}, {"side", "white"}}), InputError);
  EXPECT_THROW(cmd(100, {{"command", "accept_draw"}, {"side", "white"}}), InputError);  // nothing open
  EXPECT_EQ(summary(cmd(110, {{"command", "offer_draw"}, {"side", "black"}})), "draw_offer");
  auto ev = cmd(120, {{"command", "accept_draw"}, {"side", "white"}});
  ASSERT_EQ(summary(ev), "game_over:1/2-1/2");
  EXPECT_EQ(ev[0].reason, "agreed draw");
}

TEST_F(RefereeTest, DrawOfferLapsesWhenTheOtherSideMoves) {
  make();
  start_game();
  cmd(10, {{"command", "offer_draw"}, {"side", "black"}});
  board("WW.W.....BBB", 100);  // White moves instead of answering
  EXPECT_THROW(cmd(110, {{"command", "accept_draw"}, {"side", "white"}}), InputError);
}

TEST_F(RefereeTest, ResignationAndDeclaredResult) {
  make();
  start_game();
  auto ev = cmd(50, {{"command", "resign"}, {"side", "black"}});
  ASSERT_EQ(summary(ev), "game_over:1-0");
  EXPECT_EQ(ev[0].reason, "black resigned");

  make();
  start_game();
  EXPECT_THROW(cmd(50, {{"command", "declare"}, {"result", "2-0"}, {"reason", "x"}}), InputError);
  ev = cmd(60, {{"command", "declare"}, {"result", "0-1"}, {"reason", "white used a phone"}});
  ASSERT_EQ(summary(ev), "game_over:0-1");
  EXPECT_EQ(ev[0].reason, "white used a phone");
}

TEST_F(RefereeTest, UnknownOrMalformedCommandsSayWhy) {
  make();
  start_game();
  try {
    cmd(10, {{"command", "teleport"}});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown operator command 'teleport'"), std::string::npos);
  }
  EXPECT_THROW(cmd(10, {{"command", "resign"}, {"side", "green"}}), InputError);
  EXPECT_THROW(cmd(10, {{"command", "resign"}}), InputError);
  EXPECT_THROW(cmd(10, nlohmann::json::array()), InputError);
}

TEST_F(RefereeTest, ClockSwitchesOnAcceptedMovesAndFlagFallEndsTheGame) {
  RefereeOptions o;
  o.clock.base_ms = 10000;
  o.clock.increment_ms = 1000;
  make(o);
  start_game();
  auto ev = board("WW.W.....BBB", 3000);  // White used 3 s, gains 1 s
  ASSERT_EQ(summary(ev), "move:c3-c4");
  EXPECT_EQ(ev[0].extra["clock"]["white"], 8000);
  EXPECT_EQ(ev[0].extra["clock"]["black"], 10000);
  ev = board("WW.W....B.BB", 5000);
  EXPECT_EQ(ev[0].extra["clock"]["black"], 9000);
  EXPECT_EQ(referee->clock().remaining(5000)[0], 8000);
  EXPECT_TRUE(referee->on_time(12000).empty());
  ev = referee->on_time(13000);  // White's 8 s ran out at 13000
  ASSERT_EQ(summary(ev), "game_over:0-1");
  EXPECT_EQ(ev[0].reason, "white's time ran out");
}

TEST_F(RefereeTest, MoveAfterTheFlagFellIsNotAccepted) {
  RefereeOptions o;
  o.clock.base_ms = 1000;
  make(o);
  start_game();
  EXPECT_EQ(summary(board("WW.W.....BBB", 1500)), "game_over:0-1");
  EXPECT_EQ(referee->ply(), 0);
}

TEST_F(RefereeTest, OnTimeAnnouncesTheFlagAtTheMomentItFellWithTheClockAtZero) {
  RefereeOptions o;
  o.clock.base_ms = 10000;
  o.clock.increment_ms = 1000;
  make(o);
  start_game();
  board("WW.W.....BBB", 3000);  // White: 8 s left
  board("WW.W....B.BB", 5000);  // Black: 9 s left; White's flag falls at 13000
  auto ev = referee->on_time(14700);
  ASSERT_EQ(summary(ev), "game_over:0-1");
  EXPECT_EQ(ev[0].t, 13000);
  EXPECT_EQ(ev[0].extra["clock"]["white"], 0);
  EXPECT_EQ(ev[0].extra["clock"]["black"], 9000);
  EXPECT_EQ(referee->game().ended_t, 13000);
}

TEST_F(RefereeTest, AFrameLongAfterTheFlagEndsTheGameAtTheFlagMomentAndItsMoveIsNotPlayed) {
  RefereeOptions o;
  o.clock.base_ms = 1000;
  make(o);
  start_game();
  auto ev = board("WW.W.....BBB", 60000);
  ASSERT_EQ(summary(ev), "game_over:0-1");
  EXPECT_EQ(ev[0].t, 1000);
  EXPECT_EQ(referee->ply(), 0);
  EXPECT_TRUE(referee->game().moves.empty());
}

TEST_F(RefereeTest, GameLimitIsAnnouncedWhenItWasReachedPausesNotCounted) {
  RefereeOptions o;
  o.clock.game_limit_ms = 15 * 60000;
  make(o, std::make_shared<ScoringToyRules>());
  start_game();
  cmd(60000, {{"command", "pause"}});
  cmd(3 * 60000, {{"command", "resume"}});  // two minutes not counted: the limit comes at 17 min
  auto ev = board("WW.W.....BBB", 20 * 60000);
  ASSERT_EQ(summary(ev), "game_over:1/2-1/2");
  EXPECT_EQ(ev[0].t, 17 * 60000);
  EXPECT_EQ(referee->ply(), 0);
}

TEST_F(RefereeTest, OperatorsFlagIsRefusedWithNoGameAndEndsAGameLikeTheClock) {
  make();
  try {
    cmd(0, {{"command", "flag"}, {"side", "white"}});
    ADD_FAILURE() << "flag accepted during setup";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("flag: no game is being played"), std::string::npos) << e.what();
  }
  start_game();
  EXPECT_THROW(cmd(10, {{"command", "flag"}}), InputError);
  EXPECT_THROW(cmd(10, {{"command", "flag"}, {"side", "green"}}), InputError);
  auto ev = cmd(20, {{"command", "flag"}, {"side", "white"}});
  ASSERT_EQ(summary(ev), "game_over:0-1");
  EXPECT_EQ(ev[0].t, 20);
  EXPECT_EQ(ev[0].reason, "white's time ran out (flag fall declared by the operator)");
}

TEST_F(RefereeTest, PausedClockDoesNotRunAndSetClockOverrides) {
  RefereeOptions o;
  o.clock.base_ms = 5000;
  make(o);
  start_game();
  EXPECT_EQ(summary(cmd(1000, {{"command", "pause"}})), "clock");
  EXPECT_THROW(cmd(1100, {{"command", "pause"}}), InputError);
  EXPECT_TRUE(referee->on_time(60000).empty());
  EXPECT_EQ(summary(cmd(60000, {{"command", "resume"}})), "clock");
  EXPECT_EQ(referee->clock().remaining(60000)[0], 4000);
  cmd(60000, {{"command", "set_clock"}, {"white", 100000}});
  EXPECT_EQ(referee->clock().remaining(61000)[0], 99000);
  EXPECT_THROW(cmd(61000, {{"command", "set_clock"}, {"white", -5}}), InputError);
}

TEST_F(RefereeTest, OnTimePointsDecideInGamesThatKeepScore) {
  RefereeOptions o;
  o.start_fen = "WWWB.....BB. w";
  o.clock.base_ms = 5000;
  make(o, std::make_shared<ScoringToyRules>());
  board("WWWB.....BB.", 0);
  ASSERT_EQ(summary(board("WW..W....BB.", 1000)), "move:c3xc5");  // White leads 1-0
  auto ev = referee->on_time(7000);
  ASSERT_EQ(summary(ev), "game_over:1-0");
  EXPECT_EQ(ev[0].reason, "black's time ran out: points decide (1-0)");
}

TEST_F(RefereeTest, GameLimitEndsTheGameAndPointsDecide) {
  RefereeOptions o;
  o.clock.game_limit_ms = 15 * 60000;
  make(o, std::make_shared<ScoringToyRules>());
  start_game();
  board("WW.W.....BBB", 60000);
  auto ev = referee->on_time(15 * 60000);
  ASSERT_EQ(summary(ev), "game_over:1/2-1/2");
  EXPECT_EQ(ev[0].reason, "the game's 15 min are up: points decide (0-0)");
}

TEST_F(RefereeTest, MatchEndsWhenOneSideHasWonMostGames) {
  RefereeOptions o;
  o.match_games = 3;
  make(o);
  start_game();
  auto ev = cmd(100, {{"command", "resign"}, {"side", "black"}});
  ASSERT_EQ(summary(ev), "game_over:1-0 new_game");
  EXPECT_EQ(ev[1].extra["game_no"], 2);
  EXPECT_EQ(referee->phase(), Phase::Setup);
  EXPECT_EQ(summary(board("WWW......BBB", 200)), "setup_ok");
  ev = cmd(300, {{"command", "resign"}, {"side", "black"}});
  ASSERT_EQ(summary(ev), "game_over:1-0 match_over:1-0");
  EXPECT_EQ(ev[1].score.at("white"), 2);
  EXPECT_EQ(ev[1].extra["games"].size(), 2u);
  EXPECT_EQ(referee->phase(), Phase::MatchOver);
}

TEST_F(RefereeTest, MatchOfEqualWinsIsDrawn) {
  RefereeOptions o;
  o.match_games = 2;
  make(o);
  start_game();
  cmd(100, {{"command", "resign"}, {"side", "black"}});
  board("WWW......BBB", 200);
  auto ev = cmd(300, {{"command", "resign"}, {"side", "white"}});
  ASSERT_EQ(summary(ev), "game_over:0-1 match_over:1/2-1/2");
}

TEST_F(RefereeTest, NewGameAbandonsAnUnfinishedGame) {
  make();
  start_game();
  board("WW.W.....BBB", 100);
  auto ev = cmd(200, {{"command", "new_game"}});
  ASSERT_EQ(summary(ev), "game_over:* new_game");
  EXPECT_EQ(ev[0].reason, "abandoned by the operator");
  EXPECT_EQ(referee->games().size(), 2u);
  EXPECT_THROW(cmd(300, {{"command", "new_game"}, {"fen", "nonsense"}}), InputError);
}

TEST_F(RefereeTest, OperatorStartTrustsTheBoard) {
  make();
  board("WW.......BBB", 0);
  auto ev = cmd(10, {{"command", "start"}});
  ASSERT_EQ(summary(ev), "setup_ok");
  EXPECT_EQ(ev[0].extra["by"], "operator");
  EXPECT_THROW(cmd(20, {{"command", "start"}}), InputError);
}

TEST_F(RefereeTest, UnstableFramesDecideNothing) {
  make();
  start_game();
  Frame f = frame_of(*rules, "WW.W.....BBB", 100);
  f.stable = false;
  EXPECT_EQ(summary(referee->on_frame(f)), "");
  EXPECT_EQ(referee->ply(), 0);
}

TEST_F(RefereeTest, FramesGoingBackInTimeAreRejected) {
  make();
  start_game();
  board("WW.W.....BBB", 500);
  EXPECT_THROW(board("WW.W.....BBB", 400), InputError);
}

TEST_F(RefereeTest, StateJsonHasWhatTheScreenNeeds) {
  make();
  start_game();
  board("WW.W.....BBB", 100);
  nlohmann::json s = referee->state_json();
  EXPECT_EQ(s["game"], "toy");
  EXPECT_EQ(s["fen"], "WW.W.....BBB b");
  EXPECT_EQ(s["moves"], nlohmann::json({"c3-c4"}));
  EXPECT_EQ(s["score"]["white"], 0);
  EXPECT_EQ(s["phase"], "playing");
  EXPECT_EQ(s["to_move"], "black");
}

TEST_F(RefereeTest, OptionsRoundTripThroughJson) {
  RefereeOptions o;
  o.start_fen = "x";
  o.allow_takebacks = false;
  o.match_games = 5;
  o.clock.base_ms = 600000;
  o.clock.game_limit_ms = 900000;
  RefereeOptions back = referee_options_from_json(to_json(o));
  EXPECT_EQ(to_json(back), to_json(o));
  EXPECT_THROW(referee_options_from_json({{"match_games", 0}}), InputError);
  EXPECT_THROW(referee_options_from_json({{"clock", {{"base_ms", -1}}}}), InputError);
  EXPECT_THROW(referee_options_from_json({{"colour", "red"}}), InputError);
}

}  // namespace
}  // namespace sb::arbiter
