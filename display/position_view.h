// What stands on the board, read from a game's FEN (RULES.md notations), in the
// form the screen draws: one entry per occupied site, with what a player sees on
// the piece (Cờ toán dots, Cờ tư lệnh symbols and stacks, draughts kings) and
// the Morris pieces still in hand.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sb::display {

struct PieceView {
  std::string site;
  std::string side;               // "white", "black", "red", "blue"
  std::string label;              // Cờ toán: the number; Cờ tư lệnh: the letter of the top piece
  bool king = false;              // draughts
  bool hero = false;              // Cờ tư lệnh
  std::vector<std::string> stack; // Cờ tư lệnh: every piece of a stack, bottom first (one entry: a lone piece)
  bool operator==(const PieceView&) const = default;
};

struct PositionView {
  std::string to_move;                 // side name
  std::vector<PieceView> pieces;       // in the order the FEN lists them
  std::map<std::string, int> in_hand;  // Morris: side → pieces not yet placed
};

// The family of a game id: "draughts", "morris", "cotoan", "cotulenh"; throws
// InputError for an unknown id.
std::string game_family(const std::string& game);
// The two side names of a game, first side first.
std::vector<std::string> side_names(const std::string& game);

// Reads `fen`. `sites_in_reading_order` is the board's sites, top row first, left
// to right (board_model.h reading_order): Morris boards list their points so.
// Throws InputError naming what is wrong in the FEN and where.
PositionView position_view(const std::string& game, const std::string& fen,
                           const std::vector<std::string>& sites_in_reading_order);

nlohmann::json to_json(const PositionView& v);

}  // namespace sb::display
