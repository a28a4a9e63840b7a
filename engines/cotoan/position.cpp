#include "engines/cotoan/position.h"

#include "engines/common/errors.h"

namespace sb::cotoan {

namespace {

const char* side_word(Side s) {
  return s == Side::First ? "Red" : "Blue";
}

class FenReader {
 public:
  explicit FenReader(std::string_view fen) : fen_(fen) {}

  FenBoard read() {
    size_t begin = 0, end = fen_.size();
    while (begin < end && is_space(fen_[begin])) ++begin;
    while (end > begin && is_space(fen_[end - 1])) --end;
    if (begin == end) fail(0, "empty FEN (expected <turn>:R<items>:B<items>)");

    std::vector<std::pair<size_t, size_t>> fields;  // [start, end) of each ':'-separated field
    size_t start = begin;
    for (size_t i = begin; i <= end; ++i)
      if (i == end || fen_[i] == ':') {
        fields.push_back({start, i});
        start = i + 1;
      }
    if (fields.size() != 3)
      fail(begin,
           "expected 3 fields separated by ':' (<turn>:R<items>:B<items>), found " + std::to_string(fields.size()));

    FenBoard out;
    std::string_view turn = trimmed(fields[0]);
    if (turn == "R" || turn == "r") {
      out.to_move = Side::First;
    } else if (turn == "B" || turn == "b") {
      out.to_move = Side::Second;
    } else {
      fail(fields[0].first, "side to move '" + std::string(turn) + "' is not R or B");
    }

    bool seen[2] = {false, false};
    for (int f = 1; f <= 2; ++f) {
      size_t s = fields[f].first, e = fields[f].second;
      while (s < e && is_space(fen_[s])) ++s;
      if (s == e || (fen_[s] != 'R' && fen_[s] != 'B'))
        fail(s, "field " + std::to_string(f + 1) + " must start with R or B (the side whose pieces it lists)");
      Side side = fen_[s] == 'R' ? Side::First : Side::Second;
      if (seen[index_of(side)]) fail(s, std::string("the pieces of ") + side_word(side) + " are listed twice");
      seen[index_of(side)] = true;
      read_items(out.board, side, s + 1, e);
    }

    if (out.board.square_of[0][0] == kNoSquare && out.board.square_of[1][0] == kNoSquare)
      fail(begin, "both 0 pieces are missing, but a game ends when the first one is captured");
    return out;
  }

 private:
  static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

  std::string_view trimmed(std::pair<size_t, size_t> r) const {
    while (r.first < r.second && is_space(fen_[r.first])) ++r.first;
    while (r.second > r.first && is_space(fen_[r.second - 1])) --r.second;
    return fen_.substr(r.first, r.second - r.first);
  }

  void read_items(Board& board, Side side, size_t begin, size_t end) {
    if (trimmed({begin, end}).empty()) return;  // a side with no pieces left
    size_t start = begin;
    for (size_t i = begin; i <= end; ++i) {
      if (i != end && fen_[i] != ',') continue;
      size_t s = start, e = i;
      while (s < e && is_space(fen_[s])) ++s;
      while (e > s && is_space(fen_[e - 1])) --e;
      read_item(board, side, s, e);
      start = i + 1;
    }
  }

  void read_item(Board& board, Side side, size_t s, size_t e) {
    std::string_view item = fen_.substr(s, e - s);
    const std::string quoted = "item '" + std::string(item) + "'";
    if (item.empty()) fail(s, "empty item (two commas in a row?)");
    if (item[0] < '0' || item[0] > '9')
      fail(s, quoted + " must start with the piece's number 0-9, then its square (e.g. 5e1)");
    const int number = item[0] - '0';
    const int sq = parse_square(item.substr(1));
    if (sq == kNoSquare)
      fail(s, quoted + ": '" + std::string(item.substr(1)) + "' is not a square of the 9x11 board (a1-i11)");
    if (board.cell[sq] != kEmpty) fail(s, quoted + ": square " + square_name(sq) + " is already taken");
    if (board.square_of[index_of(side)][number] != kNoSquare)
      fail(s, quoted + ": " + side_word(side) + " has only one " + std::to_string(number) + " (already on " +
                  square_name(board.square_of[index_of(side)][number]) + ")");
    if (number == 0 && sq != kZeroHome[index_of(side)])
      fail(s, quoted + ": " + side_word(side) + "'s 0 never moves from " + square_name(kZeroHome[index_of(side)]));
    board.put(sq, make_piece(side, number));
  }

  [[noreturn]] void fail(size_t at, const std::string& what) const {
    throw InputError("FEN '" + std::string(fen_) + "': " + what + " (at column " + std::to_string(at + 1) + ")");
  }

  std::string_view fen_;
};

}  // namespace

Score points_from_board(const Board& b) {
  Score s{0, 0};
  for (int side = 0; side < 2; ++side)
    for (int n = 1; n <= 9; ++n)
      if (b.square_of[side][n] == kNoSquare) s[1 - side] += n;
  return s;
}

FenBoard parse_fen(std::string_view fen) {
  return FenReader(fen).read();
}

std::string write_fen(const Board& b, Side to_move) {
  std::string out = to_move == Side::First ? "R" : "B";
  for (int side = 0; side < 2; ++side) {
    out += side == 0 ? ":R" : ":B";
    bool first = true;
    for (int n = 0; n <= 9; ++n) {
      int sq = b.square_of[side][n];
      if (sq == kNoSquare) continue;
      if (!first) out += ',';
      first = false;
      out += std::to_string(n);
      out += square_name(sq);
    }
  }
  return out;
}

}  // namespace sb::cotoan
