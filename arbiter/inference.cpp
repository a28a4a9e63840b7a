#include "arbiter/inference.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <utility>

#include "engines/common/errors.h"

namespace sb::arbiter {

namespace {

// What holding each reading of a frame wrong costs: infinite for a sure reading
// (confidence at least doubt_below); for a doubtful one the log-odds that the
// reading is right rather than a misread into this particular token, and nothing
// when a misread is the likelier (a reading no better than chance says nothing).
// A sure reading of a piece with the right side and another identity costs
// `kind` to overrule (InferenceOptions::kind_misread_cost).
struct Weights {
  std::vector<double> cost;
  double kind = kInfeasible;
  bool sure(int i) const { return cost[static_cast<size_t>(i)] == kInfeasible; }
  // What holding the frame's reading `seen` at site i to be `expected` costs.
  double over(int i, const Token& seen, const Token& expected) const {
    if (seen == expected) return 0;
    if (!sure(i)) return cost[static_cast<size_t>(i)];
    return kind_only(seen, expected) ? kind : kInfeasible;
  }
  // The two differ in identity alone (both a piece of one side).
  static bool kind_only(const Token& seen, const Token& expected) {
    return !seen.empty() && seen.side == expected.side && !(seen == expected);
  }
  // A sure reading at i that `expected` contradicts beyond what may be overruled.
  bool refutes(int i, const Token& seen, const Token& expected) const { return over(i, seen, expected) == kInfeasible; }
};

Weights weights_of(const Frame& f, const InferenceOptions& o) {
  Weights w;
  w.kind = o.kind_misread_cost;
  w.cost.resize(f.conf.size());
  const double others = std::max(1, o.token_kinds - 1);
  for (size_t i = 0; i < f.conf.size(); ++i) {
    const double c = f.conf[i];
    if (c >= o.doubt_below) w.cost[i] = kInfeasible;
    else {
      const double odds = c * others / std::max(1e-9, 1.0 - c);
      w.cost[i] = odds > 1 ? std::log(odds) : 0.0;
    }
  }
  return w;
}

// Sites where the frame differs from a board, and which of those readings are confident.
struct Diff {
  std::vector<int> all;
  std::vector<int> confident;
};

Diff diff_against(const Frame& f, const Observation& base, const Weights& w) {
  Diff d;
  const int n = static_cast<int>(base.sites.size());
  for (int i = 0; i < n; ++i) {
    if (f.board.sites[i] == base.sites[i]) continue;
    d.all.push_back(i);
    if (w.sure(i)) d.confident.push_back(i);
  }
  return d;
}

// The frame's difference from the board after `s`, given its difference `x` from the board before.
Diff diff_after(const Frame& f, const Diff& x, const Successor& s, const Weights& w) {
  const std::vector<Token>& after = s.next->seen().sites;
  std::vector<int> sites;
  for (int i : x.all)
    if (!s.changes(i)) sites.push_back(i);
  for (int i : s.changed)
    if (!(f.board.sites[i] == after[i])) sites.push_back(i);
  std::sort(sites.begin(), sites.end());
  Diff d;
  for (int i : sites) {
    d.all.push_back(i);
    if (w.sure(i)) d.confident.push_back(i);
  }
  return d;
}

// The cost of reading the frame as the finished move `s`: the doubtful readings it
// overrules; infeasible when it would overrule a confident one.
double settled_cost(const Frame& f, const Diff& x, const Successor& s, const Weights& w) {
  const std::vector<Token>& after = s.next->seen().sites;
  for (int i : x.confident)
    if (!s.changes(i) && w.refutes(i, f.board.sites[i], after[i])) return kInfeasible;
  double cost = 0;
  for (int i : x.all)
    if (!s.changes(i)) cost += w.over(i, f.board.sites[i], after[i]);
  for (int i : s.changed) {
    cost += w.over(i, f.board.sites[i], after[i]);
    if (cost == kInfeasible) return kInfeasible;
  }
  return cost;
}

// The cost of reading the frame as the move `s` half made (see inference.h), or
// infeasible. The finished move and the untouched board are not half made.
double under_way_cost(const Frame& f, const Diff& x, const Observation& before, const Successor& s, const Weights& w) {
  const std::vector<Token>& seen = f.board.sites;
  const std::vector<Token>& after = s.next->seen().sites;
  const int from = s.move.from;
  double cost = 0;
  bool progress = false, complete = true;
  // Holds the reading at i to be `expected` (a site's token before the move, or after it).
  auto overrule = [&](int i, const Token& expected) {
    const double c = w.over(i, seen[i], expected);
    if (c == kInfeasible) return false;
    cost += c;
    return true;
  };
  auto rests_here = [&](int i) { return !s.mover.empty() && seen[i] == s.mover && s.is_waypoint(i); };
  // The pieces the mover lands on lifted off the destination while the mover too is off its point: players build a
  // stack up in hand (Cờ tư lệnh: an air force joining the infantry on its square, the two held together before
  // they are set down). Not while the mover still stands on its point: a piece gone from where some move might land
  // is no sign that the move began (a capture by replacement aside, below).
  const int to = s.move.to;
  auto destination_lifted = [&](int i) {
    return i == to && to != from && from >= 0 && !before.sites[to].empty() && seen[to].empty() &&
           !(seen[from] == before.sites[from]);
  };
  // Only a sure reading tells that the move is not finished yet: a doubtful one
  // that differs from the finished move is as likely a misread of it.
  // Nor does a sure reading that differs from it in identity alone, when that may be a misread.
  auto unfinished = [&](int i) {
    if (w.refutes(i, seen[i], after[i])) complete = false;
  };
  for (int i : x.all) {
    if (s.changes(i) || s.is_waypoint(i) || i == from) continue;
    if (destination_lifted(i)) {  // a stack joined under its top piece: the top reads the same after
      progress = true;
      unfinished(i);
      cost += 0.25;
      continue;
    }
    if (!overrule(i, before.sites[i])) return kInfeasible;
  }
  for (int i : s.changed) {
    const Token& o = seen[i];
    if (o == after[i]) {
      progress = true;
      continue;
    }
    unfinished(i);
    if (o == before.sites[i]) continue;
    // A capture by replacement: players often take the captured piece off before the capturer lands there. A
    // little dearer than a finished move that shows the same board (an air force's strike that returned), so
    // that one is not kept waiting.
    if (o.empty() && (std::find(s.move.captured.begin(), s.move.captured.end(), i) != s.move.captured.end() ||
                      destination_lifted(i))) {
      progress = true;
      cost += 0.25;
      continue;
    }
    if (rests_here(i) || (i == from && o.empty())) {
      progress = true;
      continue;
    }
    // A piece misread in identity alone, before or after the move.
    if (w.over(i, o, before.sites[i]) < w.over(i, o, after[i]) ? !overrule(i, before.sites[i]) : !overrule(i, after[i]))
      return kInfeasible;
  }
  for (int site : s.waypoints) {
    if (s.changes(site) || seen[site] == before.sites[site]) continue;
    if (rests_here(site)) {
      progress = true;
      unfinished(site);
      continue;
    }
    if (!overrule(site, before.sites[site])) return kInfeasible;
  }
  if (from >= 0 && !s.changes(from) && !s.is_waypoint(from) && !(seen[from] == before.sites[from])) {
    if (seen[from].empty()) {
      progress = true;
      unfinished(from);
    } else if (!overrule(from, before.sites[from])) {
      return kInfeasible;
    }
  }
  // A piece the move removes away from where the mover lands (a Morris mill's, a jumped man) is taken off after
  // the mover has landed, never before: a board that shows it gone and the landing point as it was is not this
  // move half made (a placement taken back would read as the other side's mill waiting for its piece).
  if (to >= 0 && !(after[to] == before.sites[to]) && seen[to] == before.sites[to])
    for (int c : s.move.captured)
      if (c != to && seen[c] == after[c] && !(after[c] == before.sites[c]) && !overrule(c, before.sites[c]))
        return kInfeasible;
  if (!progress || complete) return kInfeasible;
  return cost;
}

// The cost of reading the frame as exactly `board`.
double board_cost(const Frame& f, const Observation& board, const Weights& w) {
  double cost = 0;
  const int n = static_cast<int>(board.sites.size());
  for (int i = 0; i < n; ++i) {
    cost += w.over(i, f.board.sites[i], board.sites[i]);
    if (cost == kInfeasible) return kInfeasible;
  }
  return cost;
}

// Whether the frame surely shows a piece of the last move in hand: one that stands in
// both positions where they differ (the piece that moved, a stack's top piece) or on the
// last move's destination `lifted` (-1: none) and stands in neither place in the frame. A
// board with every piece down between the two positions is no such board: it may be a
// move out of turn (the capturing man back, the piece it took not yet), which the referee
// announces if it stays.
bool piece_in_hand(const Frame& f, const Observation& now, const Observation& back, int lifted, const Weights& w) {
  std::map<std::pair<char, char>, std::array<int, 3>> count;  // now, back, frame
  const int n = static_cast<int>(now.sites.size());
  for (int i = 0; i < n; ++i) {
    if (now.sites[i] == back.sites[i] && i != lifted) continue;
    if (!w.sure(i)) return false;
    const Token* tokens[3] = {&now.sites[i], &back.sites[i], &f.board.sites[i]};
    for (int k = 0; k < 3; ++k)
      if (!tokens[k]->empty()) ++count[{tokens[k]->side, tokens[k]->kind}][static_cast<size_t>(k)];
  }
  for (const auto& [token, c] : count)
    if (std::min(c[0], c[1]) > c[2]) return true;
  return false;
}

// The cost of reading the frame as the last move being taken back, a piece of it in hand
// (piece_in_hand), or infeasible: every site reads as the board stands or as `back`, or
// empty where the two differ (a stack lifted whole, its tank put back before the militia
// that had boarded it) or on the last move's destination (the stack it joined lifted whole,
// its top the same before and after); some site surely no longer reads as the board stands,
// and some surely not yet as `back`.
double takeback_under_way_cost(const Frame& f, const Observation& now, const Observation& back, int last_destination,
                               const Weights& w) {
  const std::vector<Token>& seen = f.board.sites;
  double cost = 0;
  bool progress = false, complete = true;
  const int n = static_cast<int>(now.sites.size());
  for (int i = 0; i < n; ++i) {
    const Token& o = seen[i];
    if (w.refutes(i, o, now.sites[i])) progress = true;
    if (w.refutes(i, o, back.sites[i])) complete = false;
    if (o == now.sites[i] || o == back.sites[i]) continue;
    if (o.empty() && (!(now.sites[i] == back.sites[i]) || i == last_destination)) continue;
    cost += std::min(w.over(i, o, now.sites[i]), w.over(i, o, back.sites[i]));
    if (cost == kInfeasible) return kInfeasible;
  }
  const int lifted = last_destination >= 0 && seen[last_destination].empty() ? last_destination : -1;
  if (!progress || complete || !piece_in_hand(f, now, back, lifted, w)) return kInfeasible;
  return cost;
}

bool intersects(const std::vector<int>& sorted_a, const std::vector<int>& sorted_b) {
  auto a = sorted_a.begin(), b = sorted_b.begin();
  while (a != sorted_a.end() && b != sorted_b.end()) {
    if (*a == *b) return true;
    if (*a < *b) ++a;
    else ++b;
  }
  return false;
}

// Whether a move may change one of `sites` (sorted), judged from its own fields
// before working out its successor. A move that names no site is not filtered.
bool may_touch(const Move& m, const std::vector<int>& sites) {
  auto in = [&](int s) { return s >= 0 && std::binary_search(sites.begin(), sites.end(), s); };
  if (m.from < 0 && m.to < 0 && m.path.empty() && m.captured.empty()) return true;
  if (in(m.from) || in(m.to)) return true;
  for (int p : m.path)
    if (in(p)) return true;
  for (int c : m.captured)
    if (in(c)) return true;
  return false;
}

// After the first move `s1` of the side whose letter is `mover`, the frame still
// differs confidently at `x1`. The other side's reply cannot put the mover's piece
// where the board after s1 has none (an empty site or one of its own).
bool second_move_can_explain(const Frame& f, const Diff& x1, const Successor& s1, char mover) {
  const std::vector<Token>& after = s1.next->seen().sites;
  for (int i : x1.confident)
    if (f.board.sites[i].side == mover && after[i].side != mover) return false;
  return true;
}

// Whether every site `s` changes reads as after it (doubtful readings aside).
bool shows_whole(const Frame& f, const Successor& s, const Weights& w) {
  const std::vector<Token>& after = s.next->seen().sites;
  for (int i : s.changed)
    if (w.refutes(i, f.board.sites[i], after[i])) return false;
  return true;
}

// Whether the reading `v` of the frame (difference `x` from `position`) plays first a move
// the frame shows nowhere: every site it changes reads as before it, and no reply that is
// known changes them back (as a Morris mill takes the piece just placed). Such a move rests
// on doubtful readings alone (an air force "shot down" where the frame still shows it, in
// doubt since a lamp was switched on).
bool plays_unseen_move(Position& position, const Diff& x, const Verdict& v) {
  if (v.kind != Reading::Moves || (v.moves.size() < 2 && !v.then_under_way)) return false;
  Successor& s1 = position.successor(static_cast<size_t>(v.moves[0]));
  if (intersects(s1.changed, x.all)) return false;
  if (v.moves.size() < 2) return true;
  const Successor& s2 = s1.next->successor(static_cast<size_t>(v.moves[1]));
  for (int i : s1.changed)
    if (!s2.changes(i)) return true;
  return false;
}

int mismatches(const Frame& f, const Diff& x, const Successor& s) {
  int count = 0;
  for (int i : x.confident)
    if (!s.changes(i)) ++count;
  const std::vector<Token>& after = s.next->seen().sites;
  for (int i : s.changed)
    if (!(f.board.sites[i] == after[i])) ++count;
  return count;
}

}  // namespace

const char* to_string(Reading r) {
  switch (r) {
    case Reading::NoChange: return "no_change";
    case Reading::UnderWay: return "under_way";
    case Reading::Moves: return "moves";
    case Reading::Takeback: return "takeback";
    case Reading::Illegal: return "illegal";
    case Reading::Unclear: return "unclear";
  }
  return "unclear";
}

nlohmann::json to_json(const InferenceOptions& o) {
  return {{"doubt_below", o.doubt_below},
          {"under_way_prior", o.under_way_prior},
          {"two_move_prior", o.two_move_prior},
          {"takeback_prior", o.takeback_prior},
          {"two_moves", o.two_moves},
          {"token_kinds", o.token_kinds},
          {"kind_misread_cost",
           o.kind_misread_cost == kInfeasible ? nlohmann::json() : nlohmann::json(o.kind_misread_cost)}};
}

InferenceOptions inference_options_from_json(const nlohmann::json& j) {
  InferenceOptions o;
  if (j.is_null()) return o;
  if (!j.is_object()) throw InputError("inference options: expected a JSON object");
  for (const auto& [key, value] : j.items()) {
    auto number = [&](double& field, double lo, double hi) {
      if (!value.is_number() || value.get<double>() < lo || value.get<double>() > hi)
        throw InputError("inference option \"" + key + "\": expected a number in " + std::to_string(lo) + ".." +
                         std::to_string(hi) + ", got " + value.dump());
      field = value.get<double>();
    };
    if (key == "doubt_below") number(o.doubt_below, 0, 1);
    else if (key == "under_way_prior") number(o.under_way_prior, 0, 10);
    else if (key == "two_move_prior") number(o.two_move_prior, 0, 10);
    else if (key == "takeback_prior") number(o.takeback_prior, 0, 10);
    else if (key == "kind_misread_cost") {
      // null: identities held as sure as the rest
      if (value.is_null())
        o.kind_misread_cost = kInfeasible;
      else
        number(o.kind_misread_cost, 0, 1000);
    } else if (key == "token_kinds") {
      if (!value.is_number_integer() || value.get<int>() < 0 || value.get<int>() > 1000)
        throw InputError("inference option \"token_kinds\": expected a whole number in 0..1000, got " + value.dump());
      o.token_kinds = value.get<int>();
    } else if (key == "two_moves") {
      if (!value.is_boolean()) throw InputError("inference option \"two_moves\": expected true or false");
      o.two_moves = value.get<bool>();
    } else {
      throw InputError("unknown inference option \"" + key + "\"");
    }
  }
  return o;
}

Verdict read_frame(Position& position, const Frame& frame, const std::vector<const Observation*>& earlier,
                   const InferenceOptions& options, int last_destination) {
  const Rules& rules = position.rules();
  if (frame.board.sites.size() != position.seen().sites.size() || frame.conf.size() != frame.board.sites.size())
    throw InputError("frame at t=" + std::to_string(frame.t) + " does not have one site per site of the game");

  Verdict best;
  const Weights w = weights_of(frame, options);
  const Diff x = diff_against(frame, position.seen(), w);
  // No change: sure readings that differ in identity alone may be misreads too.
  best.cost = board_cost(frame, position.seen(), w);
  // Doubtful readings may be overruled but never make a move by themselves.
  if (x.confident.empty()) return best;

  // One finished move, or one half made.
  double under_way = kInfeasible;
  // A move explains a confident change only at a site it names (from, to, path,
  // captured): the others are not worked out (nor built, if not listed yet).
  const std::vector<int> near = position.moves_touching(x.confident);
  const size_t n = position.move_count();
  std::vector<double> settled(n, kInfeasible);
  for (int k : near) {
    const size_t i = static_cast<size_t>(k);
    if (!may_touch(position.move(i), x.confident)) continue;
    Successor& s = position.successor(i);
    double c = settled[i] = settled_cost(frame, x, s, w);
    if (c < best.cost) {
      best = Verdict{};
      best.kind = Reading::Moves;
      best.cost = best.fit = c;
      best.moves = {static_cast<int>(i)};
    }
    under_way = std::min(under_way, under_way_cost(frame, x, position.seen(), s, w));
  }
  if (best.kind == Reading::Moves) {
    if (under_way <= best.cost) best.ambiguous = true;
    const Successor& chosen = position.successor(static_cast<size_t>(best.moves[0]));
    std::string chosen_fen;
    for (size_t i = 0; i < n; ++i) {
      if (static_cast<int>(i) == best.moves[0] || settled[i] > best.fit + 1e-9) continue;
      if (chosen_fen.empty()) chosen_fen = rules.fen(chosen.next->state());
      if (rules.fen(position.successor(i).next->state()) != chosen_fen) best.alternatives.push_back({static_cast<int>(i)});
    }
  }
  if (under_way + options.under_way_prior < best.cost) {
    best = Verdict{};
    best.kind = Reading::UnderWay;
    best.cost = under_way + options.under_way_prior;
    best.fit = under_way;
    best.squares = x.confident;
  }

  // Two moves: the side to move, then the other side (possibly still moving).
  const char mover = rules.side_letter(rules.side_to_move(position.state()));
  // Also behind a move half made: a mill made and no piece removed yet reads the
  // same as the mill and the removed piece put back by the reply; the referee
  // holds the two moves in case play goes on from them.
  std::vector<int> fallback;
  double fallback_fit = kInfeasible;
  if (options.two_moves && (best.cost > options.two_move_prior || best.kind == Reading::UnderWay)) {
    struct Pair {
      int first, second;
      double fit;
    };
    std::vector<Pair> pairs;  // every pair that reads the frame, for alternatives
    // Pass 0: first moves the board shows whole (every site they change reads as
    // after them), the usual fast play, so that the replies of only a few are
    // listed; pass 1: first moves partly overwritten by the reply (a piece moved
    // and then taken); pass 2: first moves whose every trace the reply undid.
    std::vector<int> near_any;  // first moves that may change a site where the frame differs
    for (int pass = 0; pass < 3; ++pass) {
      bool found = false;
      std::vector<int> firsts;
      if (pass < 2) {
        if (pass == 0) near_any = position.moves_touching(x.all);
        firsts = near_any;
      } else {
        firsts.resize(position.move_count());
        for (size_t i = 0; i < firsts.size(); ++i) firsts[i] = static_cast<int>(i);
      }
      for (int first : firsts) {
        const size_t i = static_cast<size_t>(first);
        if (pass < 2 && !may_touch(position.move(i), x.all)) continue;
        Successor& s1 = position.successor(i);
        if ((pass < 2) != intersects(s1.changed, x.all)) continue;
        if (pass < 2 && (pass == 0) != shows_whole(frame, s1, w)) continue;
        const Diff x1 = diff_after(frame, x, s1, w);
        if (x1.confident.empty()) continue;  // the first move alone reads the frame
        if (!second_move_can_explain(frame, x1, s1, mover)) continue;
        Position& p1 = *s1.next;
        double settled_here = kInfeasible, under_way_here = kInfeasible;
        int settled_reply = -1;
        for (int reply : p1.moves_touching(x1.confident)) {
          const size_t j = static_cast<size_t>(reply);
          if (!may_touch(p1.move(j), x1.confident)) continue;
          Successor& s2 = p1.successor(j);
          double c = settled_cost(frame, x1, s2, w);
          if (c < kInfeasible) pairs.push_back({static_cast<int>(i), static_cast<int>(j), c});
          if (c < settled_here) {
            settled_here = c;
            settled_reply = static_cast<int>(j);
          }
          under_way_here = std::min(under_way_here, under_way_cost(frame, x1, p1.seen(), s2, w));
        }
        if (settled_reply >= 0 && settled_here < fallback_fit) {
          fallback = {static_cast<int>(i), settled_reply};
          fallback_fit = settled_here;
        }
        if (settled_here + options.two_move_prior < best.cost) {
          best = Verdict{};
          best.kind = Reading::Moves;
          best.cost = settled_here + options.two_move_prior;
          best.fit = settled_here;
          best.moves = {static_cast<int>(i), settled_reply};
          best.ambiguous = under_way_here <= settled_here;
          found = true;
        }
        double then_under_way = under_way_here + options.two_move_prior + options.under_way_prior;
        if (then_under_way < best.cost) {
          best = Verdict{};
          best.kind = Reading::Moves;
          best.cost = then_under_way;
          best.fit = under_way_here;
          best.moves = {static_cast<int>(i)};
          best.then_under_way = true;
          best.squares = x1.confident;
          found = true;
        }
      }
      if (found || (pass > 0 && best.cost < kInfeasible)) break;
    }
    if (best.kind == Reading::UnderWay && !fallback.empty()) {
      best.fallback = fallback;
      best.fallback_fit = fallback_fit;
    }
    if (best.kind == Reading::Moves && best.moves.size() == 2) {
      auto end_of = [&](int a, int b) {
        return rules.fen(position.successor(static_cast<size_t>(a)).next->successor(static_cast<size_t>(b)).next->state());
      };
      auto middle_of = [&](int a) { return rules.fen(position.successor(static_cast<size_t>(a)).next->state()); };
      const std::string chosen = end_of(best.moves[0], best.moves[1]);
      const std::string chosen_middle = middle_of(best.moves[0]);
      for (const Pair& p : pairs) {
        if (p.fit > best.fit + 1e-9 || (p.first == best.moves[0] && p.second == best.moves[1])) continue;
        if (end_of(p.first, p.second) != chosen) best.alternatives.push_back({p.first, p.second});
        else if (middle_of(p.first) != chosen_middle) best.unseen_alternatives.push_back({p.first, p.second});
      }
    }
  }

  // Readings that fit the frame alike: prefer one whose every change the frame
  // shows (a doubtful reading costs nothing to overrule, so it says nothing: an air
  // force "flown" to a site only a misread shows occupied is the weaker reading than
  // one shot down or gone under a stack, which the frame shows whole); then one that
  // lets the game go on, so that a guess never ends a game (a later frame may still
  // revise the guess).
  if (best.kind == Reading::Moves && !best.alternatives.empty()) {
    const std::vector<Token>& before = position.seen().sites;
    auto rank = [&](const std::vector<int>& path) {
      Position* p = &position;
      for (int i : path) p = p->successor(static_cast<size_t>(i)).next.get();
      const std::vector<Token>& after = p->seen().sites;
      int unshown = 0;
      for (size_t i = 0; i < after.size(); ++i) unshown += !(after[i] == before[i]) && !(frame.board.sites[i] == after[i]);
      return std::pair<int, int>(unshown, p->over() ? 1 : 0);
    };
    std::vector<std::vector<int>> all = best.alternatives;
    all.insert(all.begin(), best.moves);
    std::stable_sort(all.begin(), all.end(), [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
    if (all.front() != best.moves) best.unseen_alternatives.clear();  // they reach the position not picked
    best.moves = all.front();
    best.alternatives.assign(all.begin() + 1, all.end());
  }

  // A return to an earlier position, the most recent first; whatever its cost, before a move no reading shows.
  const bool unseen_move = plays_unseen_move(position, x, best);
  if (!earlier.empty() && (best.cost > options.takeback_prior || unseen_move)) {
    for (int k = static_cast<int>(earlier.size()) - 1; k >= 0; --k) {
      double c = board_cost(frame, *earlier[k], w) + options.takeback_prior;
      if (c < best.cost || (unseen_move && best.kind == Reading::Moves && c < kInfeasible)) {
        best = Verdict{};
        best.kind = Reading::Takeback;
        best.cost = c;
        best.fit = c - options.takeback_prior;
        best.takeback_to = k;
        best.ambiguous = under_way <= c - options.takeback_prior;
      }
    }
  }
  // The last move being taken back, a piece of it in hand: the board waits for it as for a move under way. Dearer
  // than a finished takeback and than reading on with a move of the side to move that the frame shows.
  if (!earlier.empty() &&
      (best.cost > options.takeback_prior + options.under_way_prior || (unseen_move && best.kind == Reading::Moves))) {
    const double c = takeback_under_way_cost(frame, position.seen(), *earlier.back(), last_destination, w) +
                     options.takeback_prior + options.under_way_prior;
    if (c < best.cost || (unseen_move && best.kind == Reading::Moves && c < kInfeasible)) {
      best = Verdict{};
      best.kind = Reading::UnderWay;
      best.cost = c;
      best.fit = c - options.takeback_prior - options.under_way_prior;
      best.squares = x.confident;
    }
  }
  if (best.kind == Reading::Moves) best.under_way_fit = under_way;
  if (best.cost < kInfeasible) return best;

  // Nothing legal reads the frame: an illegal move, or something unclear.
  Observation denoised = frame.board;
  for (int i : x.all)
    if (w.over(i, frame.board.sites[i], position.seen().sites[i]) < kInfeasible)
      denoised.sites[i] = position.seen().sites[i];
  best = Verdict{};
  if (auto change = rules.explain_change(position.state(), denoised)) {
    best.kind = Reading::Illegal;
    best.illegal = *change;
    return best;
  }
  for (size_t i = 0; i < n; ++i) {
    Successor& s1 = position.successor(i);
    const std::vector<Token>& after = s1.next->seen().sites;
    bool shows = !s1.changed.empty();
    for (int d : s1.changed) shows = shows && denoised.sites[d] == after[d];
    if (!shows) continue;
    bool more = false;
    for (int c : x.confident) more = more || !s1.changes(c);
    if (!more) continue;
    if (auto change = rules.explain_change(s1.next->state(), denoised)) {
      best.kind = Reading::Illegal;
      best.illegal = *change;
      best.moves = {static_cast<int>(i)};
      return best;
    }
  }
  best.kind = Reading::Unclear;
  best.cost = kInfeasible;
  best.squares = x.confident.empty() ? x.all : x.confident;
  std::vector<std::pair<int, size_t>> ranked;
  for (size_t i = 0; i < n; ++i) ranked.push_back({mismatches(frame, x, position.successor(i)), i});
  std::sort(ranked.begin(), ranked.end());
  for (size_t k = 0; k < ranked.size() && k < 3; ++k)
    best.suggestions.push_back(position.successor(ranked[k].second).move.notation);
  return best;
}

double path_stage_cost(Position& position, const Frame& frame, const std::vector<int>& path,
                       const InferenceOptions& options) {
  const Weights w = weights_of(frame, options);
  Position* p = &position;
  double best = board_cost(frame, p->seen(), w);
  for (int i : path) {
    const Diff x = diff_against(frame, p->seen(), w);
    Successor& s = p->successor(static_cast<size_t>(i));
    best = std::min(best, under_way_cost(frame, x, p->seen(), s, w) + options.under_way_prior);
    p = s.next.get();
    best = std::min(best, board_cost(frame, p->seen(), w));
  }
  return best;
}

double board_fit(const Frame& frame, const Observation& board, const InferenceOptions& options) {
  return board_cost(frame, board, weights_of(frame, options));
}

std::vector<PathFit> readings_within(Position& position, const Frame& frame, double fit,
                                     const InferenceOptions& options) {
  const double limit = fit + 1e-9;
  const Rules& rules = position.rules();
  const char mover = rules.side_letter(rules.side_to_move(position.state()));
  const Weights w = weights_of(frame, options);
  const Diff x = diff_against(frame, position.seen(), w);
  std::vector<PathFit> found;
  const size_t n = position.move_count();
  for (size_t i = 0; i < n; ++i) {
    Successor& s1 = position.successor(i);
    if (double c = settled_cost(frame, x, s1, w); c <= limit) found.push_back({{static_cast<int>(i)}, c});
    if (!options.two_moves) continue;
    const Diff x1 = diff_after(frame, x, s1, w);
    if (x1.all.empty() || !second_move_can_explain(frame, x1, s1, mover)) continue;
    // Where the first move reads every sure change, a reply may still hide behind
    // doubtful readings alone (the other side's piece misread as the mover's): a
    // revision looks for it too, when a later frame needs it.
    const std::vector<int>& touched = x1.confident.empty() ? x1.all : x1.confident;
    Position& p1 = *s1.next;
    for (int reply : p1.moves_touching(touched)) {
      const size_t j = static_cast<size_t>(reply);
      if (!may_touch(p1.move(j), touched)) continue;
      if (double c = settled_cost(frame, x1, p1.successor(j), w); c <= limit)
        found.push_back({{static_cast<int>(i), static_cast<int>(j)}, c});
    }
  }
  std::stable_sort(found.begin(), found.end(), [](const PathFit& a, const PathFit& b) {
    return a.fit < b.fit || (a.fit == b.fit && a.path.size() < b.path.size());
  });
  return found;
}

}  // namespace sb::arbiter
