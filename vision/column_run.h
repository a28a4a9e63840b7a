// The columns of a row that a round window admits, found by bisection with the window's own test, so that a run
// holds exactly the pixels a pixel-by-pixel test would (glare quantiles, the marks' centre of a face).
#pragma once

#include <algorithm>
#include <cmath>

namespace sb::vision {

// Columns a … b (none when a > b).
struct ColumnRun {
  int a, b;
};

// The columns of [lo, hi] that `inside` admits, for a test that admits a column whenever it admits any column
// between it and `centre` (a circle's row: the test grows with |u − centre| however it rounds).
template <typename Inside>
ColumnRun run_of(int lo, int hi, float centre, Inside&& inside) {
  if (lo > hi) return {lo, hi};
  const int mid = std::clamp(static_cast<int>(std::lround(centre)), lo, hi);
  if (!inside(mid)) return {mid + 1, mid};
  int a = lo, b = mid;  // the first column admitted lies in [a, b]
  while (a < b) {
    const int m = a + (b - a) / 2;
    if (inside(m))
      b = m;
    else
      a = m + 1;
  }
  int c = mid, d = hi;  // the last in [c, d]
  while (c < d) {
    const int m = d - (d - c) / 2;
    if (inside(m))
      c = m;
    else
      d = m - 1;
  }
  return {a, c};
}

}  // namespace sb::vision
