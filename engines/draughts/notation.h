// Move notation (PDN 3.0): `22-18` a step, `22x13` a capture by its start and
// end, `47x38x24x13x36` a capture with every landing square. Squares are
// numbers, or algebraic names (`c3-d4`) when the game's options ask for them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engines/draughts/board.h"

namespace sb::draughts {

// A move as written: the squares in order (0-based), and whether it was written
// as a capture ('x') or a step ('-').
struct WrittenMove {
  std::vector<int> squares;
  bool capture = false;
};

// Reads "22-18", "22x13", "22x31x13", "c3-d4", "c3xe5xg3". Throws InputError
// naming the problem and its column when `text` is not a move of this board.
WrittenMove read_move_text(std::string_view text, const Geometry& geometry);

// Writes a move from its start square and its landing squares (0-based).
std::string write_move_text(int from, const std::vector<int>& landings, bool capture, bool full_path,
                            const Geometry& geometry, bool algebraic);

}  // namespace sb::draughts
