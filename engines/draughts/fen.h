// Draughts FEN as PDN 3.0 writes it: `W:W21-32:B1-12` — the side to move, then
// each side's squares, `K` before a king's square, ranges of men allowed.
#pragma once

#include <string>
#include <string_view>

#include "engines/draughts/board.h"

namespace sb::draughts {

// What some FENs carry beyond the position (`:H<n>:F<n>`, as lidraughts and
// others write them): the plies since the last capture or man move, and the
// number of the next move.
struct FenCounters {
  int quiet_plies = 0;
  int move_number = 1;
};

// Parses a FEN. Squares may be numbers or algebraic names; a trailing '.' and
// surrounding blanks are allowed. Throws InputError naming the problem and its
// column, e.g. "FEN 'W:W21-3x:B1-12': bad square '3x' at column 7".
Board parse_fen(std::string_view text, const Geometry& geometry, FenCounters* counters = nullptr);

// The canonical FEN: White's list first, squares ascending, runs of three or
// more men as ranges, each king as K<square>. Without `ranges` every square is
// listed: the FEN tag of a PDN record, which older readers (KCheckers 0.8) take
// only as single squares.
std::string write_fen(const Board& board, const Geometry& geometry, bool ranges = true);

}  // namespace sb::draughts
