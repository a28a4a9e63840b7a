#include "arbiter/clock.h"

#include <algorithm>

#include "engines/common/errors.h"

namespace sb::arbiter {

nlohmann::json to_json(const ClockOptions& o) {
  return {{"base_ms", o.base_ms}, {"increment_ms", o.increment_ms}, {"game_limit_ms", o.game_limit_ms}};
}

ClockOptions ClockOptions::resolved(const std::string& game, const std::string& mode) const {
  ClockOptions o = *this;
  if (o.game_limit_ms >= 0) return o;
  o.game_limit_ms = 0;
  // The seed: battle mode "lasts at most 15 minutes", the full battle "at most 30".
  if (game == "cotulenh") o.game_limit_ms = (mode == "full" ? 30 : 15) * 60000;
  return o;
}

ClockOptions clock_options_from_json(const nlohmann::json& j) {
  ClockOptions o;
  if (j.is_null()) return o;
  if (!j.is_object()) throw InputError("clock options: expected a JSON object");
  for (const auto& [key, value] : j.items()) {
    int64_t* field = key == "base_ms"         ? &o.base_ms
                     : key == "increment_ms"  ? &o.increment_ms
                     : key == "game_limit_ms" ? &o.game_limit_ms
                                              : nullptr;
    if (!field) throw InputError("unknown clock option \"" + key + "\" (base_ms, increment_ms, game_limit_ms)");
    const int64_t lowest = key == "game_limit_ms" ? -1 : 0;
    if (!value.is_number_integer() || value.get<int64_t>() < lowest)
      throw InputError("clock option \"" + key + "\": expected milliseconds (a whole number >= " +
                       std::to_string(lowest) + "), got " + value.dump());
    *field = value.get<int64_t>();
  }
  return o;
}

GameClock::GameClock(ClockOptions options) : options_(options) {
  remaining_ = {options_.base_ms, options_.base_ms};
}

void GameClock::settle(int64_t t) {
  if (!started_ || paused_ || !running_) {
    since_ = std::max(since_, t);
    return;
  }
  const int64_t spent = std::max<int64_t>(0, t - since_);
  remaining_[index_of(*running_)] -= spent;
  elapsed_ += spent;
  since_ = std::max(since_, t);
}

void GameClock::start(int64_t t, Side to_move) {
  started_ = true;
  paused_ = false;
  running_ = to_move;
  since_ = t;
  elapsed_ = 0;
  remaining_ = {options_.base_ms, options_.base_ms};
}

void GameClock::switch_after_move(int64_t t, Side mover) {
  if (!started_) return;
  settle(t);
  remaining_[index_of(mover)] += options_.increment_ms;
  running_ = opponent(mover);
}

void GameClock::run_for(int64_t t, Side to_move) {
  if (!started_) return;
  settle(t);
  running_ = to_move;
}

void GameClock::pause(int64_t t) {
  settle(t);
  paused_ = true;
}

void GameClock::resume(int64_t t) {
  settle(t);
  paused_ = false;
  since_ = t;
}

void GameClock::stop(int64_t t) {
  settle(t);
  running_.reset();
}

void GameClock::set(int64_t t, const std::array<int64_t, 2>& remaining) {
  settle(t);
  remaining_ = remaining;
}

std::array<int64_t, 2> GameClock::remaining(int64_t t) const {
  std::array<int64_t, 2> r = remaining_;
  if (started_ && !paused_ && running_) r[index_of(*running_)] -= std::max<int64_t>(0, t - since_);
  return r;
}

int64_t GameClock::elapsed(int64_t t) const {
  if (started_ && !paused_ && running_) return elapsed_ + std::max<int64_t>(0, t - since_);
  return elapsed_;
}

std::optional<Side> GameClock::flag_fallen(int64_t t) const {
  if (!options_.per_side() || !started_) return std::nullopt;
  std::array<int64_t, 2> r = remaining(t);
  for (Side s : {Side::First, Side::Second})
    if (r[index_of(s)] <= 0) return s;
  return std::nullopt;
}

bool GameClock::game_limit_reached(int64_t t) const {
  return options_.game_limit_ms > 0 && started_ && elapsed(t) >= options_.game_limit_ms;
}

std::optional<int64_t> GameClock::time_up_at() const {
  if (!started_) return std::nullopt;
  std::optional<int64_t> at;
  auto earliest = [&](int64_t moment) {
    if (!at || moment < *at) at = moment;
  };
  // Time already out (set_clock to 0) ran out when it was last settled.
  if (options_.per_side())
    for (Side s : {Side::First, Side::Second}) {
      const int64_t left = remaining_[index_of(s)];
      if (left <= 0)
        earliest(since_);
      else if (running() && *running_ == s)
        earliest(since_ + left);
    }
  if (options_.game_limit_ms > 0) {
    if (elapsed_ >= options_.game_limit_ms)
      earliest(since_);
    else if (running())
      earliest(since_ + options_.game_limit_ms - elapsed_);
  }
  return at;
}

}  // namespace sb::arbiter
