// Matches of 1, 3, 5 or 7 games, with the seed's example: A wins 10/7 and 12/5,
// then B captures A's 0 and so wins the match.
#include "engines/cotoan/match.h"

#include <gtest/gtest.h>

#include "engines/common/errors.h"
#include "tests/engines/cotoan/cotoan_test_support.h"

namespace sb::cotoan {
namespace {

using testing::full_fen;
using testing::make;

// Player A plays Red, player B Blue.
GameResult won_on_points(Side winner, int winner_points, int loser_points) {
  GameResult g;
  g.winner = winner;
  g.score[index_of(winner)] = winner_points;
  g.score[index_of(opponent(winner))] = loser_points;
  g.reason = "reached the target score 10";
  return g;
}

// A game really played to the capture of Red's 0 (Blue's 3+2 = 5 from e8,e7 reaches e2).
GameResult blue_takes_reds_zero() {
  auto rules = make();
  State s = rules->from_fen(full_fen('B', "", "3e8,2e7"));
  s = rules->play(s, "3:e8xe2");
  return GameResult::of_game(*rules, s);
}

TEST(Match, TheSeedExampleTwoWinsForAThenBTakesAsZeroAndWinsTheMatch) {
  Match m(MatchOptions{3, NextFirst::Loser, Side::First});
  m = m.after(won_on_points(Side::First, 10, 7));  // game 1: A wins 10/7
  EXPECT_FALSE(m.over());
  m = m.after(won_on_points(Side::First, 12, 5));  // game 2: A wins 12/5
  // A leads 2-0 of 3, yet the match goes on: a 0 taken in game 3 would overturn it.
  EXPECT_FALSE(m.over());
  EXPECT_EQ(m.wins(), (std::array<int, 2>{2, 0}));
  const GameResult third = blue_takes_reds_zero();
  EXPECT_EQ(third.winner, Side::Second);
  EXPECT_TRUE(third.zero_captured);
  m = m.after(third);  // game 3: B takes A's 0
  ASSERT_TRUE(m.over());
  const Outcome r = m.result();
  EXPECT_EQ(r.result(), "0-1");
  EXPECT_EQ(r.reason, "captured the 0 in game 3");
  EXPECT_EQ(m.wins(), (std::array<int, 2>{2, 1}));
}

TEST(Match, WithoutAZeroTakenTheMostGamesWonTakesTheMatch) {
  Match m(MatchOptions{3, NextFirst::Loser, Side::First});
  m = m.after(won_on_points(Side::First, 10, 7)).after(won_on_points(Side::First, 12, 5));
  m = m.after(won_on_points(Side::Second, 10, 3));
  ASSERT_TRUE(m.over());
  EXPECT_EQ(m.result().result(), "1-0");
  EXPECT_EQ(m.result().reason, "more games won (2-1)");
}

TEST(Match, AZeroTakenEndsTheMatchAtOnceWhateverTheGamesLeft) {
  Match m(MatchOptions{7, NextFirst::Loser, Side::First});
  m = m.after(won_on_points(Side::First, 10, 0)).after(won_on_points(Side::First, 10, 0));
  m = m.after(won_on_points(Side::First, 10, 0)).after(won_on_points(Side::First, 10, 0));
  m = m.after(blue_takes_reds_zero());
  EXPECT_TRUE(m.over());
  EXPECT_EQ(m.games().size(), 5u);
  EXPECT_EQ(m.result().result(), "0-1");
  EXPECT_THROW(m.after(won_on_points(Side::First, 10, 0)), InputError);
  EXPECT_THROW(m.next_first(), InputError);
}

TEST(Match, DrawnGamesCountForNobodyAndEqualWinsDrawTheMatch) {
  Match m(MatchOptions{1, NextFirst::Loser, Side::First});
  GameResult draw;
  draw.reason = "threefold repetition, equal points";
  m = m.after(draw);
  EXPECT_TRUE(m.over());
  EXPECT_EQ(m.result().result(), "1/2-1/2");
  EXPECT_EQ(m.result().reason, "equal games won (0-0)");
}

TEST(Match, TheLoserOfAGameMovesFirstInTheNext) {
  Match m(MatchOptions{5, NextFirst::Loser, Side::First});
  EXPECT_EQ(m.next_first(), Side::First);
  m = m.after(won_on_points(Side::First, 10, 2));
  EXPECT_EQ(m.next_first(), Side::Second);  // Blue lost
  EXPECT_EQ(m.rules_for_next_game(Options{}).first, Side::Second);
  auto rules = make(m.rules_for_next_game(Options{}).to_json().dump());
  EXPECT_EQ(rules->side_to_move(rules->start()), Side::Second);
  m = m.after(won_on_points(Side::First, 10, 2));
  EXPECT_EQ(m.next_first(), Side::Second);  // Blue lost again
  m = m.after(won_on_points(Side::Second, 10, 2));
  EXPECT_EQ(m.next_first(), Side::First);
  GameResult draw;
  m = m.after(draw);  // Red started the drawn game: Blue starts the next
  EXPECT_EQ(m.next_first(), Side::Second);
}

TEST(Match, AlternateAndSameStarters) {
  Match alt(MatchOptions{3, NextFirst::Alternate, Side::Second});
  EXPECT_EQ(alt.next_first(), Side::Second);
  alt = alt.after(won_on_points(Side::First, 10, 2));
  EXPECT_EQ(alt.next_first(), Side::First);
  alt = alt.after(won_on_points(Side::First, 10, 2));
  EXPECT_EQ(alt.next_first(), Side::Second);
  Match same(MatchOptions{3, NextFirst::Same, Side::First});
  same = same.after(won_on_points(Side::First, 10, 2));
  EXPECT_EQ(same.next_first(), Side::First);
}

TEST(Match, OptionsAndTheWholeMatchRoundTripThroughJson) {
  MatchOptions o{5, NextFirst::Alternate, Side::Second};
  EXPECT_EQ(MatchOptions::from_json(o.to_json()), o);
  EXPECT_EQ(MatchOptions::from_json(Json()), MatchOptions{});
  Match m(o);
  m = m.after(won_on_points(Side::First, 10, 7)).after(blue_takes_reds_zero());
  const Json j = m.to_json();
  EXPECT_EQ(Match::from_json(j), m);
  EXPECT_EQ(j.at("result").as_string(), "0-1");
  EXPECT_EQ(j.at("wins").dump(), R"({"blue":1,"red":1})");
  EXPECT_EQ(j.at("games").as_array()[1].at("first").as_string(), "red");  // alternating from Blue
}

TEST(Match, BadMatchOptionsAndResultsAreRejected) {
  for (const char* bad : {R"({"games": 4})", R"({"games": 9})", R"({"games": 0})", R"({"next_first": "winner"})",
                          R"({"first": "green"})", R"({"rounds": 3})"})
    EXPECT_THROW(MatchOptions::from_json(Json::parse(bad)), InputError) << bad;
  try {
    MatchOptions::from_json(Json::parse(R"({"games": 4})"));
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "cotoan match option 'games': expected 1, 3, 5 or 7, got 4");
  }
  EXPECT_THROW(Match(MatchOptions{2, NextFirst::Loser, Side::First}), InputError);
  GameResult impossible;
  impossible.zero_captured = true;  // a 0 taken, yet nobody won
  EXPECT_THROW(Match().after(impossible), InputError);
  auto rules = make();
  EXPECT_THROW(GameResult::of_game(*rules, rules->start()), InputError);
}

}  // namespace
}  // namespace sb::cotoan
