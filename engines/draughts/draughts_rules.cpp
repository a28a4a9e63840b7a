#include "engines/draughts/draughts_rules.h"

#include <algorithm>

#include "engines/common/errors.h"
#include "engines/draughts/notation.h"

namespace sb::draughts {

namespace {

uint64_t bit(int b) {
  return uint64_t{1} << b;
}

struct Material {
  int men[2] = {0, 0};
  int kings[2] = {0, 0};
  int pieces(int side) const { return men[side] + kings[side]; }
};

Material material_of(const Board& b) {
  Material m;
  for (int side = 0; side < 2; ++side) {
    m.kings[side] = bit_count(b.pieces[side] & b.kings);
    m.men[side] = bit_count(b.pieces[side] & ~b.kings);
  }
  return m;
}

// The draw a rule set declares for the position, or an empty string.
std::string draw_by_count(DrawRules rules, const Material& m, int quiet_plies, int material_plies) {
  const int total = m.pieces(0) + m.pieces(1);
  // `lone`: the side whose only piece is a king; `strong`: the other side.
  int lone = -1;
  for (int side = 0; side < 2; ++side)
    if (m.pieces(side) == 1 && m.kings[side] == 1) lone = side;
  const int strong = lone < 0 ? -1 : 1 - lone;
  switch (rules) {
    case DrawRules::Seed:
      if (quiet_plies >= 50) return "25 moves each without a capture or a man move";
      break;
    case DrawRules::Fmjd64:
      // FMJD-64 7.2.3-7.2.8 as RULES.md lists them; each count runs from the
      // moment the pieces on the board took their present form.
      if (quiet_plies >= 30) return "15 moves each with only kings moving and no capture";
      if (lone >= 0 && m.kings[strong] >= 3 && material_plies >= 30)
        return "three or more kings against a lone king for 15 moves";
      if (lone >= 0 && m.pieces(strong) == 2 && m.kings[strong] >= 1 && material_plies >= 10)
        return "two pieces with a king against a lone king for 5 moves";
      if (m.kings[0] > 0 && m.kings[1] > 0) {
        if ((total == 4 || total == 5) && material_plies >= 60)
          return "30 moves with kings on both sides and 4 or 5 pieces without a change";
        if ((total == 6 || total == 7) && material_plies >= 120)
          return "60 moves with kings on both sides and 6 or 7 pieces without a change";
      }
      break;
    case DrawRules::Fmjd:
      if (quiet_plies >= 50) return "25 moves each with only kings moving and no capture";
      if (lone >= 0 && m.kings[strong] >= 1) {
        if (m.pieces(strong) == 3 && material_plies >= 32) return "16 moves of three pieces against a lone king";
        if (m.pieces(strong) <= 2 && material_plies >= 10) return "5 moves of at most two pieces against a lone king";
      }
      break;
  }
  return {};
}

}  // namespace

DraughtsRules::DraughtsRules(const Variant& variant, DraughtsOptions options)
    : options_(options), generator_(variant) {}

std::string DraughtsRules::site_name(int site) const {
  if (site < 0 || site >= site_count()) return "?";
  return square_name(site);
}

int DraughtsRules::site_index(std::string_view name) const {
  return geometry().parse(name);
}

// ---------------------------------------------------------------------------
// Positions

State DraughtsRules::from_board(const Board& board, const FenCounters& counters) const {
  auto p = std::make_shared<DraughtsPosition>();
  p->board = board;
  p->quiet_plies = counters.quiet_plies;
  p->first_move_number = counters.move_number;
  return State(std::move(p));
}

State DraughtsRules::start() const {
  const Geometry& g = geometry();
  Board b;
  const int n = variant().men_per_side;
  for (int s = 0; s < n; ++s) b.pieces[1] |= bit(g.bit_of(s));
  for (int s = g.squares() - n; s < g.squares(); ++s) b.pieces[0] |= bit(g.bit_of(s));
  b.side = variant().first_to_move;
  return from_board(b);
}

State DraughtsRules::from_fen(std::string_view fen) const {
  FenCounters counters;
  Board b = parse_fen(fen, geometry(), &counters);
  return from_board(b, counters);
}

std::string DraughtsRules::fen(const State& s) const {
  return write_fen(board(s), geometry());
}

std::string DraughtsRules::ascii(const State& s) const {
  const Board& b = board(s);
  const Geometry& g = geometry();
  const int half = g.size() / 2;
  std::string out;
  for (int row = 0; row < g.size(); ++row) {
    std::string line = row % 2 == 0 ? "  " : "";
    for (int col = 0; col < half; ++col) {
      const uint64_t sq = bit(g.bit_of(row * half + col));
      char c = '.';
      if (b.pieces[0] & sq) c = (b.kings & sq) ? 'W' : 'w';
      if (b.pieces[1] & sq) c = (b.kings & sq) ? 'B' : 'b';
      line += c;
      if (col + 1 < half) line += "   ";
    }
    out += line + "\n";
  }
  out += b.side == Side::First ? "white to move\n" : "black to move\n";
  return out;
}

Observation DraughtsRules::observe(const State& s) const {
  const Board& b = board(s);
  Observation o;
  o.sites.resize(site_count());
  for (int sq = 0; sq < site_count(); ++sq) {
    const uint64_t m = bit(geometry().bit_of(sq));
    if (b.pieces[0] & m) o.sites[sq].side = 'W';
    if (b.pieces[1] & m) o.sites[sq].side = 'B';
  }
  return o;
}

// ---------------------------------------------------------------------------
// Moves

std::vector<DraughtsMove> DraughtsRules::moves_of(const Board& b) const {
  const Geometry& g = geometry();
  std::vector<DraughtsMove> out;
  for (PathMove& pm : generator_.legal_paths(b)) {
    std::vector<int> path;
    for (uint8_t p : pm.path) path.push_back(g.square_of(p));
    auto same = std::find_if(out.begin(), out.end(), [&](const DraughtsMove& m) { return m.raw.same_effect(pm.move); });
    if (same != out.end()) {
      same->paths.push_back(std::move(path));
      continue;
    }
    DraughtsMove m;
    m.raw = pm.move;
    m.paths.push_back(std::move(path));
    m.king = (b.kings & bit(pm.move.from)) != 0;
    m.promotes = !m.king && (bit(pm.move.to) & g.promotion_row(b.side)) != 0;
    out.push_back(std::move(m));
  }
  // The path written for a move is the first in square order, whatever order the generator found them in.
  for (DraughtsMove& m : out) std::sort(m.paths.begin(), m.paths.end());
  return out;
}

std::string DraughtsRules::write_path(int from, const std::vector<int>& path, bool capture, bool full) const {
  return write_move_text(from, path, capture, full, geometry(), options_.algebraic);
}

std::vector<std::string> DraughtsRules::notations(const std::vector<DraughtsMove>& moves) const {
  std::vector<std::string> out;
  for (const DraughtsMove& m : moves) {
    bool shared = false;
    for (const DraughtsMove& o : moves)
      if (&o != &m && o.raw.from == m.raw.from && o.raw.to == m.raw.to) shared = true;
    out.push_back(write_path(geometry().square_of(m.raw.from), m.paths[0], m.raw.count > 0, shared));
  }
  return out;
}

std::vector<int> DraughtsRules::captured_in_order(int from, const std::vector<int>& path, uint64_t captured) const {
  const Geometry& g = geometry();
  std::vector<int> out;
  int at = from;
  for (int next : path) {
    const int df = g.file_of(next) > g.file_of(at) ? 1 : -1;
    const int dr = g.rank_of(next) > g.rank_of(at) ? 1 : -1;
    for (int f = g.file_of(at) + df, r = g.rank_of(at) + dr; f != g.file_of(next); f += df, r += dr) {
      const int sq = g.square_at(f, r);
      if (sq >= 0 && (captured & bit(g.bit_of(sq)))) {
        out.push_back(sq);
        break;
      }
    }
    at = next;
  }
  return out;
}

Move DraughtsRules::to_move(const Board& b, const DraughtsMove& m, std::string notation) const {
  (void)b;
  const Geometry& g = geometry();
  Move mv;
  mv.notation = std::move(notation);
  mv.from = g.square_of(m.raw.from);
  mv.to = g.square_of(m.raw.to);
  mv.path = m.paths[0];
  if (m.raw.count > 0) mv.captured = captured_in_order(mv.from, mv.path, m.raw.captured);
  Json details = Json::object();
  details["king"] = m.king;
  details["promotes"] = m.promotes;
  mv.details = details;
  mv.code = {m.raw.from, m.raw.to, static_cast<int32_t>(m.raw.captured & 0xffffffffu),
             static_cast<int32_t>(m.raw.captured >> 32), m.raw.count};
  return mv;
}

RawMove DraughtsRules::raw_move(const Move& m) const {
  if (m.code.size() != 5) throw std::logic_error("draughts: a Move not made by this engine");
  RawMove r;
  r.from = static_cast<uint8_t>(m.code[0]);
  r.to = static_cast<uint8_t>(m.code[1]);
  r.captured = static_cast<uint32_t>(m.code[2]) | (static_cast<uint64_t>(static_cast<uint32_t>(m.code[3])) << 32);
  r.count = static_cast<uint8_t>(m.code[4]);
  return r;
}

std::vector<Move> DraughtsRules::legal_moves(const State& s) const {
  if (outcome(s).over()) return {};
  const Board& b = board(s);
  std::vector<DraughtsMove> moves = moves_of(b);
  std::vector<std::string> names = notations(moves);
  std::vector<Move> out;
  out.reserve(moves.size());
  for (size_t i = 0; i < moves.size(); ++i) out.push_back(to_move(b, moves[i], std::move(names[i])));
  return out;
}

State DraughtsRules::apply(const State& s, const Move& m) const {
  const DraughtsPosition& prev = position(s);
  const RawMove raw = raw_move(m);
  const Board& b = prev.board;
  const bool king = (b.kings & bit(raw.from)) != 0;
  auto next = std::make_shared<DraughtsPosition>();
  next->board = generator_.apply(b, raw);
  const bool promotes = !king && (next->board.kings & bit(raw.to)) != 0;
  const bool irreversible = raw.count > 0 || !king;
  if (!irreversible) {
    next->earlier = prev.earlier;
    next->earlier.push_back(b);
  }
  next->quiet_plies = irreversible ? 0 : prev.quiet_plies + 1;
  next->material_plies = (raw.count > 0 || promotes) ? 0 : prev.material_plies + 1;
  next->ply = prev.ply + 1;
  next->first_move_number = prev.first_move_number;
  next->taken = prev.taken;
  next->taken[index_of(b.side)] += raw.count;
  return State(std::move(next));
}

Move DraughtsRules::parse_move(const State& s, std::string_view text) const {
  const WrittenMove w = read_move_text(text, geometry());
  if (outcome(s).over()) throw IllegalMoveError(std::string(text), why_illegal(s, text));
  const Board& b = board(s);
  std::vector<DraughtsMove> moves = moves_of(b);
  std::vector<std::string> names = notations(moves);
  const Geometry& g = geometry();
  std::vector<size_t> found;
  for (size_t i = 0; i < moves.size(); ++i) {
    const DraughtsMove& m = moves[i];
    if (g.square_of(m.raw.from) != w.squares.front()) continue;
    bool match = false;
    if (w.squares.size() == 2) {
      match = g.square_of(m.raw.to) == w.squares.back();
    } else {
      const std::vector<int> landings(w.squares.begin() + 1, w.squares.end());
      for (const auto& p : m.paths) match = match || p == landings;
    }
    if (match) found.push_back(i);
  }
  if (found.size() == 1) return to_move(b, moves[found[0]], names[found[0]]);
  if (found.size() > 1) {
    std::vector<std::string> options;
    for (size_t i : found) options.push_back(names[i]);
    std::sort(options.begin(), options.end());
    std::string list;
    for (const std::string& o : options) list += (list.empty() ? "" : ", ") + o;
    throw InputError("move '" + std::string(text) + "' is ambiguous: write the full path, one of " + list);
  }
  throw IllegalMoveError(std::string(text), why_illegal(s, text));
}

// ---------------------------------------------------------------------------
// The end of the game

Outcome DraughtsRules::outcome(const State& s) const {
  const DraughtsPosition& p = position(s);
  const Board& b = p.board;
  if (!generator_.has_legal_move(b)) {
    const Side winner = opponent(b.side);
    return Outcome::win(winner, b.pieces[index_of(b.side)] ? side_name(b.side) + " cannot move"
                                                           : side_name(b.side) + " has no pieces left");
  }
  int seen = 1;
  for (const Board& e : p.earlier) seen += e == b;
  if (seen >= 3) return Outcome::draw("threefold repetition");
  std::string why = draw_by_count(options_.draw_rules, material_of(b), p.quiet_plies, p.material_plies);
  if (!why.empty()) return Outcome::draw(why);
  return Outcome::ongoing();
}

// ---------------------------------------------------------------------------
// Counting

uint64_t DraughtsRules::perft(const State& s, int depth, const PerftOptions& opt) const {
  return generator_.perft(board(s), depth, opt.keep_duplicates);
}

std::vector<BenchCase> DraughtsRules::bench_cases() const {
  // Fixed positions reached by play from the start: men only, then kings on both sides.
  switch (variant().kind) {
    case VariantKind::Brazilian:
      return {{"start", "", 9},
              {"middle game", "W:W17,21,23,24,27-29,31,32:B1-5,8,15,16", 9},
              {"kings", "W:WK27,K31,21,22,24,28:BK2,K7,9,10,12,13", 8}};
    case VariantKind::International:
      return {{"start", "", 7},
              {"middle game", "W:W26-28,33-37,41-44,46-50:B1-10,13,15-17,20,25", 6},
              {"kings", "W:WK44,K48,31,33,36,38,39:BK3,K7,12,14,16,18,19", 6}};
    case VariantKind::English:
      return {{"start", "", 10},
              {"middle game", "B:W11,15,19,21,23,25,28,29,32:B1,2,4,6-9,12,14", 11},
              {"kings", "B:WK1,5,K10,17:B8,12,20,21,K23", 8}};
  }
  return {};
}

}  // namespace sb::draughts

namespace sb {

std::unique_ptr<Rules> make_draughts_rules(std::string_view id, const Json& options) {
  const draughts::Variant* v = draughts::find_variant(id);
  if (!v) throw InputError("'" + std::string(id) + "' is not a draughts game");
  return std::make_unique<draughts::DraughtsRules>(*v, draughts::options_from_json(options, *v));
}

}  // namespace sb
