// The Cờ toán board: 9 files × 11 ranks of squares, the pieces on them, the eight
// directions and the rays along them. Squares are numbered rank by rank from a1
// (0) to i11 (98); files a–i left to right and ranks 1–11 from Red's side.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "engines/common/types.h"

namespace sb::cotoan {

constexpr int kFiles = 9;
constexpr int kRanks = 11;
constexpr int kSquares = kFiles * kRanks;
constexpr int kNoSquare = -1;

constexpr int file_of(int sq) {
  return sq % kFiles;
}
constexpr int rank_of(int sq) {
  return sq / kFiles;
}
constexpr int square_at(int file, int rank) {
  return rank * kFiles + file;
}
constexpr bool on_board(int file, int rank) {
  return file >= 0 && file < kFiles && rank >= 0 && rank < kRanks;
}

std::string square_name(int sq);
// kNoSquare when `name` is not a square of the board ("e3"; upper-case files accepted).
int parse_square(std::string_view name);

// The fixed squares of the 0 pieces: the fifth square of each side's second rank.
constexpr int kZeroHome[2] = {square_at(4, 1), square_at(4, 9)};  // e2, e10

// Eight directions, clockwise from north (towards Blue).
constexpr int kDirections = 8;
constexpr int kDirFile[kDirections] = {0, 1, 1, 1, 0, -1, -1, -1};
constexpr int kDirRank[kDirections] = {1, 1, 0, -1, -1, -1, 0, 1};

// The direction index and step count from `from` to `to` when they lie on one
// orthogonal or diagonal line; -1 otherwise (and when from == to).
struct Line {
  int direction = -1;
  int steps = 0;
};
Line line_between(int from, int to);

// The squares met walking from a square in a direction, nearest first (the
// square itself excluded); at most 10 on this board.
struct Ray {
  std::array<int8_t, 10> squares{};
  uint8_t length = 0;
};
const Ray& ray(int sq, int direction);

// A piece is one byte: 0 for an empty square, else 1 + 10·side + number, so Red's
// 0…9 are 1…10 and Blue's 0…9 are 11…20.
using Piece = uint8_t;
constexpr Piece kEmpty = 0;
constexpr Piece make_piece(Side s, int number) {
  return static_cast<Piece>(1 + 10 * index_of(s) + number);
}
constexpr Side side_of(Piece p) {
  return p > 10 ? Side::Second : Side::First;
}
constexpr int number_of(Piece p) {
  return (p - 1) % 10;
}

// The pieces on the board. Each side has at most one piece of each number (the
// set is 0…9 and pieces are never added), so a piece is found by its number.
struct Board {
  std::array<Piece, kSquares> cell{};
  std::array<std::array<int8_t, 10>, 2> square_of{};  // kNoSquare when the piece is off the board

  Board() {
    for (auto& side : square_of) side.fill(kNoSquare);
  }
  void put(int sq, Piece p) {
    cell[sq] = p;
    square_of[index_of(side_of(p))][number_of(p)] = static_cast<int8_t>(sq);
  }
  void remove(int sq) {
    Piece p = cell[sq];
    square_of[index_of(side_of(p))][number_of(p)] = kNoSquare;
    cell[sq] = kEmpty;
  }
  bool operator==(const Board&) const = default;
};

// The start: Red 1…9 on a1…i1 and its 0 on e2; Blue 1…9 from its own left, i11 … a11,
// and its 0 on e10.
Board start_board();

// Zobrist keys: a position's key is the XOR of its pieces' keys, and of the side
// key when Blue is to move.
uint64_t piece_key(int sq, Piece p);
uint64_t side_key();
uint64_t board_key(const Board& b, Side to_move);

}  // namespace sb::cotoan
