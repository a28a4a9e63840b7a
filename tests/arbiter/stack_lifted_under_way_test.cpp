// A stack built and taken apart in hand, as the whole pipeline saw it in Cờ tư lệnh
// game 11 of a 20-game run (`simulate cotulenh --seed 6744277767968092 --moves 8`): Red's
// air force on f5 joined the infantry on c5 (Ff5-c5, the stack's top still the infantry).
// The hand lifted the air force, then the infantry, and held both off the board, so that a
// settled frame showed f5 and c5 empty; then set the air force down on c5, the infantry on
// it. Red took the move back the same way, the stack lifted whole off c5. The referee knew
// no move half made with the pieces it lands on in hand: it read the first empty board as
// the air force shot down over f8 and announced that no blue piece can take the infantry
// on c5, and did so again while the move was taken back (every reading was right). Both
// are moves under way; the finished move, which reads like the air force shot down or
// gone under the militia on g5, is the one the frames on its way showed.
#include <gtest/gtest.h>

#include "arbiter/inference.h"
#include "arbiter/referee.h"
#include "engines/registry.h"
#include "tests/arbiter/support.h"

namespace sb::arbiter {
namespace {

using sb::testing::summary;

// After Nb2-a2 Nc9-a11 Fi2-f5 Sg10-f10: Red to move.
const char* const kBeforeAirForceJoins =
    "6c4/nn2fh1hf2/3a1s3a1/4gt1tg2/2ie2m2ei/11/11/2IE1FM2EI/2N1GT1TG2/3A2S2A1/N3FH1H3/6C4 r";

class StackLiftedUnderWay : public ::testing::Test {
 protected:
  void SetUp() override {
    before_join = rules->from_fen(kBeforeAirForceJoins);
    joined = rules->play(before_join, "Ff5-c5");
  }
  // A frame of `s` with `changes` (site, token; "" empty) read surely.
  Frame frame(const State& s, int64_t t, const std::vector<std::pair<std::string, std::string>>& changes = {}) {
    Frame f = sb::testing::frame_of(*rules, s, t);
    for (const auto& [site, token] : changes)
      f.board.sites[static_cast<size_t>(rules->site_index(site))] = token.empty() ? Token{} : parse_token(token);
    return f;
  }
  int site(const char* name) const { return rules->site_index(name); }

  std::shared_ptr<const Rules> rules = make_rules("cotulenh");
  State before_join, joined;
  const InferenceOptions options = Referee(rules, RefereeOptions{}).options().inference;
};

TEST_F(StackLiftedUnderWay, TheMoverAndThePiecesItJoinsBothInHandIsAMoveUnderWay) {
  Position position(*rules, before_join);
  const Verdict both_in_hand = read_frame(position, frame(before_join, 0, {{"f5", ""}, {"c5", ""}}), {}, options);
  EXPECT_EQ(both_in_hand.kind, Reading::UnderWay);
  EXPECT_TRUE(both_in_hand.moves.empty());
}

TEST_F(StackLiftedUnderWay, TheStackAMoveJoinedLiftedWholeIsATakebackUnderWay) {
  Position position(*rules, joined);
  const Observation earlier = rules->observe(before_join);
  const Frame lifted = frame(joined, 0, {{"c5", ""}});
  EXPECT_EQ(read_frame(position, lifted, {&earlier}, options, site("c5")).kind, Reading::UnderWay);
  // Where the last move landed is what tells: elsewhere, a piece gone is no takeback.
  EXPECT_NE(read_frame(position, lifted, {&earlier}, options, site("f5")).kind, Reading::UnderWay);
}

TEST_F(StackLiftedUnderWay, AStackBuiltAndTakenApartInHandIsRecordedWithNoIllegalMove) {
  RefereeOptions referee_options;
  referee_options.start_fen = kBeforeAirForceJoins;
  Referee referee(rules, referee_options);
  const std::vector<Frame> frames = {
      frame(before_join, 0),
      frame(before_join, 500),
      frame(before_join, 3000, {{"f5", ""}, {"c5", ""}}),  // both in hand
      frame(before_join, 3500, {{"f5", ""}, {"c5", ""}}),
      frame(before_join, 6000, {{"f5", ""}, {"c5", "RF"}}),  // the air force set down
      frame(joined, 8000),                                   // the infantry on it
      frame(joined, 8500),
      frame(joined, 10000),
      frame(joined, 12000, {{"c5", ""}}),  // taken back: the stack lifted whole
      frame(joined, 12500, {{"c5", ""}}),
      frame(joined, 15000, {{"c5", "RI"}}),  // the infantry put back
      frame(before_join, 17000),             // and the air force
      frame(before_join, 17500),
  };
  const std::vector<Event> events = sb::testing::feed(referee, frames);
  const std::string got = summary(events);
  EXPECT_EQ(got.find("illegal"), std::string::npos) << got;
  EXPECT_EQ(got.rfind("setup_ok move:Ff5-c5", 0), 0u) << got;
  EXPECT_NE(got.find("takeback:0"), std::string::npos) << got;
  EXPECT_EQ(referee.ply(), 0);
}

}  // namespace
}  // namespace sb::arbiter
