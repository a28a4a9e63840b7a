// The rule options of Cờ toán: every point the seed text leaves open, with the
// defaults RULES.md §3 fixes. A plain value with a JSON round trip; configs/cotoan.json
// holds the defaults under "rules".
#pragma once

#include <string>

#include "engines/common/json.h"
#include "engines/common/types.h"

namespace sb::cotoan {

// Which pieces standing between the front piece and the target stop a capture.
enum class BlockBy : uint8_t {
  Any,    // "any": every piece blocks (RULES.md default)
  Enemy,  // "enemy": only opposing pieces block, own pieces are passed over (the seed's literal words)
};

// What a division with a remainder yields.
enum class Division : uint8_t {
  One,   // "one": the remainder when there is one, else the quotient (8÷5 → 3, 8÷4 → 2)
  Both,  // "both": the quotient and the remainder each serve, when not 0 (8÷5 → 1 or 3)
};

struct Options {
  // Whether the 0 may be a partner in a calculation. It can only ever be the front
  // piece, since the rear piece moves and the 0 never does.
  bool zero_partner = false;
  BlockBy block_by = BlockBy::Any;
  Division division = Division::One;
  // Points that end the game for the side reaching them; 0 plays without a target.
  int target_score = 10;
  // Who moves first from the start position (a position read from FEN says it itself).
  Side first = Side::First;
  // Whether a side that can capture must (the seed: captures are a choice).
  bool compulsory_capture = false;

  // Every key, defaults filled in: {"block_by": "any", "compulsory_capture": false,
  // "division": "one", "first": "red", "target_score": 10, "zero_partner": false}.
  Json to_json() const;
  // Missing keys take the defaults; an unknown key or a bad value throws InputError.
  static Options from_json(const Json& j);

  bool operator==(const Options&) const = default;
};

}  // namespace sb::cotoan
