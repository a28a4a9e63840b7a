#include "engines/cotoan/rules.h"

#include "engines/cotoan/match.h"

#include <algorithm>
#include <stdexcept>

#include "engines/common/errors.h"
#include "engines/cotoan/move_text.h"

namespace sb::cotoan {

namespace {

const char* side_word(Side s) {
  return s == Side::First ? "Red" : "Blue";
}

Json calculation_json(const Calculation& c) {
  Json j = Json::object();
  j["op"] = op_code(c.op);
  j["rear"] = c.rear;
  j["front"] = c.front;
  j["value"] = c.value;
  j["distance"] = c.distance;
  j["text"] = c.text();
  if (c.op == Op::Div) {
    j["remainder"] = c.remainder;
    j["uses"] = c.part == Calculation::Part::Remainder ? "remainder" : "quotient";
  }
  return j;
}

std::string squares_word(int n) {
  return std::to_string(n) + (n == 1 ? " square" : " squares");
}

}  // namespace

CotoanRules::CotoanRules(const Options& options) : gen_(options) {}

std::string CotoanRules::site_name(int site) const {
  if (site < 0 || site >= kSquares) throw std::out_of_range("cotoan: no site " + std::to_string(site));
  return square_name(site);
}

int CotoanRules::site_index(std::string_view name) const {
  return parse_square(name);
}

// --- positions

State CotoanRules::make_state(Board board, Side to_move, std::vector<uint64_t> history) const {
  auto p = std::make_shared<Position>();
  p->board = board;
  p->to_move = to_move;
  p->score = points_from_board(board);
  p->key = board_key(board, to_move);
  p->history = std::move(history);
  p->outcome = evaluate(*p);
  return State(std::move(p));
}

Outcome CotoanRules::evaluate(const Position& p) const {
  for (Side s : {Side::First, Side::Second})
    if (p.board.square_of[index_of(s)][0] == kNoSquare) return Outcome::win(opponent(s), "captured the 0");
  const int target = rule_options().target_score;
  if (target > 0)
    for (Side s : {Side::First, Side::Second})
      if (p.score[index_of(s)] >= target) return Outcome::win(s, "reached the target score " + std::to_string(target));
  auto on_points = [&p](const std::string& why) {
    if (p.score[0] == p.score[1]) return Outcome::draw(why + ", equal points");
    return Outcome::win(p.score[0] > p.score[1] ? Side::First : Side::Second, why + ", won on points");
  };
  int seen = 0;
  for (uint64_t k : p.history) seen += k == p.key;
  if (seen >= 2) return on_points("threefold repetition");
  if (!has_move(p)) return on_points("no legal move");
  return Outcome::ongoing();
}

bool CotoanRules::has_move(const Position& p) const {
  // A piece with an empty neighbour can always move; only when every piece is hemmed
  // in can a capture be the sole way out.
  const int us = index_of(p.to_move);
  for (int number = 1; number <= 9; ++number) {
    const int sq = p.board.square_of[us][number];
    if (sq == kNoSquare) continue;
    for (int d = 0; d < kDirections; ++d) {
      const Ray& r = ray(sq, d);
      if (r.length > 0 && p.board.cell[r.squares[0]] == kEmpty) return true;
    }
  }
  FastMove caps[kMaxMoves];
  return gen_.generate_captures(p.board, p.to_move, caps) > 0;
}

State CotoanRules::start() const {
  return make_state(start_board(), rule_options().first, {});
}

State CotoanRules::start_with_first(Side first) const { return make_state(start_board(), first, {}); }

MatchStanding CotoanRules::match_standing(int games, const std::vector<MatchGame>& played) const {
  MatchOptions options;
  options.games = games;
  options.first = rule_options().first;
  Match match(options);
  for (const MatchGame& g : played) {
    if (match.over()) break;
    GameResult r;
    r.winner = g.winner;
    r.score = g.score;
    r.zero_captured = g.decides_match;
    match = match.after(r);
  }
  MatchStanding standing;
  standing.outcome = match.result();
  standing.next_first = match.over() ? options.first : match.next_first();
  return standing;
}

State CotoanRules::from_fen(std::string_view fen) const {
  FenBoard fb = parse_fen(fen);
  const int target = rule_options().target_score;
  const Score sc = points_from_board(fb.board);
  if (target > 0 && sc[0] >= target && sc[1] >= target)
    throw InputError("FEN '" + std::string(fen) + "': both sides have reached the target score " +
                     std::to_string(target) + " (red " + std::to_string(sc[0]) + ", blue " + std::to_string(sc[1]) +
                     "), but the game ends when the first does");
  return make_state(fb.board, fb.to_move, {});
}

std::string CotoanRules::fen(const State& s) const {
  const Position& p = s.as<Position>();
  return write_fen(p.board, p.to_move);
}

std::string CotoanRules::ascii(const State& s) const {
  const Position& p = s.as<Position>();
  std::string out;
  for (int rank = kRanks - 1; rank >= 0; --rank) {
    std::string row = std::to_string(rank + 1);
    if (row.size() < 2) row = " " + row;
    for (int file = 0; file < kFiles; ++file) {
      const Piece pc = p.board.cell[square_at(file, rank)];
      row += pc == kEmpty ? "  ." : std::string(" ") + side_letter(side_of(pc)) + char('0' + number_of(pc));
    }
    out += row + "\n";
  }
  out += "  ";
  for (int file = 0; file < kFiles; ++file) out += std::string("  ") + char('a' + file);
  out += "\n";
  out += side_name(p.to_move);
  out += " to move; score red " + std::to_string(p.score[0]) + " blue " + std::to_string(p.score[1]) + "\n";
  return out;
}

// --- moves

Move CotoanRules::dress(const Position& p, const FastMove& fm) const {
  Move m;
  m.from = fm.from;
  m.to = fm.to;
  m.path = {fm.to};
  m.code = {fm.from, fm.to};
  const int number = number_of(p.board.cell[fm.from]);
  Json details = Json::object();
  details["piece"] = number;
  if (!fm.capture()) {
    m.notation = std::to_string(number) + ":" + square_name(fm.from) + "-" + square_name(fm.to);
    m.details = std::move(details);
    return m;
  }
  const int taken = number_of(p.board.cell[fm.to]);
  m.notation = std::to_string(number) + ":" + square_name(fm.from) + "x" + square_name(fm.to);
  m.captured = {fm.to};
  m.points = taken;
  const int front = number_of(p.board.cell[fm.front]);
  const int distance = line_between(fm.front, fm.to).steps;
  Json list = Json::array();
  const Calculation* named = nullptr;
  std::vector<Calculation> all = calculations(number, front, rule_options().division);
  for (const Calculation& c : all)
    if (c.distance == distance) {
      if (!named) named = &c;
      list.push_back(calculation_json(c));
    }
  Json pair = Json::array();
  pair.push_back(square_name(fm.from));
  pair.push_back(square_name(fm.front));
  details["pair"] = pair;
  details["op"] = named ? op_code(named->op) : "?";
  details["calculation"] = named ? named->text() : "";
  details["calculations"] = list;
  details["captured_piece"] = taken;
  m.details = std::move(details);
  return m;
}

std::vector<Move> CotoanRules::legal_moves(const State& s) const {
  const Position& p = s.as<Position>();
  std::vector<Move> out;
  if (p.outcome.over()) return out;
  FastMove moves[kMaxMoves];
  const int n = gen_.generate(p.board, p.to_move, moves);
  out.reserve(n);
  for (int i = 0; i < n; ++i) out.push_back(dress(p, moves[i]));
  return out;
}

FastMove CotoanRules::find(const Position& p, int from, int to, bool* found) const {
  *found = false;
  if (p.outcome.over()) return {};
  FastMove moves[kMaxMoves];
  const int n = gen_.generate(p.board, p.to_move, moves);
  for (int i = 0; i < n; ++i)
    if (moves[i].from == from && moves[i].to == to) {
      *found = true;
      return moves[i];
    }
  return {};
}

State CotoanRules::apply(const State& s, const Move& m) const {
  const Position& p = s.as<Position>();
  // Legality is the caller's promise (the move comes from legal_moves); only what
  // would corrupt the position is checked.
  const bool well_formed = m.code.size() == 2 && m.code[0] >= 0 && m.code[0] < kSquares && m.code[1] >= 0 &&
                           m.code[1] < kSquares && !p.outcome.over();
  const Piece moving = well_formed ? p.board.cell[m.code[0]] : kEmpty;
  const Piece landing = well_formed ? p.board.cell[m.code[1]] : kEmpty;
  if (moving == kEmpty || side_of(moving) != p.to_move || number_of(moving) == 0 ||
      (landing != kEmpty && side_of(landing) == p.to_move))
    throw std::logic_error("cotoan: apply() was given a move that is not of this position: " + m.notation);
  Board b = p.board;
  const Piece mover = b.cell[m.code[0]];
  const bool capture = b.cell[m.code[1]] != kEmpty;
  b.remove(m.code[0]);
  if (capture) b.remove(m.code[1]);
  b.put(m.code[1], mover);
  std::vector<uint64_t> history;
  if (!capture) {
    history.reserve(p.history.size() + 1);
    history = p.history;
    history.push_back(p.key);
  }
  return make_state(b, opponent(p.to_move), std::move(history));
}

Move CotoanRules::parse_move(const State& s, std::string_view text) const {
  const MoveText t = parse_move_text(text);
  const Position& p = s.as<Position>();
  const std::string word(text);
  bool found = false;
  const FastMove fm = find(p, t.from, t.to, &found);
  if (!found) throw IllegalMoveError(word, why_illegal(s, text));
  const int number = number_of(p.board.cell[t.from]);
  if (t.piece >= 0 && t.piece != number)
    throw IllegalMoveError(word, "the piece on " + square_name(t.from) + " is a " + std::to_string(number) +
                                     ", not a " + std::to_string(t.piece));
  if (t.calculation) {
    const CalculationText& c = *t.calculation;
    if (!fm.capture()) throw IllegalMoveError(word, "a plain move needs no calculation: nothing is captured");
    const int front = number_of(p.board.cell[fm.front]);
    if (c.rear != number || c.front != front)
      throw IllegalMoveError(word, "the pair " + square_name(fm.from) + "," + square_name(fm.front) + " is " +
                                       std::to_string(number) + " and " + std::to_string(front) + ", not " +
                                       std::to_string(c.rear) + " and " + std::to_string(c.front));
    const int distance = line_between(fm.front, fm.to).steps;
    std::string miss;
    bool ok = false;
    for (const Calculation& calc : calculations(number, front, rule_options().division)) {
      if (calc.op != c.op) continue;
      if (calc.distance == distance)
        ok = true;
      else if (miss.empty())
        miss = calc.text() + (calc.reaches()
                                  ? " reaches " + squares_word(calc.distance) + " beyond " + square_name(fm.front) +
                                        ", and " + square_name(fm.to) + " is " + squares_word(distance) + " beyond it"
                                  : " is " + calc.why_none);
    }
    if (!ok) throw IllegalMoveError(word, miss);
  }
  return dress(p, fm);
}

std::string CotoanRules::why_illegal(const State& s, std::string_view text) const {
  MoveText t;
  try {
    t = parse_move_text(text);
  } catch (const InputError& e) {
    return e.what();
  }
  const Position& p = s.as<Position>();
  const Piece pc = p.board.cell[t.from];
  if (!p.outcome.over() && t.piece >= 0 && pc != kEmpty && side_of(pc) == p.to_move && number_of(pc) != t.piece)
    return "the piece on " + square_name(t.from) + " is a " + std::to_string(number_of(pc)) + ", not a " +
           std::to_string(t.piece);
  MoveCheck c = check_move(s, t.from, t.to);
  if (c.legal) return "not a legal move in this position";
  if (t.capture_sign && !p.outcome.over() && pc != kEmpty && side_of(pc) == p.to_move && number_of(pc) != 0 &&
      p.board.cell[t.to] == kEmpty)
    return "there is nothing to capture on " + square_name(t.to);
  return c.reason;
}

MoveCheck CotoanRules::check_move(const State& s, int from, int to) const {
  const Position& p = s.as<Position>();
  MoveCheck c;
  auto no = [&c](std::string why, std::vector<int> squares) {
    c.reason = std::move(why);
    c.squares = std::move(squares);
    return c;
  };
  if (p.outcome.over()) return no("the game is over (" + p.outcome.result() + ", " + p.outcome.reason + ")", {});
  const Piece pc = p.board.cell[from];
  const std::string f = square_name(from), t = square_name(to);
  if (pc == kEmpty) return no("there is no piece on " + f, {from});
  if (side_of(pc) != p.to_move)
    return no(
        "the piece on " + f + " is " + side_word(side_of(pc)) + "'s, and it is " + side_word(p.to_move) + "'s turn",
        {from});
  if (from == to) return no("a move must leave its square", {from});
  const int number = number_of(pc);
  const std::string a = "a " + std::to_string(number);
  if (number == 0) return no("the 0 never moves", {from});
  const Piece dest = p.board.cell[to];
  if (dest != kEmpty && side_of(dest) == p.to_move)
    return no("a piece never moves onto a piece: " + t + " holds your " + std::to_string(number_of(dest)), {from, to});
  const Line line = line_between(from, to);
  const Ray& r = ray(from, line.direction < 0 ? 0 : line.direction);

  if (dest == kEmpty) {
    if (line.direction < 0) return no(a + " moves in a straight line: along a file, a rank or a diagonal", {from, to});
    if (line.steps > number)
      return no(a + " moves at most " + squares_word(number) + " (" + f + " to " + t + " is " +
                    squares_word(line.steps) + ")",
                {from, to});
    for (int j = 0; j + 1 < line.steps; ++j)
      if (p.board.cell[r.squares[j]] != kEmpty)
        return no("the path " + f + "\u2013" + t + " is blocked at " + square_name(r.squares[j]),
                  {from, to, r.squares[j]});
    if (rule_options().compulsory_capture) {
      FastMove caps[kMaxMoves];
      if (gen_.generate_captures(p.board, p.to_move, caps) > 0)
        return no("a capture is compulsory (" + dress(p, caps[0]).notation + ")", {from, to, caps[0].to});
    }
    c.legal = true;
    return c;
  }

  const std::string reach = "no calculation of a pair reaches " + t;
  if (line.direction < 0) return no(reach + ": " + f + " and " + t + " are not on one line", {from, to});
  const int front = r.squares[0];
  if (front == to)
    return no("a piece captures only by calculation, with a partner of its own between it and the target", {from, to});
  const Piece fp = p.board.cell[front];
  const std::string fs = square_name(front);
  if (fp == kEmpty)
    return no(reach + ": " + fs + ", in front of the " + std::to_string(number) + ", holds no partner",
              {from, front, to});
  if (side_of(fp) != p.to_move)
    return no(reach + ": " + fs + " holds an enemy piece, not a partner", {from, front, to});
  const int partner = number_of(fp);
  if (partner == 0 && !rule_options().zero_partner) return no("the 0 takes part in no calculation", {from, front, to});
  const int distance = line.steps - 1;
  std::vector<Calculation> calcs = calculations(number, partner, rule_options().division);
  bool reaches = false;
  std::string tried;
  for (const Calculation& calc : calcs) {
    reaches = reaches || calc.distance == distance;
    tried += (tried.empty() ? "" : ", ") + calc.text();
    if (!calc.reaches()) tried += calc.why_none.rfind("worthless", 0) == 0 ? " (worthless)" : " (not allowed)";
  }
  if (!reaches)
    return no("no calculation of " + std::to_string(number) + " and " + std::to_string(partner) + " (" + f + "," + fs +
                  ") reaches " + t + ", " + squares_word(distance) + " beyond " + fs + ": " + tried,
              {from, front, to});
  const bool any_blocks = rule_options().block_by == BlockBy::Any;
  for (int j = 1; j < line.steps - 1; ++j) {
    const Piece q = p.board.cell[r.squares[j]];
    if (q != kEmpty && (any_blocks || side_of(q) != p.to_move))
      return no("the target " + t + " is behind a blocking piece on " + square_name(r.squares[j]),
                {from, front, to, r.squares[j]});
  }
  c.legal = true;
  return c;
}

// --- the camera's view

Observation CotoanRules::observe(const State& s) const {
  const Position& p = s.as<Position>();
  Observation o;
  o.sites.resize(kSquares);
  for (int sq = 0; sq < kSquares; ++sq) {
    const Piece pc = p.board.cell[sq];
    if (pc != kEmpty) o.sites[sq] = Token{side_letter(side_of(pc)), static_cast<char>('0' + number_of(pc))};
  }
  return o;
}

bool CotoanRules::valid_token(const Token& t) const {
  return (t.side == 'R' || t.side == 'B') && t.kind >= '0' && t.kind <= '9';
}

std::optional<IllegalChange> CotoanRules::explain_change(const State& s, const Observation& after) const {
  const Observation before = observe(s);
  if (after.sites.size() != before.sites.size()) return std::nullopt;
  const char mover = side_letter(side_to_move(s));
  std::vector<int> lifted, landed;
  for (int sq = 0; sq < kSquares; ++sq) {
    const Token& b = before.sites[sq];
    const Token& a = after.sites[sq];
    if (a == b) continue;
    if (b.side == mover && a.empty()) {
      lifted.push_back(sq);
    } else if (a.side == mover && (b.empty() || b.side != mover)) {
      landed.push_back(sq);
    } else {
      return std::nullopt;  // not the work of one own piece carried somewhere
    }
  }
  if (lifted.size() != 1 || landed.size() != 1) return std::nullopt;
  if (after.sites[landed[0]].kind != before.sites[lifted[0]].kind) return std::nullopt;  // a misread number
  MoveCheck c = check_move(s, lifted[0], landed[0]);
  if (c.legal) return std::nullopt;
  // The squares to put right: the reason's own, and always both ends of the carry.
  for (int sq : {lifted[0], landed[0]})
    if (std::find(c.squares.begin(), c.squares.end(), sq) == c.squares.end()) c.squares.push_back(sq);
  return IllegalChange{c.reason, c.squares};
}

std::string CotoanRules::record_notation(const State&, const Move& m) const {
  const Json* calc = m.details.is_object() ? m.details.find("calculation") : nullptr;
  if (!m.is_capture() || !calc || !calc->is_string()) return m.notation;
  return m.notation + " (" + calc->as_string() + ")";
}

// --- counting

uint64_t CotoanRules::perft(const State& s, int depth, const PerftOptions& opt) const {
  return gen_.perft(s.as<Position>(), depth, opt.keep_duplicates);
}

std::vector<BenchCase> CotoanRules::bench_cases() const {
  // The start; the two armies in contact across the middle (captures on both sides
  // from the first ply); an open middle game with long moves for every piece.
  return {
      {"start", "", 4},
      {"contact", "R:R0e2,1c4,2d4,3e4,4f4,5g4,6c5,7d5,8f5,9g5:B0e10,1c8,2d8,3e8,4f8,5g8,6c7,7d7,8f7,9g7", 4},
      {"open", "R:R0e2,1a3,2c3,3e4,4g3,5i3,6b5,7d6,8f6,9h5:B0e10,1i9,2g9,3e8,4c9,5a9,6h7,7f8,8d8,9b7", 4},
  };
}

// --- Cờ toán specifics

bool CotoanRules::zero_captured(const State& s) const {
  const Board& b = s.as<Position>().board;
  return b.square_of[0][0] == kNoSquare || b.square_of[1][0] == kNoSquare;
}

std::vector<Calculation> CotoanRules::calculations_of(const State& s, const Move& m) const {
  const Position& p = s.as<Position>();
  std::vector<Calculation> out;
  if (m.code.size() != 2 || p.board.cell[m.code[1]] == kEmpty) return out;
  const Line line = line_between(m.code[0], m.code[1]);
  if (line.direction < 0 || line.steps < 2) return out;
  const int front = ray(m.code[0], line.direction).squares[0];
  const Piece fp = p.board.cell[front];
  if (fp == kEmpty) return out;
  for (const Calculation& c : calculations(number_of(p.board.cell[m.code[0]]), number_of(fp), rule_options().division))
    if (c.distance == line.steps - 1) out.push_back(c);
  return out;
}

}  // namespace sb::cotoan
