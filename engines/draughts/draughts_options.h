// The rule options a club may set for a draughts game (the game's JSON config,
// or `--options`). A plain value with a JSON round trip; unknown keys and bad
// values are errors, never ignored.
#pragma once

#include <string>

#include "engines/common/json.h"
#include "engines/draughts/variant.h"

namespace sb::draughts {

enum class DrawRules : uint8_t {
  // The seed text: threefold repetition; 25 moves each with no capture and no man move.
  Seed,
  // FMJD rules for 64-square draughts (7.2.3-7.2.8, RULES.md §1).
  Fmjd64,
  // FMJD rules for international draughts: threefold; 25 moves each of kings only;
  // the 16-move and 5-move endgame rules.
  Fmjd,
};

struct DraughtsOptions {
  DrawRules draw_rules = DrawRules::Seed;
  // Squares in output as numbers ("22-18") or algebraic ("c3-d4"). Input takes both.
  bool algebraic = false;

  bool operator==(const DraughtsOptions&) const = default;
};

// The defaults of a game: international plays FMJD draw rules, the others the seed's.
DraughtsOptions default_options(const Variant& variant);

// Keys: "draw_rules": "seed" | "fmjd64" | "fmjd"; "notation": "numeric" | "algebraic".
// Missing keys take the game's defaults. Throws InputError on anything else.
DraughtsOptions options_from_json(const Json& json, const Variant& variant);
Json options_to_json(const DraughtsOptions& options);

std::string draw_rules_name(DrawRules rules);

}  // namespace sb::draughts
