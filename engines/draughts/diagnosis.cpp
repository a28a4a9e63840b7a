// Why a move is not legal, in a player's words: for a move typed in notation
// (why_illegal) and for a move seen on the board (explain_change).
#include <algorithm>
#include <cstdlib>

#include "engines/common/errors.h"
#include "engines/draughts/draughts_rules.h"
#include "engines/draughts/notation.h"

namespace sb::draughts {

namespace {

uint64_t bit(int b) {
  return uint64_t{1} << b;
}

std::string join(const std::vector<std::string>& items, const std::string& last_sep) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? last_sep : ", ";
    out += items[i];
  }
  return out;
}

bool is_prefix(const std::vector<int>& prefix, const std::vector<int>& whole) {
  return prefix.size() < whole.size() && std::equal(prefix.begin(), prefix.end(), whole.begin());
}

}  // namespace

std::string DraughtsRules::why_illegal(const State& s, std::string_view text) const {
  const Outcome o = outcome(s);
  if (o.over()) return "the game is over (" + o.result() + ", " + o.reason + ")";
  WrittenMove w;
  try {
    w = read_move_text(text, geometry());
  } catch (const InputError& e) {
    return e.what();
  }
  const std::vector<int> landings(w.squares.begin() + 1, w.squares.end());
  return reason_for(board(s), w.squares.front(), landings, w.capture, nullptr, nullptr);
}

// The rule that the move of the piece on `from` over `landings` breaks.
// `removed`: the opposing pieces taken off the board with it (a move seen on the
// board), or null for a written move. Fills `squares` with the sites to show.
std::string DraughtsRules::reason_for(const Board& b, int from, const std::vector<int>& landings, bool capture,
                                      const std::vector<int>* removed, std::vector<int>* squares) const {
  const Geometry& g = geometry();
  const int us = index_of(b.side);
  const uint64_t from_bit = bit(g.bit_of(from));
  const int to = landings.back();
  const std::string from_name = square_name(from), to_name = square_name(to);
  if (squares) *squares = {from, to};
  if (!(b.occupied() & from_bit)) return "there is no piece on " + from_name;
  if (!(b.pieces[us] & from_bit))
    return "the piece on " + from_name + " is " + side_name(opponent(b.side)) + "'s; it is " + side_name(b.side) +
           "'s turn";

  const std::vector<DraughtsMove> legal = moves_of(b);
  const std::vector<std::string> names = notations(legal);
  const bool must_capture = !legal.empty() && legal.front().raw.count > 0;
  const bool king = (b.kings & from_bit) != 0;
  std::vector<size_t> own;  // legal moves of this piece
  for (size_t i = 0; i < legal.size(); ++i)
    if (g.square_of(legal[i].raw.from) == from) own.push_back(i);
  const auto examples = [&](const std::vector<size_t>& which) {
    std::vector<std::string> list;
    for (size_t i = 0; i < which.size() && list.size() < 3; ++i) list.push_back(names[which[i]]);
    return join(list, " or ");
  };
  std::vector<size_t> all(legal.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;

  if (must_capture) {
    int most = 0;
    for (const DraughtsMove& m : legal) most = std::max<int>(most, m.raw.count);
    const std::string take_most =
        "you must take the maximum, " + std::to_string(most) + (most == 1 ? " piece" : " pieces") + ", e.g. ";
    // The captures this piece could make if every capture were allowed.
    std::vector<PathMove> paths;
    for (PathMove& pm : generator_.all_capture_paths(b))
      if (g.square_of(pm.move.from) == from) paths.push_back(std::move(pm));
    bool ends_here = false, stops_early = false;
    int best_here = 0;
    for (const PathMove& pm : paths) {
      std::vector<int> path;
      for (uint8_t p : pm.path) path.push_back(g.square_of(p));
      const bool same_path = landings.size() > 1 ? path == landings : path.back() == to;
      if (same_path) {
        ends_here = true;
        best_here = std::max<int>(best_here, pm.move.count);
      }
      // Written with its start and end only, a capture stopped early ends on a square the path goes through.
      if (landings.size() > 1 ? is_prefix(landings, path)
                              : std::find(path.begin(), path.end() - 1, to) != path.end() - 1)
        stops_early = true;
    }
    if (own.empty()) {
      if ((ends_here || stops_early) && variant().majority_rule) return take_most + examples(all);
      return "a capture is mandatory: " + examples(all);
    }
    if (ends_here && variant().majority_rule && best_here < most) return take_most + examples(own);
    if (stops_early) {
      if (variant().majority_rule) return take_most + examples(own);
      // Without the majority rule, show how the capture that was begun goes on.
      std::vector<size_t> going_on;
      for (size_t i : own)
        for (const auto& p : legal[i].paths)
          if (std::find(p.begin(), p.end() - 1, landings.back()) != p.end() - 1 || is_prefix(landings, p)) {
            going_on.push_back(i);
            break;
          }
      return "a capture must be completed: " + examples(going_on.empty() ? own : going_on);
    }
    if (removed) {
      // The piece went where a legal capture ends: the pieces taken off differ from those it takes.
      for (size_t i : own) {
        const DraughtsMove& m = legal[i];
        if (g.square_of(m.raw.to) != to) continue;
        std::vector<std::string> missing, extra;
        for (int sq : captured_in_order(from, m.paths[0], m.raw.captured)) {
          if (std::find(removed->begin(), removed->end(), sq) == removed->end()) missing.push_back(square_name(sq));
          if (squares) squares->push_back(sq);
        }
        for (int sq : *removed)
          if (!(m.raw.captured & bit(g.bit_of(sq)))) extra.push_back(square_name(sq));
        if (!extra.empty())
          return names[i] + " does not take " + join(extra, " and ") + ": put " + (extra.size() == 1 ? "it" : "them") +
                 " back";
        if (!missing.empty())
          return names[i] + " takes " + join(missing, " and ") + ": take " + (missing.size() == 1 ? "it" : "them") +
                 " off the board";
      }
    }
    if (!capture) return "a capture is mandatory: " + examples(own);
    return from_name + "x" + to_name + " is not a capture the piece on " + from_name + " can make; it can play " +
           examples(own);
  }

  // No capture anywhere: a step.
  if (capture || landings.size() > 1 || (removed && !removed->empty())) return "there is nothing to capture";
  if (b.occupied() & bit(g.bit_of(to))) return "square " + to_name + " is occupied";
  const int df = g.file_of(to) - g.file_of(from), dr = g.rank_of(to) - g.rank_of(from);
  if (df == 0 || std::abs(df) != std::abs(dr)) return from_name + "-" + to_name + " is not along a diagonal";
  const int forward = b.side == Side::First ? 1 : -1;
  if (!king) {
    if (dr * forward < 0) return "a man moves forward only";
    if (std::abs(dr) > 1) return "a man moves one square at a time (it jumps only to capture)";
  } else if (!variant().flying_kings && std::abs(dr) > 1) {
    return "a king moves one square at a time in " + variant().id + " draughts";
  } else {
    const int sf = df > 0 ? 1 : -1, sr = dr > 0 ? 1 : -1;
    for (int f = g.file_of(from) + sf, r = g.rank_of(from) + sr; f != g.file_of(to); f += sf, r += sr) {
      const int sq = g.square_at(f, r);
      if (b.occupied() & bit(g.bit_of(sq))) {
        if (squares) squares->push_back(sq);
        return "the way from " + from_name + " to " + to_name + " is blocked on " + square_name(sq);
      }
    }
  }
  return from_name + "-" + to_name + " is not a legal move here";
}

std::optional<IllegalChange> DraughtsRules::explain_change(const State& s, const Observation& after) const {
  const Observation before = observe(s);
  if (after.sites.size() != before.sites.size()) return std::nullopt;
  const Board& b = board(s);
  const char mover = side_letter(b.side);
  std::vector<int> left_own, left_other, came_own, came_other;
  for (int i = 0; i < static_cast<int>(before.sites.size()); ++i) {
    const Token& t0 = before.sites[i];
    const Token& t1 = after.sites[i];
    if (t0 == t1) continue;
    if (!t0.empty() && !t1.empty()) return std::nullopt;  // a piece changed colour: a misread
    if (!t0.empty()) (t0.side == mover ? left_own : left_other).push_back(i);
    if (!t1.empty()) (t1.side == mover ? came_own : came_other).push_back(i);
  }
  if (left_own.empty() && came_own.empty() && left_other.size() == 1 && came_other.size() == 1) {
    return IllegalChange{"it is " + side_name(b.side) + "'s turn", {left_other[0], came_other[0]}};
  }
  if (left_own.size() != 1 || came_own.size() != 1 || !came_other.empty()) return std::nullopt;
  const int from = left_own[0], to = came_own[0];
  const Outcome o = outcome(s);
  if (o.over()) return IllegalChange{"the game is over (" + o.result() + ", " + o.reason + ")", {from, to}};
  // A legal move that explains the board is not the business of this function.
  for (const DraughtsMove& m : moves_of(b)) {
    if (geometry().square_of(m.raw.from) != from || geometry().square_of(m.raw.to) != to) continue;
    uint64_t removed = 0;
    for (int sq : left_other) removed |= bit(geometry().bit_of(sq));
    if (removed == m.raw.captured) return std::nullopt;
  }
  IllegalChange c;
  c.reason = reason_for(b, from, {to}, !left_other.empty(), &left_other, &c.squares);
  for (int sq : left_other)
    if (std::find(c.squares.begin(), c.squares.end(), sq) == c.squares.end()) c.squares.push_back(sq);
  return c;
}

}  // namespace sb::draughts
