// The draughts board as bits, and the names of its squares.
//
// Squares are numbered 1..S in PDN order (square 1 is the top-left playable
// square as White sees the board; White starts on the highest numbers). Inside
// the engine a square s (0-based) lives on bit s + s/N of a 64-bit word: one
// unused "ghost" bit after every two rows makes the four diagonal steps the
// same shift everywhere (up-left -(N/2+1), up-right -N/2, down-left +N/2,
// down-right +N/2+1); a step off the board lands on a ghost bit or outside the
// word and is masked away.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "engines/common/types.h"

namespace sb::draughts {

// One position: who stands where and who moves. A plain value.
struct Board {
  uint64_t pieces[2] = {0, 0};  // by index_of(Side): White, Black
  uint64_t kings = 0;           // kings of both sides
  Side side = Side::First;      // to move

  uint64_t occupied() const { return pieces[0] | pieces[1]; }
  bool operator==(const Board&) const = default;
};

// The square geometry of an N×N board, for everything that is not the hot path.
class Geometry {
 public:
  explicit Geometry(int size);

  int size() const { return size_; }
  int squares() const { return size_ * size_ / 2; }
  int bit_of(int square) const { return square + square / size_; }  // square 0-based
  int square_of(int bit) const { return bit - bit / (size_ + 1); }
  uint64_t valid() const { return valid_; }
  // Bits of the row where a man of `side` is promoted.
  uint64_t promotion_row(Side side) const { return side == Side::First ? top_row_ : bottom_row_; }

  // Board coordinates of a square: file 0 = 'a' (left, as White sees it), rank 0 = White's back rank.
  int file_of(int square) const;
  int rank_of(int square) const;
  // The square at (file, rank), or -1 when that is off the board or a light square.
  int square_at(int file, int rank) const;

  // "22" or, with algebraic names, "c3".
  std::string name(int square, bool algebraic) const;
  // Parses "22" or "c3" (no leading zeros); -1 when `text` names no square of this board.
  int parse(std::string_view text) const;

 private:
  int size_;
  uint64_t valid_ = 0, top_row_ = 0, bottom_row_ = 0;
};

inline int lowest_bit(uint64_t b) {
  return __builtin_ctzll(b);
}
inline int bit_count(uint64_t b) {
  return __builtin_popcountll(b);
}

}  // namespace sb::draughts
