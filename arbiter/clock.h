// The two-sided game clock that the referee runs itself: it switches sides when
// it accepts a move, so a hall needs no physical clock. Time is the frames'
// time (milliseconds), so a replay of the same observations runs the same clock.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "engines/common/types.h"

namespace sb::arbiter {

struct ClockOptions {
  int64_t base_ms = 0;        // each side's time for the game; 0: no per-side clock
  int64_t increment_ms = 0;   // added to a side's time after each of its moves (Fischer)
  // The whole game's length, after which points decide; 0: none; -1: the game's own
  // (Cờ tư lệnh: 15 min in battle mode, 30 min in a full battle; other games none).
  int64_t game_limit_ms = -1;

  bool per_side() const { return base_ms > 0; }
  bool any() const { return base_ms > 0 || game_limit_ms > 0; }
  // game_limit_ms with "the game's own" worked out for `game` and its rule `mode`.
  ClockOptions resolved(const std::string& game, const std::string& mode) const;
};
nlohmann::json to_json(const ClockOptions& o);
ClockOptions clock_options_from_json(const nlohmann::json& j);

class GameClock {
 public:
  GameClock() = default;
  explicit GameClock(ClockOptions options);

  const ClockOptions& options() const { return options_; }
  // The game begins at `t` with `to_move`'s time running.
  void start(int64_t t, Side to_move);
  // `mover` finished a move at `t`: its time stops (and gains the increment), the other side's runs.
  void switch_after_move(int64_t t, Side mover);
  // After a takeback or a correction: `to_move`'s time runs from `t`, nothing added.
  void run_for(int64_t t, Side to_move);
  void pause(int64_t t);
  void resume(int64_t t);
  void stop(int64_t t);
  // The operator sets both sides' remaining time.
  void set(int64_t t, const std::array<int64_t, 2>& remaining);

  bool started() const { return started_; }
  bool running() const { return running_.has_value() && !paused_; }
  bool paused() const { return paused_; }
  std::optional<Side> running_side() const { return running_; }
  // Each side's remaining time at `t` (may be negative once a flag has fallen).
  std::array<int64_t, 2> remaining(int64_t t) const;
  // Game time played by `t`, pauses excluded.
  int64_t elapsed(int64_t t) const;
  // The side whose time has run out by `t`, if any.
  std::optional<Side> flag_fallen(int64_t t) const;
  bool game_limit_reached(int64_t t) const;
  // The moment a flag falls or the game's limit is reached, whichever comes first, if
  // the clock runs on as it stands (nullopt: nothing can run out). An input that comes
  // later is told the game ended then, not at its own time.
  std::optional<int64_t> time_up_at() const;

 private:
  void settle(int64_t t);  // charge the running side up to t

  ClockOptions options_;
  bool started_ = false;
  bool paused_ = false;
  std::optional<Side> running_;
  std::array<int64_t, 2> remaining_{0, 0};
  int64_t since_ = 0;    // when the running side's time last settled
  int64_t elapsed_ = 0;  // game time settled up to since_
};

}  // namespace sb::arbiter
