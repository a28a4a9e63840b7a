#include "engines/morris/morris_rules.h"

#include <algorithm>
#include <stdexcept>

#include "engines/common/errors.h"

namespace sb::morris {

namespace {

// The engine's State. Positions since the last removal or placement stay linked
// (`previous`), since only they can repeat; the link is cut at every such move.
struct MorrisState final : PositionData, std::enable_shared_from_this<MorrisState> {
  Position pos;
  int occurrences = 1;
  End end;
  std::shared_ptr<const MorrisState> previous;
};

const MorrisState& state_of(const State& s) {
  if (!s.valid()) throw std::invalid_argument("morris: empty State");
  return s.as<MorrisState>();
}

std::string plural(int n, const std::string& word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

}  // namespace

MorrisRules::MorrisRules(Variant v, const MorrisOptions& o) : g_(geometry(v)), o_(o), gen_(g_, o_) {}

const Position& MorrisRules::position(const State& s) { return state_of(s).pos; }
int MorrisRules::occurrences(const State& s) { return state_of(s).occurrences; }

std::string MorrisRules::site_name(int site) const {
  if (site < 0 || site >= g_.point_count)
    throw std::out_of_range(g_.id + ": no site " + std::to_string(site));
  return g_.names[site];
}

State MorrisRules::make_state(const Position& p, const State* before) const {
  auto st = std::make_shared<MorrisState>();
  st->pos = p;
  if (before && p.quiet_plies > 0) {
    st->previous = state_of(*before).shared_from_this();
    const uint64_t key = p.key();
    int back = 1;
    for (const MorrisState* n = st->previous.get(); n; n = n->previous.get(), ++back)
      if (back % 2 == 0 && n->pos.key() == key) ++st->occurrences;
  }
  st->end = gen_.judge(p, st->occurrences);
  return State(std::shared_ptr<const PositionData>(std::move(st)));
}

State MorrisRules::start() const { return make_state(start_position(g_), nullptr); }

State MorrisRules::from_fen(std::string_view fen) const { return make_state(parse_fen(g_, fen), nullptr); }

std::string MorrisRules::notation(const MorrisMove& m) const {
  std::string s = m.from >= 0 ? g_.names[m.from] + "-" + g_.names[m.to] : g_.names[m.to];
  std::vector<std::string> removed;
  for (Points r = m.removed; r; r &= r - 1) removed.push_back(g_.names[first(r)]);
  std::sort(removed.begin(), removed.end());
  for (const std::string& r : removed) s += "x" + r;
  return s;
}

Move MorrisRules::to_move(const Position& p, const MorrisMove& m) const {
  Move mv;
  mv.notation = notation(m);
  mv.from = m.from;
  mv.to = m.to;
  mv.path = {m.to};
  for (Points r = m.removed; r; r &= r - 1) mv.captured.push_back(first(r));
  std::sort(mv.captured.begin(), mv.captured.end(),
            [&](int a, int b) { return g_.names[a] < g_.names[b]; });
  mv.points = count(m.removed);
  Json details = Json::object();
  details["kind"] = m.from < 0 ? "place" : gen_.flies(p) ? "fly" : "slide";
  details["mills"] = static_cast<int>(m.mills);
  mv.details = details;
  mv.code = {m.from, m.to, static_cast<int32_t>(m.mills), static_cast<int32_t>(m.removed)};
  return mv;
}

std::vector<Move> MorrisRules::legal_moves(const State& s) const {
  const MorrisState& st = state_of(s);
  std::vector<Move> out;
  if (st.end.over()) return out;
  std::vector<MorrisMove> moves;
  gen_.generate(st.pos, moves);
  out.reserve(moves.size());
  for (const MorrisMove& m : moves) out.push_back(to_move(st.pos, m));
  return out;
}

State MorrisRules::apply(const State& s, const Move& m) const {
  const MorrisState& st = state_of(s);
  if (m.code.size() != 4) throw std::invalid_argument("morris: apply() takes only moves from legal_moves()");
  const MorrisMove mm{static_cast<int8_t>(m.code[0]), static_cast<int8_t>(m.code[1]), static_cast<uint8_t>(m.code[2]),
                      static_cast<Points>(m.code[3])};
  std::vector<MorrisMove> moves;
  if (!st.end.over()) gen_.generate(st.pos, moves);
  if (std::find(moves.begin(), moves.end(), mm) == moves.end())
    throw std::invalid_argument("morris: " + m.notation + " is not a legal move of this position");
  return make_state(gen_.after(st.pos, mm), &s);
}

WrittenMove MorrisRules::read_notation(std::string_view text) const {
  std::string quoted(1, '\'');
  quoted.append(text).push_back('\'');
  if (text.empty()) throw InputError("empty move");
  size_t i = 0;
  auto read_point = [&](const char* role) {
    const size_t start = i;
    // Letters then digits make the name, so "zz9" is reported whole. A removal's
    // 'x' never follows digits inside a name.
    while (i < text.size() && text[i] >= 'a' && text[i] <= 'z') ++i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    const std::string_view name = text.substr(start, i - start);
    if (name.empty())
      throw InputError("expected " + std::string(role) + " at character " + std::to_string(start + 1) + " of " +
                       quoted + " (moves are written d7, a1-a4, d7xa4, a1-a4xg7)");
    const int point = g_.point(name);
    if (point < 0) throw InputError("'" + std::string(name) + "' is not a point of " + g_.id);
    return point;
  };
  WrittenMove w;
  w.to = read_point("a point");
  if (i < text.size() && text[i] == '-') {
    ++i;
    w.from = w.to;
    w.to = read_point("the point moved to");
  }
  while (i < text.size() && text[i] == 'x') {
    ++i;
    w.removed.push_back(read_point("the point of the piece removed"));
  }
  if (i < text.size())
    throw InputError("unexpected '" + std::string(1, text[i]) + "' at character " + std::to_string(i + 1) + " of " +
                     quoted + " (moves are written d7, a1-a4, d7xa4, a1-a4xg7)");
  return w;
}

std::optional<MorrisMove> MorrisRules::find_legal(const State& s, const WrittenMove& w) const {
  const MorrisState& st = state_of(s);
  if (st.end.over()) return std::nullopt;
  Points removed = 0;
  for (int r : w.removed) {
    if (removed & bit(r)) return std::nullopt;
    removed |= bit(r);
  }
  std::vector<MorrisMove> moves;
  gen_.generate(st.pos, moves);
  for (const MorrisMove& m : moves)
    if (m.from == w.from && m.to == w.to && m.removed == removed) return m;
  return std::nullopt;
}

Move MorrisRules::parse_move(const State& s, std::string_view text) const {
  const WrittenMove w = read_notation(text);
  if (auto m = find_legal(s, w)) return to_move(position(s), *m);
  throw IllegalMoveError(std::string(text), objection(s, w).value_or("not a legal move in this position"));
}

std::string MorrisRules::why_illegal(const State& s, std::string_view text) const {
  WrittenMove w;
  try {
    w = read_notation(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return objection(s, w).value_or("not a legal move in this position");
}

std::optional<std::string> MorrisRules::objection(const State& s, const WrittenMove& w) const {
  if (find_legal(s, w)) return std::nullopt;
  const MorrisState& st = state_of(s);
  if (st.end.over()) return "the game is over (" + outcome(s).reason + ")";
  const Position& p = st.pos;
  const int me = index_of(p.to_move);
  const std::string my_name = side_name(p.to_move);
  const std::string their_name = side_name(opponent(p.to_move));
  const Points own = p.pieces[me];
  const Points theirs = p.pieces[1 - me];
  const std::string to_name = g_.names[w.to];

  Points own_after = 0;
  if (w.from < 0) {
    if (p.in_hand[me] == 0)
      return my_name + " has no pieces left to place: move a piece " +
             (gen_.flies(p) ? "(with 3 pieces it may fly to any empty point)" : "along a line");
    if (p.occupied() & bit(w.to)) return to_name + " is already taken";
    own_after = own | bit(w.to);
  } else {
    const std::string from_name = g_.names[w.from];
    const std::string written = from_name + "-" + to_name;
    if (p.in_hand[me] > 0)
      return my_name + " still has " + plural(p.in_hand[me], "piece") +
             " to place: no piece moves before all are placed";
    if (!(p.occupied() & bit(w.from))) return "there is no piece on " + from_name;
    if (theirs & bit(w.from)) return from_name + " holds a " + their_name + " piece: " + my_name + " moves only its own";
    if (w.from == w.to) return written + " does not move the piece";
    if (p.occupied() & bit(w.to)) return to_name + " is already taken";
    if (!(gen_.destinations(p, w.from) & bit(w.to))) {
      const std::string base = written + " is not along a line to a neighbouring point";
      if (g_.variant == Variant::Three && !o_.flying) return base;
      if (!o_.flying) return base + " (flying is off in these rules)";
      return base + ", and " + my_name + " may not fly yet: only a player with exactly 3 pieces flies (" + my_name +
             " has " + std::to_string(count(own)) + ")";
    }
    own_after = (own & ~bit(w.from)) | bit(w.to);
  }

  const int mills = gen_.mills_closed(own_after, w.to);
  if (g_.variant == Variant::Three) {
    if (!w.removed.empty())
      return mills ? "in three men's morris the first mill wins the game: nothing is removed"
                   : "no mill was formed, so nothing may be removed";
    return std::nullopt;  // unreachable: the move would be legal
  }
  if (mills == 0 && !w.removed.empty()) return "no mill was formed, so nothing may be removed";
  Points named = 0;
  for (int r : w.removed) {
    const std::string r_name = g_.names[r];
    if (named & bit(r)) return r_name + " is named twice";
    named |= bit(r);
    if (own & bit(r)) return r_name + " is " + my_name + "'s own piece: only a " + their_name + " piece may be removed";
    if (!(theirs & bit(r))) return "there is no piece on " + r_name + " to remove";
  }
  const int expected = gen_.removals_for(mills, theirs);
  const std::string example = w.from >= 0 ? g_.names[w.from] + "-" + to_name : to_name;
  if (static_cast<int>(w.removed.size()) < expected) {
    if (w.removed.empty())
      return "the move closes a mill: it must also remove a " + their_name + " piece (written " + example + "x...)";
    return "the move closes two mills: it removes two " + their_name + " pieces";
  }
  if (static_cast<int>(w.removed.size()) > expected) {
    if (expected == 0) return their_name + " has no piece on the board to remove";
    if (mills >= 2 && expected == 1) return "two mills at once remove only one piece in these rules";
    if (mills >= 2) return "two mills remove two pieces, no more";
    return "a mill removes one piece, no more";
  }
  // The right number of pieces, all opposing: the mill protection decides. With
  // two removals, either order may make the pair legal.
  auto protected_piece = [&](const std::vector<int>& order) -> int {
    Points left = theirs;
    for (int r : order) {
      if (!(gen_.removable(left) & bit(r))) return r;
      left &= ~bit(r);
    }
    return -1;
  };
  int blocked = protected_piece(w.removed);
  if (blocked >= 0 && w.removed.size() == 2 && protected_piece({w.removed[1], w.removed[0]}) < 0) blocked = -1;
  if (blocked >= 0)
    return g_.names[blocked] + " is in a mill, and not every " + their_name + " piece is: it may not be removed";
  return std::nullopt;
}

Outcome MorrisRules::outcome(const State& s) const {
  const MorrisState& st = state_of(s);
  const End& e = st.end;
  const std::string loser = side_name(opponent(e.winner));
  switch (e.kind) {
    case EndKind::None: return Outcome::ongoing();
    case EndKind::MillWins: return Outcome::win(e.winner, side_name(e.winner) + " closed the first mill");
    case EndKind::TooFewPieces:
      return Outcome::win(e.winner, loser + " has only " + std::to_string(st.pos.material(opponent(e.winner))) +
                                        " pieces left");
    case EndKind::BoardFull: return Outcome::draw("the board is full");
    case EndKind::NoMove: return Outcome::win(e.winner, loser + " has no legal move");
    case EndKind::Repetition: return Outcome::draw("threefold repetition");
    case EndKind::MoveLimit:
      return Outcome::draw(std::to_string(o_.move_limit_plies) + " plies without a removal");
  }
  return Outcome::ongoing();
}

Score MorrisRules::score(const State& s) const {
  const Position& p = position(s);
  return {g_.pieces - p.material(Side::Second), g_.pieces - p.material(Side::First)};
}

Observation MorrisRules::observe(const State& s) const {
  const Position& p = position(s);
  Observation o;
  o.sites.resize(g_.point_count);
  for (int i = 0; i < g_.point_count; ++i) {
    if (p.pieces[0] & bit(i)) o.sites[i].side = 'W';
    else if (p.pieces[1] & bit(i)) o.sites[i].side = 'B';
  }
  return o;
}

bool MorrisRules::valid_token(const Token& t) const { return (t.side == 'W' || t.side == 'B') && t.kind == 0; }

std::optional<IllegalChange> MorrisRules::explain_change(const State& s, const Observation& after) const {
  if (static_cast<int>(after.sites.size()) != g_.point_count) return std::nullopt;
  const Position& p = position(s);
  const char mine = side_letter(p.to_move);
  const Observation before = observe(s);
  std::vector<int> mine_lifted, theirs_lifted, mine_put, theirs_put;
  for (int i = 0; i < g_.point_count; ++i) {
    const Token& b = before.sites[i];
    const Token& a = after.sites[i];
    if (a == b) continue;
    if (!a.empty() && !valid_token(a)) return std::nullopt;
    if (!b.empty() && !a.empty()) return std::nullopt;  // a piece changed colour: a misread
    if (a.empty()) (b.side == mine ? mine_lifted : theirs_lifted).push_back(i);
    else (a.side == mine ? mine_put : theirs_put).push_back(i);
  }
  if (!theirs_put.empty()) {
    // The other side placed or moved a piece: playing out of turn.
    if (theirs_put.size() == 1 && mine_put.empty() && mine_lifted.empty() && theirs_lifted.size() <= 1) {
      IllegalChange c{"it is " + side_name(p.to_move) + "'s turn", theirs_put};
      c.squares.insert(c.squares.begin(), theirs_lifted.begin(), theirs_lifted.end());
      return c;
    }
    return std::nullopt;
  }
  if (mine_put.size() != 1 || mine_lifted.size() > 1) return std::nullopt;
  WrittenMove w;
  w.from = mine_lifted.empty() ? -1 : mine_lifted[0];
  w.to = mine_put[0];
  w.removed = theirs_lifted;
  if (find_legal(s, w)) return std::nullopt;
  // A mill closed with its removal still to come is on the way to a legal move,
  // not a broken rule: the arbiter waits for the removal.
  if (!state_of(s).end.over()) {
    std::vector<MorrisMove> moves;
    gen_.generate(p, moves);
    Points named = 0;
    for (int r : w.removed) named |= bit(r);
    for (const MorrisMove& m : moves)
      if (m.from == w.from && m.to == w.to && (m.removed & named) == named && m.removed != named) return std::nullopt;
  }
  IllegalChange c;
  c.reason = objection(s, w).value_or("not a legal move in this position");
  if (w.from >= 0) c.squares.push_back(w.from);
  c.squares.push_back(w.to);
  c.squares.insert(c.squares.end(), w.removed.begin(), w.removed.end());
  return c;
}

uint64_t MorrisRules::perft(const State& s, int depth, const PerftOptions&) const {
  // Removals are part of a move, so no two moves ever take the same pieces in
  // another order: keep and drop count alike.
  std::vector<uint64_t> history;
  for (const MorrisState* n = state_of(s).previous.get(); n; n = n->previous.get()) history.push_back(n->pos.key());
  std::reverse(history.begin(), history.end());
  return gen_.perft(position(s), depth, history);
}

std::vector<BenchCase> MorrisRules::bench_cases() const {
  // Middle games are positions of the peer games (tests/data/peers/morris).
  switch (g_.variant) {
    case Variant::Three: return {{"start", "", 9}};
    case Variant::Six: return {{"start", "", 6}};
    case Variant::Nine:
      return {{"start", "", 6},
              {"peer game 2 ply 100", "BB....WBBWBW.BW.B.W.WB.B b 0 0", 7},
              {"flying, peer game 6 ply 170", ".....W.BBB..B....W.W.... b 0 0", 6}};
    case Variant::Twelve:
      return {{"start", "", 5}, {"peer game 2 ply 100", "BB..W.W.B...W.BWW..B.BWW b 0 0", 6}};
  }
  return {};
}

}  // namespace sb::morris

namespace sb {

std::unique_ptr<Rules> make_morris_rules(std::string_view id, const Json& options) {
  morris::Variant v;
  if (!morris::variant_of(id, &v)) throw InputError("unknown Morris game '" + std::string(id) + "'");
  return std::make_unique<morris::MorrisRules>(v, morris::MorrisOptions::from_json(options, v));
}

}  // namespace sb
