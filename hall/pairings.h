// A round's pairings: which players sit at which board, playing which game with
// which rule options. Read from CSV or JSON (by the file's extension, or by its
// first character when the extension says neither).
//
// CSV: a header line naming the columns, in any order, case-insensitive:
//   board, first (or white / red / player1), second (or black / blue / player2),
//   game, and optionally options (a JSON object, quoted as CSV quotes a field).
//   board,white,black,game,options
//   1,An,Binh,brazilian,
//   2,Chi,Dung,cotoan,"{""target"": 15}"
// JSON: {"event"?: str, "round"?: int|str, "boards": [{"board": 1, "game": "brazilian",
//   "first": "An", "second": "Binh", "options"?: {...}}, ...]} or just the list; the
//   players may also be given as "white"/"black", "red"/"blue" or "players": [a, b].
//
// Every mistake is an InputError naming the file, the line (CSV) or entry (JSON)
// and what is wrong.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sb::hall {

struct Pairing {
  int board = 0;
  std::string first, second;  // players: White / Red, Black / Blue
  std::string game;           // a game id
  nlohmann::json options = nlohmann::json::object();  // rule options (checked against the game)
};

struct Pairings {
  std::string event;  // may be empty
  std::string round;  // may be empty
  std::map<int, Pairing> boards;

  const Pairing* find(int board) const;
};

Pairings read_pairings(const std::string& path);
// `name` stands for the file in messages.
Pairings parse_pairings_csv(const std::string& text, const std::string& name);
Pairings parse_pairings_json(const std::string& text, const std::string& name);

nlohmann::json to_json(const Pairing& p);

}  // namespace sb::hall
