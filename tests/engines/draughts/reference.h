// A slow, obviously correct draughts move generator for cross-checking the
// engine: a plain grid of characters, one recursive walk per capture, no bit
// tricks and no shortcuts. It shares no code with engines/draughts.
#pragma once

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace sb::draughts::reference {

struct Game {
  int size = 8;
  bool men_capture_backward = true;
  bool flying_kings = true;
  bool majority = true;
};

inline Game brazilian() {
  return {8, true, true, true};
}
inline Game international() {
  return {10, true, true, true};
}
inline Game english() {
  return {8, false, false, false};
}

// grid[rank][file], rank 0 = White's back rank; ' ' empty, 'w' 'b' men, 'W' 'B' kings.
struct Position {
  int size = 8;
  std::vector<std::string> grid;
  bool white_to_move = true;
};

struct Square {
  int file = 0, rank = 0;
  bool operator==(const Square&) const = default;
  auto operator<=>(const Square&) const = default;
};

// PDN numbering, from scratch: rows counted from the top, dark squares left to right.
inline int number_of(const Square& s, int size) {
  return (size - 1 - s.rank) * (size / 2) + s.file / 2 + 1;
}
inline Square square_of(int number, int size) {
  const int row = (number - 1) / (size / 2), col = (number - 1) % (size / 2);
  const int rank = size - 1 - row;
  const int file = 2 * col + (rank % 2 == 0 ? 0 : 1);  // a1 is dark: dark squares have file + rank even
  return {file, rank};
}

struct Move {
  Square from;
  std::vector<Square> path;      // landing squares, in order
  std::vector<Square> captured;  // in the order taken
  std::set<int> captured_set() const {
    std::set<int> s;
    for (const Square& c : captured) s.insert(c.file * 100 + c.rank);
    return s;
  }
};

class Generator {
 public:
  Generator(Game g, const Position& p) : g_(g), p_(p) {}

  std::vector<Move> legal() {
    std::vector<Move> caps;
    for (int r = 0; r < g_.size; ++r)
      for (int f = 0; f < g_.size; ++f)
        if (own(at({f, r}))) {
          Move m;
          m.from = {f, r};
          search({f, r}, m, caps);
        }
    if (!caps.empty()) {
      if (g_.majority) {
        size_t most = 0;
        for (const Move& m : caps) most = std::max(most, m.captured.size());
        std::vector<Move> keep;
        for (const Move& m : caps)
          if (m.captured.size() == most) keep.push_back(m);
        return keep;
      }
      return caps;
    }
    std::vector<Move> quiet;
    for (int r = 0; r < g_.size; ++r)
      for (int f = 0; f < g_.size; ++f) {
        const char c = at({f, r});
        if (!own(c)) continue;
        const bool king = c == 'W' || c == 'B';
        for (auto [df, dr] : dirs()) {
          if (!king && dr != forward()) continue;
          for (int k = 1; k < g_.size; ++k) {
            Square t{f + k * df, r + k * dr};
            if (!on_board(t) || at(t) != ' ') break;
            Move m;
            m.from = {f, r};
            m.path = {t};
            quiet.push_back(m);
            if (!king || !g_.flying_kings) break;
          }
        }
      }
    return quiet;
  }

  Position apply(const Move& m) const {
    Position n = p_;
    const char piece = at(m.from);
    set(n, m.from, ' ');
    for (const Square& c : m.captured) set(n, c, ' ');
    const Square to = m.path.back();
    const int far = p_.white_to_move ? g_.size - 1 : 0;
    char placed = piece;
    if (to.rank == far && piece == 'w') placed = 'W';
    if (to.rank == far && piece == 'b') placed = 'B';
    set(n, to, placed);
    n.white_to_move = !p_.white_to_move;
    return n;
  }

 private:
  static std::vector<std::pair<int, int>> dirs() { return {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}}; }
  int forward() const { return p_.white_to_move ? 1 : -1; }
  bool on_board(const Square& s) const { return s.file >= 0 && s.file < g_.size && s.rank >= 0 && s.rank < g_.size; }
  char at(const Square& s) const { return p_.grid[s.rank][s.file]; }
  static void set(Position& p, const Square& s, char c) { p.grid[s.rank][s.file] = c; }
  bool own(char c) const { return p_.white_to_move ? (c == 'w' || c == 'W') : (c == 'b' || c == 'B'); }
  bool enemy(char c) const { return p_.white_to_move ? (c == 'b' || c == 'B') : (c == 'w' || c == 'W'); }

  // Empty during a capture: nothing there, or the capturing piece's own start square.
  bool free(const Square& s, const Move& m) const { return at(s) == ' ' || s == m.from; }
  bool taken(const Square& s, const Move& m) const {
    return std::find(m.captured.begin(), m.captured.end(), s) != m.captured.end();
  }

  void search(const Square& here, Move& m, std::vector<Move>& out) {
    const char piece = at(m.from);
    const bool king = piece == 'W' || piece == 'B';
    bool continued = false;
    for (auto [df, dr] : dirs()) {
      if (!king && !g_.men_capture_backward && dr != forward()) continue;
      if (king && g_.flying_kings) {
        Square s{here.file + df, here.rank + dr};
        while (on_board(s) && free(s, m)) s = {s.file + df, s.rank + dr};
        if (!on_board(s) || !enemy(at(s)) || taken(s, m)) continue;
        for (Square land{s.file + df, s.rank + dr}; on_board(land) && free(land, m);
             land = {land.file + df, land.rank + dr}) {
          continued = true;
          m.captured.push_back(s);
          m.path.push_back(land);
          search(land, m, out);
          m.captured.pop_back();
          m.path.pop_back();
        }
      } else {
        Square over{here.file + df, here.rank + dr}, land{here.file + 2 * df, here.rank + 2 * dr};
        if (!on_board(land) || !enemy(at(over)) || taken(over, m) || !free(land, m)) continue;
        continued = true;
        m.captured.push_back(over);
        m.path.push_back(land);
        search(land, m, out);
        m.captured.pop_back();
        m.path.pop_back();
      }
    }
    if (!continued && !m.path.empty()) out.push_back(m);
  }

  Game g_;
  const Position& p_;
};

// "W:W21-32:B1-12"-style position from plain lists (no ranges), for tests that
// build positions without going through the engine's FEN reader.
inline Position make_position(int size, bool white_to_move, const std::vector<int>& white_men,
                              const std::vector<int>& white_kings, const std::vector<int>& black_men,
                              const std::vector<int>& black_kings) {
  Position p;
  p.size = size;
  p.white_to_move = white_to_move;
  p.grid.assign(size, std::string(size, ' '));
  auto put = [&](const std::vector<int>& list, char c) {
    for (int n : list) {
      Square s = square_of(n, size);
      p.grid[s.rank][s.file] = c;
    }
  };
  put(white_men, 'w');
  put(white_kings, 'W');
  put(black_men, 'b');
  put(black_kings, 'B');
  return p;
}

inline std::string fen_of(const Position& p) {
  std::string out = p.white_to_move ? "W" : "B";
  for (char side : {'w', 'b'}) {
    out += side == 'w' ? ":W" : ":B";
    bool first = true;
    for (int n = 1; n <= p.size * p.size / 2; ++n) {
      Square s = square_of(n, p.size);
      const char c = p.grid[s.rank][s.file];
      if (c == ' ' || std::tolower(c) != side) continue;
      if (!first) out += ",";
      first = false;
      if (c != side) out += "K";
      out += std::to_string(n);
    }
  }
  return out;
}

// A move's identity for comparing with the engine: from, to and the set of squares taken.
inline std::tuple<int, int, std::set<int>> effect(const Move& m, int size) {
  std::set<int> caps;
  for (const Square& c : m.captured) caps.insert(number_of(c, size));
  return {number_of(m.from, size), number_of(m.path.back(), size), caps};
}

inline std::string path_text(const Move& m, int size) {
  std::string out = std::to_string(number_of(m.from, size));
  for (const Square& s : m.path) {
    out += m.captured.empty() ? '-' : 'x';
    out += std::to_string(number_of(s, size));
  }
  return out;
}

// Perft counting one move per (from, to, captured set), as the engine's default,
// or with `keep` every capture path.
inline uint64_t perft(const Game& g, const Position& p, int depth, bool keep = false) {
  if (depth == 0) return 1;
  std::vector<Move> moves = Generator(g, p).legal();
  std::vector<Move> distinct;
  std::set<std::tuple<int, int, std::set<int>>> seen;
  for (const Move& m : moves)
    if (keep || seen.insert(effect(m, g.size)).second) distinct.push_back(m);
  if (depth == 1) return distinct.size();
  uint64_t n = 0;
  for (const Move& m : distinct) n += perft(g, Generator(g, p).apply(m), depth - 1, keep);
  return n;
}

}  // namespace sb::draughts::reference
