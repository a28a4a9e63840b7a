// A Morris position as a plain value: the pieces on the board, the pieces in
// hand, the side to move and the plies since the last removal or placement.
// FEN (RULES.md §2): `<board> <w|b> <white in hand> <black in hand>`, the board
// one character per point in reading order (geometry.h): `W`, `B` or `.`.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "engines/common/types.h"
#include "engines/morris/geometry.h"

namespace sb::morris {

struct Position {
  std::array<Points, 2> pieces{};    // by index_of(Side)
  std::array<uint8_t, 2> in_hand{};  // pieces still to be placed
  Side to_move = Side::First;
  // Plies in a row with no removal and no placement (the move-limit draw). Not
  // part of the FEN: a position read from FEN starts at 0.
  uint16_t quiet_plies = 0;

  Points occupied() const { return pieces[0] | pieces[1]; }
  Points own() const { return pieces[index_of(to_move)]; }
  Points theirs() const { return pieces[index_of(opponent(to_move))]; }
  // Pieces on the board and in hand.
  int material(Side s) const { return count(pieces[index_of(s)]) + in_hand[index_of(s)]; }
  // Equal keys are the same position for the repetition rule (the move counter aside).
  uint64_t key() const {
    return uint64_t{pieces[0]} | uint64_t{pieces[1]} << 24 | uint64_t{in_hand[0]} << 48 |
           uint64_t{in_hand[1]} << 54 | static_cast<uint64_t>(index_of(to_move)) << 60;
  }
  bool operator==(const Position&) const = default;
};

Position start_position(const Geometry& g);
// Throws InputError naming the problem and its column in `fen` (1-based).
Position parse_fen(const Geometry& g, std::string_view fen);
std::string to_fen(const Geometry& g, const Position& p);
// The board as drawn lines with W, B and . at the points, rank numbers on the
// left and files below, then a line with the side to move and the hands.
std::string to_ascii(const Geometry& g, const Position& p);

}  // namespace sb::morris
