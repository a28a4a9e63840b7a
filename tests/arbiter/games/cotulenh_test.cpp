// The referee on Cờ tư lệnh: an air force that strikes and returns (the board
// with it over its target is no move yet), stacks followed under their top piece,
// an illegal move with its reason, a fast two-move sequence, the free setup of
// advanced play ("chơi nâng cao"), and the mode's time limit where points decide.
#include <gtest/gtest.h>

#include <algorithm>

#include "arbiter/record.h"
#include "arbiter/simulation.h"
#include "engines/common/errors.h"
#include "engines/registry.h"
#include "tests/arbiter/games/script.h"

namespace sb::arbiter {
namespace {

using sb::testing::Script;
using sb::testing::summary;

// The referee's options for a game that starts from `fen`.
RefereeOptions starting_at(const char* fen) {
  RefereeOptions o;
  o.start_fen = fen;
  return o;
}

// Red's air force on d4, Blue's infantry on d6; the commanders apart.
const char* kStrike = "5c5/11/11/11/11/11/3i7/11/3F7/11/11/6C4 r";

TEST(CotulenhRefereeTest, AirForceStrikesAndReturns) {
  RefereeOptions o;
  o.start_fen = kStrike;
  Script s("cotulenh", o);
  ASSERT_EQ(summary(s.start()), "setup_ok");
  const Observation before = s.board();
  // Over its target: it could also be the capture that stays, so the referee waits…
  Observation over = s.with(s.with(before, "d4", ""), "d6", "RF");
  EXPECT_EQ(summary(s.see(over)), "");
  // …and back on its square with the infantry gone: the strike.
  auto ev = s.see(s.with(before, "d6", ""));
  ASSERT_EQ(summary(ev), "move:Fd4@d6");
  EXPECT_EQ(ev[0].captured, std::vector<std::string>{"d6"});
  EXPECT_EQ(ev[0].score.at("red"), 10);
}

TEST(CotulenhRefereeTest, AirForceThatStaysOnItsTargetIsTheCaptureOnceTheBoardSettles) {
  RefereeOptions o;
  o.start_fen = kStrike;
  Script s("cotulenh", o);
  s.start();
  Observation over = s.with(s.with(s.board(), "d4", ""), "d6", "RF");
  EXPECT_EQ(summary(s.see(over)), "");
  EXPECT_EQ(summary(s.see(over, 2000)), "move:Fd4xd6");
}

TEST(CotulenhRefereeTest, CaptureWhoseTakenPieceLeavesFirstIsNoIllegalMove) {
  // Red's tank on d4, Blue's infantry on d5: the player takes the infantry off the board, then moves the tank.
  RefereeOptions o;
  o.start_fen = "5c5/11/11/11/11/11/11/3i7/3T7/11/11/6C4 r";
  Script s("cotulenh", o);
  ASSERT_EQ(summary(s.start()), "setup_ok");
  EXPECT_EQ(summary(s.see(s.with(s.board(), "d5", ""))), "");
  EXPECT_EQ(summary(s.see(s.with(s.board(), "d5", ""), 2000)), "") << "the capture is still being made";
  ASSERT_EQ(summary(s.play("Td4xd5")), "move:Td4xd5");
}

TEST(CotulenhRefereeTest, StackIsFollowedUnderItsTopPiece) {
  RefereeOptions o;
  o.start_fen = "5c5/11/11/11/11/11/11/11/3(TI)7/11/11/6C4 r";  // a tank carrying an infantry
  Script s("cotulenh", o);
  ASSERT_EQ(summary(s.start()), "setup_ok");
  // The camera sees the top piece only; the stack landing could also be the start
  // of a split, so the referee waits for the board to settle.
  EXPECT_EQ(summary(s.play("(TI)d4-d5")), "");
  ASSERT_EQ(summary(s.see(s.board(), 2000)), "move:(TI)d4-d5");
  ASSERT_EQ(summary(s.play("Cf12-e12")), "move:Cf12-e12");
  // The infantry steps off the tank: it appears where nothing was, which only
  // the history of the stack explains.
  auto ev = s.play("Id5-d6");
  ASSERT_EQ(summary(ev), "move:Id5-d6");
}

// Blue's last air force on h7 next to Red's air defence; Blue's militia on f7. The
// air force shot down (Fh7-f5: the air battle lost) and the air force gone under
// the militia (Fh7-f7, a stack showing the militia) look exactly alike.
const char* kLastAirForce =
    "6a1c2/1n3h1h3/6s4/3e1t1tg2/4g4(ea)i/3i1m1f3/7T3/1nIE2M2E1/5G1AG2/2FA4S1F/N4HCH3/1N9 b 40 30 ITf";

std::vector<std::string> candidates_of(const std::vector<Event>& events) {
  for (const Event& e : events)
    if (e.type == EventType::Unclear && e.extra.value("ask", false))
      return e.extra.value("candidates", std::vector<std::string>{});
  return {};
}

TEST(CotulenhRefereeTest, MovesTheCameraCannotTellApartAreAskedNotGuessedAndNoEndIsDeclared) {
  RefereeOptions o;
  o.start_fen = kLastAirForce;
  Script s("cotulenh", o);
  ASSERT_EQ(summary(s.start()), "setup_ok");
  // The air force might still be on its way: the referee waits for the board to settle.
  EXPECT_EQ(summary(s.play("Fh7-f5")), "");
  auto ev = s.see(s.board(), 2000);
  // The referee plays the reading that lets the game go on and asks.
  ASSERT_EQ(summary(ev), "move:Fh7-f7 unclear");
  const std::vector<std::string> asked = candidates_of(ev);
  ASSERT_GE(asked.size(), 2u) << sb::testing::summary(ev) << " " << nlohmann::json(asked).dump();
  EXPECT_EQ(asked[0], "Fh7-f7");
  EXPECT_EQ(s.referee.phase(), Phase::Playing);
  ASSERT_EQ(s.referee.questions().size(), 1u);
  EXPECT_EQ(s.referee.questions()[0].ply, 1);
  EXPECT_EQ(summary(s.see(s.board())), "");  // the same board again tells nothing
  // The operator names the move played (any notation reaching the candidate's position).
  ev = s.command({{"command", "confirm"}, {"move", "Fh7-f5"}});
  EXPECT_EQ(summary(ev), "takeback:0 move:Fh7-f5 game_over:1-0 answered");
  EXPECT_TRUE(s.referee.questions().empty());
  EXPECT_EQ(s.referee.game().result, "1-0");
}

// Game 3 of `eval-arbiter --games cotulenh --run misread-one`, ply 48: the air force shot
// down (the board shows h7 emptied), then the next frames misread j7 at low confidence
// (BS at 0.22, then BI at 0.43). A doubtful reading says nothing by itself: it must not
// turn the air force's vanishing into a flight to j7, which no frame showed it on.
TEST(CotulenhRefereeTest, ADoubtfulReadingDoesNotTurnAnAirForceShotDownIntoAFlightToThatSite) {
  RefereeOptions o;
  o.start_fen = kLastAirForce;
  Script s("cotulenh", o);
  ASSERT_EQ(summary(s.start()), "setup_ok");
  std::string seen = summary(s.play("Fh7-f5"));
  std::vector<Event> ev = s.see_doubting(s.with(s.board(), "j7", "BS"), {"j7"}, 0.22f);
  const std::vector<Event> later = s.see_doubting(s.with(s.board(), "j7", "BI"), {"j7"}, 0.43f);
  ev.insert(ev.end(), later.begin(), later.end());
  const std::vector<Event> last = s.referee.finish(s.t += 1000);
  ev.insert(ev.end(), last.begin(), last.end());
  seen += summary(ev);
  const std::vector<std::string> asked = candidates_of(ev);
  EXPECT_NE(std::find(asked.begin(), asked.end(), "Fh7-f5"), asked.end()) << seen;
  EXPECT_EQ(std::find(asked.begin(), asked.end(), "Fh7-j7"), asked.end()) << seen;
  ASSERT_EQ(s.referee.ply(), 1) << seen;
  EXPECT_NE(s.referee.game().moves[0].move.notation, "Fh7-j7") << seen;
  ev = s.command({{"command", "confirm"}, {"move", "Fh7-f5"}, {"ply", 1}});
  EXPECT_EQ(s.referee.game().result, "1-0") << summary(ev);
  EXPECT_EQ(s.referee.game().moves.back().fen, s.rules->fen(s.state));
}

// Game 28 of `eval-arbiter --games cotulenh --run misread-one`, ply 101: Red's last air
// force shot down (Fe6-b9: e6 emptied, the air battle lost), the third frame misreading
// e2 (RA at 0.12), which a flight Fe6-e2 would fill. No stack hides the air force here:
// the shot down is the only reading the frames show whole, and it ends the game.
TEST(CotulenhRefereeTest, AnAirForceShotDownIsNotReadAsAFlightToAMisreadSiteSoThatTheGameGoesOn) {
  RefereeOptions o;
  o.start_fen = "4a6/5hch3/11/n1i1(eg)t3a1/4f1ts1gi/11/4F2A3/5T2G1I/2G1E3ME1/1+n5T3/1N(NC)2H1H2A/5S5 r 60 50 IFefm";
  Script s("cotulenh", o);
  ASSERT_EQ(summary(s.start()), "setup_ok");
  std::string seen = summary(s.play("Fe6-b9"));
  seen += " " + summary(s.see(s.board()));
  seen += " " + summary(s.see_doubting(s.with(s.board(), "e2", "RA"), {"e2"}, 0.12f));
  seen += " " + summary(s.referee.finish(s.t += 1000));
  ASSERT_EQ(s.referee.ply(), 1) << seen;
  // (Fe6-h6, shot down over another site, reaches the same position.)
  EXPECT_EQ(s.referee.game().moves[0].fen, s.rules->fen(s.state)) << seen;
  EXPECT_TRUE(s.referee.game().over) << seen;
  EXPECT_EQ(s.referee.game().result, s.rules->outcome(s.state).result()) << seen;
}

// Game 2 of `eval-arbiter --games cotulenh --run misread-one`, ply 84: Blue's air force
// went under the infantry on c8 (it could as well have gone under the missile on g7),
// its frame misreading g4 as still held (BG at 0.24), so that frame read as no change;
// the next frame needs two moves and the doubted frame is read as the first. The
// camera cannot tell the two stacks apart: the referee must ask, never guess.
TEST(CotulenhRefereeTest, AHiddenChoiceReadThroughADoubtedFrameIsAskedNotGuessed) {
  RefereeOptions o;
  o.start_fen = "11/1n+N2h1h3/+f10/n2cgt1tgi1/2ie1a1s3/6m1e2/7T3/1FIC4E1I/3G1T+f1G2/N1S3M4/5H1H1A1/4A6 b 30 50 EFa";
  Script s("cotulenh", o);
  ASSERT_EQ(summary(s.start()), "setup_ok");
  s.state = s.after("Fg4-c8");
  std::string seen = summary(s.see_doubting(s.with(s.board(), "g4", "BG"), {"g4"}, 0.24f));
  const std::vector<Event> ev = s.play("Fb5-a6");
  seen += " " + summary(ev);
  const std::vector<std::string> asked = candidates_of(ev);
  EXPECT_NE(std::find(asked.begin(), asked.end(), "Fg4-c8"), asked.end()) << seen;
  EXPECT_NE(std::find(asked.begin(), asked.end(), "Fg4-g7"), asked.end()) << seen;
  ASSERT_EQ(s.referee.ply(), 2) << seen;
}

TEST(CotulenhRefereeTest, AQuestionIsAnsweredByTheBoardOnceALaterFrameTellsTheMovesApart) {
  RefereeOptions o;
  o.start_fen = kLastAirForce;
  Script s("cotulenh", o);
  s.start();
  EXPECT_EQ(summary(s.play("Fh7-f7")), "");
  ASSERT_EQ(summary(s.see(s.board(), 2000)), "move:Fh7-f7 unclear");
  ASSERT_EQ(summary(s.play("Cg2-g1")), "move:Cg2-g1");  // both readings go on
  ASSERT_EQ(s.referee.questions().size(), 1u);
  // The air force flies out from under the militia: only the stack explains it.
  EXPECT_EQ(summary(s.play("Ff7-f10")), "");  // (it may still be on its way)
  auto ev = s.see(s.board(), 2000);
  ASSERT_EQ(summary(ev), "answered move:Ff7-f10");
  EXPECT_EQ(ev[0].extra.value("by", ""), "board");
  EXPECT_TRUE(s.referee.questions().empty());
}

// Red's tank on f4 between two infantry, d4 and h4: driving onto either shows the
// infantry on top, so the camera sees only f4 emptied.
const char* kTankBetweenInfantry = "5c5/11/11/11/11/11/11/11/3I1T1I3/11/11/6C4 r";

TEST(CotulenhRefereeTest, AWrongGuessAskedAboutLongAgoIsRevisedWhenALaterFrameReadsOnlyFromTheOtherCandidate) {
  RefereeOptions o;
  o.start_fen = kTankBetweenInfantry;
  Script s("cotulenh", o);
  s.start();
  auto ev = s.play("Tf4-h4");
  const std::vector<Event> settled = s.see(s.board(), 2000);
  ev.insert(ev.end(), settled.begin(), settled.end());
  const std::vector<std::string> asked = candidates_of(ev);
  ASSERT_EQ(asked.size(), 2u) << summary(ev);
  // The truth is the candidate the referee did not pick.
  const std::string truth = asked[0] == "Tf4-h4" ? "Tf4-d4" : "Tf4-h4";
  const std::string stack = truth.substr(4, 2);
  s.state = s.rules->from_fen(kTankBetweenInfantry);
  s.state = s.after(truth);
  // Far more readings than a revision looks back over, every one read from both candidates.
  const char* shuffle[] = {"Cf12-e12", "Cg1-h1", "Ce12-f12", "Ch1-g1"};
  for (int k = 0; k < 43; ++k) ASSERT_EQ(summary(s.play(shuffle[k % 4])), std::string("move:") + shuffle[k % 4]);
  ASSERT_EQ(s.referee.questions().size(), 1u);
  // The tank leaves the infantry: only the other candidate's stack explains it.
  const std::string exit = "T" + stack + "-" + stack.substr(0, 1) + "6";
  ev = s.play(exit);
  const std::vector<Event> later = s.see(s.board(), 2000);
  ev.insert(ev.end(), later.begin(), later.end());
  EXPECT_NE(summary(ev).find("answered"), std::string::npos) << summary(ev);
  for (const Event& e : ev) EXPECT_NE(e.type == EventType::Unclear && !e.extra.value("ask", false), true) << summary(ev);
  EXPECT_TRUE(s.referee.questions().empty());
  ASSERT_EQ(s.referee.ply(), 45);
  EXPECT_EQ(s.referee.game().moves.front().move.notation, truth);
  EXPECT_EQ(s.referee.game().moves.back().move.notation, exit);
  EXPECT_EQ(s.referee.game().moves.back().fen, s.rules->fen(s.state));
}

// Two such choices (a tank between two infantry on rank 4, one between a militia and
// Red's commander on rank 7), then Red's artillery takes Blue's commander.
const char* kTwoHiddenChoicesThenTheEnd = "5c5/11/11/5A5/11/3M1T1C3/11/11/3I1T1I3/11/11/11 r";

TEST(CotulenhRefereeTest, AnAnswerWhoseRewriteEndsTheGameStillAsksAboutTheLaterHiddenChoice) {
  RefereeOptions o;
  o.start_fen = kTwoHiddenChoicesThenTheEnd;
  Script s("cotulenh", o);
  s.start();
  std::vector<std::string> truth;
  // A boarding the camera cannot tell from the other: the truth is the one not picked.
  auto hidden = [&](const std::string& one, const std::string& other) {
    std::vector<Event> ev = s.play(one);
    const std::vector<Event> settled = s.see(s.board(), 2000);
    ev.insert(ev.end(), settled.begin(), settled.end());
    const std::vector<std::string> asked = candidates_of(ev);
    EXPECT_EQ(asked.size(), 2u) << summary(ev);
    truth.push_back(asked.empty() || asked[0] == one ? other : one);
  };
  hidden("Tf4-h4", "Tf4-d4");
  truth.push_back("Cf12-e12");
  s.state = s.rules->play(s.rules->from_fen(kTwoHiddenChoicesThenTheEnd), truth[0] + " " + truth[1]);
  ASSERT_EQ(summary(s.see(s.board())), "move:Cf12-e12");
  hidden("Tf7-h7", "Tf7-d7");
  truth.push_back("Ce12-f12");
  truth.push_back("Af9xf12");
  std::string all;
  for (const std::string& m : truth) all += (all.empty() ? "" : " ") + m;
  const State start = s.rules->from_fen(kTwoHiddenChoicesThenTheEnd);
  s.state = s.rules->play(start, truth[0] + " " + truth[1] + " " + truth[2] + " " + truth[3]);
  ASSERT_EQ(summary(s.see(s.board())), "move:Ce12-f12");
  auto ev = s.play("Af9xf12");
  ASSERT_NE(summary(ev).find("game_over:1-0"), std::string::npos) << summary(ev);
  ASSERT_EQ(s.referee.questions().size(), 2u);
  // The first answer rewrites the record to its end, the game's end again: the second
  // choice, taken back with it, is asked again.
  ev = s.command({{"command", "confirm"}, {"move", truth[0]}, {"ply", 1}});
  ASSERT_NE(summary(ev).find("answered"), std::string::npos) << summary(ev);
  ASSERT_EQ(s.referee.questions().size(), 1u) << summary(ev);
  EXPECT_EQ(s.referee.questions()[0].ply, 3);
  s.command({{"command", "confirm"}, {"move", truth[2]}, {"ply", 3}});
  EXPECT_TRUE(s.referee.questions().empty());
  ASSERT_EQ(s.referee.ply(), 5);
  State at = start;
  for (int k = 0; k < 5; ++k) {
    at = s.rules->play(at, truth[static_cast<size_t>(k)]);
    EXPECT_EQ(s.referee.game().moves[static_cast<size_t>(k)].fen, s.rules->fen(at)) << "ply " << k + 1;
  }
  EXPECT_EQ(s.referee.game().result, "1-0");
}

// Game 185 of `eval-arbiter --games cotulenh --run one`, plies 27–37: Red's air force
// goes under the infantry on k4 (read as gone under a stack on j9: asked), Blue's air
// force later goes under its infantry on b8 (asked too: c8, c9 … look alike), then the
// air force leaves k4 with the infantry split off: the reading of ply 27 is revised.
// The revision takes the later moves back and plays them again; the question about
// ply 32 (6 here) must be asked again, not lost with them.
TEST(CotulenhRefereeTest, ARevisionOfAnEarlierReadingAsksAgainAboutTheHiddenChoicesOfTheMovesItReplays) {
  RefereeOptions o;
  o.start_fen = "11/2n2hch3/4a1s3a/2ng1t1tg2/f1ie3m1ei/2f8/1N4M4/2IE1T2EF1/2NGF1ST2I/4A3GA1/5H1H3/6C4 r";
  Script s("cotulenh", o);
  ASSERT_EQ(summary(s.start()), "setup_ok");
  const std::vector<std::string> truth = {"Fj5-k4", "Nc9-c10", "Nb6-b9", "Mh8-i8", "Sg4-f4", "Fc7-b8",
                                          "Nb9-a10", "Sg10-i10", "Ae3-d3", "Fa8-b9", "Fk4-j5/Ik4-k3"};
  std::string seen;
  for (const std::string& m : truth) seen += summary(s.play(m)) + " ";
  seen += summary(s.see(s.board())) + " " + summary(s.see(s.board()));
  seen += " " + summary(s.referee.finish(s.t += 1000));
  const auto asked_at = [&](int ply) {
    return std::any_of(s.referee.questions().begin(), s.referee.questions().end(),
                       [&](const Question& q) { return q.ply == ply; });
  };
  ASSERT_TRUE(asked_at(6)) << seen;  // ply 32 of the game
  s.command({{"command", "confirm"}, {"move", "Fc7-b8"}, {"ply", 6}});
  for (const Question& q : s.referee.questions()) ADD_FAILURE() << "still open: ply " << q.ply;
  ASSERT_EQ(s.referee.ply(), 11) << seen;
  EXPECT_EQ(s.referee.game().moves.back().fen, s.rules->fen(s.state)) << seen;
}

// Game 261 of `eval-arbiter --games cotulenh --run one`, plies 50–51: Blue's navy goes
// under its infantry on c8 (the camera sees c5 emptied), then Red's air force takes
// Blue's last air force on k11, which ends the game. Reading c5's frame as two moves
// (the navy to b5, taken by Red's artillery) and the last as two more (an air force's
// flight and a step) also lets the game go on, but reads four moves from two frames:
// an end is no reason to read more moves than the frames show.
TEST(CotulenhRefereeTest, AnEndIsNotAvoidedByReadingMoreMovesThanTheFramesShow) {
  RefereeOptions o;
  o.start_fen = "8c2/3a1h1h2f/2n8/3eg2t1a1/2i2+A4i/5tF2E1/7T3/2n7I/N2G1T5/N2A2S1G2/5H1H2F/9C1 b 90 30 IEMegsfm";
  Script s("cotulenh", o);
  ASSERT_EQ(summary(s.start()), "setup_ok");
  std::string seen = summary(s.play("Nc5-c8"));
  seen += " " + summary(s.play("Fg7xk11"));
  seen += " " + summary(s.see(s.board())) + " " + summary(s.see(s.board()));
  seen += " " + summary(s.referee.finish(s.t += 1000));
  ASSERT_TRUE(s.rules->outcome(s.state).over());
  ASSERT_EQ(s.referee.ply(), 2) << seen;
  EXPECT_EQ(s.referee.game().moves.back().fen, s.rules->fen(s.state)) << seen;
  EXPECT_EQ(s.referee.game().result, s.rules->outcome(s.state).result()) << seen;
}

// Game 130 of `eval-arbiter --games cotulenh --run one`, plies 52–59: Blue's air force
// goes under its infantry on k8 (read as shot down on h6: asked), flies on under its
// commander on g12 as the infantry steps to j8, and Blue's other air force is shot
// down. Read from the record, that is Blue's last air force lost, but the frame after it
// already shows the next move: the waiting reading must not end the game when an
// earlier choice (the one asked about) lets it go on.
TEST(CotulenhRefereeTest, AWaitingReadingThatWouldEndTheGameFirstTriesTheEarlierChoiceAfterWhichItGoesOn) {
  RefereeOptions o;
  o.start_fen = "6ca3/1n3h1h3/3igas4/7tg2/2nt3f2i/2N2m4e/8f2/4G1S2EI/5FM2T1/3EAT1AG2/5H1H3/N2C3F3 b 10 10 Ie";
  Script s("cotulenh", o);
  ASSERT_EQ(summary(s.start()), "setup_ok");
  const std::vector<std::string> truth = {"Fh8-k8", "Cd1-g1", "Fk8-g12/Ik8-j8", "Ed3-c3",
                                          "Fi6-h5", "Sg5-f6", "Nb11-a11", "Nc7-c5"};
  std::string seen;
  for (const std::string& m : truth) seen += summary(s.play(m)) + " ";
  seen += summary(s.see(s.board())) + " " + summary(s.see(s.board()));
  seen += " " + summary(s.referee.finish(s.t += 1000));
  EXPECT_FALSE(s.referee.game().over) << seen;
  // The operator answers what is still asked with the moves played.
  for (int round = 0; round < 8 && !s.referee.questions().empty(); ++round) {
    const Question q = s.referee.questions().front();
    std::string played;
    for (int k = q.base; k < q.ply; ++k) played += (played.empty() ? "" : " ") + truth[static_cast<size_t>(k)];
    s.command({{"command", "confirm"}, {"move", played}, {"ply", q.ply}});
  }
  EXPECT_TRUE(s.referee.questions().empty());
  ASSERT_EQ(s.referee.ply(), 8) << seen;
  EXPECT_EQ(s.referee.game().moves.back().fen, s.rules->fen(s.state)) << seen;
}

std::string settled_and_answered(Script& s, const std::vector<std::string>& truth);

// Plays `truth` from `fen`, one perfect frame per move, then answers every question
// left open with the moves played, as `eval-arbiter --operator` does (the oldest asked
// first; one whose answer is refused is left open and the next answered). Returns what
// was announced; the caller checks the record.
std::string refereed_with_operator(Script& s, const std::vector<std::string>& truth) {
  std::string seen;
  for (const std::string& m : truth) seen += summary(s.play(m)) + " ";
  return seen + settled_and_answered(s, truth);
}

// The board seen twice more as it stands, the input ended, then each open question
// answered with the moves of `truth` it asks about, oldest first.
std::string settled_and_answered(Script& s, const std::vector<std::string>& truth) {
  std::string seen = summary(s.see(s.board())) + " " + summary(s.see(s.board()));
  seen += " " + summary(s.referee.finish(s.t += 1000));
  std::vector<int> refused;
  for (int round = 0; round < 16; ++round) {
    const std::vector<Question>& open = s.referee.questions();
    auto it = std::find_if(open.begin(), open.end(), [&](const Question& q) {
      return std::find(refused.begin(), refused.end(), q.ply) == refused.end();
    });
    if (it == open.end()) break;
    const Question q = *it;
    std::string played;
    for (int k = q.base; k < q.ply && k < static_cast<int>(truth.size()); ++k)
      played += (played.empty() ? "" : " ") + truth[static_cast<size_t>(k)];
    try {
      seen += " | confirm ply " + std::to_string(q.ply) + ": " +
              summary(s.command({{"command", "confirm"}, {"move", played}, {"ply", q.ply}}));
      seen += " " + summary(s.referee.finish(s.t));
    } catch (const InputError& e) {
      seen += " | confirm ply " + std::to_string(q.ply) + " refused: " + e.what();
      refused.push_back(q.ply);
    }
  }
  return seen;
}

// A site read wrong, at low confidence, in the frame after the move at `after` (0-based).
struct Misread {
  size_t after = 0;
  std::string square, token;
  float conf = 0.3f;
};

// One frame of the board as it stands, a second after the previous one, with those of
// `misreads` whose `after` is `k`.
std::string see_misread(Script& s, const std::vector<Misread>& misreads, size_t k = 0) {
  Frame f;
  f.t = s.t += 1000;
  f.board = s.board();
  f.conf.assign(f.board.sites.size(), 1.0f);
  for (const Misread& m : misreads) {
    if (m.after != k) continue;
    f.board = s.with(f.board, m.square, m.token);
    f.conf[static_cast<size_t>(s.rules->site_index(m.square))] = m.conf;
  }
  return summary(s.referee.on_frame(f));
}

// refereed_with_operator, with `misreads` in the moves' frames.
std::string refereed_with_operator(Script& s, const std::vector<std::string>& truth,
                                   const std::vector<Misread>& misreads) {
  std::string seen;
  for (size_t k = 0; k < truth.size(); ++k) {
    s.state = s.after(truth[k]);
    seen += see_misread(s, misreads, k) + " ";
  }
  return seen + settled_and_answered(s, truth);
}

// Every ply of the record reaches the true position after it.
void expect_record_is(const Script& s, const char* fen, const std::vector<std::string>& truth, const std::string& seen) {
  ASSERT_EQ(s.referee.ply(), static_cast<int>(truth.size())) << seen;
  State at = s.rules->from_fen(fen);
  for (size_t k = 0; k < truth.size(); ++k) {
    at = s.rules->play(at, truth[k]);
    EXPECT_EQ(s.referee.game().moves[k].fen, s.rules->fen(at)) << "ply " << k + 1 << " (" << truth[k] << "): " << seen;
  }
  EXPECT_TRUE(s.referee.questions().empty()) << seen;
}

// Game 117 of `eval-arbiter --games cotulenh --run one --operator`, plies 25–45: Red's
// air force splits off the navy on c2 to a4 (under the infantry) or d1 (under the
// commander), alike to the camera: asked. Two moves later it flies to a1 from either,
// so both lines reach the same position. A revision at ply 43 then reads a frame as a
// close second; the question's other line, followed by the frames' first readings, no
// longer read the next frame and the question was closed "by the board" with the
// record's wrong pick; the operator's answer was then refused.
TEST(CotulenhRefereeTest, AQuestionWhoseLinesMeetTheRecordAgainStaysForTheOperator) {
  const char* fen = "2c1a6/nn2fh1h3/8sa1/4g1m1g2/2ie1t3ei/7t1f1/11/3E2M2EI/(NI)3GT1TG2/3A1S1FA2/2(NF)2H1H3/3C7 r";
  Script s("cotulenh", starting_at(fen));
  ASSERT_EQ(summary(s.start()), "setup_ok");
  const std::vector<std::string> truth = {
      "Nc2-c4/Fc2-a4", "Gi9-h9",  "Fa4-a1",  "Fj7-h5",  "Ed5-e5",  "Fe11-d11", "Mg5xh5",
      "Cc12-c11",      "Ai3-j4",  "Fd11-f9", "Fh3-k3",  "Ae12-c10", "Ad3-f1",  "Nb11-b12",
      "Fk3-k5",        "Aj10-g7", "Gi4-i3",  "Mg9-g10", "Fk5-h5",  "Ff9xj5",   "Fh5-g6/Mh5-i4"};
  const std::string seen = refereed_with_operator(s, truth);
  expect_record_is(s, fen, truth, seen);
}

// Game 452 of the same run, plies 37–48: Red's stack (NI) on c6 moves whole to c5, or
// the navy goes under the air force on a6 and the infantry to c5 (alike: asked); the
// navy then reaches b5 from either. Blue's navy goes under the air force on a11 (read
// as under the infantry on c8: asked), and its later split reads only from there. The
// older question's other line reads that frame too (it branches on the newer choice):
// it was answered by the board with the wrong candidate.
TEST(CotulenhRefereeTest, AFrameANewerChoiceExplainsDoesNotAnswerAnOlderQuestionWhoseLinesMetTheRecord) {
  const char* fen = "1f7c1/f4h1h3/n2a3as2/2n1gt1t2i/2ie3mge1/4M6/F1(NI)N5E1/3EA5I/4GT1TG2/6S1F2/5H1H1A1/6C4 r";
  Script s("cotulenh", starting_at(fen));
  ASSERT_EQ(summary(s.start()), "setup_ok");
  const std::vector<std::string> truth = {"(NI)c6-c5", "Na10-a7",           "Nc5-b5",  "Nc9-a11",
                                          "Ej6-j5",    "Cj12-j10",          "Ic5-b5",  "Na11-b12/Fa11-c11",
                                          "Ed5-c5",    "Ad10-d11",          "Ae5-f5",  "Nb12-b11/Fb12-f8",
                                          "Me7-d7"};
  const std::string seen = refereed_with_operator(s, truth);
  expect_record_is(s, fen, truth, seen);
}

// Game 681 of the same run, plies 113–119: Red's air force flies from d5 under the
// commander on d3 (alike to d6, b5, … : asked, the referee picks d6), and the last move
// takes the stack (FC) from d3 to b3, where it is lost: the frame shows d3 emptied,
// which the record (the commander alone on d3) reads as a capture under way. The
// operator's answer rewrites the record; the board as it stands must then be read
// from it, though no new frame comes.
TEST(CotulenhRefereeTest, AnOperatorsAnswerReadsTheBoardAsItStandsFromTheRewrittenRecord) {
  const char* fen = "5c1f3/3a1h1h3/2fsg2t3/3i5ag/3e3me2/9i1/n2I7/3F2T3E/3AE1St3/N4TG4/+n2(FC)1H1H2A/2N8 r 0 30 IGM";
  Script s("cotulenh", starting_at(fen));
  ASSERT_EQ(summary(s.start()), "setup_ok");
  const std::vector<std::string> truth = {"Fd2-e2/Cd2-d3", "Fh12-f12", "Ad4-f6",    "Cf12-e12",
                                          "Fd5-d3",        "Ed8-c8",   "(FC)d3-b3"};
  const std::string seen = refereed_with_operator(s, truth);
  expect_record_is(s, fen, truth, seen);
  EXPECT_EQ(s.referee.game().result, s.rules->outcome(s.state).result()) << seen;
}

// Game 736 of the same run before ply 32, and its plies 32–36.
const char* kGame736 = "n10/1n3(hc)sh3/2a1gt5/2N4tg1a/2ie2m2e1/10i/6M2f1/2IE6I/2F1G1TTGE1/3A2S2A1/5H1H3/2N4C3 b 40 40 Ff";
std::vector<std::string> game736_truth() { return {"Fj6-k7", "Ej4-j3", "Fk7xk5/Ik7-j7", "Ej3-j4/Aj3-i2", "Na12-a9"}; }

// Game 736 of the same run, plies 32–36: Blue's air force goes under the infantry on
// k7 (the camera sees j6 emptied; the referee waits, the air force may be on its way),
// then Red's engineer on j4 boards the air defence on j3 (j4 emptied, the stack shows
// the air defence). Read afresh, both frames are one strike of the air force on j4 in
// which it is shot down: Blue's last air force lost, the game over. Reading on from the
// waiting frame explains the frame as well and the game goes on.
TEST(CotulenhRefereeTest, AFreshReadingThatEndsTheGameLosesToReadingOnFromTheWaitingFrame) {
  const char* fen = kGame736;
  Script s("cotulenh", starting_at(fen));
  ASSERT_EQ(summary(s.start()), "setup_ok");
  const std::vector<std::string> truth = game736_truth();
  const std::string seen = refereed_with_operator(s, truth);
  expect_record_is(s, fen, truth, seen);
  EXPECT_FALSE(s.referee.game().over) << seen;
}

// The same plies of game 736 with its misreads of `misread-one --operator`: the waiting
// frame misreads d6 and e9, the next one c4 and d4. Reading on pays for the waiting
// frame's misreads, the fresh strike read from the next frame alone did not, and won
// though it ends the game (74 of 105 moves wrong). Both readings explain both frames.
TEST(CotulenhRefereeTest, AFreshReadingThatEndsTheGamePaysForTheWaitingFramesMisreadsToo) {
  const char* fen = kGame736;
  Script s("cotulenh", starting_at(fen));
  ASSERT_EQ(summary(s.start()), "setup_ok");
  const std::vector<std::string> truth = game736_truth();
  const std::string seen = refereed_with_operator(
      s, truth, {{0, "d6", "RA", 0.42f}, {0, "e9", "RE", 0.37f}, {1, "c4", "", 0.12f}, {1, "d4", "BF", 0.15f}});
  expect_record_is(s, fen, truth, seen);
  EXPECT_FALSE(s.referee.game().over) << seen;
}

// Game 954 of the same run, plies 34–38: Blue's air force goes under the infantry on c8
// (c7 emptied; the referee waits), then Red's air force flies from d6 to b4, misread as
// Red's air defence at 0.15: read as one strike, the two air forces lost. The next frame
// (the stack on c8 split) reads from no record but a revision of that strike; the first
// revision that read it put Red's air force under the infantry on c5 (alike to the camera
// but for b4), which reads the frame as two moves, the stack split and a flight from c5
// to b4. The flight to b4 reads it as one: the cheaper whole reading is taken.
TEST(CotulenhRefereeTest, ARevisionTakesTheChoiceThatReadsTheLaterFramesCheapest) {
  const char* fen = "6c4/4fhsh3/4g6/2n2a1t3/1ni1e1m1ga1/2f2t4i/2NF6I/2I3M3E/4GT1TG2/1N4S4/3ACH1H1F1/11 b 10 40 EAe";
  Script s("cotulenh", starting_at(fen));
  ASSERT_EQ(summary(s.start()), "setup_ok");
  const std::vector<std::string> truth = {"Fc7-c8", "Fd6-b4", "Fc8-c9/Ic8-c7", "Fj2-j1", "Mg8-g9"};
  const std::string seen = refereed_with_operator(s, truth,
                                                  {{0, "h5", "BF", 0.17f},
                                                   {1, "b4", "RS", 0.15f},
                                                   {2, "c6", "RG", 0.34f},
                                                   {2, "b7", "RG", 0.09f},
                                                   {2, "j12", "RM", 0.18f},
                                                   {2, "k12", "BH", 0.31f},
                                                   {3, "f10", "BI", 0.13f}});
  expect_record_is(s, fen, truth, seen);
}

// Game 936 of the same run, its last move: Red's last air force flies from d3 to c4 and
// is shot down. Two frames show d3 emptied surely (the referee waits: in flight, shot
// down, or under a stack), the input's last frame misreads d3 as Red's air defence at
// 0.42: read as no change (the air force put back), which dropped the waiting move, and
// the game's last move was never recorded. That frame reads as the move as well.
TEST(CotulenhRefereeTest, AWaitingMoveIsNotDroppedForAFrameThatReadsAsNoChangeOnlyThroughADoubtfulSite) {
  const char* fen = "9a1/5h1h1c1/5t5/f3g4e1/3ae1sg2i/3f3mt2/11/6T2EI/1n3AM1A2/2GF1T3G1/6SH1C1/1N9 r 90 140 HIEFNin";
  Script s("cotulenh", starting_at(fen));
  ASSERT_EQ(summary(s.start()), "setup_ok");
  s.state = s.after("Fd3-c4");
  std::string seen = summary(s.see_doubting(s.with(s.board(), "c2", "RH"), {"c2"}, 0.14f));
  seen += " " + summary(s.see_doubting(s.with(s.board(), "f9", "RS"), {"f9"}, 0.15f));
  seen += " " + summary(s.see_doubting(s.with(s.board(), "d3", "RS"), {"d3"}, 0.42f));
  seen += " " + summary(s.referee.finish(s.t += 1000));
  ASSERT_EQ(s.referee.ply(), 1) << seen;
  for (int round = 0; round < 4 && !s.referee.questions().empty(); ++round)
    seen += " | " + summary(s.command({{"command", "confirm"}, {"move", "Fd3-c4"}, {"ply", s.referee.questions().front().ply}}));
  expect_record_is(s, fen, {"Fd3-c4"}, seen);
  EXPECT_EQ(s.referee.game().result, s.rules->outcome(s.state).result()) << seen;
}

// Game 178 of the same run, its last move: Blue's last air force flies from b10 to a9
// and is shot down. Two frames show b10 emptied surely (the referee waits), the third
// misreads d12 as Blue's air force at 0.36: read afresh as a flight to d12, the two
// waiting frames the air force in the air. Reading them as the move it waited on, with
// that one misread, is cheaper than a move under way for two frames.
TEST(CotulenhRefereeTest, AWaitingMoveIsNotReplacedByAFlightToASiteOnlyALaterMisreadShows) {
  const char* fen = "11/1n3h1hs1a/1f4c4/1N2gt2ge1/5m2t1i/F2Me1a4/7A2I/2I1G3E2/5T1T1G1/1n3AS4/5HCH3/2N8 b 50 50 EFif";
  Script s("cotulenh", starting_at(fen));
  ASSERT_EQ(summary(s.start()), "setup_ok");
  s.state = s.after("Fb10-a9");
  std::string seen = see_misread(s, {{0, "e5", "", 0.11f}});
  seen += " " + see_misread(s, {{0, "i11", "RS", 0.24f}});
  seen += " " + see_misread(s, {{0, "g5", "RA", 0.27f}, {0, "e11", "BF", 0.09f}, {0, "d12", "BF", 0.36f}});
  seen += " " + summary(s.referee.finish(s.t += 1000));
  ASSERT_EQ(s.referee.ply(), 1) << seen;
  EXPECT_NE(s.referee.game().moves[0].move.notation, "Fb10-d12") << seen;
  for (int round = 0; round < 4 && !s.referee.questions().empty(); ++round)
    seen += " | " + summary(s.command({{"command", "confirm"}, {"move", "Fb10-a9"}, {"ply", s.referee.questions().front().ply}}));
  expect_record_is(s, fen, {"Fb10-a9"}, seen);
  EXPECT_EQ(s.referee.game().result, s.rules->outcome(s.state).result()) << seen;
}

TEST(CotulenhRefereeTest, ConfirmingTheReferesPickClosesTheQuestionAndAWrongAnswerIsRefused) {
  RefereeOptions o;
  o.start_fen = kLastAirForce;
  Script s("cotulenh", o);
  s.start();
  EXPECT_EQ(summary(s.play("Fh7-f7")), "");
  ASSERT_EQ(summary(s.see(s.board(), 2000)), "move:Fh7-f7 unclear");
  EXPECT_THROW(s.command({{"command", "confirm"}, {"move", "Fh7-g7"}, {"ply", 1}}), InputError);
  EXPECT_THROW(s.command({{"command", "confirm"}, {"move", "Fh7-f7"}, {"ply", 2}}), InputError);
  EXPECT_EQ(summary(s.command({{"command", "confirm"}})), "answered");
  EXPECT_TRUE(s.referee.questions().empty());
  EXPECT_EQ(s.referee.ply(), 1);
}

TEST(CotulenhRefereeTest, TankMovingThreeSquaresIsIllegalWithItsReason) {
  RefereeOptions o;
  o.start_fen = "5c5/11/11/11/11/11/11/11/3T7/11/11/6C4 r";
  Script s("cotulenh", o);
  s.start();
  auto ev = s.see(s.with(s.with(s.board(), "d4", ""), "d7", "RT"));
  ASSERT_EQ(summary(ev), "illegal");
  EXPECT_FALSE(ev[0].reason.empty());
  EXPECT_EQ(ev[0].squares, (std::vector<std::string>{"d4", "d7"}));
  EXPECT_EQ(s.referee.ply(), 0);
}

TEST(CotulenhRefereeTest, FastTwoMoveSequenceGivesBothMoves) {
  Script s("cotulenh");
  s.start();
  const Move red = s.rules->legal_moves(s.state).front();
  const State after = s.rules->apply(s.state, red);
  const Move blue = s.rules->legal_moves(after).front();
  EXPECT_EQ(summary(s.play(red.notation + " " + blue.notation)), "move:" + red.notation + " move:" + blue.notation);
}

TEST(CotulenhRefereeTest, FreeSetupIsCheckedThenPlayStartsFromIt) {
  RefereeOptions o;
  o.free_setup = true;
  Script s("cotulenh", o);
  Observation arranged = s.board(s.rules->start());
  // A navy put on land: the arrangement is refused with its square.
  Observation wrong = s.with(s.with(arranged, "c4", ""), "e3", "RN");
  auto ev = s.see(wrong);
  ASSERT_EQ(summary(ev), "setup_mismatch");
  EXPECT_NE(std::find(ev[0].squares.begin(), ev[0].squares.end(), "e3"), ev[0].squares.end());
  // An arrangement of Red's own (an infantry moved within its half) starts the
  // game once it has stood still for the setup time.
  arranged = s.with(s.with(arranged, "c5", ""), "d4", "RI");
  EXPECT_EQ(summary(s.see(arranged)), "");
  EXPECT_EQ(summary(s.see(arranged, 1000)), "");
  ev = s.see(arranged, 2500);
  ASSERT_EQ(summary(ev), "setup_ok");
  EXPECT_EQ(s.referee.phase(), Phase::Playing);
  s.state = s.referee.state();
  EXPECT_EQ(s.rules->observe(s.state), arranged);
  std::string from_d4;
  for (const Move& m : s.rules->legal_moves(s.state))
    if (m.from == s.rules->site_index("d4") && from_d4.empty()) from_d4 = m.notation;
  ASSERT_FALSE(from_d4.empty());
  EXPECT_EQ(summary(s.play(from_d4)), "move:" + from_d4);
}

TEST(CotulenhRefereeTest, BattleModeEndsAfterFifteenMinutesAndPointsDecide) {
  RefereeOptions o;
  o.start_fen = kStrike;
  Script s("cotulenh", o);
  s.start();
  s.play("Fd4@d6");  // Red 10 points
  auto ev = s.referee.on_time(s.t + 15 * 60000);
  ASSERT_EQ(summary(ev), "game_over:1-0");
  EXPECT_NE(ev[0].reason.find("15 min"), std::string::npos) << ev[0].reason;
  EXPECT_NE(ev[0].reason.find("points decide"), std::string::npos) << ev[0].reason;
}

TEST(CotulenhRefereeTest, RecordUsesTheSeedsSymbols) {
  RefereeOptions o;
  o.start_fen = kStrike;
  Script s("cotulenh", o);
  s.start();
  s.play("Fd4@d6");
  const std::string text = write_record(RecordFormat::Text, *s.rules, s.referee.games());
  EXPECT_NE(text.find(s.referee.game().moves[0].record), std::string::npos) << text;
  EXPECT_NE(s.referee.game().moves[0].record, "Fd4@d6");
}

// Game 10 of `eval-arbiter --games cotulenh --run misread`, ply 26 on: Blue's air force
// flies from g11 under its infantry on c7 (the camera sees g11 emptied), a frame is
// missed, and the next shows Red's Nb2-b3 and the stack split (the air force back on
// g11, the infantry on d7). Ic7-d7 then Nb2-b3 explains that frame as well, in two moves
// instead of three, but never shows the settled frame of g11 empty: reading it would
// put the wrong side to move and lose every later frame.
TEST(CotulenhRefereeTest, AFrameOfAnAirForceGoneUnderAStackIsAMoveWhenTheNextFrameSplitsTheStack) {
  RefereeOptions o;
  o.start_fen = "6c1f2/2n2hfh1a1/3a2s4/1n2g1ttg1i/3e5e1/2i8/5F1T3/1NIE2M2EI/4GT3G1/8SA1/1N3H1H3/2AF4C2 b 10 0 m";
  Script s("cotulenh", o);
  ASSERT_EQ(summary(s.start()), "setup_ok");
  std::string seen = summary(s.play("Fg11-c7"));
  const std::string rest = summary(s.play("Nb2-b3 Fc7-g11/Ic7-d7"));
  seen += (seen.empty() || rest.empty() ? "" : " ") + rest;
  s.state = s.after("Fd1-c2");
  seen += " " + summary(s.see(s.board()));
  EXPECT_EQ(seen, "move:Fg11-c7 move:Nb2-b3 move:Fc7-g11/Ic7-d7 move:Fd1-c2");
  ASSERT_EQ(s.referee.ply(), 4);
  EXPECT_EQ(s.referee.game().moves.back().fen, s.rules->fen(s.state));
}

// Game 37 of `eval-arbiter --games cotulenh --run misread-one --operator`, ply 99: Red's
// navy leaves the infantry it carried on c6 for c5, where the air force it takes aboard
// stays on top: the camera sees no change. A frame with a doubtful misread, read as no
// change, was read as that move once the next frame showed Blue's reply. A question asked
// long before (which stack the tank joined) must still be answerable through it: its
// rewrite reads that frame as no change from the other candidate's line and replays the
// recorded move (without that, every answer was refused and the game lost from there).
TEST(CotulenhRefereeTest, AQuestionIsAnsweredThroughAMoveTheCameraCannotSee) {
  RefereeOptions o;
  o.start_fen = "5c5/11/11/11/11/11/2(NI)8/2F8/3M1T1I3/11/11/6C4 r";
  Script s("cotulenh", o);
  s.start();
  auto ev = s.play("Tf4-h4");
  const std::vector<Event> settled = s.see(s.board(), 2000);
  ev.insert(ev.end(), settled.begin(), settled.end());
  const std::vector<std::string> asked = candidates_of(ev);
  ASSERT_EQ(asked.size(), 2u) << summary(ev);
  const std::string truth = asked[0] == "Tf4-h4" ? "Tf4-d4" : "Tf4-h4";
  const std::string stack = truth.substr(4, 2);
  s.state = s.rules->from_fen(o.start_fen);
  s.state = s.after(truth);
  ASSERT_EQ(summary(s.play("Cf12-e12")), "move:Cf12-e12");
  const Observation before = s.board();
  s.state = s.after("Nc6-c5");
  ASSERT_EQ(s.board(), before);  // the camera cannot see the move
  ASSERT_EQ(summary(s.see_doubting(s.with(s.board(), "a12", "BI"), {"a12"}, 0.2f)), "");
  ASSERT_EQ(summary(s.play("Ce12-f12")), "move:Nc6-c5 move:Ce12-f12");
  ASSERT_EQ(s.referee.questions().size(), 1u);
  // The tank leaves its stack: only the other candidate's stack explains it.
  const std::string exit = "T" + stack + "-" + stack.substr(0, 1) + "6";
  ev = s.play(exit);
  const std::vector<Event> later = s.see(s.board(), 2000);
  ev.insert(ev.end(), later.begin(), later.end());
  EXPECT_NE(summary(ev).find("answered"), std::string::npos) << summary(ev);
  EXPECT_TRUE(s.referee.questions().empty());
  ASSERT_EQ(s.referee.ply(), 5);
  EXPECT_EQ(s.referee.game().moves.front().move.notation, truth);
  EXPECT_EQ(s.referee.game().moves.back().fen, s.rules->fen(s.state));
}

// Game 124 of `eval-arbiter --games cotulenh --run misread-one --operator`, ply 79: Red's
// last air force leaves the infantry it carried on i5 and is shot down over i8 (the
// air battle lost), its frame misreading f5 as that air force (RF at 0.37), which a
// flight there would fill. The next frames show f5 empty, surely: from the flight they
// read only as a capture of the air force under way, which never comes. The flight is
// revised (shot down over i8 or f8, or gone under the infantry, look alike: asked), and
// the answer naming the shot-down ends the game.
TEST(CotulenhRefereeTest, AFlightReadFromAMisreadIsRevisedWhenTheNextFramesShowItsSiteEmpty) {
  RefereeOptions o;
  o.start_fen = "6a4/n4h1h3/n4c1t3/2a+As3g2/3i5ei/2+NEetmf3/10f/2I1G1T1(FI)2/6M1GEA/5S5/2NC1H1H3/11 r 10 60 TFg";
  Script s("cotulenh", o);
  ASSERT_EQ(summary(s.start()), "setup_ok");
  s.state = s.after("Fi5-i8/Ii5-h5");
  std::vector<Event> ev = s.see_doubting(s.with(s.board(), "f5", "RF"), {"f5"}, 0.37f);
  for (int k = 0; k < 2; ++k) {
    const std::vector<Event> later = s.see(s.board());
    ev.insert(ev.end(), later.begin(), later.end());
  }
  const std::vector<Event> last = s.referee.finish(s.t += 1000);
  ev.insert(ev.end(), last.begin(), last.end());
  ASSERT_EQ(s.referee.ply(), 1) << summary(ev);
  EXPECT_NE(s.referee.game().moves[0].move.notation, "Fi5-f5/Ii5-h5") << summary(ev);
  ASSERT_EQ(s.referee.questions().size(), 1u) << summary(ev);
  const std::vector<std::string>& asked = s.referee.questions()[0].candidates;
  EXPECT_NE(std::find(asked.begin(), asked.end(), "Fi5-i8/Ii5-h5"), asked.end()) << summary(ev);
  // The record keeps the sure reading of f5 as its evidence, not the misread (an answer
  // to an older question reads the frames again and must not bring the flight back).
  ASSERT_TRUE(s.referee.game().moves[0].evidence);
  EXPECT_TRUE(s.referee.game().moves[0].evidence->board.sites[static_cast<size_t>(s.rules->site_index("f5"))].empty());
  ev = s.command({{"command", "confirm"}, {"move", "Fi5-i8/Ii5-h5"}, {"ply", 1}});
  EXPECT_EQ(s.referee.game().result, s.rules->outcome(s.state).result()) << summary(ev);
  EXPECT_EQ(s.referee.game().moves.back().fen, s.rules->fen(s.state));
}

// Game 433 of `eval-arbiter --games cotulenh --run misread-one --operator`, ply 14: as
// above, Blue's air force shot down (over e5), its frame misreading i11 as that air force
// (BF at 0.39), but the next frame, which shows i11 empty surely, also shows Red's reply:
// from the flight it reads as the reply with a capture of the air force under way, which
// never comes (unclear for the rest of the game). The flight is revised there too.
TEST(CotulenhRefereeTest, AFlightReadFromAMisreadIsRevisedWhenTheReplysFrameShowsItsSiteEmpty) {
  RefereeOptions o;
  o.start_fen = "2n3c4/1n3h1h3/3a1s3a1/f3gt1tg2/2ie2m2ei/4f6/1N7E1/2IE3T2I/2N1G(TM)S1G2/3A5A1/5H1H1F1/3F2C4 b";
  Script s("cotulenh", o);
  ASSERT_EQ(summary(s.start()), "setup_ok");
  const std::vector<std::string> truth = {"Fe7-e5", "Fj2-j4", "Th9-h10"};
  s.state = s.after(truth[0]);
  std::vector<Event> ev = s.see_doubting(s.with(s.board(), "i11", "BF"), {"i11"}, 0.39f);
  for (const std::vector<Event>& more :
       {s.play(truth[1]), s.play(truth[2]), s.see(s.board()), s.referee.finish(s.t += 1000)})
    ev.insert(ev.end(), more.begin(), more.end());
  const std::string seen = summary(ev);
  for (const Event& e : ev) EXPECT_FALSE(e.type == EventType::Unclear && !e.extra.value("ask", false)) << seen;
  ASSERT_EQ(s.referee.ply(), 3) << seen;
  EXPECT_NE(s.referee.game().moves[0].move.notation, "Fe7-i11") << seen;
  for (int round = 0; round < 4 && !s.referee.questions().empty(); ++round) {
    const Question q = s.referee.questions().front();
    std::string played;
    for (int k = q.base; k < q.ply; ++k) played += (played.empty() ? "" : " ") + truth[static_cast<size_t>(k)];
    s.command({{"command", "confirm"}, {"move", played}, {"ply", q.ply}});
  }
  EXPECT_EQ(s.referee.game().moves.back().fen, s.rules->fen(s.state)) << seen;
}

// Game 363 of `eval-arbiter --games cotulenh --run one --operator`, plies 42–80: Blue's
// air force on i6 is shot down (alike to it gone under the infantry on k8 or the militia
// on g8: asked, the referee picks the shot-down reading); later Blue's other air force
// goes under the militia on f9 (alike to j8 or f5: asked, the referee picks j8), and the
// frame where it splits off that stack reads only from the newer question's f9 line and
// from the older question's k8 line (which branches on the newer choice). Answered by
// the board from the older question, the record's own shot-down candidate was dropped
// from the question asked again, and the operator's true answer (Fi6-e6, shot down
// elsewhere: the same position) was refused.
TEST(CotulenhRefereeTest, AnAnswerByTheBoardKeepsAskingAboutTheRecordsOwnCandidateWhoseLineStillReads) {
  const char* fen = "11/5hch3/4a1s3a/4g3gf1/n1i1e1m3i/n6t1e1/5t2f2/2IEG6/2N1TM1TGEI/9A1/3A1HFHS2/N2CF6 b";
  Script s("cotulenh", starting_at(fen));
  ASSERT_EQ(summary(s.start()), "setup_ok");
  const std::vector<std::string> truth = {
      "Fi6-e6",   "Fg2-g1",  "Ik8-j8",  "Fg1-g5",        "Th7-h9",   "Ge5-d5",     "Na7-b6",
      "Ed5-d4/Gd5-e5", "Nb6-b8", "Fg5-h5", "Mg8-f9",     "Fh5@j7",   "Ae10-c12",   "Cd1-e1",
      "Gi9-i10",  "Fe1-f1/Ce1-d1", "Ak10-i12", "Na1-c3", "Ac12-f12", "Fh5-d5",     "Th9-h8",
      "Ic5-c4",   "Nb8-b10", "(NI)c4-c5", "Th8-f8",    "Ff1-i1",   "Ee8-e7",     "Nc5xe7",
      "Tf6-h6",   "Fi1-j1",  "Tf8-g8",  "Ic5-d5",        "Fj9-f9",   "Fd5-d1",     "(FM)f9-f10",
      "Fd1-c1/Cd1-i1", "Ff10-f8/Mf10-f9", "Fc1-b2", "Ff8-b12"};
  const std::string seen = refereed_with_operator(s, truth);
  expect_record_is(s, fen, truth, seen);
}

// Game 483 of `eval-arbiter --games cotulenh --run one --operator`, plies 144–150:
// Blue's engineer steps out of the stack on e9 to d9 (the referee waits: a move through
// d9 reads as well), then Red's navy on a6 strikes it there from range. That frame shows
// the picture before the engineer's step (e9 the same top piece, d9 empty): read as no
// change, the waiting move was dropped as a piece put back, the record two plies behind
// with the engineer still under e9. The waiting frame showed d9 occupied surely; the
// step and the strike explain both frames, nothing happening explains the first only as
// a move half made and given up.
TEST(CotulenhRefereeTest, AWaitingMoveWhoseReplyRestoresThePictureIsNotDroppedAsAPiecePutBack) {
  const char* fen = "2c8/5hsh3/6f4/4(eg)3t2/nF4m1gti/7a1e1/N6M3/2EI6I/5+a4E/2+n4T1A1/5(HC)1H3/5S3G1 b 50 180 TAGFNif";
  Script s("cotulenh", starting_at(fen));
  ASSERT_EQ(summary(s.start()), "setup_ok");
  const std::vector<std::string> truth = {"Ee9-d9", "Na6@d9", "Cc12-c9", "Fb8-b9", "Mg8-f9", "Aj3-i4", "Ah7-h9"};
  const std::string seen = refereed_with_operator(s, truth);
  expect_record_is(s, fen, truth, seen);
}

// Random games 811 and 841 of seed 1: an air force leaves from under a stack and
// is shot down (ply 69 of 811, the last move of 841), which leaves the picture as
// it was. No frame can show it; its player announces it and the operator enters it.
TEST(CotulenhRefereeTest, AMoveThePictureDoesNotShowIsRecordedWhenTheOperatorEntersItAsAnnounced) {
  std::shared_ptr<const Rules> rules = make_rules("cotulenh");
  for (int game : {811, 841}) {
    SimulationOptions o;
    o.games = 1;
    o.first_game = game;
    o.seed = 1;
    o.skip_rate = 0;
    o.operator_answers = true;
    SimulationResult r = simulate(rules, o);
    EXPECT_EQ(r.announced, 1) << "game " << game;
    EXPECT_EQ(r.right, r.plies) << "game " << game << ": " << (r.failures.empty() ? "" : r.failures[0]);
    EXPECT_EQ(r.game_over_right, r.game_over_true) << "game " << game;
  }
}

}  // namespace
}  // namespace sb::arbiter
