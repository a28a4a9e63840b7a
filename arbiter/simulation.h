// Synthetic games for measuring the referee: random legal games from an engine,
// seen by a simulated camera (optionally misreading sites at low confidence, and
// missing positions so that two moves arrive in one frame), refereed, and the
// record compared with the truth. `smartboard bench arbiter` and the robustness
// tests use it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "arbiter/referee.h"

namespace sb::arbiter {

struct SimulationOptions {
  int games = 100;
  int first_game = 0;             // the index of the first game (each game's randomness follows from seed and index)
  int max_plies = 200;            // a random game longer than this is cut
  uint64_t seed = 1;
  double misread_rate = 0;        // share of sites misread in each frame
  float misread_conf_low = 0.05f, misread_conf_high = 0.45f;  // the reader's confidence in a misread
  float sure_conf_low = 0.9f;     // the reader's confidence in a right reading: uniform in [this, 1]
  double skip_rate = 0.1;         // share of positions no frame shows (the next frame shows two moves)
  int frames_per_position = 1;    // settled frames the camera gives of each position shown
  int64_t frame_ms = 1000;        // time between positions
  bool time_decisions = false;    // measure how long each frame with new moves takes to decide
  // Let the referee work ahead between frames (Referee::prepare, untimed), as it
  // does while it waits for the camera.
  bool prepare = true;
  // At the end of each game a simulated operator answers every question still
  // open with the move truly played (confirm {"move", "ply"}). The same operator
  // enters a move that leaves the picture as it was (a Cờ tư lệnh air force leaving
  // from under a stack and shot down) when the player announces it: no camera can
  // see such a move, so the hall's rule is that its player says it (confirm {"move"}).
  bool operator_answers = false;
  int trace_game = -1;            // this game's frames, truth and events go to stderr (debugging)
};

struct SimulationResult {
  int games = 0;
  int64_t plies = 0;           // moves played in the true games
  int64_t right = 0;           // recorded moves that match the truth at their ply (same position after)
  // Of the others: plies where the recorded position differs from the true one only
  // in what a camera cannot see (a Cờ tư lệnh stack's hidden pieces) and every later
  // recorded position looks exactly like the true one, so no frame of the game
  // could have told them apart.
  int64_t hidden = 0;
  // Of the others: moves into a position no frame showed (a missed frame), where
  // another pair of moves explains the next frame as well and reaches the same
  // position after both (Morris: which of two pieces a mill took, when the other
  // then left its point).
  int64_t unseen = 0;
  // Of the others: plies the referee asked the operator about (a question still open
  // at the end of the game), its provisional record wrong there. Never counted right.
  int64_t asked = 0;
  int64_t questions = 0;           // questions asked (unclear events with "ask")
  int64_t answered_by_board = 0;   // of them, answered by later frames
  int64_t answered_by_operator = 0;  // answered by the simulated operator (operator_answers)
  int64_t announced = 0;  // moves the picture does not show, entered by the simulated operator (operator_answers)
  int64_t game_over_asked = 0;     // true ends not announced because a question about them is open
  int64_t games_all_right = 0;
  int64_t illegal_events = 0;  // every one is false: the true games are legal
  int64_t unclear_events = 0;
  int64_t takeback_events = 0;  // takebacks announced (none happened in the true games)
  int64_t revisions = 0;        // earlier readings the referee revised when later frames told
  int64_t game_over_right = 0;  // true games that ended by the rules and were announced so, with the right result
  int64_t game_over_true = 0;
  // Microseconds to decide a frame that shows one new move / two new moves.
  std::vector<double> decide_us_one, decide_us_two;
  std::vector<std::string> failures;  // the first few games that went wrong, described

  double right_share() const { return plies ? static_cast<double>(right) / plies : 1.0; }
  // Right, counting the moves no camera could tell apart as right.
  double visible_right_share() const { return plies ? static_cast<double>(right + hidden + unseen) / plies : 1.0; }
  // Right, or asked about (the operator decides them).
  double right_or_asked_share() const { return plies ? static_cast<double>(right + asked) / plies : 1.0; }
};

// `progress` (optional) is called after each game with the number done.
SimulationResult simulate(std::shared_ptr<const Rules> rules, const SimulationOptions& options,
                          const RefereeOptions& referee_options = {},
                          const std::function<void(int)>& progress = nullptr);

}  // namespace sb::arbiter
