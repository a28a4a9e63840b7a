// Perft from the start against published tables, and the duplicate-capture option.
#include <gtest/gtest.h>

#include "tests/engines/draughts/draughts_test_util.h"

namespace sb::draughts {
namespace {

using testing::make;

void expect_perft(const std::string& id, const std::vector<uint64_t>& expected) {
  auto rules = make(id);
  const State s = rules->start();
  for (size_t d = 1; d <= expected.size(); ++d)
    EXPECT_EQ(rules->perft(s, static_cast<int>(d)), expected[d - 1]) << id << " depth " << d;
}

// RULES.md §1; first published on the shashki.com forum and repeated by Rein
// Halbersma, "Perft for all recognized draughts variants", damforum.nl /
// laatste.info bb3 viewtopic.php?t=2822 (2010).
TEST(DraughtsPerft, BrazilianFromTheStartMatchesPublishedDepths1To7) {
  expect_perft("brazilian", {7, 49, 302, 1469, 7473, 37628, 187302});
}

// Aart Bik, "BikDam: international checkers", aartbik.blogspot.com (label perft):
// perft(1..7) = 9, 81, 658, 4265, 27117, 167140, 1049442, duplicate captures removed.
TEST(DraughtsPerft, InternationalFromTheStartMatchesPublishedDepths1To7) {
  expect_perft("international", {9, 81, 658, 4265, 27117, 167140, 1049442});
}

// Aart Bik, "perft for 8x8 checkers", talkchess.com forum3 viewtopic.php?t=27814
// (2009): 7, 49, 302, 1469, 7361, 36768, 179740.
TEST(DraughtsPerft, EnglishFromTheStartMatchesPublishedDepths1To7) {
  expect_perft("english", {7, 49, 302, 1469, 7361, 36768, 179740});
}

TEST(DraughtsPerft, DepthZeroIsOneNode) {
  auto rules = make("brazilian");
  EXPECT_EQ(rules->perft(rules->start(), 0), 1u);
}

TEST(DraughtsPerft, PerftAgreesWithWalkingLegalMovesAndApply) {
  // The fast generator against the generic interface (legal_moves + apply) a few plies deep.
  for (const char* id : {"brazilian", "international", "english"}) {
    auto rules = make(id);
    const State s = rules->play(rules->start(), id == std::string("english")     ? "11-15 23-19 8-11 22-17"
                                                : id == std::string("brazilian") ? "22-18 11-15 18x11 8x15"
                                                                                 : "32-28 19-23 28x19 14x23");
    EXPECT_EQ(rules->perft(s, 4), rules->Rules::perft(s, 4)) << id;
  }
}

// A white man on c1 can take the four men around it clockwise or anticlockwise:
// two paths, one set of pieces, the same start and end.
TEST(DraughtsPerft, DuplicateCapturesCountOnceUnlessKept) {
  auto rules = make("brazilian");
  const State s = rules->from_fen("W:W30:B17,18,25,26");
  EXPECT_EQ(rules->ascii(s),
            "  .   .   .   .\n"
            ".   .   .   .\n"
            "  .   .   .   .\n"
            ".   .   .   .\n"
            "  b   b   .   .\n"
            ".   .   .   .\n"
            "  b   b   .   .\n"
            ".   w   .   .\n"
            "white to move\n");
  PerftOptions keep;
  keep.keep_duplicates = true;
  EXPECT_EQ(rules->perft(s, 1), 1u);
  EXPECT_EQ(rules->perft(s, 1, keep), 2u);
  ASSERT_EQ(rules->moves_of(rules->board(s)).size(), 1u);
  EXPECT_EQ(rules->moves_of(rules->board(s))[0].paths.size(), 2u);
}
}  // namespace
}  // namespace sb::draughts
