#include "engines/morris/position.h"

#include <vector>

#include "engines/common/errors.h"

namespace sb::morris {

namespace {

struct Field {
  std::string_view text;
  size_t column;  // 1-based
};

std::vector<Field> fields_of(std::string_view s) {
  std::vector<Field> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    if (i == s.size()) break;
    size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
    out.push_back({s.substr(i, j - i), i + 1});
    i = j;
  }
  return out;
}

bool has_mill(const Geometry& g, Points own) {
  for (Points m : g.mills)
    if ((own & m) == m) return true;
  return false;
}

}  // namespace

Position start_position(const Geometry& g) {
  Position p;
  p.in_hand = {static_cast<uint8_t>(g.pieces), static_cast<uint8_t>(g.pieces)};
  return p;
}

Position parse_fen(const Geometry& g, std::string_view fen) {
  const std::string where = "FEN '" + std::string(fen) + "'";
  auto fail = [&](size_t column, const std::string& what) {
    throw InputError(where + ": " + what + " at column " + std::to_string(column));
  };
  const std::vector<Field> f = fields_of(fen);
  if (f.size() != 4)
    throw InputError(where + ": expected 4 fields '<board> <w|b> <white in hand> <black in hand>', got " +
                     std::to_string(f.size()));

  Position p;
  const Field& board = f[0];
  for (size_t i = 0; i < board.text.size() && static_cast<int>(i) < g.point_count; ++i) {
    const char c = board.text[i];
    if (c == 'W') p.pieces[0] |= bit(static_cast<int>(i));
    else if (c == 'B') p.pieces[1] |= bit(static_cast<int>(i));
    else if (c != '.') fail(board.column + i, std::string("bad point '") + c + "' (expected W, B or .)");
  }
  if (static_cast<int>(board.text.size()) != g.point_count)
    fail(board.column, "the board lists " + std::to_string(board.text.size()) + " points, " + g.id + " has " +
                           std::to_string(g.point_count));

  if (f[1].text == "w") p.to_move = Side::First;
  else if (f[1].text == "b") p.to_move = Side::Second;
  else fail(f[1].column, "side to move '" + std::string(f[1].text) + "' is not w or b");

  for (int side = 0; side < 2; ++side) {
    const Field& h = f[2 + side];
    const char* who = side == 0 ? "white" : "black";
    bool digits = !h.text.empty() && h.text.size() <= 2 && (h.text.size() == 1 || h.text[0] != '0');
    for (char c : h.text) digits = digits && c >= '0' && c <= '9';
    if (!digits) fail(h.column, std::string(who) + "'s pieces in hand '" + std::string(h.text) + "' is not a number");
    const int n = std::stoi(std::string(h.text));
    const int on_board = count(p.pieces[side]);
    if (n + on_board > g.pieces)
      fail(h.column, std::string(who) + " has " + std::to_string(on_board) + " on the board and " + std::to_string(n) +
                         " in hand, more than the " + std::to_string(g.pieces) + " pieces of " + g.id);
    p.in_hand[side] = static_cast<uint8_t>(n);
  }
  if (g.variant == Variant::Three && has_mill(g, p.pieces[0]) && has_mill(g, p.pieces[1]))
    fail(board.column, "both sides have a mill, but the first mill ends a game of morris3");
  return p;
}

std::string to_fen(const Geometry& g, const Position& p) {
  std::string s;
  for (int i = 0; i < g.point_count; ++i) s += (p.pieces[0] & bit(i)) ? 'W' : (p.pieces[1] & bit(i)) ? 'B' : '.';
  s += p.to_move == Side::First ? " w " : " b ";
  s += std::to_string(p.in_hand[0]) + " " + std::to_string(p.in_hand[1]);
  return s;
}

std::string to_ascii(const Geometry& g, const Position& p) {
  // A canvas of (2n-1)×(2n-1) cells: points on even rows and columns, the lines
  // between neighbours drawn in the cells between them.
  const int n = g.lattice;
  const int size = 2 * n - 1;
  std::vector<std::string> canvas(size, std::string(size, ' '));
  auto cell = [&](int file, int rank) -> char& { return canvas[2 * (n - 1 - rank)][2 * file]; };
  for (int a = 0; a < g.point_count; ++a) {
    for (Points nb = g.neighbours[a]; nb; nb &= nb - 1) {
      const int b = first(nb);
      if (b < a) continue;
      const auto [fa, ra] = g.file_rank[a];
      const auto [fb, rb] = g.file_rank[b];
      const int row_a = 2 * (n - 1 - ra), col_a = 2 * fa, row_b = 2 * (n - 1 - rb), col_b = 2 * fb;
      if (row_a == row_b) {
        for (int c = std::min(col_a, col_b) + 1; c < std::max(col_a, col_b); ++c) canvas[row_a][c] = '-';
      } else if (col_a == col_b) {
        for (int r = std::min(row_a, row_b) + 1; r < std::max(row_a, row_b); ++r) canvas[r][col_a] = '|';
      } else {
        // A diagonal between lattice neighbours: one cell between them. Rows grow
        // downwards, so a line rising to the right is '/'.
        const bool rising = (col_b - col_a) * (row_b - row_a) < 0;
        canvas[(row_a + row_b) / 2][(col_a + col_b) / 2] = rising ? '/' : '\\';
      }
    }
  }
  for (int i = 0; i < g.point_count; ++i)
    cell(g.file_rank[i][0], g.file_rank[i][1]) = (p.pieces[0] & bit(i)) ? 'W' : (p.pieces[1] & bit(i)) ? 'B' : '.';

  std::string out;
  for (int r = 0; r < size; ++r) {
    std::string line = (r % 2 == 0 ? std::to_string(n - r / 2) : std::string(" ")) + "  " + canvas[r];
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  out += "   ";
  for (int f = 0; f < n; ++f) out += std::string(1, static_cast<char>('a' + f)) + (f + 1 < n ? " " : "");
  out += "\n";
  out += std::string(p.to_move == Side::First ? "white" : "black") + " to move; in hand: white " +
         std::to_string(p.in_hand[0]) + ", black " + std::to_string(p.in_hand[1]) + "\n";
  return out;
}

}  // namespace sb::morris
