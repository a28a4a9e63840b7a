// Robustness on the test game: random legal games seen perfectly, then with
// misreads at low confidence and missed positions (two moves in one frame).
#include <gtest/gtest.h>

#include "arbiter/simulation.h"
#include "tests/arbiter/toy_rules.h"

namespace sb::arbiter {
namespace {

TEST(SimulationTest, PerfectObservationsGiveEveryMoveRight) {
  auto rules = std::make_shared<sb::testing::ToyRules>();
  SimulationOptions o;
  o.games = 300;
  o.skip_rate = 0.15;
  SimulationResult r = simulate(rules, o);
  EXPECT_EQ(r.right, r.plies) << (r.failures.empty() ? "" : r.failures[0]);
  EXPECT_EQ(r.illegal_events, 0);
  EXPECT_EQ(r.unclear_events, 0);
  EXPECT_EQ(r.game_over_right, r.game_over_true);
  EXPECT_GT(r.plies, 1000);
}

TEST(SimulationTest, MisreadsAtLowConfidenceKeepMovesRightAndAnnounceNoFalseIllegalMove) {
  auto rules = std::make_shared<sb::testing::ToyRules>();
  SimulationOptions o;
  o.games = 300;
  o.misread_rate = 0.01;
  SimulationResult r = simulate(rules, o);
  EXPECT_GE(r.right_share(), 0.999) << r.right << "/" << r.plies << " " << (r.failures.empty() ? "" : r.failures[0]);
  EXPECT_EQ(r.illegal_events, 0);
}

TEST(SimulationTest, SameSeedSameResult) {
  auto rules = std::make_shared<sb::testing::ToyRules>();
  SimulationOptions o;
  o.games = 20;
  o.misread_rate = 0.05;
  SimulationResult a = simulate(rules, o), b = simulate(rules, o);
  EXPECT_EQ(a.right, b.right);
  EXPECT_EQ(a.plies, b.plies);
  EXPECT_EQ(a.unclear_events, b.unclear_events);
}

}  // namespace
}  // namespace sb::arbiter
