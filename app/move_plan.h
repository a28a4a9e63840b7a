// Turning a game's moves into what a player's hand does on a real board: which piece is lifted, where it
// touches down on the way, where it is put, which pieces are taken off and laid beside the board, and what is
// fetched from beside the board (a man to crown a king, a Morris piece to place). Planned generically from
// the Rules interface (Move::from/to/captured, waypoints()) and the boards before and after, so every game
// works the same way.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engines/common/rules.h"
#include "vision/render/simulation.h"

namespace sb::cli {

class MovePlanner {
 public:
  MovePlanner(const Rules& rules, vision::PhysicalBoard start) : rules_(rules), phys_(std::move(start)) {}

  const vision::PhysicalBoard& physical() const { return phys_; }

  // The actions of the player to move in `s` that turn its board into that of `after` = apply(s, m).
  std::vector<vision::Action> move(const State& s, const Move& m, const State& after);
  // A piece of `player` moved from `from` to the empty `to` (a move the rules may not allow), and back.
  std::vector<vision::Action> shift(int player, const std::string& from, const std::string& to);
  // Whatever brings the board back to `target` (a takeback): the moved piece first, then the rest.
  std::vector<vision::Action> restore(int player, const State& target, const Move& undone);

 private:
  void act(std::vector<vision::Action>& out, const vision::Action& a, int player);
  void reconcile(std::vector<vision::Action>& out, const vision::BoardContents& want, int player);

  const Rules& rules_;
  vision::PhysicalBoard phys_;
};

// An illegal physical move for the side to move in `s`: one of its pieces moved to a nearby empty site such
// that no legal move explains the result. nullopt when there is none.
std::optional<std::pair<std::string, std::string>> illegal_shift(const Rules& rules, const State& s,
                                                                 const calib::BoardModel& model, vision::Rng& rng);

}  // namespace sb::cli
