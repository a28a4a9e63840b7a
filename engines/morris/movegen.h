// Move generation for the Morris family on bitboards (one bit per point).
//
// A move is the whole action of one turn: a placement or a slide (or a fly) and
// the removals the mills it closes allow. The opposing pieces that may be removed
// depend only on the opposing pieces, never on which move closed the mill, so
// they are worked out once per position.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "engines/morris/geometry.h"
#include "engines/morris/options.h"
#include "engines/morris/position.h"

namespace sb::morris {

struct MorrisMove {
  int8_t from = -1;    // -1 for a placement
  int8_t to = -1;      // where the piece lands
  uint8_t mills = 0;   // mills the move closes
  Points removed = 0;  // opposing pieces it removes

  bool operator==(const MorrisMove&) const = default;
};

// Why a game is over, as far as the position and the repetition count tell.
enum class EndKind : uint8_t {
  None,
  MillWins,      // morris3: the first mill wins
  TooFewPieces,  // a side is down to 2 pieces, on the board and in hand together
  BoardFull,     // every point taken during placing (morris12): a draw
  NoMove,        // the side to move is blocked
  Repetition,    // the third occurrence of the position: a draw
  MoveLimit,     // move_limit_plies plies with no removal and no placement: a draw
};

struct End {
  EndKind kind = EndKind::None;
  Side winner = Side::First;  // for MillWins, TooFewPieces, NoMove
  bool over() const { return kind != EndKind::None; }
};

// The sets of opposing pieces a mill may take, each as a Points mask: single
// pieces, or pairs when two mills close at once and the options allow two.
struct RemovalChoices {
  int size = 0;
  std::array<Points, 80> sets;  // the first `size` are set
};

class MoveGenerator {
 public:
  MoveGenerator(const Geometry& g, const MorrisOptions& o) : g_(g), o_(o) {}

  const Geometry& geometry() const { return g_; }
  const MorrisOptions& options() const { return o_; }

  // Every legal move of `p` whether or not the game is over (the caller asks
  // judge() first). Appends to `out`.
  void generate(const Position& p, std::vector<MorrisMove>& out) const;
  // How many moves generate() would list.
  uint64_t count_moves(const Position& p) const;
  bool has_move(const Position& p) const;
  Position after(const Position& p, const MorrisMove& m) const {
    // Built field by field and inline: perft calls it for every node.
    const int side = index_of(p.to_move);
    const bool quiet = m.from >= 0 && !m.removed;
    Position q;
    q.pieces[side] = (m.from >= 0 ? p.pieces[side] & ~bit(m.from) : p.pieces[side]) | bit(m.to);
    q.pieces[1 - side] = p.pieces[1 - side] & ~m.removed;
    q.in_hand[side] = static_cast<uint8_t>(p.in_hand[side] - (m.from < 0));
    q.in_hand[1 - side] = p.in_hand[1 - side];
    q.to_move = opponent(p.to_move);
    q.quiet_plies = quiet ? static_cast<uint16_t>(p.quiet_plies + (p.quiet_plies < 0xFFFF)) : 0;
    return q;
  }
  // `occurrences`: how often this position has stood on the board with the same
  // side to move, this time included.
  End judge(const Position& p, int occurrences) const;

  // --- the pieces of the rules, for the notation and the reasons
  // Every piece of `side` that stands in a mill.
  Points mill_pieces(Points side) const;
  // The pieces of `theirs` that a mill may take, per remove_from_mill; empty only
  // when `theirs` is.
  Points removable(Points theirs) const;
  // Mills through `to` made entirely of `own` (which includes `to`).
  int mills_closed(Points own, int to) const;
  // How many pieces a move closing `mills` mills removes from `theirs`.
  int removals_for(int mills, Points theirs) const;
  // Whether the side to move flies (exactly 3 pieces, none in hand, option on).
  bool flies(const Position& p) const;
  // Where the piece on `from` may go.
  Points destinations(const Position& p, int from) const;
  RemovalChoices removal_choices(Points theirs, int removals) const;
  // The empty points that would complete a mill of `own` (two own pieces and the
  // empty point on one line). A move that lands elsewhere closes no mill.
  Points closing_points(Points own, Points empty) const;
  // Perft with the game-end rules applied at every node (a finished game has no
  // moves), for a position whose earlier positions since the last removal or
  // placement are `history` (oldest first, keys of Position::key()).
  uint64_t perft(const Position& p, int depth, const std::vector<uint64_t>& history) const;

 private:
  uint64_t perft_node(const Position& p, int depth, std::vector<uint64_t>& keys) const;
  int occurrences_at_top(const std::vector<uint64_t>& keys, int quiet_plies) const;

  const Geometry& g_;
  const MorrisOptions& o_;
};

}  // namespace sb::morris
