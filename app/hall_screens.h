// One board of the hall enlarged with the referee's own screen: on the first
// click on a board the hall starts a display::Server (the server and page of
// `smartboard referee --http`) for that board on a free port, replays into it
// the events the hall took so far, and from then on every event the hall takes
// for that board. The screen only watches: operator commands belong to the
// board's own referee and are refused here.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hall/hall_state.h"

namespace sb::cli {

struct HallScreensOptions {
  std::string address = "127.0.0.1";  // where the screens listen (the hall's --http address)
  std::string www_root;                // display/www
  size_t max_open = 16;                // beyond: the screen opened longest ago is closed
};

class HallScreens {
 public:
  // Becomes `state`'s listener of accepted events.
  HallScreens(HallScreensOptions options, hall::HallState& state);
  ~HallScreens();
  HallScreens(const HallScreens&) = delete;
  HallScreens& operator=(const HallScreens&) = delete;

  // The screen of `board`, started if it is not running: {"board", "port"}.
  // InputError when the hall has no game for that board yet.
  nlohmann::json open(int board);
  size_t open_count() const;

 private:
  struct Screen;
  void on_event(const hall::AcceptedEvent& e);

  HallScreensOptions options_;
  hall::HallState& state_;
  mutable std::mutex mutex_;
  std::map<int, std::shared_ptr<Screen>> screens_;
  std::vector<int> opened_;  // board numbers, oldest first
};

}  // namespace sb::cli
