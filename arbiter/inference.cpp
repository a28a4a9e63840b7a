#include "arbiter/inference.h"

#include <algorithm>

#include "engines/common/errors.h"

namespace sb::arbiter {

namespace {

// Sites where the frame differs from a board, and which of those readings are confident.
struct Diff {
  std::vector<int> all;
  std::vector<int> confident;
};

Diff diff_against(const Frame& f, const Observation& base, double doubt) {
  Diff d;
  const int n = static_cast<int>(base.sites.size());
  for (int i = 0; i < n; ++i) {
    if (f.board.sites[i] == base.sites[i]) continue;
    d.all.push_back(i);
    if (f.conf[i] >= doubt) d.confident.push_back(i);
  }
  return d;
}

// The frame's difference from the board after `s`, given its difference `x` from the board before.
Diff diff_after(const Frame& f, const Diff& x, const Successor& s, double doubt) {
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
    if (f.conf[i] >= doubt) d.confident.push_back(i);
  }
  return d;
}

// The cost of reading the frame as the finished move `s`: the doubtful readings it
// overrules; infeasible when it would overrule a confident one.
double settled_cost(const Frame& f, const Diff& x, const Successor& s, double doubt) {
  for (int i : x.confident)
    if (!s.changes(i)) return kInfeasible;
  double cost = 0;
  for (int i : x.all)
    if (!s.changes(i)) cost += f.conf[i];
  const std::vector<Token>& after = s.next->seen().sites;
  for (int i : s.changed) {
    if (f.board.sites[i] == after[i]) continue;
    if (f.conf[i] >= doubt) return kInfeasible;
    cost += f.conf[i];
  }
  return cost;
}

// The cost of reading the frame as the move `s` half made (see inference.h), or
// infeasible. The finished move and the untouched board are not half made.
double under_way_cost(const Frame& f, const Diff& x, const Observation& before, const Successor& s, double doubt) {
  const std::vector<Token>& seen = f.board.sites;
  const std::vector<Token>& after = s.next->seen().sites;
  const int from = s.move.from;
  double cost = 0;
  bool progress = false, complete = true;
  auto overrule = [&](int i) {
    if (f.conf[i] >= doubt) return false;
    cost += f.conf[i];
    return true;
  };
  auto rests_here = [&](int i) { return !s.mover.empty() && seen[i] == s.mover && s.is_waypoint(i); };
  for (int i : x.all) {
    if (s.changes(i) || s.is_waypoint(i) || i == from) continue;
    if (!overrule(i)) return kInfeasible;
  }
  for (int i : s.changed) {
    const Token& o = seen[i];
    if (o == after[i]) {
      progress = true;
      continue;
    }
    complete = false;
    if (o == before.sites[i]) continue;
    if (rests_here(i) || (i == from && o.empty())) {
      progress = true;
      continue;
    }
    if (!overrule(i)) return kInfeasible;
  }
  for (int w : s.waypoints) {
    if (s.changes(w) || seen[w] == before.sites[w]) continue;
    if (rests_here(w)) {
      progress = true;
      complete = false;
      continue;
    }
    if (!overrule(w)) return kInfeasible;
  }
  if (from >= 0 && !s.changes(from) && !s.is_waypoint(from) && !(seen[from] == before.sites[from])) {
    if (seen[from].empty()) {
      progress = true;
      complete = false;
    } else if (!overrule(from)) {
      return kInfeasible;
    }
  }
  if (!progress || complete) return kInfeasible;
  return cost;
}

// The cost of reading the frame as exactly `board`.
double board_cost(const Frame& f, const Observation& board, double doubt) {
  double cost = 0;
  const int n = static_cast<int>(board.sites.size());
  for (int i = 0; i < n; ++i) {
    if (f.board.sites[i] == board.sites[i]) continue;
    if (f.conf[i] >= doubt) return kInfeasible;
    cost += f.conf[i];
  }
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
          {"two_moves", o.two_moves}};
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
    else if (key == "two_moves") {
      if (!value.is_boolean()) throw InputError("inference option \"two_moves\": expected true or false");
      o.two_moves = value.get<bool>();
    } else {
      throw InputError("unknown inference option \"" + key + "\"");
    }
  }
  return o;
}

Verdict read_frame(Position& position, const Frame& frame, const std::vector<const Observation*>& earlier,
                   const InferenceOptions& options) {
  const double doubt = options.doubt_below;
  const Rules& rules = position.rules();
  if (frame.board.sites.size() != position.seen().sites.size() || frame.conf.size() != frame.board.sites.size())
    throw InputError("frame at t=" + std::to_string(frame.t) + " does not have one site per site of the game");

  Verdict best;
  const Diff x = diff_against(frame, position.seen(), doubt);
  if (x.confident.empty()) {
    best.cost = 0;
    for (int i : x.all) best.cost += frame.conf[i];
  } else {
    best.cost = kInfeasible;
  }
  if (x.all.empty()) return best;

  // One finished move, or one half made.
  double under_way = kInfeasible;
  const size_t n = position.move_count();
  for (size_t i = 0; i < n; ++i) {
    Successor& s = position.successor(i);
    double c = settled_cost(frame, x, s, doubt);
    if (c < best.cost) {
      best = Verdict{};
      best.kind = Reading::Moves;
      best.cost = c;
      best.moves = {static_cast<int>(i)};
    }
    under_way = std::min(under_way, under_way_cost(frame, x, position.seen(), s, doubt));
  }
  if (best.kind == Reading::Moves && under_way <= best.cost) best.ambiguous = true;
  if (under_way + options.under_way_prior < best.cost) {
    best = Verdict{};
    best.kind = Reading::UnderWay;
    best.cost = under_way + options.under_way_prior;
    best.squares = x.confident;
  }

  // Two moves: the side to move, then the other side (possibly still moving).
  if (options.two_moves && best.cost > options.two_move_prior) {
    for (int pass = 0; pass < 2; ++pass) {
      bool found = false;
      for (size_t i = 0; i < n; ++i) {
        Successor& s1 = position.successor(i);
        // First pass: the first move must show on the board; the second looks
        // for a first move whose every trace the second move undid.
        if ((pass == 0) != intersects(s1.changed, x.all)) continue;
        const Diff x1 = diff_after(frame, x, s1, doubt);
        if (x1.confident.empty()) continue;  // the first move alone reads the frame
        Position& p1 = *s1.next;
        const std::vector<Move>& replies = p1.moves();
        double settled_here = kInfeasible, under_way_here = kInfeasible;
        int settled_reply = -1;
        for (size_t j = 0; j < replies.size(); ++j) {
          if (!may_touch(replies[j], x1.confident)) continue;
          Successor& s2 = p1.successor(j);
          double c = settled_cost(frame, x1, s2, doubt);
          if (c < settled_here) {
            settled_here = c;
            settled_reply = static_cast<int>(j);
          }
          under_way_here = std::min(under_way_here, under_way_cost(frame, x1, p1.seen(), s2, doubt));
        }
        if (settled_here + options.two_move_prior < best.cost) {
          best = Verdict{};
          best.kind = Reading::Moves;
          best.cost = settled_here + options.two_move_prior;
          best.moves = {static_cast<int>(i), settled_reply};
          best.ambiguous = under_way_here <= settled_here;
          found = true;
        }
        double then_under_way = under_way_here + options.two_move_prior + options.under_way_prior;
        if (then_under_way < best.cost) {
          best = Verdict{};
          best.kind = Reading::Moves;
          best.cost = then_under_way;
          best.moves = {static_cast<int>(i)};
          best.then_under_way = true;
          best.squares = x1.confident;
          found = true;
        }
      }
      if (found || best.cost < kInfeasible) break;
    }
  }

  // A return to an earlier position, the most recent first.
  if (!earlier.empty() && best.cost > options.takeback_prior) {
    for (int k = static_cast<int>(earlier.size()) - 1; k >= 0; --k) {
      double c = board_cost(frame, *earlier[k], doubt) + options.takeback_prior;
      if (c < best.cost) {
        best = Verdict{};
        best.kind = Reading::Takeback;
        best.cost = c;
        best.takeback_to = k;
        best.ambiguous = under_way <= c - options.takeback_prior;
      }
    }
  }
  if (best.cost < kInfeasible) return best;

  // Nothing legal reads the frame: an illegal move, or something unclear.
  Observation denoised = frame.board;
  for (int i : x.all)
    if (frame.conf[i] < doubt) denoised.sites[i] = position.seen().sites[i];
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

}  // namespace sb::arbiter
