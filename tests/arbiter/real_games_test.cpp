// Robustness on every real game (the engines' random legal games), a few short
// games each so that the suite stays fast; `smartboard eval-arbiter` measures the
// same over 1,000 games per game.
#include <gtest/gtest.h>

#include "arbiter/simulation.h"
#include "engines/registry.h"

namespace sb::arbiter {
namespace {

SimulationOptions few_games(double skip, double misread) {
  SimulationOptions o;
  o.games = 3;
  o.max_plies = 60;
  o.seed = 7;
  o.skip_rate = skip;
  o.misread_rate = misread;
  return o;
}

std::string first_failure(const SimulationResult& r) { return r.failures.empty() ? "" : r.failures[0]; }

class RealGames : public ::testing::TestWithParam<std::string> {};

TEST_P(RealGames, OnePerfectFramePerMoveReadsEveryMoveOrAsksTheOperator) {
  std::shared_ptr<const Rules> rules = make_rules(GetParam());
  SimulationResult r = simulate(rules, few_games(0, 0));
  ASSERT_GT(r.plies, 30);
  // Moves a camera cannot tell apart (a Cờ tư lệnh air force shot down or gone under
  // a stack) are asked of the operator, never silently guessed.
  EXPECT_EQ(r.right + r.asked, r.plies) << first_failure(r);
  EXPECT_EQ(r.hidden, 0) << first_failure(r);
  EXPECT_EQ(r.illegal_events, 0) << first_failure(r);
  EXPECT_EQ(r.unclear_events, 0) << first_failure(r);
  EXPECT_EQ(r.takeback_events, 0) << first_failure(r);
}

TEST_P(RealGames, AnOperatorWhoAnswersEveryQuestionGetsEveryMoveRight) {
  std::shared_ptr<const Rules> rules = make_rules(GetParam());
  SimulationOptions o = few_games(0, 0);
  o.operator_answers = true;
  SimulationResult r = simulate(rules, o);
  EXPECT_EQ(r.right, r.plies) << first_failure(r);
  EXPECT_EQ(r.asked, 0) << first_failure(r);
}

TEST_P(RealGames, FastPlayWithTwoMovesInAFrameAnnouncesNoFalseIllegalMove) {
  std::shared_ptr<const Rules> rules = make_rules(GetParam());
  SimulationResult r = simulate(rules, few_games(0.15, 0));
  EXPECT_EQ(r.right + r.asked + r.hidden + r.unseen, r.plies) << first_failure(r);
  EXPECT_EQ(r.illegal_events, 0) << first_failure(r);
  EXPECT_EQ(r.takeback_events, 0) << first_failure(r);
}

TEST_P(RealGames, MisreadsAtLowConfidenceAnnounceNoFalseIllegalMove) {
  std::shared_ptr<const Rules> rules = make_rules(GetParam());
  SimulationResult r = simulate(rules, few_games(0.1, 0.01));
  EXPECT_EQ(r.illegal_events, 0) << first_failure(r);
  EXPECT_GE(static_cast<double>(r.right + r.asked + r.hidden + r.unseen), 0.98 * static_cast<double>(r.plies))
      << first_failure(r);
}

INSTANTIATE_TEST_SUITE_P(EveryGame, RealGames, ::testing::ValuesIn(game_ids()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace sb::arbiter
