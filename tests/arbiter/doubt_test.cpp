// Doubtful readings (confidence below InferenceOptions::doubt_below) on the test
// game: they never make an illegal claim alone, and a move seen only through them
// is not lost when the next frame shows play went on.
#include <gtest/gtest.h>

#include "arbiter/referee.h"
#include "tests/arbiter/support.h"
#include "tests/arbiter/toy_rules.h"

namespace sb::arbiter {
namespace {

using sb::testing::frame_of;
using sb::testing::summary;
using sb::testing::ToyRules;

class DoubtTest : public ::testing::Test {
 protected:
  void make(const std::string& fen) {
    RefereeOptions o;
    o.start_fen = fen;
    referee = std::make_unique<Referee>(rules, o);
    ASSERT_EQ(summary(referee->on_frame(frame_of(*rules, fen.substr(0, 12), 0))), "setup_ok");
  }
  // A frame of `cells` whose sites listed in `doubtful` are read at confidence 0.3.
  std::vector<Event> board(const std::string& cells, int64_t t, const std::vector<int>& doubtful = {}) {
    Frame f = frame_of(*rules, cells, t);
    for (int i : doubtful) f.conf[static_cast<size_t>(i)] = 0.3f;
    return referee->on_frame(f);
  }

  std::shared_ptr<Rules> rules = std::make_shared<ToyRules>();
  std::unique_ptr<Referee> referee;
};

TEST_F(DoubtTest, IllegalMoveReadBesideADoubtfulSiteIsAnnouncedOnlyWhenTheNextFrameShowsItAgain) {
  make("W.WB......B. w");
  // c1-c2 while c3xc5 is mandatory, read while c12 is doubtful: not yet.
  EXPECT_EQ(summary(board(".WWB......B.", 100, {11})), "");
  auto ev = board(".WWB......B.", 600);
  ASSERT_EQ(summary(ev), "illegal");
  EXPECT_EQ(ev[0].reason, "a capture is mandatory (c3xc5)");
  EXPECT_EQ(referee->ply(), 0);
}

TEST_F(DoubtTest, IllegalReadingThatTheNextFrameDoesNotRepeatIsNeverAnnounced) {
  make("W.WB......B. w");
  EXPECT_EQ(summary(board(".WWB......B.", 100, {11})), "");
  EXPECT_EQ(summary(board("W...W.....B.", 600)), "move:c3xc5");
}

TEST_F(DoubtTest, IllegalMoveReadFromSureReadingsIsAnnouncedAtOnce) {
  make("W.WB......B. w");
  EXPECT_EQ(summary(board(".WWB......B.", 100)), "illegal");
}

TEST_F(DoubtTest, MoveSeenOnlyThroughDoubtfulReadingsIsReadWhenPlayGoesOnFromIt) {
  make("WWW......BBB w");
  // c3-c4 played, but c3 and c4 read doubtfully (c4 even as the wrong colour): no change yet.
  EXPECT_EQ(summary(board("WW.B.....BBB", 1000, {2, 3})), "");
  EXPECT_EQ(referee->ply(), 0);
  // Then c10-c9 and c4-c5 (three moves from the recorded position).
  auto ev = board("WW..W...B.BB", 3000);
  EXPECT_EQ(summary(ev), "move:c3-c4 move:c10-c9 move:c4-c5");
  EXPECT_EQ(referee->ply(), 3);
}

}  // namespace
}  // namespace sb::arbiter
