#include "engines/morris/movegen.h"

#include <algorithm>

namespace sb::morris {

Points MoveGenerator::mill_pieces(Points side) const {
  Points in_mills = 0;
  for (Points m : g_.mills)
    if ((side & m) == m) in_mills |= m;
  return in_mills;
}

Points MoveGenerator::removable(Points theirs) const {
  if (o_.remove_from_mill == RemoveFromMill::Always) return theirs;
  const Points free = theirs & ~mill_pieces(theirs);
  return free ? free : theirs;
}

int MoveGenerator::mills_closed(Points own, int to) const {
  int n = 0;
  for (int i = 0; i < g_.mill_count_through[to]; ++i) {
    const Points m = g_.mills_through[to][i];
    n += (own & m) == m;
  }
  return n;
}

int MoveGenerator::removals_for(int mills, Points theirs) const {
  if (mills == 0 || g_.variant == Variant::Three) return 0;
  return std::min({mills, o_.double_mill_removals, count(theirs)});
}

bool MoveGenerator::flies(const Position& p) const {
  const int side = index_of(p.to_move);
  return o_.flying && p.in_hand[side] == 0 && count(p.pieces[side]) == 3;
}

Points MoveGenerator::destinations(const Position& p, int from) const {
  const Points empty = g_.all & ~p.occupied();
  return flies(p) ? empty : g_.neighbours[from] & empty;
}

RemovalChoices MoveGenerator::removal_choices(Points theirs, int removals) const {
  RemovalChoices c;
  if (removals <= 0) {
    c.sets[c.size++] = 0;
    return c;
  }
  for (Points firsts = removable(theirs); firsts; firsts &= firsts - 1) {
    const Points a = firsts & -firsts;
    if (removals == 1) {
      c.sets[c.size++] = a;
      continue;
    }
    // The second piece is chosen on the board the first removal leaves, so a
    // piece in a mill may become removable. A pair counts once, whatever the order.
    for (Points seconds = removable(theirs & ~a); seconds; seconds &= seconds - 1) {
      const Points pair = a | (seconds & -seconds);
      if (std::find(c.sets.begin(), c.sets.begin() + c.size, pair) == c.sets.begin() + c.size)
        c.sets[c.size++] = pair;
    }
  }
  return c;
}

void MoveGenerator::generate(const Position& p, std::vector<MorrisMove>& out) const {
  const int side = index_of(p.to_move);
  const Points own = p.pieces[side];
  const Points theirs = p.pieces[1 - side];
  const Points empty = g_.all & ~p.occupied();
  RemovalChoices choices[3];
  bool known[3] = {false, false, false};
  const Points closers = closing_points(own, empty);
  auto add = [&](int from, int to, Points own_after) {
    const int mills = (closers & bit(to)) ? mills_closed(own_after, to) : 0;
    const int removals = removals_for(mills, theirs);
    if (!known[removals]) {
      choices[removals] = removal_choices(theirs, removals);
      known[removals] = true;
    }
    const RemovalChoices& c = choices[removals];
    for (int i = 0; i < c.size; ++i)
      out.push_back({static_cast<int8_t>(from), static_cast<int8_t>(to), static_cast<uint8_t>(mills), c.sets[i]});
  };
  if (p.in_hand[side] > 0) {
    for (Points e = empty; e; e &= e - 1) add(-1, first(e), own | (e & -e));
    return;
  }
  const bool fly = flies(p);
  for (Points f = own; f; f &= f - 1) {
    const int from = first(f);
    const Points to_set = fly ? empty : g_.neighbours[from] & empty;
    for (Points t = to_set; t; t &= t - 1) add(from, first(t), (own ^ bit(from)) | (t & -t));
  }
}

Points MoveGenerator::closing_points(Points own, Points empty) const {
  Points closers = 0;
  for (Points m : g_.mills) {
    const Points gap = m & ~own;
    if ((gap & empty) && !(gap & (gap - 1))) closers |= gap;  // exactly one point missing, and it is empty
  }
  return closers;
}

uint64_t MoveGenerator::count_moves(const Position& p) const {
  const int side = index_of(p.to_move);
  const Points own = p.pieces[side];
  const Points theirs = p.pieces[1 - side];
  const Points empty = g_.all & ~p.occupied();
  // Most moves close no mill: only a landing point that completes a line of two
  // own pieces can, and only when the moving piece is not one of those two.
  const Points closers = closing_points(own, empty);
  uint64_t by_mills[3] = {0, 0, 0};  // moves by the number of mills they close (0, 1, 2 or more)
  if (p.in_hand[side] > 0) {
    by_mills[0] = count(empty & ~closers);
    for (Points e = empty & closers; e; e &= e - 1) ++by_mills[std::min(2, mills_closed(own | (e & -e), first(e)))];
  } else {
    const bool fly = flies(p);
    for (Points f = own; f; f &= f - 1) {
      const int from = first(f);
      const Points rest = own ^ bit(from);
      const Points to_set = fly ? empty : g_.neighbours[from] & empty;
      by_mills[0] += count(to_set & ~closers);
      for (Points t = to_set & closers; t; t &= t - 1) ++by_mills[std::min(2, mills_closed(rest | (t & -t), first(t)))];
    }
  }
  uint64_t n = by_mills[0];
  for (int mills = 1; mills <= 2; ++mills) {
    if (!by_mills[mills]) continue;
    const int removals = removals_for(mills, theirs);
    const uint64_t ways = removals == 0   ? 1
                          : removals == 1 ? count(removable(theirs))
                                          : removal_choices(theirs, removals).size;
    n += by_mills[mills] * ways;
  }
  return n;
}

bool MoveGenerator::has_move(const Position& p) const {
  const int side = index_of(p.to_move);
  const Points empty = g_.all & ~p.occupied();
  if (!empty) return false;
  if (p.in_hand[side] > 0 || flies(p)) return true;
  for (Points f = p.pieces[side]; f; f &= f - 1)
    if (g_.neighbours[first(f)] & empty) return true;
  return false;
}

End MoveGenerator::judge(const Position& p, int occurrences) const {
  const Side mover = p.to_move;
  const Side last = opponent(mover);
  if (g_.variant == Variant::Three) {
    // Only the side that just moved can have closed the first mill; a mill of the
    // side to move comes only from a FEN (and parse_fen refuses two).
    if (mill_pieces(p.pieces[index_of(last)])) return {EndKind::MillWins, last};
    if (mill_pieces(p.pieces[index_of(mover)])) return {EndKind::MillWins, mover};
  } else {
    if (p.material(mover) < 3) return {EndKind::TooFewPieces, last};
    if (p.material(last) < 3) return {EndKind::TooFewPieces, mover};
  }
  if ((p.occupied() & g_.all) == g_.all) return {EndKind::BoardFull, Side::First};
  if (!has_move(p)) return {EndKind::NoMove, last};
  if (occurrences >= 3) return {EndKind::Repetition, Side::First};
  if (o_.move_limit_plies > 0 && p.quiet_plies >= o_.move_limit_plies) return {EndKind::MoveLimit, Side::First};
  return {};
}

int MoveGenerator::occurrences_at_top(const std::vector<uint64_t>& keys, int quiet_plies) const {
  // The position can only have stood before within the quiet plies, with the same
  // side to move: every second key back.
  const int top = static_cast<int>(keys.size()) - 1;
  const uint64_t key = keys[top];
  int n = 1;
  for (int back = 2; back <= quiet_plies && top - back >= 0; back += 2) n += keys[top - back] == key;
  return n;
}

uint64_t MoveGenerator::perft_node(const Position& p, int depth, std::vector<uint64_t>& keys) const {
  keys.push_back(p.key());
  uint64_t n = 0;
  if (!judge(p, occurrences_at_top(keys, p.quiet_plies)).over()) {
    if (depth == 1) {
      n = count_moves(p);
    } else {
      std::vector<MorrisMove> moves;
      moves.reserve(64);
      generate(p, moves);
      for (const MorrisMove& m : moves) n += perft_node(after(p, m), depth - 1, keys);
    }
  }
  keys.pop_back();
  return n;
}

uint64_t MoveGenerator::perft(const Position& p, int depth, const std::vector<uint64_t>& history) const {
  if (depth <= 0) return 1;
  std::vector<uint64_t> keys = history;
  keys.reserve(history.size() + depth + 1);
  return perft_node(p, depth, keys);
}

}  // namespace sb::morris
