// The engine's algebraic notation (RULES.md §4, extended for stacks).
//
//   Tf4-f6      a piece moves (also onto its own pieces: boarding)
//   Ae3xe7      takes and stands in the target's place
//   Ne3@e7      takes in place (the capturer stays)
//   (TI)f4-f6   a stack moves as one; letters bottom to top
//   (NTF)c10-c8/Ic10-d10
//               a stack splits: each group that acts is written from the stack's site,
//               bottom piece first, joined by '/'. Pieces not written stay.
// An air force flying into an enemy air-defence zone is written as a move to the
// first site of the zone ("Fe2-e5": shot down there); one that strikes inside a
// zone as a capture ("Fe2xe6": one-for-one). Piece letters are upper case for both
// sides.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engines/cotulenh/movegen.h"

namespace sb::cotulenh {

std::string turn_notation(const Position& pos, const Turn& t);

// One action as written, before any rule is applied.
struct WrittenAction {
  std::vector<Kind> pieces;  // the group's letters as written
  int from = -1;
  int to = -1;
  char sep = '-';  // '-', 'x' or '@'
  std::string text;
};

// Splits and reads the text; throws InputError when it is not written as a move
// (naming what is wrong and where).
std::vector<WrittenAction> read_notation(std::string_view text);

// The same turn whatever order its actions are written in.
std::string canonical_key(const std::vector<WrittenAction>& actions);

}  // namespace sb::cotulenh
