#include "engines/cotulenh/position.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <vector>

#include "engines/common/errors.h"

namespace sb::cotulenh {

bool may_stand(Kind carrier, int site, bool air_over_sea) {
  const Geometry& g = Geometry::get();
  switch (carrier) {
    case kNavy:
      return g.navigable[site];
    case kAirForce:
      return air_over_sea || g.land[site];
    default:
      return g.land[site];
  }
}

namespace {

class FenReader {
 public:
  explicit FenReader(std::string_view fen) : fen_(fen) {}

  Position read() {
    std::vector<std::string> fields;
    std::istringstream in{std::string(fen_)};
    for (std::string w; in >> w;) fields.push_back(w);
    if (fields.empty()) fail("empty FEN");
    if (fields.size() < 2) fail("missing the side to move ('r' or 'b') after the board");
    if (fields.size() == 3) fail("give both sides' points (red then blue), not one");
    if (fields.size() > 5) fail("unexpected text '" + fields[5] + "' after the losses");
    read_board(fields[0]);
    if (fields[1] == "r")
      pos_.to_move = Side::First;
    else if (fields[1] == "b")
      pos_.to_move = Side::Second;
    else
      fail("side to move must be 'r' or 'b', got '" + fields[1] + "'");
    if (fields.size() >= 4) {
      pos_.points[0] = read_points(fields[2], "red");
      pos_.points[1] = read_points(fields[3], "blue");
    }
    if (fields.size() == 5) read_lost(fields[4]);
    check_counts();
    return pos_;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError("FEN '" + std::string(fen_) + "': " + what);
  }

  void read_board(const std::string& board) {
    std::vector<std::string> rows;
    std::string cur;
    for (char c : board) {
      if (c == '/') {
        rows.push_back(cur);
        cur.clear();
      } else {
        cur += c;
      }
    }
    rows.push_back(cur);
    if (rows.size() != kRanks)
      fail("the board has " + std::to_string(rows.size()) + " ranks, expected 12 separated by '/'");
    for (int i = 0; i < kRanks; ++i) read_row(rows[i], kRanks - 1 - i);
  }

  void read_row(const std::string& row, int rank) {
    const std::string where = "rank " + std::to_string(rank + 1);
    int file = 0;
    size_t i = 0;
    while (i < row.size()) {
      const char c = row[i];
      if (std::isdigit(static_cast<unsigned char>(c))) {
        const size_t start = i;
        int n = 0;
        // Capped: past 11 the run is wrong whatever digits follow, and int must not overflow.
        for (; i < row.size() && std::isdigit(static_cast<unsigned char>(row[i])); ++i)
          n = std::min(n * 10 + (row[i] - '0'), 10 * kFiles);
        if (n < 1 || n > kFiles) fail(where + ": bad run of empty sites " + row.substr(start, i - start));
        file += n;
        if (file > kFiles) fail(where + " has more than 11 sites");
        continue;
      }
      if (file >= kFiles) fail(where + " has more than 11 sites");
      Stack st;
      if (c == '(') {
        ++i;
        while (i < row.size() && row[i] != ')') {
          if (st.n == kMaxStack) fail(where + ": a stack holds at most 4 pieces");
          if (row[i] != '+' && kind_of_letter(row[i]) < 0)
            fail(where + ": unexpected character '" + std::string(1, row[i]) + "' inside a stack (missing ')'?)");
          Stack one;
          one.n = 1;
          one.p[0] = read_piece(row, i, where);
          st = st.merged(one);
        }
        if (i >= row.size()) fail(where + ": stack missing ')'");
        ++i;
        if (st.n < 2) fail(where + ": a stack in parentheses needs at least two pieces");
      } else {
        st.n = 1;
        st.p[0] = read_piece(row, i, where);
      }
      const int site = site_of(file, rank);
      for (int k = 1; k < st.n; ++k)
        if (st.p[k].side() != st.p[0].side()) fail("stack on " + site_name(site) + " mixes red and blue pieces");
      if (!stack_allowed(st))
        fail("stack " + stack_letters(st, true, true) + " on " + site_name(site) + " is not one the rules allow");
      if (!may_stand(st.carrier().kind(), site, true))
        fail(std::string("a ") + kind_name(st.carrier().kind()) + " cannot stand on " + site_name(site));
      pos_.at[site] = st;
      ++file;
    }
    if (file != kFiles) fail(where + " has " + std::to_string(file) + " sites, expected 11");
  }

  Piece read_piece(const std::string& row, size_t& i, const std::string& where) {
    bool hero = false;
    if (row[i] == '+') {
      hero = true;
      ++i;
      if (i >= row.size()) fail(where + ": '+' must be followed by a piece letter");
    }
    const char c = row[i];
    const int k = kind_of_letter(c);
    if (k < 0 || !std::isalpha(static_cast<unsigned char>(c)))
      fail(where + ": unexpected character '" + std::string(1, c) + "'");
    if (hero && k == kHeadquarters) fail(where + ": a headquarters cannot be a hero");
    ++i;
    return Piece::make(static_cast<Kind>(k), std::isupper(static_cast<unsigned char>(c)) ? Side::First : Side::Second,
                       hero);
  }

  int read_points(const std::string& w, const char* side) {
    if (w.empty() || w.size() > 5) fail(std::string("bad ") + side + " points '" + w + "'");
    int n = 0;
    for (char c : w) {
      if (!std::isdigit(static_cast<unsigned char>(c))) fail(std::string("bad ") + side + " points '" + w + "'");
      n = n * 10 + (c - '0');
    }
    return n;
  }

  void read_lost(const std::string& w) {
    if (w == "-") return;
    for (char c : w) {
      const int k = kind_of_letter(c);
      if (k < 0 || !std::isalpha(static_cast<unsigned char>(c)))
        fail("bad lost piece '" + std::string(1, c) + "' (piece letters, Red upper case, Blue lower case, or '-')");
      const Side s = std::isupper(static_cast<unsigned char>(c)) ? Side::First : Side::Second;
      // Checked here, not only in check_counts: the byte-sized count would wrap.
      if (pos_.lost[index_of(s)][k] == kStartCount[k])
        fail(std::string(s == Side::First ? "red" : "blue") + " has lost more " +
             kind_name_plural(static_cast<Kind>(k)) + " than the " + std::to_string(kStartCount[k]) + " of a set");
      ++pos_.lost[index_of(s)][k];
    }
  }

  void check_counts() {
    for (int s = 0; s < 2; ++s) {
      std::array<int, kKindCount> n{};
      for (const Stack& st : pos_.at)
        for (int i = 0; i < st.n; ++i)
          if (index_of(st.p[i].side()) == s) ++n[st.p[i].kind()];
      for (int k = 0; k < kKindCount; ++k)
        if (n[k] + pos_.lost[s][k] > kStartCount[k])
          fail(std::string(s == 0 ? "red" : "blue") + " has " + std::to_string(n[k]) + " on the board and " +
               std::to_string(pos_.lost[s][k]) + " lost " + kind_name_plural(static_cast<Kind>(k)) + ", more than " +
               std::to_string(kStartCount[k]));
    }
  }

  std::string_view fen_;
  Position pos_;
};

}  // namespace

Position parse_fen(std::string_view fen) {
  return FenReader(fen).read();
}

std::string write_fen(const Position& p) {
  std::string out;
  for (int rank = kRanks - 1; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < kFiles; ++file) {
      const Stack& st = p.at[site_of(file, rank)];
      if (st.empty()) {
        ++empty;
        continue;
      }
      if (empty) out += std::to_string(empty);
      empty = 0;
      out += stack_letters(st, true, true);
    }
    if (empty) out += std::to_string(empty);
    if (rank) out += '/';
  }
  out += p.to_move == Side::First ? " r" : " b";
  std::string lost;
  for (int s = 0; s < 2; ++s)
    for (int k = 0; k < kKindCount; ++k)
      for (int i = 0; i < p.lost[s][k]; ++i)
        lost += s == 0 ? kKindLetter[k] : static_cast<char>(std::tolower(static_cast<unsigned char>(kKindLetter[k])));
  if (p.points[0] || p.points[1] || !lost.empty()) {
    out += ' ';
    out += std::to_string(p.points[0]);
    out += ' ';
    out += std::to_string(p.points[1]);
    if (!lost.empty()) out += " " + lost;
  }
  return out;
}

std::string ascii_board(const Position& p) {
  const Geometry& g = Geometry::get();
  std::string out;
  for (int rank = kRanks - 1; rank >= 0; --rank) {
    std::string line = rank + 1 < 10 ? " " : "";
    line += std::to_string(rank + 1);
    for (int file = 0; file < kFiles; ++file) {
      const int site = site_of(file, rank);
      const Stack& st = p.at[site];
      std::string cell = st.empty() ? (g.sea[site] ? "~" : ".") : stack_letters(st, true, true);
      line += ' ';
      if (cell.size() < 2) line += ' ';
      line += cell;
    }
    out += line + "\n";
    if (rank == kLastRedRow + 1) {
      // The river, with its fords (=) under files f and h.
      std::string river = "  ";
      for (int file = 0; file < kFiles; ++file) river += file == 5 || file == 7 ? "~~=" : "~~~";
      out += river + "\n";
    }
  }
  out += "    a  b  c  d  e  f  g  h  i  j  k\n";
  return out;
}

}  // namespace sb::cotulenh
