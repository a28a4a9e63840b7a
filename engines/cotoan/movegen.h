// The fast move generator and perft. Moves are generated straight from the board
// into a fixed array; the Rules object dresses them up (notation, calculations)
// only when asked for legal_moves().
//
// Why a capture is never generated twice: the move from R to a target fixes the
// direction, so the pair (R, F) is fixed too, and each (R, direction) yields at most
// one target — the first piece beyond F that blocks (under block_by "any" the first
// piece of any side, under "enemy" the first enemy piece), which is a capture when
// some calculation of the pair reaches exactly that far.
#pragma once

#include <cstdint>

#include "engines/cotoan/board.h"
#include "engines/cotoan/options.h"
#include "engines/cotoan/position.h"

namespace sb::cotoan {

struct FastMove {
  uint8_t from = 0;
  uint8_t to = 0;
  int8_t front = kNoSquare;  // the front piece of the pair for a capture; kNoSquare for a plain move
  bool capture() const { return front != kNoSquare; }
};

// 9 pieces × 8 directions × at most 9 squares, plus one capture per piece and direction.
constexpr int kMaxMoves = 9 * 8 * 9 + 9 * 8;

class MoveGenerator {
 public:
  explicit MoveGenerator(const Options& options);

  // Every legal move of `side` on `board`, captures first (only captures when
  // compulsory_capture holds and there is one). Says nothing about game ends.
  int generate(const Board& board, Side side, FastMove* out) const;
  int generate_captures(const Board& board, Side side, FastMove* out) const;
  int generate_plain(const Board& board, Side side, FastMove* out) const;

  // Distances (bits 1…9) the pair of numbers reaches under the options.
  uint16_t mask(int rear, int front) const { return masks_[rear][front]; }
  // How many calculations of the pair reach distance k (perft --duplicates keep).
  int ways(int rear, int front, int k) const { return ways_[rear][front][k]; }
  const Options& options() const { return options_; }

  // Leaf nodes `depth` plies below `p`, honouring every game end (a 0 taken, the
  // target score, threefold repetition with p's history, no legal move). With
  // `count_calculations` a capture counts once per calculation that yields it.
  uint64_t perft(const Position& p, int depth, bool count_calculations) const;

 private:
  Options options_;
  uint16_t masks_[10][10];
  uint8_t ways_[10][10][10];
};

}  // namespace sb::cotoan
