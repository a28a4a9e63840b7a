// From a game state to the physical pieces a camera would see: what stands on each site (observe() gives the
// visible tokens; the FEN tells what the camera cannot: draughts kings are two stacked men, Cờ tư lệnh stacks
// list their pieces), and what lies beside the board (captured pieces, Morris pieces still to be placed).
// This is the one place that reads the engines' FEN formats for looks; every other part goes through Rules.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "engines/common/rules.h"
#include "vision/render/scene.h"

namespace sb::cli {

vision::BoardContents board_contents(const Rules& rules, const State& state);

struct OffBoard {
  std::array<std::vector<std::string>, 2> captured;  // by player (0: the first side): the pieces they took
  std::array<std::vector<std::string>, 2> reserve;   // by player: their own pieces not yet on the board
};
OffBoard off_board(const Rules& rules, const State& state);

// The player (0 or 1) a token's side letter belongs to.
int player_of(const Rules& rules, const std::string& token);

// Site name → tokens from a "--board" JSON object: {"a1": "W", "c3": ["W", "W"], …}. Each token is checked
// with parse_token and, when `rules` is given, Rules::valid_token; each site against the board model.
vision::BoardContents parse_board_json(const std::string& text, const calib::BoardModel& model, const Rules* rules);

}  // namespace sb::cli
