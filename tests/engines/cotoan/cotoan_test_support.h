// Helpers shared by the Cờ toán tests.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "engines/common/json.h"
#include "engines/cotoan/rules.h"

namespace sb::cotoan::testing {

inline std::unique_ptr<CotoanRules> make(const std::string& options_json = "{}") {
  return std::make_unique<CotoanRules>(Options::from_json(Json::parse(options_json)));
}

// A FEN with every piece of both sides: those listed ("8c5,5c6") on the squares
// given, the others on their start squares; "9x" leaves a piece out (captured).
inline std::string full_fen(char turn, const std::string& red, const std::string& blue) {
  auto side = [](const std::string& moved, bool red_side) {
    std::string home[10];
    for (int n = 1; n <= 9; ++n)
      home[n] = red_side ? sb::cotoan::square_name(sb::cotoan::square_at(n - 1, 0))
                         : sb::cotoan::square_name(sb::cotoan::square_at(9 - n, 10));
    home[0] = red_side ? "e2" : "e10";
    size_t i = 0;
    while (i < moved.size()) {
      size_t j = moved.find(',', i);
      if (j == std::string::npos) j = moved.size();
      home[moved[i] - '0'] = moved.substr(i + 1, j - i - 1);
      i = j + 1;
    }
    std::string out;
    for (int n = 0; n <= 9; ++n)
      if (home[n] != "x") {
        if (!out.empty()) out += ',';
        out += static_cast<char>('0' + n);
        out += home[n];
      }
    return out;
  };
  std::string fen(1, turn);
  fen += ":R";
  fen += side(red, true);
  fen += ":B";
  fen += side(blue, false);
  return fen;
}

inline std::vector<std::string> notations(const Rules& rules, const State& s) {
  std::vector<std::string> out;
  for (const Move& m : rules.legal_moves(s)) out.push_back(m.notation);
  std::sort(out.begin(), out.end());
  return out;
}

inline std::vector<std::string> captures(const Rules& rules, const State& s) {
  std::vector<std::string> out;
  for (const Move& m : rules.legal_moves(s))
    if (m.is_capture()) out.push_back(m.notation);
  std::sort(out.begin(), out.end());
  return out;
}

// The legal move written `notation`, or a default Move (empty notation) when none.
inline Move move_named(const Rules& rules, const State& s, const std::string& notation) {
  for (const Move& m : rules.legal_moves(s))
    if (m.notation == notation) return m;
  return {};
}

// The "text" of each calculation in a capture's details.
inline std::vector<std::string> calculation_texts(const Move& m) {
  std::vector<std::string> out;
  if (const Json* list = m.details.find("calculations"))
    for (const Json& c : list->as_array()) out.push_back(c.at("text").as_string());
  return out;
}

}  // namespace sb::cotoan::testing
