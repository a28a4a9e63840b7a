// An optional capability of an engine, beside the Rules interface: building only
// the legal moves that may change given sites. The referee looks for the reply
// that explains a few changed sites after each candidate first move; where a Move
// (with its notation, record and details) costs far more to build than to generate,
// building every reply costs more than the whole search.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "engines/common/rules.h"

namespace sb {

class MovesTouching {
 public:
  virtual ~MovesTouching() = default;
  // The legal moves of `s` that may change one of `sites` (sorted ascending), each
  // with its index in Rules::legal_moves(s), indices ascending: at least every move
  // naming one of them as from, to, on its path or among the captured, and every
  // move naming no site; it may list more. `count` receives legal_moves(s).size().
  virtual std::vector<std::pair<int, Move>> legal_moves_touching(const State& s, const std::vector<int>& sites,
                                                                 size_t& count) const = 0;
};

}  // namespace sb
