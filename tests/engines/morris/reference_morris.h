// A slow, plain reference for the Morris rules, written separately from the
// engine to check it: boards built from their nested squares, positions as
// arrays of characters, moves as strings in RULES.md notation. It knows the
// placing, moving, flying, mill, removal and first-mill rules and the ends by
// material, full board and blockade; the repetition and move-limit draws are
// tested on their own.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace sb::morris_reference {

struct Board {
  std::vector<std::string> names;            // any order: the reference has its own
  std::vector<std::vector<int>> mills;       // lines of three
  std::vector<std::set<int>> adjacent;       // one step along a line
  int pieces = 0;
  bool first_mill_wins = false;
  int index(const std::string& name) const {
    for (size_t i = 0; i < names.size(); ++i)
      if (names[i] == name) return static_cast<int>(i);
    return -1;
  }
};

inline std::string point_name(int x, int y) {
  std::string name(1, static_cast<char>('a' + x));
  name += std::to_string(y + 1);
  return name;
}

// Nested squares around the centre of a lattice: `squares` of them, the outer
// one on the lattice's edge, each one step inside the previous. Lines: the four
// sides of each square, the lines joining the middles of the sides (a mill when
// they have three points), and, with `diagonals`, the lines joining the corners.
inline Board nested_squares(int lattice, int squares, bool diagonals, int pieces) {
  Board b;
  b.pieces = pieces;
  const int c = lattice / 2;
  auto id = [&](int x, int y) {
    const std::string n = point_name(x, y);
    int i = b.index(n);
    if (i < 0) {
      b.names.push_back(n);
      b.adjacent.emplace_back();
      i = static_cast<int>(b.names.size()) - 1;
    }
    return i;
  };
  std::vector<std::vector<int>> lines;
  for (int k = 0; k < squares; ++k) {
    const int h = c - k;
    lines.push_back({id(c - h, c + h), id(c, c + h), id(c + h, c + h)});  // top
    lines.push_back({id(c - h, c - h), id(c, c - h), id(c + h, c - h)});  // bottom
    lines.push_back({id(c - h, c - h), id(c - h, c), id(c - h, c + h)});  // left
    lines.push_back({id(c + h, c - h), id(c + h, c), id(c + h, c + h)});  // right
  }
  const int dirs[4][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}};
  for (const auto& d : dirs) {
    std::vector<int> cross;
    for (int k = 0; k < squares; ++k) cross.push_back(id(c + d[0] * (c - k), c + d[1] * (c - k)));
    lines.push_back(cross);
  }
  if (diagonals) {
    const int corners[4][2] = {{-1, -1}, {-1, 1}, {1, -1}, {1, 1}};
    for (const auto& d : corners) {
      std::vector<int> diag;
      for (int k = 0; k < squares; ++k) diag.push_back(id(c + d[0] * (c - k), c + d[1] * (c - k)));
      lines.push_back(diag);
    }
  }
  for (const auto& line : lines) {
    for (size_t i = 0; i + 1 < line.size(); ++i) {
      b.adjacent[line[i]].insert(line[i + 1]);
      b.adjacent[line[i + 1]].insert(line[i]);
    }
    if (line.size() == 3) b.mills.push_back(line);
  }
  return b;
}

// The 3×3 grid: rows, columns and both diagonals.
inline Board grid3() {
  Board b;
  b.pieces = 3;
  b.first_mill_wins = true;
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 3; ++x) {
      b.names.push_back(point_name(x, y));
      b.adjacent.emplace_back();
    }
  auto at = [](int x, int y) { return y * 3 + x; };
  std::vector<std::vector<int>> lines;
  for (int i = 0; i < 3; ++i) {
    lines.push_back({at(0, i), at(1, i), at(2, i)});
    lines.push_back({at(i, 0), at(i, 1), at(i, 2)});
  }
  lines.push_back({at(0, 0), at(1, 1), at(2, 2)});
  lines.push_back({at(0, 2), at(1, 1), at(2, 0)});
  for (const auto& line : lines) {
    for (int i = 0; i < 2; ++i) {
      b.adjacent[line[i]].insert(line[i + 1]);
      b.adjacent[line[i + 1]].insert(line[i]);
    }
    b.mills.push_back(line);
  }
  return b;
}

inline Board board_of(const std::string& game) {
  if (game == "morris9") return nested_squares(7, 3, false, 9);
  if (game == "morris12") return nested_squares(7, 3, true, 12);
  if (game == "morris6") return nested_squares(5, 2, false, 6);
  return grid3();
}

struct Options {
  bool flying = true;
  bool remove_always = false;
  int double_mill_removals = 1;
};

struct Pos {
  std::vector<char> at;  // 'W', 'B' or '.'
  int hand[2] = {0, 0};
  int turn = 0;  // 0 white, 1 black
};

inline Pos start(const Board& b) {
  Pos p;
  p.at.assign(b.names.size(), '.');
  p.hand[0] = p.hand[1] = b.pieces;
  return p;
}

inline char letter(int side) { return side == 0 ? 'W' : 'B'; }

inline bool in_mill(const Board& b, const Pos& p, int point) {
  const char c = p.at[point];
  for (const auto& m : b.mills)
    if (std::find(m.begin(), m.end(), point) != m.end() && p.at[m[0]] == c && p.at[m[1]] == c && p.at[m[2]] == c)
      return true;
  return false;
}

inline bool has_mill(const Board& b, const Pos& p, int side) {
  for (const auto& m : b.mills)
    if (p.at[m[0]] == letter(side) && p.at[m[1]] == letter(side) && p.at[m[2]] == letter(side)) return true;
  return false;
}

inline int on_board(const Pos& p, int side) {
  return static_cast<int>(std::count(p.at.begin(), p.at.end(), letter(side)));
}

// The pieces of `side` that may be removed.
inline std::vector<int> removable(const Board& b, const Pos& p, int side, const Options& o) {
  std::vector<int> all, free;
  for (size_t i = 0; i < p.at.size(); ++i)
    if (p.at[i] == letter(side)) {
      all.push_back(static_cast<int>(i));
      if (!in_mill(b, p, static_cast<int>(i))) free.push_back(static_cast<int>(i));
    }
  return o.remove_always || free.empty() ? all : free;
}

// The placements and slides (first parts of moves) of the side to move.
inline std::vector<std::pair<int, int>> first_parts(const Board& b, const Pos& p, const Options& o) {
  std::vector<std::pair<int, int>> out;
  const int me = p.turn;
  if (p.hand[me] > 0) {
    for (size_t i = 0; i < p.at.size(); ++i)
      if (p.at[i] == '.') out.push_back({-1, static_cast<int>(i)});
    return out;
  }
  const bool fly = o.flying && on_board(p, me) == 3;
  for (size_t f = 0; f < p.at.size(); ++f) {
    if (p.at[f] != letter(me)) continue;
    for (size_t t = 0; t < p.at.size(); ++t)
      if (p.at[t] == '.' && (fly || b.adjacent[f].count(static_cast<int>(t))))
        out.push_back({static_cast<int>(f), static_cast<int>(t)});
  }
  return out;
}

inline Pos do_first_part(const Pos& p, int from, int to) {
  Pos q = p;
  if (from < 0) --q.hand[p.turn];
  else q.at[from] = '.';
  q.at[to] = letter(p.turn);
  return q;
}

inline int mills_at(const Board& b, const Pos& p, int to) {
  int n = 0;
  for (const auto& m : b.mills)
    if (std::find(m.begin(), m.end(), to) != m.end() && p.at[m[0]] == p.at[to] && p.at[m[1]] == p.at[to] &&
        p.at[m[2]] == p.at[to])
      ++n;
  return n;
}

inline bool over(const Board& b, const Pos& p, const Options& o) {
  if (b.first_mill_wins && (has_mill(b, p, 0) || has_mill(b, p, 1))) return true;
  for (int s = 0; s < 2 && !b.first_mill_wins; ++s)
    if (on_board(p, s) + p.hand[s] < 3) return true;
  if (std::count(p.at.begin(), p.at.end(), '.') == 0) return true;
  return first_parts(b, p, o).empty();
}

struct RefMove {
  std::string notation;
  Pos after;
};

// Every legal move, removals included, with the position after it.
inline std::vector<RefMove> moves(const Board& b, const Pos& p, const Options& o) {
  std::vector<RefMove> out;
  if (over(b, p, o)) return out;
  const int them = 1 - p.turn;
  for (auto [from, to] : first_parts(b, p, o)) {
    Pos q = do_first_part(p, from, to);
    const std::string head = (from < 0 ? "" : b.names[from] + "-") + b.names[to];
    const int mills = mills_at(b, q, to);
    const int opposing = on_board(q, them);
    const int removals = b.first_mill_wins ? 0 : std::min({mills, o.double_mill_removals, opposing});
    q.turn = them;
    if (removals == 0) {
      out.push_back({head, q});
      continue;
    }
    std::map<std::set<int>, Pos> choices;
    for (int r1 : removable(b, q, them, o)) {
      Pos q1 = q;
      q1.at[r1] = '.';
      if (removals == 1) {
        choices[{r1}] = q1;
        continue;
      }
      for (int r2 : removable(b, q1, them, o)) {
        Pos q2 = q1;
        q2.at[r2] = '.';
        choices[{r1, r2}] = q2;
      }
    }
    for (const auto& [set, after] : choices) {
      std::vector<std::string> names;
      for (int r : set) names.push_back(b.names[r]);
      std::sort(names.begin(), names.end());
      std::string n = head;
      for (const std::string& r : names) n += "x" + r;
      out.push_back({n, after});
    }
  }
  return out;
}

inline Pos play(const Board& b, const Pos& p, const std::string& move, const Options& o) {
  for (RefMove& m : moves(b, p, o))
    if (m.notation == move) return m.after;
  throw std::runtime_error("reference: no move " + move);
}

// moves(b, p, o).size(), without writing the moves out (for the last ply of perft).
inline uint64_t count_moves(const Board& b, const Pos& p, const Options& o) {
  if (over(b, p, o)) return 0;
  const int them = 1 - p.turn;
  uint64_t n = 0;
  Pos q = p;
  for (auto [from, to] : first_parts(b, p, o)) {
    if (from >= 0) q.at[from] = '.';
    q.at[to] = letter(p.turn);
    const int removals = b.first_mill_wins ? 0 : std::min({mills_at(b, q, to), o.double_mill_removals, on_board(q, them)});
    if (removals == 0) {
      n += 1;
    } else if (removals == 1) {
      n += removable(b, q, them, o).size();
    } else {
      std::set<std::set<int>> pairs;
      for (int r1 : removable(b, q, them, o)) {
        Pos q1 = q;
        q1.at[r1] = '.';
        for (int r2 : removable(b, q1, them, o)) pairs.insert({r1, r2});
      }
      n += pairs.size();
    }
    q.at[to] = '.';
    if (from >= 0) q.at[from] = letter(p.turn);
  }
  return n;
}

// Perft the engine's way: a move is the whole action, removals included.
inline uint64_t perft(const Board& b, const Pos& p, int depth, const Options& o) {
  if (depth == 0) return 1;
  if (depth == 1) return count_moves(b, p, o);
  const std::vector<RefMove> ms = moves(b, p, o);
  uint64_t n = 0;
  for (const RefMove& m : ms) n += perft(b, m.after, depth - 1, o);
  return n;
}

// Perft Sanmill's way: the placement or slide is a ply and each removal that
// follows is a ply of its own.
inline uint64_t perft_plies(const Board& b, const Pos& p, int depth, const Options& o) {
  if (depth == 0) return 1;
  if (depth == 1) return over(b, p, o) ? 0 : first_parts(b, p, o).size();
  std::map<std::string, std::vector<const RefMove*>> by_head;
  const std::vector<RefMove> ms = moves(b, p, o);
  for (const RefMove& m : ms) by_head[m.notation.substr(0, m.notation.find('x'))].push_back(&m);
  uint64_t n = 0;
  for (const auto& [head, group] : by_head) {
    const bool removes = group.front()->notation.find('x') != std::string::npos;
    if (!removes) {
      n += perft_plies(b, group.front()->after, depth - 1, o);
    } else if (depth == 1) {
      n += 1;  // the leaf waits for its removal
    } else {
      for (const RefMove* m : group) n += perft_plies(b, m->after, depth - 2, o);
    }
  }
  return n;
}

}  // namespace sb::morris_reference
