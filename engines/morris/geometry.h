// The boards of the Morris family: their points, the names of the points, the
// lines drawn between them, which lines are mills, and each point's neighbours.
//
// Every board is a set of points on a square lattice (7×7 for morris9 and
// morris12, 5×5 for morris6, 3×3 for morris3), named like chess squares from
// White's side: files a.. left to right, ranks 1.. bottom to top. Points are
// numbered in **reading order**: top rank first, left to right within a rank,
// as RULES.md §2 fixes for morris9 and the same way for the other boards:
//   morris9, morris12: a7 d7 g7 b6 d6 f6 c5 d5 e5 a4 b4 c4 e4 f4 g4 c3 d3 e3 b2 d2 f2 a1 d1 g1
//   morris6:           a5 c5 e5 b4 c4 d4 a3 b3 d3 e3 b2 c2 d2 a1 c1 e1
//   morris3:           a3 b3 c3 a2 b2 c2 a1 b1 c1
// That number is the site index of the Rules interface, the bit of the point in
// a Points set and the position of its character in the FEN.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sb::morris {

enum class Variant : uint8_t { Three, Six, Nine, Twelve };

// A set of points, bit i for point i. 24 points fit in 32 bits.
using Points = uint32_t;
constexpr int kMaxPoints = 24;

constexpr Points bit(int point) { return Points{1} << point; }
// Bit counting by hand: without -mpopcnt (the build targets any x86-64),
// std::popcount becomes a library call that dominated perft.
constexpr int count(Points p) {
  p = p - ((p >> 1) & 0x55555555u);
  p = (p & 0x33333333u) + ((p >> 2) & 0x33333333u);
  return static_cast<int>((((p + (p >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}
// The lowest point of a non-empty set.
constexpr int first(Points p) { return std::countr_zero(p); }

struct Geometry {
  Variant variant = Variant::Nine;
  std::string id;               // "morris9"
  int lattice = 7;              // the points lie on a lattice×lattice grid
  int point_count = 0;          // 24, 16 or 9
  int pieces = 0;               // pieces per side at the start
  std::vector<std::string> names;            // by point, reading order
  std::vector<std::array<int, 2>> file_rank;  // by point: lattice column and row (0 = a, 0 = rank 1)
  Points all = 0;                            // every point
  std::vector<Points> mills;                 // every line of three points
  // Lines of two points that join the squares of morris6: they carry moves but never form a mill.
  std::vector<Points> links;
  std::array<Points, kMaxPoints> neighbours{};          // one step along a line
  std::array<std::array<Points, 4>, kMaxPoints> mills_through{};  // the mills a point lies on
  std::array<uint8_t, kMaxPoints> mill_count_through{};

  // -1 when `name` is not a point of this board.
  int point(std::string_view name) const;
  // Whether a and b lie on one drawn line (a mill or a link), adjacent or not.
  bool share_line(int a, int b) const;
};

// The board of each variant, built once.
const Geometry& geometry(Variant v);
// "morris9" → Nine ...; false when `id` is not a Morris game.
bool variant_of(std::string_view id, Variant* out);

}  // namespace sb::morris
