// A Cờ toán match: 1, 3, 5 or 7 games, decided by the number of games won, except
// that a player whose 0 is captured loses the whole match at once, whatever the
// games before (the seed: A wins 10/7 and 12/5, then B takes A's 0: B wins).
//
// Because a later game can still overturn any lead, every game of the match is
// played; the match ends early only on a 0 taken. The players keep their colours
// (Red and Blue) through the match; what changes is who moves first, given to each
// game through the `first` rule option.
//
// A Match is a value: after() returns the match with one more game and leaves the
// original alone, so an arbiter can keep and journal each step.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "engines/common/json.h"
#include "engines/common/types.h"
#include "engines/cotoan/options.h"

namespace sb {
class State;
}

namespace sb::cotoan {

class CotoanRules;

// Who moves first in the games after the first.
enum class NextFirst : uint8_t {
  Loser,      // "loser": the loser of the last game; after a draw, the other side than last time
  Alternate,  // "alternate": the sides take turns
  Same,       // "same": the starter of the first game starts every game
};

struct MatchOptions {
  int games = 1;  // 1, 3, 5 or 7
  NextFirst next_first = NextFirst::Loser;
  Side first = Side::First;  // who moves first in game 1

  // {"first": "red", "games": 1, "next_first": "loser"}
  Json to_json() const;
  // Missing keys take the defaults; an unknown key or a bad value throws InputError.
  static MatchOptions from_json(const Json& j);
  bool operator==(const MatchOptions&) const = default;
};

// How one game of the match ended.
struct GameResult {
  std::optional<Side> winner;  // nullopt: a draw
  Score score{0, 0};
  bool zero_captured = false;  // the winner took the loser's 0
  std::string reason;

  // The result of a game the rules ended (throws InputError while it goes on).
  // Games ended from outside (time, resignation, agreement) are written directly.
  static GameResult of_game(const CotoanRules& rules, const State& final_state);

  Json to_json() const;
  static GameResult from_json(const Json& j);
  bool operator==(const GameResult&) const = default;
};

class Match {
 public:
  explicit Match(MatchOptions options = {});

  const MatchOptions& options() const { return options_; }
  const std::vector<GameResult>& games() const { return games_; }
  // Games won by each side, indexed by index_of(Side).
  std::array<int, 2> wins() const;

  bool over() const;
  // Ongoing until over(); then the winner (a 0 taken, or more games won) or a draw.
  Outcome result() const;

  // Who moves first in the next game, and the rules for it (base with `first` set).
  // Both throw InputError once the match is over.
  Side next_first() const;
  Options rules_for_next_game(Options base) const;

  // The match with one more game played. Throws InputError when the match is
  // over or the result is inconsistent (a 0 captured in a draw).
  Match after(const GameResult& game) const;

  Json to_json() const;
  static Match from_json(const Json& j);
  bool operator==(const Match&) const = default;

 private:
  MatchOptions options_;
  std::vector<GameResult> games_;
  std::vector<Side> starters_;  // who moved first in each game played
};

}  // namespace sb::cotoan
