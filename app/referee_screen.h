// The screen of `smartboard referee … --http [ADDR:]PORT`: the display's server
// fed with the referee's events as they are decided. Operator commands from the
// screen go to the same referee; frames and commands take turns under one lock,
// so the referee never sees two inputs at once.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
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
  // After the input ends: keeps serving until Ctrl-C or SIGTERM.
  void serve_until_stopped();
  // Ctrl-C or SIGTERM came.
  static bool stop_requested();

  display::Server& server() { return *server_; }

 private:
  display::CommandReply command(const nlohmann::json& command);

  std::shared_ptr<const Rules> rules_;
  arbiter::Referee& referee_;
  std::function<void(const std::vector<arbiter::Event>&)> write_;
  std::mutex mutex_;
  std::unique_ptr<LiveHost> host_;
  std::unique_ptr<display::Server> server_;
};

}  // namespace sb::cli
