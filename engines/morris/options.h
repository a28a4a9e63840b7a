// The rule options of the Morris games (RULES.md §2), as a plain struct with a
// JSON round trip. Missing keys take the defaults; unknown keys and wrong values
// are errors. morris3 has no removals (its first mill wins), so it knows only
// `flying` and `move_limit_plies`.
#pragma once

#include <cstdint>

#include "engines/common/json.h"
#include "engines/morris/geometry.h"

namespace sb::morris {

enum class RemoveFromMill : uint8_t {
  OnlyIfAllInMills,  // "only_if_all_in_mills": a piece in a mill is safe while any opposing piece is not in one
  Always,            // "always": any opposing piece may be removed
};

struct MorrisOptions {
  // A player with exactly 3 pieces on the board (and none in hand) may move a
  // piece to any empty point. Default on, except morris3 (whose 3 pieces would
  // always fly).
  bool flying = true;
  RemoveFromMill remove_from_mill = RemoveFromMill::OnlyIfAllInMills;
  // Pieces removed by a move that closes two mills at once: 1 (default) or 2.
  int double_mill_removals = 1;
  // The game is drawn after this many plies in a row with no removal and no
  // placement (100 = 50 moves each); 0 turns the rule off.
  int move_limit_plies = 100;

  static MorrisOptions defaults(Variant v);
  // Throws InputError naming the game and the option.
  static MorrisOptions from_json(const Json& options, Variant v);
  // Every option of the variant, complete; from_json(to_json(v), v) == *this.
  Json to_json(Variant v) const;

  bool operator==(const MorrisOptions&) const = default;
};

}  // namespace sb::morris
