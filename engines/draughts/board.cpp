#include "engines/draughts/board.h"

#include "engines/common/squares.h"

namespace sb::draughts {

Geometry::Geometry(int size) : size_(size) {
  const int half = size / 2;
  for (int s = 0; s < squares(); ++s) {
    const uint64_t b = uint64_t{1} << bit_of(s);
    valid_ |= b;
    if (s < half) top_row_ |= b;
    if (s >= squares() - half) bottom_row_ |= b;
  }
}

int Geometry::file_of(int square) const {
  const int half = size_ / 2;
  const int row = square / half;  // 0 = the top row as White sees it
  const int col = square % half;
  return row % 2 == 0 ? 2 * col + 1 : 2 * col;
}

int Geometry::rank_of(int square) const {
  return size_ - 1 - square / (size_ / 2);
}

int Geometry::square_at(int file, int rank) const {
  if (file < 0 || file >= size_ || rank < 0 || rank >= size_) return -1;
  if ((file + rank) % 2 != 0) return -1;  // a1 is dark: dark squares have file + rank even
  const int row = size_ - 1 - rank;
  return row * (size_ / 2) + file / 2;
}

std::string Geometry::name(int square, bool algebraic_name) const {
  if (algebraic_name) return algebraic(file_of(square), rank_of(square));
  return std::to_string(square + 1);
}

int Geometry::parse(std::string_view text) const {
  if (text.empty()) return -1;
  if (text[0] >= 'a' && text[0] <= 'z') {
    auto fr = parse_algebraic(text, size_, size_);
    return fr ? square_at(fr->file, fr->rank) : -1;
  }
  if (text.size() > 3 || text[0] < '1' || text[0] > '9') return -1;
  int n = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return -1;
    n = n * 10 + (c - '0');
  }
  return n >= 1 && n <= squares() ? n - 1 : -1;
}

}  // namespace sb::draughts
