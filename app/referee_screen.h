// The screen of `smartboard referee … --http [ADDR:]PORT`: the display's server
// fed with the referee's events as they are decided. Operator commands from the
// screen go to the same referee; frames and commands take turns under one lock,
// so the referee never sees two inputs at once.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "app/args.h"
#include "app/display_host.h"
#include "arbiter/event.h"
#include "arbiter/referee.h"
#include "display/server.h"

namespace sb::cli {

class RefereeScreen {
 public:
  // Starts serving; prints "screen <url>" and "token <token>" on stderr (stdout
  // carries the events). `write` also records the events commands produce.
  RefereeScreen(const Args& args, std::shared_ptr<const Rules> rules, arbiter::Referee& referee,
                std::function<void(const std::vector<arbiter::Event>&)> write);
  // The same with the server's options given (the demo); prints nothing.
  RefereeScreen(display::ServerOptions options, bool speak, std::shared_ptr<const Rules> rules,
                arbiter::Referee& referee, std::function<void(const std::vector<arbiter::Event>&)> write);
  ~RefereeScreen();

  // The lock every input to the referee takes.
  std::mutex& referee_lock() { return mutex_; }
  // Shows events (already written) on the screen; returns them as pushed (with "seq", "announce").
  std::vector<nlohmann::json> show(const std::vector<arbiter::Event>& events);
  void show_recorded(const std::vector<nlohmann::json>& events);
  // Waits for `ms` of input time scaled by nothing (real time), unless interrupted.
  bool wait(int64_t ms);

  // Runs the referee's clock on the wall clock between inputs, so that a flag falls
  // on screen while nobody moves: a timer maps the time since the latest input onto
  // the inputs' time and tells the referee (on_time) once a flag has fallen or the
  // game's limit is up. Only where the inputs' time is real time (observations taken
  // at their pace, or as they come); a camera's frames carry their own clock.
  void run_clock();
  // An input of time `t` has just been given to the referee (call holding referee_lock()).
  void input_done(int64_t t);
  // The next input comes at `t` (until input_done; nullopt: unknown): the clock does
  // not run past it, so that no flag falls before an input that comes earlier.
  void next_input_at(std::optional<int64_t> t);
  // After the input ends: keeps serving until Ctrl-C or SIGTERM.
  void serve_until_stopped();
  // Ctrl-C or SIGTERM came.
  static bool stop_requested();

  display::Server& server() { return *server_; }

 private:
  display::CommandReply command(const nlohmann::json& command);
  // The inputs' time now (holding mutex_): the latest input's, or where the clock runs, its mapping of the wall clock.
  int64_t now() const;
  void tick_until_stopped();

  std::shared_ptr<const Rules> rules_;
  arbiter::Referee& referee_;
  std::function<void(const std::vector<arbiter::Event>&)> write_;
  std::mutex mutex_;
  std::unique_ptr<LiveHost> host_;
  std::unique_ptr<display::Server> server_;

  // The clock (run_clock), guarded by mutex_.
  bool clock_runs_ = false;
  int64_t input_t_ = 0;                             // the latest input's time
  std::chrono::steady_clock::time_point input_at_;  // when it was given
  std::optional<int64_t> next_input_t_;
  std::thread ticker_;
  std::mutex ticker_mutex_;
  std::condition_variable ticker_wake_;
  bool ticker_stop_ = false;
};

}  // namespace sb::cli
