#include "engines/morris/geometry.h"

#include <algorithm>
#include <set>
#include <sstream>

#include "engines/common/squares.h"

namespace sb::morris {

namespace {

// The drawn lines of each board, point names in order along the line. A line of
// three is a mill; a line of two (morris6 only) is a link that carries moves.
struct BoardText {
  Variant variant;
  const char* id;
  int lattice;
  int pieces;
  std::vector<const char*> lines;
};

const std::vector<const char*>& nine_lines() {
  static const std::vector<const char*> lines = {
      // the three squares, side by side
      "a7 d7 g7", "g7 g4 g1", "g1 d1 a1", "a1 a4 a7",  //
      "b6 d6 f6", "f6 f4 f2", "f2 d2 b2", "b2 b4 b6",  //
      "c5 d5 e5", "e5 e4 e3", "e3 d3 c3", "c3 c4 c5",  //
      // the four lines joining the middles of the sides
      "d7 d6 d5", "a4 b4 c4", "e4 f4 g4", "d3 d2 d1"};
  return lines;
}

BoardText board_text(Variant v) {
  switch (v) {
    case Variant::Three:
      return {v, "morris3", 3, 3,
              {"a3 b3 c3", "a2 b2 c2", "a1 b1 c1", "a1 a2 a3", "b1 b2 b3", "c1 c2 c3", "a1 b2 c3", "a3 b2 c1"}};
    case Variant::Six:
      return {v,
              "morris6",
              5,
              6,
              {"a5 c5 e5", "e5 e3 e1", "e1 c1 a1", "a1 a3 a5", "b4 c4 d4", "d4 d3 d2", "d2 c2 b2", "b2 b3 b4",  //
               "c5 c4", "a3 b3", "e3 d3", "c1 c2"}};
    case Variant::Nine:
      return {v, "morris9", 7, 9, nine_lines()};
    case Variant::Twelve: {
      BoardText t{v, "morris12", 7, 12, nine_lines()};
      for (const char* d : {"a1 b2 c3", "a7 b6 c5", "g7 f6 e5", "g1 f2 e3"}) t.lines.push_back(d);
      return t;
    }
  }
  return {};
}

std::vector<std::string> split(const char* text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  std::string w;
  while (in >> w) words.push_back(w);
  return words;
}

Geometry build(Variant v) {
  const BoardText text = board_text(v);
  Geometry g;
  g.variant = v;
  g.id = text.id;
  g.lattice = text.lattice;
  g.pieces = text.pieces;

  // The points are those the lines name; reading order sorts them by rank (top
  // first), then file.
  std::set<std::pair<int, int>> order;  // (-rank, file)
  for (const char* line : text.lines)
    for (const std::string& name : split(line)) {
      auto fr = parse_algebraic(name, text.lattice, text.lattice);
      order.insert({-fr->rank, fr->file});
    }
  for (const auto& [neg_rank, file] : order) {
    g.names.push_back(algebraic(file, -neg_rank));
    g.file_rank.push_back({file, -neg_rank});
  }
  g.point_count = static_cast<int>(g.names.size());
  g.all = bit(g.point_count) - 1;

  for (const char* line : text.lines) {
    std::vector<int> pts;
    for (const std::string& name : split(line)) pts.push_back(g.point(name));
    Points set = 0;
    for (int p : pts) set |= bit(p);
    for (size_t i = 0; i + 1 < pts.size(); ++i) {
      g.neighbours[pts[i]] |= bit(pts[i + 1]);
      g.neighbours[pts[i + 1]] |= bit(pts[i]);
    }
    if (pts.size() == 3) {
      g.mills.push_back(set);
      for (int p : pts) g.mills_through[p][g.mill_count_through[p]++] = set;
    } else {
      g.links.push_back(set);
    }
  }
  return g;
}

}  // namespace

int Geometry::point(std::string_view name) const {
  for (int i = 0; i < point_count; ++i)
    if (names[i] == name) return i;
  return -1;
}

bool Geometry::share_line(int a, int b) const {
  const Points both = bit(a) | bit(b);
  for (Points m : mills)
    if ((m & both) == both) return true;
  for (Points l : links)
    if ((l & both) == both) return true;
  return false;
}

const Geometry& geometry(Variant v) {
  static const std::array<Geometry, 4> boards = {build(Variant::Three), build(Variant::Six), build(Variant::Nine),
                                                  build(Variant::Twelve)};
  return boards[static_cast<int>(v)];
}

bool variant_of(std::string_view id, Variant* out) {
  for (Variant v : {Variant::Three, Variant::Six, Variant::Nine, Variant::Twelve})
    if (geometry(v).id == id) {
      *out = v;
      return true;
    }
  return false;
}

}  // namespace sb::morris
