// Shared helpers for the draughts engine tests.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "engines/common/errors.h"
#include "engines/common/json.h"
#include "engines/draughts/draughts_rules.h"

namespace sb::draughts::testing {

inline std::unique_ptr<DraughtsRules> make(const std::string& id, const Json& options = Json::object()) {
  std::unique_ptr<Rules> r = make_draughts_rules(id, options);
  return std::unique_ptr<DraughtsRules>(static_cast<DraughtsRules*>(r.release()));
}

// The legal moves of `s`, in notation, sorted.
inline std::vector<std::string> move_list(const Rules& rules, const State& s) {
  std::vector<std::string> out;
  for (const Move& m : rules.legal_moves(s)) out.push_back(m.notation);
  std::sort(out.begin(), out.end());
  return out;
}

inline std::vector<std::string> move_list(const Rules& rules, const std::string& fen) {
  return move_list(rules, rules.from_fen(fen));
}

using Strings = std::vector<std::string>;

}  // namespace sb::draughts::testing
