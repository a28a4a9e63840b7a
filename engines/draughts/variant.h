// The three games of the draughts family differ only in the fixed facts below
// (RULES.md §1); everything a club may change lives in DraughtsOptions instead.
#pragma once

#include <string>
#include <string_view>

#include "engines/common/types.h"

namespace sb::draughts {

enum class VariantKind : uint8_t { Brazilian, International, English };

struct Variant {
  VariantKind kind = VariantKind::Brazilian;
  std::string id;                    // "brazilian", "international", "english"
  int size = 8;                      // board is size × size; size*size/2 playable squares
  bool men_capture_backward = true;  // English men capture forward only
  bool flying_kings = true;          // English kings move and capture one square at a time
  bool majority_rule = true;         // the capture taking the most pieces is compulsory
  Side first_to_move = Side::First;  // English: Black (Side::Second) starts
  int pdn_game_type = 26;            // PDN GameType tag: 26, 20, 21
  int men_per_side = 12;

  int squares() const { return size * size / 2; }
};

// The variant of a game id; nullptr when `id` is not a draughts game.
const Variant* find_variant(std::string_view id);
// The variant whose PDN GameType number is `type`; nullptr when none.
const Variant* find_variant_by_game_type(int type);

}  // namespace sb::draughts
