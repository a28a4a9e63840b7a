// A position the referee may be in, with the positions one legal move away
// worked out on demand (and kept, so frame after frame of the same position costs
// nothing new, and the position a move leads to keeps what was already found).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "engines/common/rules.h"

namespace sb::arbiter {

class Position;

// One legal move from a position and what it changes on the board.
struct Successor {
  Move move;
  std::shared_ptr<Position> next;  // the position after the move
  std::vector<int> changed;        // sites whose token differs from before (sorted)
  std::vector<int> waypoints;      // where the moving piece may rest on its way (Rules::waypoints)
  Token mover;                     // the moving piece as the camera sees it at the end; empty if none
  std::vector<int> touched;        // from, to, path and captured sites (sorted), for quick filtering

  bool changes(int site) const;
  bool is_waypoint(int site) const;
};

class Position {
 public:
  Position(const Rules& rules, State state);
  Position(const Rules& rules, State state, Observation seen);

  const State& state() const { return state_; }
  const Observation& seen() const { return seen_; }
  const Rules& rules() const { return *rules_; }

  // The legal moves (listed on first use).
  const std::vector<Move>& moves();
  size_t move_count();
  // The i-th legal move: from the listing, or built alone by moves_touching.
  const Move& move(size_t i);
  // Indices (ascending) of the legal moves that may change one of `sites` (sorted):
  // at least those naming one of them (Rules::legal_moves_touching), without building
  // the others when the moves are not listed yet. Replies to a first move are looked
  // for among a few sites, and building every reply costs more than the search.
  std::vector<int> moves_touching(const std::vector<int>& sites);
  // The i-th legal move with its successor position (worked out on first use).
  Successor& successor(size_t i);
  // Rules::outcome of the position, worked out once. A position whose legal moves
  // are listed and not empty is not over (legal_moves is empty once a game is over),
  // which costs nothing more.
  const Outcome& outcome();
  bool over() { return outcome().over(); }
  // Index of the legal move written `notation`, or -1.
  int find(const std::string& notation);
  // Drops the successors worked out so far (after a move is played, the others are
  // no longer needed; a takeback works them out again).
  void forget_successors();

 private:
  const Rules* rules_;
  State state_;
  Observation seen_;
  bool listed_ = false;
  std::optional<Outcome> outcome_;
  std::vector<Move> moves_;
  // Before the listing: how many legal moves there are (once known) and those built alone.
  std::optional<size_t> count_;
  std::vector<std::unique_ptr<Move>> built_;
  std::vector<std::unique_ptr<Successor>> successors_;
};

}  // namespace sb::arbiter
