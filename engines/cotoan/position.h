// A Cờ toán position as an immutable value: the board, the side to move, the
// points, the repetition history and the outcome, all fixed when it is made.
//
// FEN (RULES.md §3): `<turn>:R<items>:B<items>`, an item being a piece's number and
// its square, e.g. the start
// `R:R0e2,1a1,2b1,3c1,4d1,5e1,6f1,7g1,8h1,9i1:B0e10,1i11,2h11,3g11,4f11,5e11,6d11,7c11,8b11,9a11`.
// The FEN carries no points because the board tells them: pieces never come back,
// so each side's points are the numbers of the opposing pieces missing from it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engines/common/rules.h"
#include "engines/cotoan/board.h"

namespace sb::cotoan {

struct Position final : PositionData {
  Board board;
  Side to_move = Side::First;
  Score score{0, 0};
  uint64_t key = 0;  // board_key(board, to_move)
  // Keys of the earlier positions since the last capture, oldest first: a capture
  // makes every earlier position unreachable.
  std::vector<uint64_t> history;
  Outcome outcome;
};

// Points each side has taken, read from the pieces missing from the board.
Score points_from_board(const Board& b);

struct FenBoard {
  Board board;
  Side to_move = Side::First;
};

// Throws InputError naming the problem and where ("FEN '…': item '5z3' at column 14:
// no square 'z3'"). Checks what a game can reach: at most one piece of each number
// per side, each 0 on its own square, at least one 0 on the board.
FenBoard parse_fen(std::string_view fen);
std::string write_fen(const Board& b, Side to_move);

}  // namespace sb::cotoan
