// PDN 3.0 game files for the draughts family: reading (tags, move text,
// comments; variations and NAGs are skipped) and writing, plus the two bridges
// to the rules: replaying a read game, and recording a played one.
//
// Reading and writing work on the text alone (PdnGame); replay_pdn checks every
// move against the rules of the game's GameType tag (26 Brazilian, 20
// international, 21 English) from its FEN tag or the start.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engines/common/json.h"
#include "engines/common/rules.h"
#include "engines/draughts/draughts_rules.h"

namespace sb::draughts {

struct PdnTag {
  std::string name;
  std::string value;
  bool operator==(const PdnTag&) const = default;
};

struct PdnMove {
  std::string text;     // the move as written, without its number or !? marks: "32-28", "47x38x24"
  std::string comment;  // the comment right after the move ("" when none)
  int line = 0;         // where the move stood in the file (1-based; 0 when not read from a file)
  int column = 0;
};

struct PdnGame {
  std::vector<PdnTag> tags;  // in file order
  std::string intro;         // a comment before the first move
  std::vector<PdnMove> moves;
  // The game termination marker as written: "1-0", "0-1", "1/2-1/2", "*", or the
  // 2-point forms "2-0", "0-2", "1-1", "0-0".
  std::string result = "*";
  int first_move_number = 1;
  // The first move is the second half of a move pair (written "1..."), e.g. a
  // game from a FEN where the side that normally moves second is to move.
  bool starts_with_second_half = false;
  int line = 0;  // the line where the game starts in its file

  const std::string* tag(std::string_view name) const;  // nullptr when absent
  void set_tag(const std::string& name, const std::string& value);
};

// Reads every game of a PDN file. Throws InputError naming `source`, the line and
// column, and the problem: "games.pdn:12:5: unterminated comment".
std::vector<PdnGame> read_pdn(std::string_view text, std::string_view source = "pdn");

// One game as PDN text: tags, a blank line, the move text wrapped at 80 columns
// ending with the result, and a blank line.
std::string write_pdn(const PdnGame& game);
std::string write_pdn(const std::vector<PdnGame>& games);

// "1-0", "0-1", "1/2-1/2" or "*" for any termination marker.
std::string normalized_result(const std::string& result);

// The game id a PDN game is for: from its GameType tag (its first number), else
// `fallback` (PDN's own default is 20, international). Throws InputError for a
// GameType this engine does not play.
std::string pdn_game_id(const PdnGame& game, std::string_view fallback = "international");

struct PdnReplay {
  std::unique_ptr<DraughtsRules> rules;
  std::vector<Move> moves;
  std::vector<State> states;  // states[0] the start; states[i + 1] after moves[i]
};

// Plays a read game with the rules of `game_id` and `options`. Throws InputError
// (IllegalMoveError for a move the rules forbid) naming `source`, the move's line
// and column, its number and the reason.
PdnReplay replay_pdn(const PdnGame& game, std::string_view game_id, const Json& options = Json::object(),
                     std::string_view source = "pdn");

// The GameType tag of games written in `variant` with numeric or algebraic squares:
// the bare number where that is the game's usual PDN notation ("20", "21", and "26"
// algebraic), else the full form naming the notation ("26,W,8,8,N2,0").
std::string pdn_game_type_tag(const Variant& variant, bool algebraic);

// The record of a game played with `rules` from `start`: GameType, SetUp and FEN (when the
// start is not the initial position), the given tags (Event, White, ... in the
// order given) and Result, the moves in the game's notation.
PdnGame record_pdn(const DraughtsRules& rules, const State& start, const std::vector<Move>& moves,
                   const std::string& result = "*", const std::vector<PdnTag>& tags = {});

}  // namespace sb::draughts
