// The plain values that every game shares: sides, what a camera sees on a site,
// the state of a game, scores and moves.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engines/common/json.h"

namespace sb {

// The first side is the one listed first in the game's name for its sides:
// White in draughts and Morris, Red in Cờ toán and Cờ tư lệnh. Who moves first
// is a property of the position (English checkers starts with Black).
enum class Side : uint8_t { First = 0, Second = 1 };

constexpr Side opponent(Side s) { return s == Side::First ? Side::Second : Side::First; }
constexpr int index_of(Side s) { return static_cast<int>(s); }

// What a camera sees on one site: nothing, or a piece of a side with an optional
// visible identity (Cờ toán: the dot count '0'..'9'; Cờ tư lệnh: the letter of
// the top piece of a stack). Draughts and Morris show only the side; a draughts
// king is not told from a man (the arbiter knows it from the game's history).
struct Token {
  char side = 0;  // 0: empty; else the side's letter ('W', 'B', 'R')
  char kind = 0;  // 0: no identity; else one printable character

  bool empty() const { return side == 0; }
  std::string str() const {
    std::string s;
    if (side) s += side;
    if (side && kind) s += kind;
    return s;
  }
  bool operator==(const Token&) const = default;
};

// Parses "W", "B", "R5", "BT"; throws InputError on anything else. Whether the
// token fits a given game is for that game's Rules::valid_token.
Token parse_token(std::string_view text);

// The camera's view of a whole board: one token per site, indexed by site index.
struct Observation {
  std::vector<Token> sites;
  bool operator==(const Observation&) const = default;
};

// Points per side, indexed by index_of(Side).
using Score = std::array<int, 2>;

struct Outcome {
  enum class Status : uint8_t { Ongoing, Win, Draw };
  Status status = Status::Ongoing;
  Side winner = Side::First;  // meaningful when status == Win
  std::string reason;         // "no legal move", "threefold repetition", "captured the 0", ...

  bool over() const { return status != Status::Ongoing; }
  // "1-0" (the first side won), "0-1", "1/2-1/2", or "ongoing".
  std::string result() const {
    switch (status) {
      case Status::Ongoing: return "ongoing";
      case Status::Draw: return "1/2-1/2";
      case Status::Win: return winner == Side::First ? "1-0" : "0-1";
    }
    return "ongoing";
  }
  static Outcome ongoing() { return {}; }
  static Outcome win(Side s, std::string why) { return {Status::Win, s, std::move(why)}; }
  static Outcome draw(std::string why) { return {Status::Draw, Side::First, std::move(why)}; }
};

// One legal move, as the generic interface hands it out. Only the engine that
// produced a Move may apply it: `code` is that engine's exact private encoding.
struct Move {
  std::string notation;       // canonical notation, unique among the legal moves of the position
  int from = -1;              // site index; -1 for a placement (Morris)
  int to = -1;                // where the moving piece ends; == from for a capture in place
  std::vector<int> path;      // every landing site in order, ending with `to` (draughts multi-captures)
  std::vector<int> captured;  // sites whose pieces leave the board (Morris: the removed point)
  int points = 0;             // points this move scores for the mover
  Json details;               // game-specific facts, an object or null (Cờ toán: pair, op, calculations)
  std::vector<int32_t> code;  // engine-private

  bool is_capture() const { return !captured.empty(); }
};

// A change on the board that a physical move explains but the rules forbid.
struct IllegalChange {
  std::string reason;        // in words a player understands: "a capture is mandatory (22x13)"
  std::vector<int> squares;  // the sites involved, for the display
};

}  // namespace sb
