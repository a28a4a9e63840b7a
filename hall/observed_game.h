// Observation files for driving referees without a camera: a random legal game
// of an engine, written as the observation lines a camera would give
// (CONTRACT.md "Observations"), one stable frame per position, at a player's
// pace. The tests and `smartboard bench hall` use them; the truth (moves and
// final position) comes along to check what the hall shows.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engines/common/rules.h"

namespace sb::hall {

struct ObservedGameOptions {
  int max_plies = 60;            // a game longer than this is cut (the referee then just stops reading)
  uint64_t seed = 1;
  int64_t think_ms_low = 5000;   // the time a player takes for a move: uniform in [low, high]
  int64_t think_ms_high = 15000;
};

struct ObservedGame {
  std::vector<std::string> lines;     // JSONL observation lines
  std::vector<std::string> notations; // the true moves
  std::string final_fen;
  bool over = false;                  // the rules ended the game
};

ObservedGame random_observed_game(const Rules& rules, const ObservedGameOptions& options);

}  // namespace sb::hall
