#include "engines/cotoan/board.h"

#include <algorithm>
#include <cstdlib>

#include "engines/common/squares.h"

namespace sb::cotoan {

std::string square_name(int sq) {
  return algebraic(file_of(sq), rank_of(sq));
}

int parse_square(std::string_view name) {
  std::string lower(name);
  if (!lower.empty() && lower[0] >= 'A' && lower[0] <= 'Z') lower[0] = static_cast<char>(lower[0] - 'A' + 'a');
  auto fr = parse_algebraic(lower, kFiles, kRanks);
  return fr ? square_at(fr->file, fr->rank) : kNoSquare;
}

Line line_between(int from, int to) {
  int df = file_of(to) - file_of(from);
  int dr = rank_of(to) - rank_of(from);
  if (from == to || (df != 0 && dr != 0 && std::abs(df) != std::abs(dr))) return {};
  int sf = (df > 0) - (df < 0);
  int sr = (dr > 0) - (dr < 0);
  for (int d = 0; d < kDirections; ++d)
    if (kDirFile[d] == sf && kDirRank[d] == sr) return {d, std::max(std::abs(df), std::abs(dr))};
  return {};
}

namespace {

struct RayTable {
  Ray rays[kSquares][kDirections];
  RayTable() {
    for (int sq = 0; sq < kSquares; ++sq)
      for (int d = 0; d < kDirections; ++d) {
        Ray& r = rays[sq][d];
        int f = file_of(sq) + kDirFile[d], k = rank_of(sq) + kDirRank[d];
        while (on_board(f, k)) {
          r.squares[r.length++] = static_cast<int8_t>(square_at(f, k));
          f += kDirFile[d];
          k += kDirRank[d];
        }
      }
  }
};

const RayTable& ray_table() {
  static const RayTable table;
  return table;
}

// Fixed keys from a fixed seed (splitmix64), so keys are the same in every run.
struct KeyTable {
  uint64_t pieces[kSquares][21];
  uint64_t side;
  KeyTable() {
    uint64_t state = 0x436f20746f616e21ull;  // "Co toan!"
    auto next = [&state] {
      uint64_t z = (state += 0x9e3779b97f4a7c15ull);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      return z ^ (z >> 31);
    };
    for (auto& sq : pieces)
      for (auto& k : sq) k = next();
    side = next();
  }
};

const KeyTable& key_table() {
  static const KeyTable table;
  return table;
}

}  // namespace

const Ray& ray(int sq, int direction) {
  return ray_table().rays[sq][direction];
}

Board start_board() {
  Board b;
  for (int n = 1; n <= 9; ++n) {
    b.put(square_at(n - 1, 0), make_piece(Side::First, n));
    b.put(square_at(kFiles - n, kRanks - 1), make_piece(Side::Second, n));
  }
  b.put(kZeroHome[0], make_piece(Side::First, 0));
  b.put(kZeroHome[1], make_piece(Side::Second, 0));
  return b;
}

uint64_t piece_key(int sq, Piece p) {
  return key_table().pieces[sq][p];
}
uint64_t side_key() {
  return key_table().side;
}

uint64_t board_key(const Board& b, Side to_move) {
  uint64_t k = to_move == Side::Second ? side_key() : 0;
  for (int sq = 0; sq < kSquares; ++sq)
    if (b.cell[sq] != kEmpty) k ^= piece_key(sq, b.cell[sq]);
  return k;
}

}  // namespace sb::cotoan
