// The game as the screen shows it, folded from the referee's events: the
// position (from the FEN each event carries), the move list, scores, the last
// move's squares, the Cờ toán calculation of each capture, the result. The server
// keeps one and answers GET /api/state from it, so any producer of events (the
// referee, a replay) gets the same screen.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "display/position_view.h"

namespace sb::display {

// A Cờ toán capture's calculation: rear `a` op front `b` reaches `value` squares.
struct Calculation {
  int a = 0, b = 0;
  char op = '+';       // '+', '-', '*', '/'
  int result = 0;      // a op b (division: the quotient)
  int remainder = 0;   // division only
  int value = 0;       // the distance counted (units digit, remainder or quotient)

  // "8 + 5 = 13 → 3", "8 ÷ 5 = 1 r 3 → 3"; `remainder_word` is "r" or "dư".
  std::string text(const std::string& remainder_word = "r") const;
};

// Works out the calculation that moved the piece on `rear` over `front` to
// `target` (RULES.md §3): the distance from front to target picks the value
// when division yields two. nullopt if the numbers reach no such distance.
std::optional<Calculation> cotoan_calculation(int a, int b, char op, int distance);

class GameView {
 public:
  // `sites_in_reading_order` from the board model (board_model.h). Throws
  // InputError when the start FEN does not parse.
  GameView(std::string game, std::string start_fen, std::vector<std::string> sites_in_reading_order);

  // Folds one event (the arbiter's JSON form) and returns it as the screen
  // receives it: the event itself plus "seq", and where they apply "from", "to",
  // "path" (the move's squares), "calc" and "calculation" (Cờ toán captures),
  // "position" (the pieces after it). A FEN the view cannot read leaves the
  // pieces as they were and adds "position_error".
  nlohmann::json apply(nlohmann::json event);

  // {"game", "fen", "score", "moves", "position", "status", "result", "last", "seq", ...}
  nlohmann::json state() const;
  // The game in its notation, one line per move pair, with Cờ toán calculations.
  std::string text_record() const;
  // {"game", "start_fen", "moves", "result", "events"}
  nlohmann::json json_record() const;

  const std::string& game() const { return game_; }
  int64_t seq() const { return seq_; }

 private:
  struct MoveEntry {
    nlohmann::json json;  // {"ply","side","notation","captured","points","from","to","calculation"?}
    std::string fen_after;
  };

  void set_position(const std::string& fen, nlohmann::json& out);
  void annotate_move(nlohmann::json& event) const;
  void take_clock(const nlohmann::json& event);

  std::string game_;
  std::string family_;
  std::string start_fen_;
  std::vector<std::string> order_;
  std::vector<std::string> sides_;
  std::string fen_;
  PositionView position_;
  nlohmann::json score_;
  std::vector<MoveEntry> moves_;
  nlohmann::json result_;        // null or {"result","reason"}
  nlohmann::json last_move_;     // null or {"from","to","path","captured"}
  nlohmann::json alert_;         // the illegal/unclear/mismatch event still standing, or null
  nlohmann::json clock_;         // null or {"t", "<side>": ms left, "game_left"?, "running": side|null}
  std::string status_ = "setup"; // setup, playing, illegal, over
  std::vector<nlohmann::json> events_;
  int64_t seq_ = 0;
};

}  // namespace sb::display
