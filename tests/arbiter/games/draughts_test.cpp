// The referee on Brazilian draughts (and its family): every event type from
// scripted boards, captured pieces removed one by one, kings the camera cannot
// see, a fast two-move sequence, a takeback, and the PDN record.
#include <gtest/gtest.h>

#include "arbiter/record.h"
#include "engines/common/errors.h"
#include "engines/draughts/pdn.h"
#include "tests/arbiter/games/script.h"

namespace sb::arbiter {
namespace {

using sb::testing::Script;
using sb::testing::summary;

TEST(DraughtsRefereeTest, SetupListsWrongSquaresUntilTheStartPosition) {
  Script s("brazilian");
  auto ev = s.see(s.with(s.with(s.board(), "21", ""), "18", "W"));
  ASSERT_EQ(summary(ev), "setup_mismatch");
  EXPECT_EQ(ev[0].squares, (std::vector<std::string>{"18", "21"}));
  EXPECT_EQ(summary(s.start()), "setup_ok");
}

TEST(DraughtsRefereeTest, MovesCapturesAndScoreAreAnnounced) {
  Script s("brazilian");
  s.start();
  ASSERT_EQ(summary(s.play("22-18")), "move:22-18");
  ASSERT_EQ(summary(s.play("11-15")), "move:11-15");
  auto ev = s.play("18x11");
  ASSERT_EQ(summary(ev), "move:18x11");
  EXPECT_EQ(ev[0].captured, std::vector<std::string>{"15"});
  EXPECT_EQ(ev[0].score.at("white"), 1);
  EXPECT_EQ(ev[0].side, "white");
  EXPECT_EQ(ev[0].ply, 3);
}

TEST(DraughtsRefereeTest, FastTwoMoveSequenceGivesBothMoves) {
  Script s("brazilian");
  s.start();
  EXPECT_EQ(summary(s.play("22-18 11-15")), "move:22-18 move:11-15");
}

TEST(DraughtsRefereeTest, MissedCaptureIsIllegalWithTheRuleThenRestored) {
  Script s("brazilian");
  s.start();
  s.play("22-18 11-15");
  auto ev = s.see(s.with(s.with(s.board(), "21", ""), "17", "W"));  // 21-17 instead of the capture
  ASSERT_EQ(summary(ev), "illegal");
  EXPECT_EQ(ev[0].reason, "a capture is mandatory: 18x11");
  EXPECT_EQ(ev[0].squares, (std::vector<std::string>{"21", "17"}));
  EXPECT_EQ(s.referee.ply(), 2);  // never recorded
  EXPECT_EQ(summary(s.see(s.board())), "restored");
  EXPECT_EQ(summary(s.play("18x11")), "move:18x11");
}

TEST(DraughtsRefereeTest, JumpedPiecesRemovedOneByOneAreOneMove) {
  RefereeOptions o;
  o.start_fen = "W:W27:B23,15,K1";
  Script s("brazilian", o);
  ASSERT_EQ(summary(s.start()), "setup_ok");
  Observation b = s.board();
  // The man stops on 18 on its way, lands on 11, then the jumped men go one by one.
  b = s.with(s.with(b, "27", ""), "18", "W");
  EXPECT_EQ(summary(s.see(b)), "");
  b = s.with(s.with(b, "18", ""), "11", "W");
  EXPECT_EQ(summary(s.see(b)), "");
  b = s.with(b, "23", "");
  EXPECT_EQ(summary(s.see(b)), "");
  b = s.with(b, "15", "");
  auto ev = s.see(b);
  ASSERT_EQ(summary(ev), "move:27x11");
  EXPECT_EQ(ev[0].captured, (std::vector<std::string>{"23", "15"}));
  EXPECT_EQ(ev[0].extra["path"], nlohmann::json({"18", "11"}));
}

TEST(DraughtsRefereeTest, KingIsFollowedFromHistoryThoughTheCameraSeesAMan) {
  RefereeOptions o;
  o.start_fen = "W:W6:B20,K1";
  Script s("brazilian", o);
  s.start();
  ASSERT_EQ(summary(s.play("6-2")), "move:6-2");  // crowned; the camera still sees "W"
  ASSERT_EQ(summary(s.play("20-24")), "move:20-24");
  // A king's move no man could make: backwards and far.
  std::string backwards;
  for (const Move& m : s.rules->legal_moves(s.state))
    if (m.to >= 0 && std::stoi(s.rules->site_name(m.to)) > 10) backwards = m.notation;
  ASSERT_FALSE(backwards.empty());
  EXPECT_EQ(summary(s.play(backwards)), "move:" + backwards);
}

TEST(DraughtsRefereeTest, ReturnToTheEarlierPositionIsATakeback) {
  Script s("brazilian");
  s.start();
  s.play("22-18");
  State before = s.rules->start();
  auto ev = s.see(s.board(before));
  ASSERT_EQ(summary(ev), "takeback:0");
  EXPECT_EQ(s.referee.ply(), 0);
}

// eval-vision international --simulations 1 --seed 8722102: a capture taken back in two motions (the capturing man
// back where it came from, then the captured man back on its square) settled between them; that board read as the
// capturing side moving again out of turn, an illegal move nobody made.
TEST(DraughtsRefereeTest, ACaptureTakenBackInTwoMotionsIsNoIllegalMove) {
  Script s("brazilian");
  s.start();
  s.play("22-18");
  s.play("11-15");
  s.play("18x11");
  const Observation before = s.board(s.rules->play(s.rules->start(), "22-18 11-15"));
  EXPECT_EQ(summary(s.see(s.with(before, "15", ""), 300)), "") << "the man back, the captured man not yet";
  EXPECT_EQ(summary(s.see(before, 300)), "takeback:2");
  EXPECT_EQ(s.referee.ply(), 2);
}

// The same board left standing is announced: the capturing man moved back out of turn.
TEST(DraughtsRefereeTest, ACaptureHalfTakenBackThatStaysIsIllegal) {
  Script s("brazilian");
  s.start();
  s.play("22-18");
  s.play("11-15");
  s.play("18x11");
  const Observation half = s.with(s.board(s.rules->play(s.rules->start(), "22-18 11-15")), "15", "");
  std::string seen = summary(s.see(half, 300));
  for (int i = 0; i < 4 && seen.empty(); ++i) seen = summary(s.see(half, 300));
  EXPECT_EQ(seen, "illegal");
  EXPECT_EQ(s.referee.ply(), 3);
}

TEST(DraughtsRefereeTest, LastPieceTakenEndsTheGame) {
  RefereeOptions o;
  o.start_fen = "W:W27:B23";
  Script s("brazilian", o);
  s.start();
  auto ev = s.play("27x18");
  ASSERT_EQ(summary(ev), "move:27x18 game_over:1-0");
  EXPECT_FALSE(ev[1].reason.empty());
  EXPECT_EQ(ev[1].score.at("white"), 1);
}

TEST(DraughtsRefereeTest, PieceFromNowhereIsUnclearNeverAMove) {
  Script s("brazilian");
  s.start();
  Observation odd = s.with(s.board(), "16", "W");
  EXPECT_EQ(summary(s.see(odd)), "");
  auto ev = s.see(odd);
  ASSERT_EQ(summary(ev), "unclear");
  EXPECT_EQ(ev[0].squares, std::vector<std::string>{"16"});
  EXPECT_EQ(s.referee.ply(), 0);
}

TEST(DraughtsRefereeTest, BrazilianAllowsThreeDrawOffersPerPlayer) {
  Script s("brazilian");
  s.start();
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(summary(s.command({{"command", "offer_draw"}, {"side", "black"}})), "draw_offer");
    s.command({{"command", "decline_draw"}, {"side", "white"}});
  }
  const nlohmann::json fourth = {{"command", "offer_draw"}, {"side", "black"}};
  EXPECT_THROW(s.command(fourth), sb::InputError);
  EXPECT_EQ(summary(s.command({{"command", "offer_draw"}, {"side", "white"}})), "draw_offer");
}

TEST(DraughtsRefereeTest, OperatorsFlagIsAWinForTheOtherSideInTheEventAndTheRecords) {
  Script s("brazilian");
  const nlohmann::json flag = {{"command", "flag"}, {"side", "black"}};
  EXPECT_THROW(s.command(flag), sb::InputError);  // setup: no game to end yet
  s.start();
  s.play("22-18 11-15");
  auto ev = s.command(flag);
  ASSERT_EQ(summary(ev), "game_over:1-0");
  EXPECT_EQ(ev[0].reason, "black's time ran out (flag fall declared by the operator)");
  EXPECT_EQ(ev[0].extra["winner"], "white");
  try {
    s.command(flag);
    ADD_FAILURE() << "a second flag was accepted";
  } catch (const sb::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no game is being played"), std::string::npos) << e.what();
  }
  std::vector<draughts::PdnGame> games =
      draughts::read_pdn(write_record(RecordFormat::Pdn, *s.rules, s.referee.games()), "record");
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].result, "1-0");
  const nlohmann::json record = nlohmann::json::parse(write_record(RecordFormat::Json, *s.rules, s.referee.games()));
  EXPECT_EQ(record["games"][0]["reason"], ev[0].reason) << record.dump();
}

TEST(DraughtsRefereeTest, PdnRecordReadsBackAndReplaysWithTheRules) {
  Script s("brazilian");
  s.start();
  s.play("22-18 11-15");
  s.play("18x11");
  s.play("8x15");
  s.command({{"command", "resign"}, {"side", "black"}});
  const std::string pdn = write_record(RecordFormat::Pdn, *s.rules, s.referee.games());
  std::vector<draughts::PdnGame> games = draughts::read_pdn(pdn, "record");
  ASSERT_EQ(games.size(), 1u);
  ASSERT_NE(games[0].tag("GameType"), nullptr);
  EXPECT_EQ(games[0].tag("GameType")->substr(0, 2), "26");
  EXPECT_EQ(games[0].result, "1-0");
  draughts::PdnReplay replay = draughts::replay_pdn(games[0], "brazilian");
  ASSERT_EQ(replay.moves.size(), 4u);
  EXPECT_EQ(s.rules->fen(replay.states.back()), s.rules->fen(s.referee.state()));
}

TEST(DraughtsRefereeTest, EnglishBlackMovesFirstAndIsRecordedSo) {
  Script s("english");
  s.start();
  auto ev = s.play(s.rules->legal_moves(s.state).front().notation);
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].side, "black");
  const std::string text = write_record(RecordFormat::Text, *s.rules, s.referee.games());
  EXPECT_NE(text.find("(black moved first)"), std::string::npos) << text;
}

}  // namespace
}  // namespace sb::arbiter
