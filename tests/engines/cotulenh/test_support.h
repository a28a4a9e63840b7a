// Helpers for the Cờ tư lệnh tests: positions built piece by piece, moves as sorted
// notation lists.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "engines/common/errors.h"
#include "engines/cotulenh/cotulenh_rules.h"
#include "engines/cotulenh/position.h"

namespace sb::cotulenh::testing {

// A position from (site, FEN token) pairs, e.g. {{"f4", "T"}, {"g12", "c"}, {"c4", "(NF)"}}.
inline Position board(std::initializer_list<std::pair<const char*, const char*>> pieces, Side to_move = Side::First) {
  Position p;
  p.to_move = to_move;
  for (auto [sq, token] : pieces) {
    const int site = site_from_name(sq);
    if (site < 0) throw std::logic_error(std::string("bad test site ") + sq);
    // Parse the token through a one-rank FEN so tests use the FEN's own syntax.
    const int file = file_of(site);
    std::string row;
    if (file) row += std::to_string(file);
    row += token;
    if (file < kFiles - 1) row += std::to_string(kFiles - 1 - file);
    std::string fen;
    for (int r = kRanks - 1; r >= 0; --r) {
      fen += r == rank_of(site) ? row : "11";
      if (r) fen += '/';
    }
    fen += " r";
    p.at[site] = parse_fen(fen).at[site];
  }
  return p;
}

inline std::string fen_of(const Position& p) {
  return write_fen(p);
}

inline std::vector<std::string> sorted_moves(const CotulenhRules& rules, const Position& p) {
  std::vector<std::string> out;
  for (const Move& m : rules.legal_moves(rules.make_state(p))) out.push_back(m.notation);
  std::sort(out.begin(), out.end());
  return out;
}

// The site a written move starts from.
inline std::string from_of(const std::string& m) {
  const size_t i = m[0] == '(' ? m.find(')') + 1 : 1;
  return m.substr(i, m.find_first_of("-x@", i) - i);
}

// The moves that start from `from`, sorted.
inline std::vector<std::string> moves_from(const CotulenhRules& rules, const Position& p, const std::string& from) {
  std::vector<std::string> out;
  for (const std::string& m : sorted_moves(rules, p))
    if (from_of(m) == from) out.push_back(m);
  return out;
}

inline bool has_move(const CotulenhRules& rules, const Position& p, const std::string& move) {
  const auto all = sorted_moves(rules, p);
  return std::find(all.begin(), all.end(), move) != all.end();
}

// The legal move written `notation` (fails the test when there is none).
inline Move move_of(const CotulenhRules& rules, const Position& p, const std::string& notation) {
  for (const Move& m : rules.legal_moves(rules.make_state(p)))
    if (m.notation == notation) return m;
  ADD_FAILURE() << "no legal move " << notation << " in " << write_fen(p);
  return Move{};
}

inline Position play(const CotulenhRules& rules, const Position& p, const std::string& moves) {
  return CotulenhRules::position(rules.play(rules.make_state(p), moves));
}

// The reason the rules give for refusing `move`.
inline std::string refusal(const CotulenhRules& rules, const Position& p, const std::string& move) {
  try {
    rules.parse_move(rules.make_state(p), move);
  } catch (const IllegalMoveError& e) {
    return e.reason();
  }
  return "(legal)";
}

inline std::vector<std::string> list(std::initializer_list<const char*> l) {
  std::vector<std::string> v(l.begin(), l.end());
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace sb::cotulenh::testing
