// The evaluation's arithmetic on hand-made comparisons: what counts as a site error, a side error, an identity
// error; the confusion table; the gate's false settles and latencies.
#include <gtest/gtest.h>

#include "vision/eval/eval_report.h"
#include "vision/eval/gate_tally.h"
#include "vision/eval/read_tally.h"

namespace sb::vision {
namespace {

SiteComparison site(const std::string& name, const std::string& truth, const std::string& read, float conf = 0.95f) {
  return {name, truth, read, conf};
}

TEST(ReadTally, CountsEachMistakeOnceUnderItsOwnFigure) {
  ReadTally t;
  t.add_image("a.png", {site("a1", "R5", "R5"), site("a2", "", ""), site("a3", "R5", "R6", 0.4f),  // dot count
                        site("a4", "B1", "R1"),                                                     // side
                        site("a5", "B2", ""),                                                       // missed
                        site("a6", "", "R0")});                                                     // phantom
  t.add_image("b.png", {site("a1", "B9", "B9"), site("a2", "", "")});
  ReadFigures f = t.figures();
  EXPECT_EQ(f.images, 2);
  EXPECT_EQ(f.sites, 8);
  EXPECT_EQ(f.site_errors, 4);
  EXPECT_EQ(f.missed, 1);
  EXPECT_EQ(f.phantom, 1);
  EXPECT_EQ(f.both_occupied, 4);  // a1, a3, a4 of a.png; a1 of b.png
  EXPECT_EQ(f.side_errors, 1);
  EXPECT_EQ(f.identity_checked, 3);  // the side-error site is not judged for its dots
  EXPECT_EQ(f.identity_errors, 1);
  EXPECT_EQ(f.errors_doubted, 1);
  EXPECT_EQ(f.images_all_right, 1);
  EXPECT_DOUBLE_EQ(f.site_error_rate(), 0.5);
  EXPECT_DOUBLE_EQ(f.side_error_rate(), 0.25);
  EXPECT_NEAR(f.identity_accuracy(), 2.0 / 3.0, 1e-12);
  ASSERT_EQ(t.failures().size(), 1u);
  EXPECT_EQ(t.failures()[0].image, "a.png");
  EXPECT_EQ(t.failures()[0].wrong.size(), 4u);
  EXPECT_EQ((t.confusion().at({"R5", "R6"})), 1);
  EXPECT_EQ((t.confusion().at({"", ""})), 2);
}

TEST(ReadTally, PlainPiecesHaveNoIdentityToJudge) {
  ReadTally t;
  t.add_image("x", {site("a1", "W", "W"), site("b2", "B", "W")});
  EXPECT_EQ(t.figures().identity_checked, 0);
  EXPECT_EQ(t.figures().side_errors, 1);
}

TEST(ReadTally, ConfusionTextPutsTruthInRowsAndLeavesZerosBlank) {
  ReadTally t;
  t.add_image("x", {site("a1", "R1", "R1"), site("a2", "R1", "R7"), site("a3", "", "")});
  const std::string text = confusion_text(t);
  // Header: the empty site, then the tokens in order.
  EXPECT_NE(text.find("truth\\read"), std::string::npos);
  const std::string golden =
      "truth\\read    . R1 R7\n"
      ".             1      \n"
      "R1               1  1\n";
  EXPECT_EQ(text, golden);
  // R7 was only ever read, so it has a column but no row.
  EXPECT_EQ(t.classes(), (std::vector<std::string>{"", "R1", "R7"}));
  auto top = t.top_errors(5);
  ASSERT_EQ(top.size(), 1u);
  EXPECT_EQ(top[0].first.first, "R1");
  EXPECT_EQ(top[0].first.second, "R7");
}

TEST(ReadTally, MergeAddsEverything) {
  ReadTally a, b;
  a.add_image("x", {site("a1", "R1", "R2")});
  b.add_image("y", {site("a1", "R1", "R1"), site("a2", "", "")});
  a.merge(b);
  EXPECT_EQ(a.figures().images, 2);
  EXPECT_EQ(a.figures().sites, 3);
  EXPECT_EQ(a.figures().site_errors, 1);
  EXPECT_EQ((a.confusion().at({"R1", "R1"})), 1);
}

TEST(GateTally, SettledWhileAHandIsOverTheBoardIsCountedPerFrameAndPerSpell) {
  GateTally g(500);
  g.begin_video();
  // t: 0..300 stable and settled; 400..700 hand over (settled wrongly at 500, 600); 800.. stable.
  g.add_frame(0, true, false);
  g.add_frame(100, true, true);
  g.add_frame(200, true, true);
  g.add_frame(300, true, true);
  g.add_frame(400, false, false);
  g.add_frame(500, false, true);
  g.add_frame(600, false, true);
  g.add_frame(700, false, false);
  g.add_frame(800, true, false);
  g.add_frame(900, true, false);
  g.add_frame(1000, true, true);  // 200 ms after the hand left
  g.add_frame(1400, true, true);
  g.end_video();
  GateFigures f = g.figures();
  EXPECT_EQ(f.videos, 1);
  EXPECT_EQ(f.frames, 12);
  EXPECT_EQ(f.unstable_frames, 4);
  EXPECT_EQ(f.false_settled, 2);
  EXPECT_EQ(f.false_settled_spells, 1);
  EXPECT_EQ(f.leaves, 1);  // the video's first stable spell follows no hand
  ASSERT_EQ(f.latency_ms.size(), 1u);
  EXPECT_DOUBLE_EQ(f.latency_ms[0], 200);
  EXPECT_DOUBLE_EQ(f.median_latency_ms(), 200);
  EXPECT_EQ(f.never_settled, 0);
}

TEST(GateTally, AShortPauseIsNotALeaveButALongOneThatNeverSettlesIsCounted) {
  GateTally g(500);
  g.begin_video();
  g.add_frame(0, false, false);
  g.add_frame(100, true, false);  // a 200 ms pause: too short to count
  g.add_frame(200, true, false);
  g.add_frame(300, false, false);
  g.add_frame(400, true, false);  // a long pause the gate never settles in
  g.add_frame(1000, true, false);
  g.add_frame(1100, false, false);
  g.begin_video();  // a second video: its first spell follows no hand
  g.add_frame(0, true, true);
  g.end_video();
  GateFigures f = g.figures();
  EXPECT_EQ(f.videos, 2);
  EXPECT_EQ(f.leaves, 1);
  EXPECT_EQ(f.never_settled, 1);
  EXPECT_TRUE(f.latency_ms.empty());
  EXPECT_LT(f.median_latency_ms(), 0);
  ASSERT_EQ(g.notes().size(), 1u);
  EXPECT_NE(g.notes()[0].find("never settled"), std::string::npos);
}

TEST(EvalReport, HtmlHoldsTheFiguresTheConfusionTableAndTheFailures) {
  EvalReport r;
  r.game = "cotoan";
  r.command = "smartboard eval-vision cotoan --dataset d";
  r.targets = {{"per-site error", "0.500 %", "≤ 0.1 %", false}};
  ReadTally t;
  t.add_image("000001.png", {site("e5", "R3", "R8", 0.3f), site("a1", "", "")}, "tilt 40°");
  r.reads = t;
  r.breakdowns = {{"camera tilt", {{"30–40°", t.figures()}}}};
  GateTally g;
  g.add_frame(0, false, false);
  g.add_frame(100, true, false);
  g.add_frame(1300, true, true);
  g.end_video();
  r.gate = g.figures();
  GameCheck c;
  c.name = "game1";
  c.true_plies = 4;
  c.recorded_plies = 3;
  c.first_wrong_ply = 4;
  c.note = "ply 4: played a, recorded (none)";
  r.games = {c};
  const std::string html = eval_report_html(r);
  EXPECT_NE(html.find("<span class=missed>missed</span>"), std::string::npos);
  EXPECT_NE(html.find("table class=conf"), std::string::npos);
  EXPECT_NE(html.find("000001.png"), std::string::npos);
  EXPECT_NE(html.find("e5: R3 → R8"), std::string::npos);
  EXPECT_NE(html.find("camera tilt"), std::string::npos);
  EXPECT_NE(html.find("1200 ms"), std::string::npos);  // the one latency, as the median
  EXPECT_NE(html.find("ply 4: played a"), std::string::npos);
  EXPECT_FALSE(c.right());
}

}  // namespace
}  // namespace sb::vision
