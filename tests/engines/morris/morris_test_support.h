// Helpers for the Morris rule tests: positions written as lists of points.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "engines/common/rules.h"

namespace sb::morris_test {

// A FEN with White on `white`, Black on `black` (space-separated point names).
inline std::string fen_of(const Rules& rules, const std::string& white, const std::string& black, char side,
                          int white_hand, int black_hand) {
  std::string board(rules.site_count(), '.');
  auto put = [&](const std::string& points, char c) {
    std::istringstream in(points);
    std::string p;
    while (in >> p) {
      const int i = rules.site_index(p);
      if (i < 0) throw std::runtime_error("test: no point " + p);
      board[i] = c;
    }
  };
  put(white, 'W');
  put(black, 'B');
  return board + " " + side + " " + std::to_string(white_hand) + " " + std::to_string(black_hand);
}

inline std::vector<std::string> notations(const Rules& rules, const State& s) {
  std::vector<std::string> out;
  for (const Move& m : rules.legal_moves(s)) out.push_back(m.notation);
  std::sort(out.begin(), out.end());
  return out;
}

// The legal moves whose notation starts with `prefix`.
inline std::vector<std::string> notations_from(const Rules& rules, const State& s, const std::string& prefix) {
  std::vector<std::string> out;
  for (const std::string& n : notations(rules, s))
    if (n.compare(0, prefix.size(), prefix) == 0) out.push_back(n);
  return out;
}

inline std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  std::string w;
  while (in >> w) out.push_back(w);
  return out;
}

}  // namespace sb::morris_test
