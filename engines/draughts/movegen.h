// Move generation on the bit board: the fast path behind legal moves and perft.
//
// Captures follow RULES.md §1: compulsory; the capturing piece continues while
// it can; the pieces it takes stay on the board until the move ends (Turkish
// strike: they block, and none is taken twice); the capturing piece's own start
// square counts as empty; a man that crosses the far row mid-capture continues
// as a man. With the majority rule only the captures taking the most pieces are
// legal; without it (English) any complete capture is.
#pragma once

#include <cstdint>
#include <vector>

#include "engines/draughts/board.h"
#include "engines/draughts/variant.h"

namespace sb::draughts {

// A move as the board sees it: enough to apply it. Squares are bit indices.
struct RawMove {
  uint64_t captured = 0;  // bits of the pieces taken
  uint8_t from = 0;
  uint8_t to = 0;
  uint8_t count = 0;  // number of pieces taken

  bool same_effect(const RawMove& o) const { return from == o.from && to == o.to && captured == o.captured; }
};

// A move with every square it lands on (bits, in order, ending with `to`).
struct PathMove {
  RawMove move;
  std::vector<uint8_t> path;
};

class MoveGenerator {
 public:
  explicit MoveGenerator(const Variant& variant);

  const Variant& variant() const { return variant_; }
  const Geometry& geometry() const { return geometry_; }

  // Every legal move, one entry per capture path (two orders of taking the same
  // pieces are two entries; the caller groups them).
  std::vector<PathMove> legal_paths(const Board& b) const;
  // Every complete capture path of the side to move, ignoring the majority
  // rule, for explaining why a capture is not allowed.
  std::vector<PathMove> all_capture_paths(const Board& b) const;
  bool has_legal_move(const Board& b) const;
  bool has_capture(const Board& b) const;

  Board apply(const Board& b, const RawMove& m) const;

  // Leaf nodes `depth` plies below `b`. keep_duplicates: count every capture path;
  // otherwise paths with the same start, end and captured pieces count once.
  uint64_t perft(const Board& b, int depth, bool keep_duplicates) const;

 private:
  Variant variant_;
  Geometry geometry_;
};

}  // namespace sb::draughts
