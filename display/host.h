// What the display asks of the program that runs the game. The app implements it
// (the referee, or a replay of recorded events); the display never reaches into
// the arbiter's referee or the engines itself.
//
// Every method may be called from the server's network threads, concurrently
// with the app's own work: implementations must be thread-safe.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace sb::display {

// Which moves the teaching mode asks for. An empty `from` and captures_only false
// is every legal move of the side to move.
struct MoveQuery {
  std::string fen;        // the position shown on the screen
  std::string from;       // only moves of the piece on this site
  bool captures_only = false;
};

// The answer to an operator command. `status` is an HTTP status: 200 accepted,
// 400 a malformed command, 409 a command that does not fit the game's state.
struct CommandReply {
  int status = 200;
  nlohmann::json body = nlohmann::json::object();  // {"ok": true, ...} or {"error": "..."}

  static CommandReply ok(nlohmann::json extra = nlohmann::json::object());
  static CommandReply error(int status, const std::string& message);
};

// A game record to download.
struct Record {
  std::string content_type;  // "application/x-pdn", "text/plain; charset=utf-8", ...
  std::string filename;      // suggested file name
  std::string body;
};

class GameHost {
 public:
  virtual ~GameHost() = default;

  // The game id (CONTRACT.md game ids).
  virtual std::string game() const = 0;
  // The board model the screen draws (site positions in millimetres and the
  // drawing primitives), as JSON. See display/board_model.h for what the page reads.
  virtual nlohmann::json board_model() const = 0;
  // The position before any event: the start position or the FEN the game was
  // set up from. Events carry the FEN after them.
  virtual std::string start_fen() const = 0;
  // The legal moves answering `query`, one object per move in the form of
  // `smartboard moves --json` ({"notation", "from", "to", "captured", ...}).
  // Throws InputError on a FEN or site the game does not know.
  virtual nlohmann::json legal_moves(const MoveQuery& query) const = 0;
  // An operator command as the referee reads it ({"command": "new_game" | "start" | "confirm" |
  // "correct" | "undo" | "offer_draw" | "accept_draw" | "decline_draw" | "resign" | "flag" | "declare" |
  // "set_clock" | "pause" | "resume", ...}; arbiter/referee.h lists their fields). The display has
  // already checked the token and handled "language" itself. Throws InputError for a command that
  // does not fit the moment (answered 400 with the message).
  virtual CommandReply command(const nlohmann::json& command) = 0;
  // What the host knows that events do not carry (the referee's phase, the match): merged
  // into GET /api/state, never replacing the fields the display folds from events.
  virtual nlohmann::json state_extra() const { return nlohmann::json::object(); }
  // A record of the game so far in `format` ("pdn", "txt", "json"), or nullopt
  // when the host has no such record (the display then writes its own text and
  // JSON records from the events).
  virtual std::optional<Record> record(const std::string& format) const = 0;
};

}  // namespace sb::display
