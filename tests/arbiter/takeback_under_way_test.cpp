// A move taken back in several motions, a piece in hand between them, as the whole
// pipeline saw it in Cờ tư lệnh game 6 of a 20-game run (`simulate cotulenh --seed
// 7302931175556108 --moves 8`): Blue's militia boarded the tank on f9 (Mg8-f9), then
// Blue took it back, lifting the stack whole and holding it off the board for some 1.5 s
// before putting the tank back on f9 and the militia on g8, and played Gi9-j9 instead.
// Since a lamp was switched on, Red's air force on i5 read right but in doubt (0.311),
// which says nothing (a misread is likelier at that confidence). The referee read the
// stack lifted as that air force gone (shot down over i8, or under a stack) and Blue's
// stack on its way, then the militia back on g8 as Blue's Mf9-g8: the record went wrong
// from ply 8. A board on its way back to the position before the last move with a piece
// in hand is a takeback under way, and a reading with a move that only doubtful readings
// hide comes after a takeback.
#include <gtest/gtest.h>

#include "arbiter/inference.h"
#include "arbiter/referee.h"
#include "engines/registry.h"
#include "tests/arbiter/support.h"

namespace sb::arbiter {
namespace {

using sb::testing::summary;

// After Ed5-d4 Ik8-k9 Fi2-i5 Sg10-g11 Ad3-d1 Nb11-b12 Ic5-c6: Blue to move.
const char* const kBeforeMilitiaBoards =
    "1n4c4/4fhshf2/3a5a1/2n1gt1tg1i/2ie2m2e1/11/2I8/6M1FEI/2NEGT1TG2/6S2A1/1N2FH1H3/3A2C4 b";
constexpr float kAirForceInDoubt = 0.311f;  // i5, as read since the lamp went on

class TakebackUnderWay : public ::testing::Test {
 protected:
  void SetUp() override {
    before_militia = rules->from_fen(kBeforeMilitiaBoards);
    militia_aboard = rules->play(before_militia, "Mg8-f9");
  }
  // A frame of `s` with the air force on i5 read in doubt and `changes` (site, token; "" empty) read surely.
  Frame frame(const State& s, int64_t t, const std::vector<std::pair<std::string, std::string>>& changes = {}) {
    Frame f = sb::testing::frame_of(*rules, s, t);
    f.conf[static_cast<size_t>(rules->site_index("i5"))] = kAirForceInDoubt;
    for (const auto& [site, token] : changes)
      f.board.sites[static_cast<size_t>(rules->site_index(site))] = token.empty() ? Token{} : parse_token(token);
    return f;
  }

  std::shared_ptr<const Rules> rules = make_rules("cotulenh");
  State before_militia, militia_aboard;
};

TEST_F(TakebackUnderWay, TheLastMovesStackLiftedWholeIsATakebackUnderWayNotAnAirForceGoneInDoubt) {
  Position position(*rules, militia_aboard);
  const Observation earlier = rules->observe(before_militia);
  // As the referee reads Cờ tư lệnh: identities held sure, as in every game whose pieces stack.
  const InferenceOptions options = Referee(rules, RefereeOptions{}).options().inference;
  const Verdict lifted = read_frame(position, frame(militia_aboard, 0, {{"f9", ""}}), {&earlier}, options);
  EXPECT_EQ(lifted.kind, Reading::UnderWay);
  EXPECT_TRUE(lifted.moves.empty());
  // The tank put back, the militia still in hand: on its way still.
  EXPECT_EQ(read_frame(position, frame(militia_aboard, 0, {{"f9", "BT"}}), {&earlier}, options).kind,
            Reading::UnderWay);
}

TEST_F(TakebackUnderWay, TheBoardAsBeforeTheLastMoveIsATakebackNotAMoveOnlyADoubtfulReadingHides) {
  Position position(*rules, militia_aboard);
  const Observation earlier = rules->observe(before_militia);
  const InferenceOptions options = Referee(rules, RefereeOptions{}).options().inference;
  // Also two moves at less than a takeback's prior: Red's air force gone (i5 overruled at no cost), then Mf9-g8.
  const Verdict back = read_frame(position, frame(before_militia, 0), {&earlier}, options);
  EXPECT_EQ(back.kind, Reading::Takeback);
  EXPECT_EQ(back.takeback_to, 0);
  // Without the earlier board to go back to, those two moves are still read.
  EXPECT_EQ(read_frame(position, frame(before_militia, 0), {}, options).kind, Reading::Moves);
}

TEST_F(TakebackUnderWay, AMoveTakenBackWithItsStackHeldOffTheBoardIsRecordedAsTakenBack) {
  RefereeOptions options;
  options.start_fen = kBeforeMilitiaBoards;
  Referee referee(rules, options);
  const State replaced = rules->play(before_militia, "Gi9-j9");
  const std::vector<Frame> frames = {
      frame(before_militia, 0),
      frame(militia_aboard, 1000),
      frame(militia_aboard, 1500),
      frame(militia_aboard, 2000),
      frame(militia_aboard, 2500),
      frame(militia_aboard, 6000, {{"f9", ""}}),  // the stack lifted whole
      frame(militia_aboard, 7500, {{"f9", ""}}),
      frame(militia_aboard, 9000, {{"f9", "BT"}}),  // the tank put back
      frame(before_militia, 11000),                 // and the militia
      frame(before_militia, 11500),
      frame(replaced, 13000),
      frame(replaced, 13500),
  };
  EXPECT_EQ(summary(sb::testing::feed(referee, frames)), "setup_ok move:Mg8-f9 takeback:0 move:Gi9-j9");
  EXPECT_EQ(referee.ply(), 1);
}

}  // namespace
}  // namespace sb::arbiter
