// The referee on Nine Men's Morris: placements, a mill made and then a piece
// removed (the board in between is no move), slides, an illegal slide with its
// reason, a fast two-move sequence, a takeback and the text record.
#include <gtest/gtest.h>

#include "arbiter/record.h"
#include "tests/arbiter/games/script.h"

namespace sb::arbiter {
namespace {

using sb::testing::Script;
using sb::testing::summary;

TEST(MorrisRefereeTest, PlacementsAreMovesAndTheMillWaitsForItsRemoval) {
  Script s("morris9");
  ASSERT_EQ(summary(s.start()), "setup_ok");
  ASSERT_EQ(summary(s.play("a7")), "move:a7");
  ASSERT_EQ(summary(s.play("a1")), "move:a1");
  ASSERT_EQ(summary(s.play("d7")), "move:d7");
  ASSERT_EQ(summary(s.play("b2")), "move:b2");
  // g7 closes the mill a7-d7-g7: the board with g7 placed and nothing removed
  // yet is a move under way, announced once the removal shows.
  Observation b = s.with(s.board(), "g7", "W");
  EXPECT_EQ(summary(s.see(b)), "");
  EXPECT_EQ(summary(s.see(b, 5000)), "");  // however long the player thinks
  auto ev = s.play("g7xb2");
  ASSERT_EQ(summary(ev), "move:g7xb2");
  EXPECT_EQ(ev[0].captured, std::vector<std::string>{"b2"});
  EXPECT_EQ(ev[0].score.at("white"), 1);
  EXPECT_EQ(s.referee.ply(), 5);
}

TEST(MorrisRefereeTest, MillBySlideThenRemovalIsOneMove) {
  RefereeOptions o;
  o.start_fen = "WW.B..W.B.....W.B....B.. w 0 0";  // white a7 d7 c5 g4, black b6 e5 d3 a1
  Script s("morris9", o);
  ASSERT_EQ(summary(s.start()), "setup_ok");
  Observation b = s.with(s.board(), "g4", "");  // lifted
  EXPECT_EQ(summary(s.see(b)), "");
  b = s.with(b, "g7", "W");  // the mill a7-d7-g7
  EXPECT_EQ(summary(s.see(b)), "");
  b = s.with(b, "e5", "");
  auto ev = s.see(b);
  ASSERT_EQ(summary(ev), "move:g4-g7xe5");
  EXPECT_EQ(ev[0].captured, std::vector<std::string>{"e5"});
}

TEST(MorrisRefereeTest, SlideToAPointNotAdjacentIsIllegalWithItsReason) {
  RefereeOptions o;
  o.start_fen = "WW.B..W.B.....W.B....B.. w 0 0";
  Script s("morris9", o);
  s.start();
  auto ev = s.see(s.with(s.with(s.board(), "c5", ""), "e4", "W"));
  ASSERT_EQ(summary(ev), "illegal");
  EXPECT_FALSE(ev[0].reason.empty());
  EXPECT_EQ(ev[0].squares, (std::vector<std::string>{"c5", "e4"}));
  EXPECT_EQ(s.referee.ply(), 0);
  EXPECT_EQ(summary(s.see(s.board())), "restored");
}

TEST(MorrisRefereeTest, FastTwoMoveSequenceGivesBothMoves) {
  Script s("morris9");
  s.start();
  EXPECT_EQ(summary(s.play("a7 g1")), "move:a7 move:g1");
}

TEST(MorrisRefereeTest, MillMadeAndTheRemovedPiecePutBackByTheReplyIsReadWhenPlayGoesOn) {
  // Black mills with b4 and removes d1; White, fast, places on d1 again: the
  // board then reads as the mill still waiting for its removal. Black's next
  // placement shows that play went on from both moves.
  Script s("morris9");
  s.start();
  for (const char* m : {"g1", "c5", "f6", "b6", "f2", "b2", "d1"}) ASSERT_EQ(summary(s.play(m)), std::string("move:") + m);
  EXPECT_EQ(summary(s.play("b4xd1 d1")), "");
  // Which white piece the mill took no board told (any one put back reads the
  // same); the position after the three moves is the true one.
  auto ev = s.play("d7");
  ASSERT_EQ(ev.size(), 3u) << summary(ev);
  EXPECT_EQ(ev[0].notation.substr(0, 3), "b4x");
  EXPECT_EQ(ev[2].notation, "d7");
  EXPECT_EQ(s.rules->fen(s.referee.state()), s.rules->fen(s.state));
}

TEST(MorrisRefereeTest, PieceFlownTwiceAroundAMisreadFrameIsThreeMovesNotOneFlight) {
  // Black flies (three pieces). A frame shows c5-e4 and White's f6-c5 with c5
  // misread as empty; the next shows e4-g7. c5-g7 and f6-c5 read the last board
  // too, but never show the frame before (Black on e4) and leave Black to move:
  // White's next slide would then be announced as out of turn.
  RefereeOptions o;
  o.start_fen = "...B.WBW......W..B...... b 0 0";
  Script s("morris12", o);
  ASSERT_EQ(summary(s.start()), "setup_ok");
  s.state = s.after("c5-e4 f6-c5");
  EXPECT_EQ(summary(s.see_doubting(s.with(s.board(), "c5", ""), {"c5"}, 0.25f)), "");
  EXPECT_EQ(summary(s.play("e4-g7")), "move:c5-e4 move:f6-c5 move:e4-g7");
  EXPECT_EQ(summary(s.play("c5-d6")), "move:c5-d6");
}

TEST(MorrisRefereeTest, PlacementMisreadAsTheEmptyPointItWentToIsReadWhenPlayGoesOn) {
  // White's b3 is read doubtfully as empty, so the frame shows the board as it stood;
  // the next frame shows two moves more. Three moves from the record: read on from
  // the doubtful frame, not stuck unclear for the rest of the game.
  Script s("morris6");
  ASSERT_EQ(summary(s.start()), "setup_ok");
  s.play("a1");
  s.play("b2");
  s.state = s.after("b3");
  EXPECT_EQ(summary(s.see_doubting(s.with(s.board(), "b3", ""), {"b3"}, 0.05f)), "");
  EXPECT_EQ(summary(s.play("c1 e5")), "move:b3 move:c1 move:e5");
  EXPECT_EQ(summary(s.play("e1")), "move:e1");
}

TEST(MorrisRefereeTest, PlacementTakenAtOnceAroundTwoMisreadFramesIsThreeMovesNotTwo) {
  // White places a4 (its frame reads a4 doubtfully as empty) and Black's b6 mill
  // takes it at once (that frame reads b6 doubtfully as White): both frames show the
  // board as it stood. White's g1 follows. g1 and b6 read the last board as well as
  // the three moves but leave White a piece more in hand and the wrong side to move;
  // the doubtful frames, read as one move each, need no second move in one frame.
  RefereeOptions o;
  o.start_fen = "....BBWWB..B.W..W.BWWBW. w 2 2";  // game 325 of eval-arbiter morris9 misread-one, ply 14
  Script s("morris9", o);
  ASSERT_EQ(summary(s.start()), "setup_ok");
  s.state = s.after("a4");
  EXPECT_EQ(summary(s.see_doubting(s.with(s.board(), "a4", ""), {"a4"}, 0.16f)), "");
  s.state = s.after("b6xa4");
  EXPECT_EQ(summary(s.see_doubting(s.with(s.board(), "b6", "W"), {"b6"}, 0.07f)), "");
  EXPECT_EQ(summary(s.play("g1")), "move:a4 move:b6xa4 move:g1");
  auto ev = s.play("b4xg1");
  EXPECT_EQ(summary(ev), "move:b4xg1");
  EXPECT_EQ(s.rules->fen(s.referee.state()), s.rules->fen(s.state));
}

TEST(MorrisRefereeTest, MillWhoseRemovedPieceWasPutBackThenASlideIsThreeMovesNotAPlacement) {
  // Twelve Men's Morris: White's e3 mills and takes f4, Black places f4 again, both
  // in one frame, which reads as the mill waiting for its removal. White then slides
  // e3-e4: from the record that reads as a placement on e4, which never shows the
  // board that stood with White on e3 (and leaves Black a piece in hand, so Black's
  // next slide would be announced illegal). Play went on from the two moves.
  RefereeOptions o;
  o.start_fen = "WWW...BBBWWW.BB.B..BWWBW w 1 1";  // game 82 of eval-arbiter morris12 misread, ply 22
  Script s("morris12", o);
  ASSERT_EQ(summary(s.start()), "setup_ok");
  EXPECT_EQ(summary(s.play("e3xf4 f4")), "");
  EXPECT_EQ(summary(s.play("e3-e4")), "move:e3xf4 move:f4 move:e3-e4");
  EXPECT_EQ(summary(s.play("d2-b2")), "move:d2-b2");
  EXPECT_EQ(s.rules->fen(s.referee.state()), s.rules->fen(s.state));
}

TEST(MorrisRefereeTest, ReplyMisreadBehindAMissedFrameIsReadWhenTheNextFrameNeedsThreeMoves) {
  // Six Men's Morris: White's b4 and Black's c2 in one frame, c2 read doubtfully as
  // White: one move (b4) reads it best. The next frame again shows two moves more (a5,
  // a1): three from the record. The earlier frame, read as both moves, leaves two.
  RefereeOptions o;
  o.start_fen = "..B..B.WBWB.W.W. w 2 2";  // game 193 of eval-arbiter morris6 misread, ply 8
  Script s("morris6", o);
  ASSERT_EQ(summary(s.start()), "setup_ok");
  s.state = s.after("b4 c2");
  EXPECT_EQ(summary(s.see_doubting(s.with(s.board(), "c2", "W"), {"c2"}, 0.32f)), "move:b4");
  EXPECT_EQ(summary(s.play("a5 a1")), "takeback:0 move:b4 move:c2 move:a5 move:a1");
  EXPECT_EQ(summary(s.play("c1-e1")), "move:c1-e1");
  EXPECT_EQ(s.rules->fen(s.referee.state()), s.rules->fen(s.state));
}

TEST(MorrisRefereeTest, PlacementTakenAtOnceBehindAMissedFrameIsAskedNotGuessed) {
  // Six Men's Morris: Black places a piece and White's mill takes it before any frame
  // shows it. Every empty point reads the board alike and reaches the same position:
  // the referee records one and asks the operator which, and takes the answer.
  RefereeOptions o;
  o.start_fen = "WW..B.W.WBBBW... b 1 2";
  Script s("morris6", o);
  ASSERT_EQ(summary(s.start()), "setup_ok");
  auto ev = s.play("c1 d4xc1");
  ASSERT_EQ(ev.size(), 3u) << summary(ev);
  ASSERT_EQ(ev[2].type, EventType::Unclear) << summary(ev);
  EXPECT_TRUE(ev[2].extra.value("ask", false));
  EXPECT_TRUE(ev[2].extra.value("same_position", false));
  const auto candidates = ev[2].extra.at("candidates").get<std::vector<std::string>>();
  EXPECT_GT(candidates.size(), 2u);
  EXPECT_NE(std::find(candidates.begin(), candidates.end(), "c1 d4xc1"), candidates.end());
  ASSERT_EQ(s.referee.questions().size(), 1u);
  // Play goes on: no frame answers it, nor doubts a later reading for it.
  EXPECT_EQ(summary(s.play("e1")), "move:e1");
  EXPECT_EQ(s.referee.questions().size(), 1u);
  ev = s.command({{"command", "confirm"}, {"move", "c1 d4xc1"}, {"ply", 2}});
  EXPECT_EQ(s.referee.questions().size(), 0u);
  EXPECT_EQ(s.referee.game().moves[0].move.notation, "c1");
  EXPECT_EQ(s.referee.game().moves[1].move.notation, "d4xc1");
  EXPECT_EQ(s.rules->fen(s.referee.state()), s.rules->fen(s.state));
}

TEST(MorrisRefereeTest, OneMoveReadWhereTwoFitIsRevisedWhenLaterFramesShowTheOtherSideToMove) {
  // Black's mill takes d3 and White slides c3-d3 unseen: the board reads as well as
  // Black's mill taking c3, one move. Two frames later Black moves again, which only
  // the two-move reading allows: the record is revised, nothing announced illegal.
  RefereeOptions o;
  o.start_fen = "WWWBBB.BWB.W.BWWWBB.B.BB b 0 0";
  Script s("morris12", o);
  ASSERT_EQ(summary(s.start()), "setup_ok");
  EXPECT_EQ(summary(s.play("d1-d2xd3 c3-d3")), "move:d1-d2xc3");
  s.play("d2-d1 c4-c3");
  auto ev = s.play("b6-c5");
  for (const Event& e : ev) EXPECT_NE(e.type, EventType::Illegal) << e.reason;
  EXPECT_EQ(s.rules->fen(s.referee.state()), s.rules->fen(s.state));
  // Which white piece the mill took (the other then slid onto its point) no frame
  // tells: the operator is asked.
  ASSERT_EQ(s.referee.questions().size(), 1u);
  const Question& q = s.referee.questions()[0];
  EXPECT_TRUE(q.same_position);
  EXPECT_NE(std::find(q.candidates.begin(), q.candidates.end(), "d1-d2xd3 c3-d3"), q.candidates.end());
}

TEST(MorrisRefereeTest, ReturnToTheEarlierPositionIsATakeback) {
  Script s("morris9");
  s.start();
  s.play("a7");
  s.play("a1");
  auto ev = s.see(s.board(s.rules->play(s.rules->start(), "a7")));
  ASSERT_EQ(summary(ev), "takeback:1");
  EXPECT_EQ(s.referee.ply(), 1);
}

// eval-vision morris6 --simulations 2 --seed 8400006, game 1: Black placed a3 and took it back. The board then
// was the one before a3, but White could close a mill by placing a piece and remove a3: the referee read that
// as White's mill half made (its removal shown before the piece that closes the mill), waited, and called
// Black's next placement illegal. A mill's removal comes after the piece that closes it, never before.
TEST(MorrisRefereeTest, APlacementTakenBackIsATakebackNotAMillWhoseRemovalCameFirst) {
  Script s("morris6");
  s.start();
  for (const char* m : {"d4", "e3", "d2", "a1", "a5", "a3"}) ASSERT_EQ(summary(s.play(m)), std::string("move:") + m);
  State before = s.rules->start();
  for (const char* m : {"d4", "e3", "d2", "a1", "a5"}) before = s.rules->play(before, m);
  ASSERT_EQ(summary(s.see(s.board(before))), "takeback:5");
  EXPECT_EQ(s.referee.ply(), 5);
  s.state = before;
  EXPECT_EQ(summary(s.play("c2")), "move:c2");
}

TEST(MorrisRefereeTest, TextRecordListsTheMovesWithTheirRemovals) {
  Script s("morris9");
  s.start();
  for (const char* m : {"a7", "a1", "d7", "b2"}) s.play(m);
  s.play("g7xb2");
  const std::string text = write_record(RecordFormat::Text, *s.rules, s.referee.games());
  EXPECT_NE(text.find("g7xb2"), std::string::npos) << text;
}

}  // namespace
}  // namespace sb::arbiter
