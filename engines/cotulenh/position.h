// A Cờ tư lệnh position as a plain value: the stacks on the 132 sites, the side to
// move, the points each side has won and the pieces each side has lost (the battle
// endings count losses, not absences, so a study position with few pieces is no
// finished battle). FEN reading and writing, extended for stacks and heroes.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "engines/common/rules.h"
#include "engines/cotulenh/board.h"
#include "engines/cotulenh/pieces.h"

namespace sb::cotulenh {

struct Position {
  std::array<Stack, kSites> at{};
  Side to_move = Side::First;
  Score points{0, 0};
  // lost[side][kind]: pieces of that side that have left the board.
  std::array<std::array<uint8_t, kKindCount>, 2> lost{};

  bool operator==(const Position&) const = default;
};

// The immutable value a State carries.
struct StoredPosition : PositionData {
  explicit StoredPosition(const Position& p) : pos(p) {}
  Position pos;
};

// Where a stack whose bottom piece is `carrier` may stand: a navy on navigable water,
// an air force anywhere (over open sea only when `air_over_sea`), every other piece on
// land (files c-k).
bool may_stand(Kind carrier, int site, bool air_over_sea);

// RULES.md §4 start position.
inline constexpr std::string_view kStartFen =
    "6c4/1n2fh1hf2/3a2s2a1/2n1gt1tg2/2ie2m2ei/11/11/2IE2M2EI/2N1GT1TG2/3A2S2A1/1N2FH1HF2/6C4 r";

// FEN: "<ranks 12..1, '/'-separated> <r|b> [<red points> <blue points> [<lost>]]".
// A site is a letter (Red upper case, Blue lower case), "+" before a hero's letter,
// a run of empty sites as a number (1-11), or a stack in parentheses listing its
// pieces bottom to top: "(NTF)", "(T+I)". <lost> lists the pieces each side has
// lost, in its case ("Nnf"), or "-". Throws InputError naming the problem.
// Terrain is checked with an air force allowed over the sea; the rules check the rest.
Position parse_fen(std::string_view fen);
// Leaves out points and losses when both are zero, so the start is kStartFen.
std::string write_fen(const Position& p);

// Rows from rank 12 down, sites as letters, "." empty land, "~" empty water, stacks
// in parentheses; the river between ranks 7 and 6 drawn as a line.
std::string ascii_board(const Position& p);

}  // namespace sb::cotulenh
