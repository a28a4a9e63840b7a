// One board's games rebuilt in the hall from its events, through the game's own
// rules: every move must be legal where it is played, so the hall's records are
// checked games (the same GameSummary the referee keeps, and so the same PDN,
// text and JSON records), and an event that does not fit is refused with a
// reason instead of corrupting the board.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "arbiter/referee.h"
#include "engines/common/rules.h"

namespace sb::hall {

class GameFold {
 public:
  explicit GameFold(std::shared_ptr<const Rules> rules);

  // Folds one event (the arbiter's JSON form). Throws InputError saying why it
  // does not fit (a move that is not legal there, a ply out of order, a FEN that
  // disagrees); the fold is then unchanged.
  void apply(const nlohmann::json& event);

  const Rules& rules() const { return *rules_; }
  const std::shared_ptr<const Rules>& rules_ptr() const { return rules_; }
  const std::vector<arbiter::GameSummary>& games() const { return games_; }
  const arbiter::GameSummary& game() const { return games_.back(); }
  const State& position() const { return history_.back(); }
  std::string fen() const { return rules_->fen(position()); }
  int ply() const { return static_cast<int>(game().moves.size()); }
  bool started() const { return started_; }       // setup_ok seen for the current game
  bool match_over() const { return match_over_; }
  // The illegal / unclear / mismatch event still standing, or null.
  const nlohmann::json& alert() const { return alert_; }
  // The latest clock reading ({"<side>": ms, "game_left"?}) or null.
  const nlohmann::json& clock() const { return clock_; }
  // The last move as the screen marks it ({"ply", "notation", "from", "to", "path", "captured"}) or null.
  const nlohmann::json& last_move() const { return last_; }
  std::map<std::string, int> score_map() const;

 private:
  void begin(const std::string& fen);

  std::shared_ptr<const Rules> rules_;
  std::vector<arbiter::GameSummary> games_;
  std::vector<State> history_;  // positions of the current game, the start first
  std::vector<nlohmann::json> last_moves_;  // per ply, for the last-move marks after a takeback
  bool started_ = false;
  bool match_over_ = false;
  nlohmann::json alert_;
  nlohmann::json clock_;
  nlohmann::json last_;
};

}  // namespace sb::hall
