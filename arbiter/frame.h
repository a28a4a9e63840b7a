// One line of the referee's input (CONTRACT.md "Observations and the referee"):
// what the camera saw at one moment, or an operator command at that moment.
//   {"t": 1200, "board": {"e2": "R0", "a1": "R1"}, "conf": {"a1": 0.4}, "stable": true}
//   {"t": 5000, "command": "resign", "side": "white"}
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "engines/common/rules.h"

namespace sb::arbiter {

struct Frame {
  int64_t t = 0;               // milliseconds, never decreasing from line to line
  Observation board;           // one token per site of the game
  std::vector<float> conf;     // per site, 0..1: how sure the reader is; 1 where not given
  bool stable = true;          // false: a hand over the board, nothing to decide
  nlohmann::json command;      // an operator command instead of a board (object), else null
  int64_t line = -1;           // where it stands in its input file (1-based), if it comes from one

  bool is_command() const { return command.is_object(); }
};

// Reads one line. `where` names it in errors ("observations.jsonl line 12");
// `previous_t` is the time of the line before, if any. Throws InputError for bad
// JSON, an unknown square, a token that does not fit the game, a confidence out
// of 0..1 or a time earlier than the previous line's. Fields other than t,
// board, conf and stable (or a command's own) are ignored.
Frame parse_frame(const Rules& rules, std::string_view line, const std::string& where,
                  std::optional<int64_t> previous_t = std::nullopt);

// The board of a frame as the contract writes it: occupied sites only.
nlohmann::json board_json(const Rules& rules, const Observation& board);

// A frame as one observation line (the inverse of parse_frame).
nlohmann::json frame_json(const Rules& rules, const Frame& f);

}  // namespace sb::arbiter
