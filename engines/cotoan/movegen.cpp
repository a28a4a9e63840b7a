#include "engines/cotoan/movegen.h"

#include <vector>

#include "engines/cotoan/calculation.h"

namespace sb::cotoan {

MoveGenerator::MoveGenerator(const Options& options) : options_(options) {
  for (int r = 0; r < 10; ++r)
    for (int f = 0; f < 10; ++f) {
      masks_[r][f] = distance_mask(r, f, options);
      for (int k = 0; k < 10; ++k) ways_[r][f][k] = 0;
      if (masks_[r][f] == 0) continue;
      for (const Calculation& c : calculations(r, f, options.division))
        if (c.reaches()) ++ways_[r][f][c.distance];
    }
}

int MoveGenerator::generate_captures(const Board& board, Side side, FastMove* out) const {
  const int us = index_of(side);
  const bool any_blocks = options_.block_by == BlockBy::Any;
  int n = 0;
  for (int number = 1; number <= 9; ++number) {
    const int rear = board.square_of[us][number];
    if (rear == kNoSquare) continue;
    for (int d = 0; d < kDirections; ++d) {
      const Ray& r = ray(rear, d);
      if (r.length < 2) continue;
      const Piece partner = board.cell[r.squares[0]];
      if (partner == kEmpty || side_of(partner) != side) continue;
      const uint16_t m = masks_[number][number_of(partner)];
      if (m == 0) continue;
      for (int j = 1; j < r.length; ++j) {
        const Piece p = board.cell[r.squares[j]];
        if (p == kEmpty) continue;
        if (side_of(p) == side) {
          if (any_blocks) break;
          continue;
        }
        if (m & (1u << j)) out[n++] = {static_cast<uint8_t>(rear), static_cast<uint8_t>(r.squares[j]), r.squares[0]};
        break;
      }
    }
  }
  return n;
}

int MoveGenerator::generate_plain(const Board& board, Side side, FastMove* out) const {
  const int us = index_of(side);
  int n = 0;
  for (int number = 1; number <= 9; ++number) {
    const int from = board.square_of[us][number];
    if (from == kNoSquare) continue;
    for (int d = 0; d < kDirections; ++d) {
      const Ray& r = ray(from, d);
      const int reach = number < r.length ? number : r.length;
      for (int j = 0; j < reach && board.cell[r.squares[j]] == kEmpty; ++j)
        out[n++] = {static_cast<uint8_t>(from), static_cast<uint8_t>(r.squares[j]), kNoSquare};
    }
  }
  return n;
}

int MoveGenerator::generate(const Board& board, Side side, FastMove* out) const {
  int n = generate_captures(board, side, out);
  if (options_.compulsory_capture && n > 0) return n;
  return n + generate_plain(board, side, out + n);
}

namespace {

// Depth-first walk with make/unmake on one mutable board.
class PerftWalk {
 public:
  PerftWalk(const MoveGenerator& gen, const Position& p, bool count_calculations)
      : gen_(gen),
        board_(p.board),
        to_move_(p.to_move),
        score_(p.score),
        keys_(p.history),
        count_calculations_(count_calculations) {
    keys_.push_back(p.key);
  }

  uint64_t run(int depth) {
    FastMove moves[kMaxMoves];
    const int n = gen_.generate(board_, to_move_, moves);
    if (depth == 1 && !count_calculations_) return static_cast<uint64_t>(n);
    uint64_t total = 0;
    for (int i = 0; i < n; ++i) {
      const FastMove& m = moves[i];
      const uint64_t weight = count_calculations_ ? multiplicity(m) : 1;
      if (depth == 1) {
        total += weight;
        continue;
      }
      Undo u = make(m);
      if (!u.ends_game) total += weight * run(depth - 1);
      unmake(m, u);
    }
    return total;
  }

 private:
  struct Undo {
    Piece mover, victim;
    uint64_t key;
    size_t window_start;
    bool ends_game;
  };

  uint64_t multiplicity(const FastMove& m) const {
    if (!m.capture()) return 1;
    const Line l = line_between(m.front, m.to);
    return gen_.ways(number_of(board_.cell[m.from]), number_of(board_.cell[m.front]), l.steps);
  }

  Undo make(const FastMove& m) {
    Undo u{board_.cell[m.from], board_.cell[m.to], keys_.back(), window_start_, false};
    uint64_t key = u.key ^ side_key() ^ piece_key(m.from, u.mover) ^ piece_key(m.to, u.mover);
    board_.remove(m.from);
    const int us = index_of(to_move_);
    if (u.victim != kEmpty) {
      key ^= piece_key(m.to, u.victim);
      board_.remove(m.to);
      const int taken = number_of(u.victim);
      score_[us] += taken;
      const int target = gen_.options().target_score;
      u.ends_game = taken == 0 || (target > 0 && score_[us] >= target);
      window_start_ = keys_.size();  // earlier positions can never return
    } else {
      int seen = 0;
      for (size_t i = window_start_; i < keys_.size(); ++i) seen += keys_[i] == key;
      u.ends_game = seen >= 2;
    }
    board_.put(m.to, u.mover);
    keys_.push_back(key);
    to_move_ = opponent(to_move_);
    return u;
  }

  void unmake(const FastMove& m, const Undo& u) {
    to_move_ = opponent(to_move_);
    keys_.pop_back();
    window_start_ = u.window_start;
    board_.remove(m.to);
    board_.put(m.from, u.mover);
    if (u.victim != kEmpty) {
      board_.put(m.to, u.victim);
      score_[index_of(to_move_)] -= number_of(u.victim);
    }
  }

  const MoveGenerator& gen_;
  Board board_;
  Side to_move_;
  Score score_;
  std::vector<uint64_t> keys_;  // the line from the root's history to the current node
  size_t window_start_ = 0;     // keys before this index precede the last capture
  bool count_calculations_;
};

}  // namespace

uint64_t MoveGenerator::perft(const Position& p, int depth, bool count_calculations) const {
  if (depth <= 0) return 1;
  if (p.outcome.over()) return 0;
  return PerftWalk(*this, p, count_calculations).run(depth);
}

}  // namespace sb::cotoan
