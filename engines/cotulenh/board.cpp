#include "engines/cotulenh/board.h"

#include <cstdlib>

#include "engines/common/squares.h"

namespace sb::cotulenh {

std::string site_name(int site) {
  return algebraic(file_of(site), rank_of(site));
}

int site_from_name(std::string_view name) {
  auto fr = parse_algebraic(name, kFiles, kRanks);
  return fr ? site_of(fr->file, fr->rank) : -1;
}

const Geometry& Geometry::get() {
  static const Geometry g = [] {
    Geometry t;
    for (int s = 0; s < kSites; ++s) {
      const int f = file_of(s), r = rank_of(s);
      t.sea[s] = f <= 1;
      t.land[s] = f >= 2;
      const bool river_mouth = (f == 3 || f == 4) && on_bank(s);
      t.navigable[s] = f <= 2 || river_mouth;
      for (int d = 0; d < kDirections; ++d) {
        int n = 0, ff = f + kDirFile[d], rr = r + kDirRank[d];
        while (ff >= 0 && ff < kFiles && rr >= 0 && rr < kRanks) {
          t.ray[s][d][n++] = static_cast<uint8_t>(site_of(ff, rr));
          ff += kDirFile[d];
          rr += kDirRank[d];
        }
        t.ray_len[s][d] = static_cast<uint8_t>(n);
      }
    }
    return t;
  }();
  return g;
}

Geometry::Line Geometry::line(int a, int b) {
  const int df = file_of(b) - file_of(a), dr = rank_of(b) - rank_of(a);
  if (a == b || (df != 0 && dr != 0 && std::abs(df) != std::abs(dr))) return {};
  const int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
  for (int d = 0; d < kDirections; ++d)
    if (kDirFile[d] == sf && kDirRank[d] == sr) return {d, std::max(std::abs(df), std::abs(dr))};
  return {};
}

bool crosses_at_ford(int a, int b, bool diagonal_fords) {
  auto ford_file = [](int s) { return file_of(s) == 5 || file_of(s) == 7; };
  if (file_of(a) == file_of(b)) return ford_file(a);
  return diagonal_fords && (ford_file(a) || ford_file(b));
}

}  // namespace sb::cotulenh
