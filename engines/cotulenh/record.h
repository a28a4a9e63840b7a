// The game record in the seed's own symbols ("Quy tắc ghi biên bản trận đấu"), for
// the arbiter's record writer. Each legal move also carries its record text in
// Move::details["record"] (default style), so a writer holding only the generic
// Rules needs nothing from here.
//
//   _   a move                         T3.5_5.5
//   @   a capture (standing in place)  P2.3@T8.3
//   @̲   a capture in place (underlined @, U+0332)
//   @”  an air force shot down         K1.4@”4.4
//   ><  one-for-one                    K1.4><CX6.4
//   >   threat on the commander        …>*11.6
//   ^   a decisive blow (a battle or the game ends)
//   (TB) a stack, bottom to top; a stack splitting writes each group after it:
//        (HTK)H9.2@H11.2/T9.2_9.4
//   𝐓   a hero's letter in bold; pieces promoted by the move follow in braces {𝐓5.5}
//   !!  lost    =  draw    $  a rule violation
// Squares are the seed's "row.column" (row 0-11 from Red's side, column 0-10 from the
// sea): f4 is 3.5.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engines/common/types.h"
#include "engines/cotulenh/movegen.h"

namespace sb::cotulenh {

struct RecordStyle {
  // Vietnamese initials (H navy, T tank, K air force, B infantry as in the seed; TL
  // commander, SCH headquarters, CB engineer, P artillery, CX anti-aircraft, TLPK
  // missile, DQ militia), or the engine's letters (C H I E T A G S F N M).
  bool seed_letters = true;
  // The seed's "row.column" squares, or algebraic ("f4").
  bool seed_squares = true;
};

std::string record_square(int site, const RecordStyle& style = {});
std::string record_turn(const Position& before, const Turn& t, const Options& o, const RecordStyle& style = {});
// The same when the position after the turn and the heroes it made (apply_turn's
// `promoted`) are known already.
std::string record_turn(const Position& before, const Turn& t, const Position& after,
                        const std::vector<std::pair<int, int>>& promoted, const Options& o,
                        const RecordStyle& style = {});
// A move the referee refused, as the record writes it: "$" and the move as attempted.
std::string record_violation(std::string_view attempted);
// The record's closing mark for a finished game, from `side`'s point of view:
// "!!" lost, "=" draw, "" won or ongoing.
std::string record_result(const Outcome& outcome, Side side);

}  // namespace sb::cotulenh
