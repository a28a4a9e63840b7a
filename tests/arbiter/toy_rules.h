// A small test-only game on a line of 12 cells, so the referee's generic parts
// are tested on rules small enough to reason about by hand. It has what the
// referee must cope with in the real games:
//   - men step one cell forward (White up the line, Black down); a man ending on
//     the far cell becomes a king, which the camera cannot tell from a man;
//   - captures jump an adjacent enemy piece to the empty cell beyond, either way,
//     and go on jumping while they can (jumped pieces stay until the move ends:
//     a multi-capture has waypoints); capturing is mandatory;
//   - a king has two more captures of the enemy piece two cells away across an
//     empty cell: "land" on it (c3>c5) or "strike" it and fly back (c3@c5, a
//     capture in place whose path is target then start), so the board after a
//     landing is also the board half way through a strike.
// FEN: 12 cells from c1, 'W' 'B' men, 'w' 'b' kings, '.' empty, then " w" or " b".
#pragma once

#include <array>
#include <string>
#include <vector>

#include "engines/common/errors.h"
#include "engines/common/rules.h"

namespace sb::testing {

class ToyRules : public Rules {
 public:
  static constexpr int kCells = 12;

  std::string id() const override { return "toy"; }
  Json options() const override { return Json::object(); }
  int site_count() const override { return kCells; }
  std::string site_name(int site) const override { return "c" + std::to_string(site + 1); }
  int site_index(std::string_view name) const override {
    if (name.size() < 2 || name[0] != 'c') return -1;
    int n = 0;
    for (char c : name.substr(1)) {
      if (c < '0' || c > '9') return -1;
      n = n * 10 + (c - '0');
    }
    return n >= 1 && n <= kCells ? n - 1 : -1;
  }
  std::string side_name(Side s) const override { return s == Side::First ? "white" : "black"; }
  char side_letter(Side s) const override { return s == Side::First ? 'W' : 'B'; }

  State start() const override { return from_fen("WWW......BBB w"); }
  State from_fen(std::string_view fen) const override {
    if (fen.size() != kCells + 2 || fen[kCells] != ' ' || (fen[kCells + 1] != 'w' && fen[kCells + 1] != 'b'))
      throw InputError("toy FEN '" + std::string(fen) + "': expected 12 cells, a space and w or b");
    auto p = std::make_shared<Pos>();
    for (int i = 0; i < kCells; ++i) {
      char c = fen[i];
      if (c != '.' && c != 'W' && c != 'B' && c != 'w' && c != 'b')
        throw InputError("toy FEN: bad cell '" + std::string(1, c) + "'");
      p->cell[i] = c;
    }
    p->to_move = fen[kCells + 1] == 'w' ? Side::First : Side::Second;
    return State(p);
  }
  std::string fen(const State& s) const override {
    const Pos& p = s.as<Pos>();
    return std::string(p.cell.begin(), p.cell.end()) + (p.to_move == Side::First ? " w" : " b");
  }
  Side side_to_move(const State& s) const override { return s.as<Pos>().to_move; }
  std::string ascii(const State& s) const override { return fen(s) + "\n"; }

  std::vector<Move> legal_moves(const State& s) const override {
    const Pos& p = s.as<Pos>();
    std::vector<Move> captures, steps;
    for (int i = 0; i < kCells; ++i) {
      if (!own(p, i)) continue;
      std::vector<int> path, taken;
      jumps(p, i, i, path, taken, captures);
      if (king(p.cell[i])) {
        for (int d : {-2, 2}) {
          int target = i + d, middle = i + d / 2;
          if (target < 0 || target >= kCells || !enemy(p, target) || p.cell[middle] != '.') continue;
          captures.push_back(make(p, i, target, {target}, {target}, ">"));     // land on it
          captures.push_back(make(p, i, i, {target, i}, {target}, "@"));       // strike and fly back
        }
      }
      for (int d : king(p.cell[i]) ? std::vector<int>{-1, 1} : std::vector<int>{forward(p)}) {
        int to = i + d;
        if (to >= 0 && to < kCells && p.cell[to] == '.') steps.push_back(make(p, i, to, {to}, {}, "-"));
      }
    }
    return captures.empty() ? steps : captures;
  }

  State apply(const State& s, const Move& m) const override {
    const Pos& p = s.as<Pos>();
    auto next = std::make_shared<Pos>(p);
    char piece = p.cell[m.from];
    next->cell[m.from] = '.';
    for (int c : m.captured) next->cell[c] = '.';
    if (p.to_move == Side::First && m.to == kCells - 1) piece = 'w';
    if (p.to_move == Side::Second && m.to == 0) piece = 'b';
    next->cell[m.to] = piece;
    next->to_move = opponent(p.to_move);
    return State(next);
  }

  Outcome outcome(const State& s) const override {
    if (legal_moves(s).empty()) {
      Side loser = side_to_move(s);
      return Outcome::win(opponent(loser), "no legal move");
    }
    return Outcome::ongoing();
  }
  Score score(const State& s) const override {
    const Pos& p = s.as<Pos>();
    int white = 0, black = 0;
    for (char c : p.cell) {
      white += c == 'W' || c == 'w';
      black += c == 'B' || c == 'b';
    }
    return {3 - black, 3 - white};
  }

  Observation observe(const State& s) const override {
    const Pos& p = s.as<Pos>();
    Observation o;
    o.sites.resize(kCells);
    for (int i = 0; i < kCells; ++i)
      if (p.cell[i] != '.') o.sites[i].side = (p.cell[i] == 'W' || p.cell[i] == 'w') ? 'W' : 'B';
    return o;
  }
  bool valid_token(const Token& t) const override { return (t.side == 'W' || t.side == 'B') && t.kind == 0; }

  std::optional<IllegalChange> explain_change(const State& s, const Observation& after) const override {
    auto change = Rules::explain_change(s, after);
    if (!change) return change;
    for (const Move& m : legal_moves(s))
      if (m.is_capture()) {
        change->reason = "a capture is mandatory (" + m.notation + ")";
        break;
      }
    return change;
  }

  std::vector<BenchCase> bench_cases() const override { return {}; }

 private:
  struct Pos : PositionData {
    std::array<char, kCells> cell{};
    Side to_move = Side::First;
  };

  static bool king(char c) { return c == 'w' || c == 'b'; }
  static bool white(char c) { return c == 'W' || c == 'w'; }
  static bool black(char c) { return c == 'B' || c == 'b'; }
  static bool own(const Pos& p, int i) { return p.to_move == Side::First ? white(p.cell[i]) : black(p.cell[i]); }
  static bool enemy(const Pos& p, int i) { return p.to_move == Side::First ? black(p.cell[i]) : white(p.cell[i]); }
  static int forward(const Pos& p) { return p.to_move == Side::First ? 1 : -1; }

  Move make(const Pos&, int from, int to, std::vector<int> path, std::vector<int> captured, const char* sep) const {
    Move m;
    m.from = from;
    m.to = to;
    m.path = std::move(path);
    m.captured = std::move(captured);
    const std::string kind = sep;
    std::string text = site_name(from);
    if (kind == "x") {
      for (int p : m.path) text.append(kind).append(site_name(p));
    } else {
      text.append(kind).append(site_name(kind == "@" ? m.captured[0] : to));
    }
    m.notation = text;
    m.code = {from, to};
    return m;
  }

  // Every maximal chain of jumps from `at` (the piece started at `from`).
  void jumps(const Pos& p, int from, int at, std::vector<int>& path, std::vector<int>& taken,
             std::vector<Move>& out) const {
    bool more = false;
    for (int d : {-1, 1}) {
      int over = at + d, land = at + 2 * d;
      if (land < 0 || land >= kCells || !enemy(p, over)) continue;
      if (p.cell[land] != '.' && land != from) continue;
      bool twice = false;
      for (int t : taken) twice = twice || t == over;
      if (twice) continue;
      more = true;
      path.push_back(land);
      taken.push_back(over);
      jumps(p, from, land, path, taken, out);
      path.pop_back();
      taken.pop_back();
    }
    if (!more && !path.empty()) out.push_back(make(p, from, path.back(), path, taken, "x"));
  }
};

}  // namespace sb::testing
