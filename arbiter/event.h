// What the referee announces: one plain struct per event, serialised as one JSON
// object (CONTRACT.md "Observations and the referee"). The display, the journal,
// speech and the hall all consume this and nothing else of the arbiter.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sb::arbiter {

enum class EventType {
  SetupOk,        // the board matches the start position (or the given FEN)
  SetupMismatch,  // squares: the sites that differ
  Move,           // ply, side, notation, captured, points, score
  Illegal,        // reason, squares
  Restored,       // the board is back to the position before the illegal move
  Takeback,       // ply: the ply count after the takeback
  GameOver,       // result, reason, score
  Unclear,        // squares: a change that fits no move, legal or illegal
  Clock,          // clock readings (operator-visible, not in the contract)
  Info,           // anything else worth showing (operator commands, camera state)
  DrawOffer,      // side: who offers; extra offers_left (-1: no limit)
  DrawDeclined,   // side: who declined
  NewGame,        // fen: the next game's start; extra game_no
  MatchOver,      // result, reason, score (games won per side); extra games
  // A question the referee asked (an `unclear` event with "ask": true) is settled:
  // ply: the ply asked about; notation: the moves that stand (space-separated);
  // extra by: "operator" (confirm/correct) or "board" (later frames told).
  Answered,
  // An operator command from a line of input that does not fit the moment (confirm
  // with nothing to confirm, a bad side name, …): reason says why; extra command is
  // the command object. Nothing changed, so it is not journaled.
  Refused,
};

const char* to_string(EventType t);
// Whether events of this type change the referee's state and go to the journal.
bool journaled(EventType t);
std::optional<EventType> event_type_from_string(const std::string& s);

struct Event {
  EventType type = EventType::Info;
  int64_t t = 0;  // milliseconds: the observation time that caused it
  int ply = 0;    // plies played after this event (move: the move's ply, 1-based)
  std::string side;                  // "white", "red", ...
  std::string notation;              // move notation
  std::vector<std::string> captured; // squares whose pieces were taken
  std::vector<std::string> squares;  // squares involved (mismatch, illegal, unclear)
  std::string reason;                // illegal, game over
  std::string result;                // game over: "1-0", "0-1", "1/2-1/2"
  int points = 0;                    // move: points scored by it
  std::map<std::string, int> score;  // side name → points, after the event
  std::string fen;                   // position after the event (where there is one)
  nlohmann::json extra = nlohmann::json::object();  // game-specific details (Cờ toán calculation, …)
};

// The contract's JSON form: {"type": ..., "t": ..., and the fields of that type}.
nlohmann::json to_json(const Event& e);
// Reads what to_json wrote; throws InputError on a malformed object.
Event event_from_json(const nlohmann::json& j);

}  // namespace sb::arbiter
