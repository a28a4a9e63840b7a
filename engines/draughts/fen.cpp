#include "engines/draughts/fen.h"

#include <vector>

#include "engines/common/errors.h"

namespace sb::draughts {

namespace {

class FenParser {
 public:
  FenParser(std::string_view text, const Geometry& g) : text_(text), g_(g) {}

  Board parse(FenCounters* counters) {
    size_t begin = 0, end = text_.size();
    while (begin < end && is_blank(text_[begin])) ++begin;
    while (end > begin && is_blank(text_[end - 1])) --end;
    if (end > begin && text_[end - 1] == '.') --end;
    if (begin == end) fail("empty FEN", begin);

    Board b;
    bool seen_side[2] = {false, false};
    size_t pos = begin;
    int field = 0;
    while (pos <= end) {
      size_t stop = text_.find(':', pos);
      if (stop == std::string_view::npos || stop > end) stop = end;
      std::string_view f = text_.substr(pos, stop - pos);
      if (field == 0) {
        if (f == "W" || f == "w")
          b.side = Side::First;
        else if (f == "B" || f == "b")
          b.side = Side::Second;
        else
          fail("expected the side to move, 'W' or 'B', got '" + std::string(f) + "'", pos);
      } else if (f.empty()) {
        fail("empty field", pos);
      } else if (f[0] == 'W' || f[0] == 'B') {
        const int side = f[0] == 'W' ? 0 : 1;
        if (seen_side[side]) fail(std::string("the pieces of ") + f[0] + " are listed twice", pos);
        seen_side[side] = true;
        parse_pieces(f.substr(1), pos + 1, side, b);
      } else if (f[0] == 'H' || f[0] == 'F') {
        const int n = parse_number(f.substr(1), pos + 1);
        if (counters) (f[0] == 'H' ? counters->quiet_plies : counters->move_number) = n;
      } else {
        fail("unknown field '" + std::string(f) + "' (expected W..., B..., H<n> or F<n>)", pos);
      }
      ++field;
      pos = stop + 1;
    }
    if (field < 2) fail("expected the side to move and the pieces, as in W:W21-32:B1-12", end);
    return b;
  }

 private:
  static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

  [[noreturn]] void fail(const std::string& what, size_t pos) const {
    throw InputError("FEN '" + std::string(text_) + "': " + what + " at column " + std::to_string(pos + 1));
  }

  int parse_number(std::string_view t, size_t pos) const {
    if (t.empty() || t.size() > 6) fail("bad number '" + std::string(t) + "'", pos);
    int n = 0;
    for (char c : t) {
      if (c < '0' || c > '9') fail("bad number '" + std::string(t) + "'", pos);
      n = n * 10 + (c - '0');
    }
    return n;
  }

  int square(std::string_view t, size_t pos) const {
    const int s = g_.parse(t);
    if (s < 0) fail("bad square '" + std::string(t) + "'", pos);
    return s;
  }

  void place(int s, bool king, int side, Board& b, size_t pos) const {
    const uint64_t bit = uint64_t{1} << g_.bit_of(s);
    if ((b.pieces[0] | b.pieces[1]) & bit) fail("square " + std::to_string(s + 1) + " is given twice", pos);
    b.pieces[side] |= bit;
    if (king) b.kings |= bit;
  }

  void parse_pieces(std::string_view list, size_t base, int side, Board& b) const {
    if (list.empty()) return;  // a side with no pieces left
    size_t pos = 0;
    while (pos <= list.size()) {
      size_t stop = list.find(',', pos);
      if (stop == std::string_view::npos) stop = list.size();
      std::string_view item = list.substr(pos, stop - pos);
      const size_t at = base + pos;
      if (item.empty()) fail("empty item in the square list", at);
      bool king = false;
      if (item[0] == 'K') {
        king = true;
        item.remove_prefix(1);
      }
      const size_t dash = item.find('-');
      if (dash == std::string_view::npos) {
        place(square(item, at + king), king, side, b, at);
      } else {
        const int lo = square(item.substr(0, dash), at + king);
        const int hi = square(item.substr(dash + 1), at + king + dash + 1);
        if (hi < lo) fail("range '" + std::string(item) + "' runs backwards", at);
        for (int s = lo; s <= hi; ++s) place(s, king, side, b, at);
      }
      pos = stop + 1;
    }
  }

  std::string_view text_;
  const Geometry& g_;
};

}  // namespace

Board parse_fen(std::string_view text, const Geometry& geometry, FenCounters* counters) {
  return FenParser(text, geometry).parse(counters);
}

std::string write_fen(const Board& board, const Geometry& g, bool ranges) {
  std::string out = board.side == Side::First ? "W" : "B";
  for (int side = 0; side < 2; ++side) {
    out += side == 0 ? ":W" : ":B";
    std::vector<std::string> items;
    int s = 0;
    const auto is = [&](int sq, bool king) {
      if (sq >= g.squares()) return false;
      const uint64_t bit = uint64_t{1} << g.bit_of(sq);
      return (board.pieces[side] & bit) && (((board.kings & bit) != 0) == king);
    };
    while (s < g.squares()) {
      if (is(s, true)) {
        items.push_back(std::string(1, 'K').append(std::to_string(s + 1)));
        ++s;
      } else if (is(s, false)) {
        int e = s;
        while (is(e + 1, false)) ++e;
        if (ranges && e - s >= 2) {
          items.push_back(std::to_string(s + 1) + "-" + std::to_string(e + 1));
        } else {
          for (int k = s; k <= e; ++k) items.push_back(std::to_string(k + 1));
        }
        s = e + 1;
      } else {
        ++s;
      }
    }
    for (size_t i = 0; i < items.size(); ++i) out += (i ? "," : "") + items[i];
  }
  return out;
}

}  // namespace sb::draughts
