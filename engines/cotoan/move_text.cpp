#include "engines/cotoan/move_text.h"

#include <string>

#include "engines/common/errors.h"
#include "engines/cotoan/board.h"

namespace sb::cotoan {

namespace {

class MoveTextReader {
 public:
  explicit MoveTextReader(std::string_view text) : text_(text) {}

  MoveText read() {
    skip_spaces();
    if (at_end()) fail("empty move (expected a move like 3:c1-c4 or 8:e3xe7)");
    MoveText m;
    if (i_ + 1 < text_.size() && is_digit(text_[i_]) && text_[i_ + 1] == ':') {
      m.piece = text_[i_] - '0';
      i_ += 2;
    }
    m.from = read_square();
    if (eat("x") || eat("X") || eat("\u00d7")) {
      m.capture_sign = true;
    } else if (!(eat("-") || eat("\u2013") || eat("\u2212"))) {
      fail(at_end() ? "it stops after the first square (expected a move like 3:c1-c4 or 8:e3xe7)"
                    : "expected '-' or 'x' after " + square_name(m.from) + ", found '" + rest() + "'");
    }
    m.to = read_square();
    skip_spaces();
    if (at_end()) return m;
    if (!eat("(")) fail("unexpected '" + rest() + "' after the move");
    CalculationText c;
    skip_spaces();
    c.rear = read_digit("the calculation must start with the rear piece's number");
    skip_spaces();
    c.op = read_op();
    skip_spaces();
    c.front = read_digit("the calculation needs the front piece's number after its sign");
    skip_spaces();
    if (eat("=")) {
      while (!at_end() && text_[i_] != ')') ++i_;  // the result is the reader's own note
    }
    if (!eat(")")) fail("the calculation is not closed with ')'");
    skip_spaces();
    if (!at_end()) fail("unexpected '" + rest() + "' after the calculation");
    m.calculation = c;
    return m;
  }

 private:
  static bool is_digit(char c) { return c >= '0' && c <= '9'; }
  bool at_end() const { return i_ >= text_.size(); }
  std::string rest() const { return std::string(text_.substr(i_)); }
  void skip_spaces() {
    while (!at_end() && (text_[i_] == ' ' || text_[i_] == '\t')) ++i_;
  }
  bool eat(std::string_view s) {
    if (text_.substr(i_, s.size()) != s) return false;
    i_ += s.size();
    return true;
  }

  int read_square() {
    const size_t start = i_;
    if (at_end() || !((text_[i_] >= 'a' && text_[i_] <= 'z') || (text_[i_] >= 'A' && text_[i_] <= 'Z')))
      fail(at_end() ? "a square is missing (expected a move like 3:c1-c4 or 8:e3xe7)"
                    : "expected a square at '" + rest() + "' (expected a move like 3:c1-c4 or 8:e3xe7)");
    ++i_;
    while (!at_end() && is_digit(text_[i_]) && i_ - start < 3) ++i_;
    const std::string_view name = text_.substr(start, i_ - start);
    const int sq = parse_square(name);
    if (sq == kNoSquare) fail("'" + std::string(name) + "' is not a square of the 9x11 board (a1-i11)");
    return sq;
  }

  int read_digit(const char* what) {
    if (at_end() || !is_digit(text_[i_])) fail(what);
    return text_[i_++] - '0';
  }

  Op read_op() {
    if (eat("+")) return Op::Add;
    if (eat("-") || eat("\u2212") || eat("\u2013")) return Op::Sub;
    if (eat("*") || eat("x") || eat("X") || eat("\u00d7")) return Op::Mul;
    if (eat("/") || eat(":") || eat("\u00f7")) return Op::Div;
    fail("the calculation needs an operation: + - * / (or \u00d7 \u00f7 :)");
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw InputError("move '" + std::string(text_) + "': " + what);
  }

  std::string_view text_;
  size_t i_ = 0;
};

}  // namespace

MoveText parse_move_text(std::string_view text) {
  return MoveTextReader(text).read();
}

}  // namespace sb::cotoan
