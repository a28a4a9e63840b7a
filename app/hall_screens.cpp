#include "app/hall_screens.h"

#include <algorithm>
#include <iostream>

#include "app/display_host.h"
#include "calibration/board_model.h"
#include "display/server.h"
#include "engines/common/errors.h"
#include "engines/registry.h"
#include "hall/json_bridge.h"

namespace sb::cli {

// A screen is fed from two places: the replay of what the hall took before it
// opened, and the listener for what comes after. Until the replay is done the
// listener's events wait in `pending`; both skip what the screen already has.
struct HallScreens::Screen {
  int board = 0;
  std::unique_ptr<LiveHost> host;
  std::unique_ptr<display::Server> server;
  std::mutex mutex;
  bool ready = false;
  bool stale = false;  // the board's referee started a new stream: the next open starts afresh
  int64_t last_seq = 0;
  std::vector<hall::AcceptedEvent> pending;

  void show(const hall::AcceptedEvent& e) {
    if (e.seq <= last_seq) return;
    last_seq = e.seq;
    try {
      server->publish(e.event);
    } catch (const std::exception& ex) {
      std::cerr << "hall: board " << board << " screen: event " << e.seq << " not shown: " << ex.what() << "\n";
    }
  }
};

HallScreens::HallScreens(HallScreensOptions options, hall::HallState& state)
    : options_(std::move(options)), state_(state) {
  state_.set_listener([this](const hall::AcceptedEvent& e) { on_event(e); });
}

HallScreens::~HallScreens() {
  state_.set_listener(nullptr);
  std::map<int, std::shared_ptr<Screen>> screens;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    screens.swap(screens_);
  }
  for (auto& [n, s] : screens) s->server->stop();
}

size_t HallScreens::open_count() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return screens_.size();
}

// Called under the hall's lock, in the order the hall takes events.
void HallScreens::on_event(const hall::AcceptedEvent& e) {
  std::shared_ptr<Screen> screen;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = screens_.find(e.board);
    if (it == screens_.end()) return;
    screen = it->second;
  }
  std::lock_guard<std::mutex> lock(screen->mutex);
  if (e.new_stream) {
    screen->stale = true;
    return;
  }
  if (screen->stale) return;
  if (screen->ready) screen->show(e);
  else screen->pending.push_back(e);
}

nlohmann::json HallScreens::open(int board) {
  std::shared_ptr<Screen> retired;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = screens_.find(board);
    if (it != screens_.end()) {
      std::lock_guard<std::mutex> screen_lock(it->second->mutex);
      if (!it->second->stale) return {{"board", board}, {"port", it->second->server->port()}};
      retired = it->second;
      screens_.erase(it);
      opened_.erase(std::remove(opened_.begin(), opened_.end(), board), opened_.end());
    }
  }
  if (retired) retired->server->stop();

  const nlohmann::json game = state_.board_game(board);
  if (game.is_null()) throw InputError("board " + std::to_string(board) + ": the hall does not know its game yet");
  auto screen = std::make_shared<Screen>();
  screen->board = board;
  std::shared_ptr<const Rules> rules(
      make_rules(game["game"].get<std::string>(), hall::from_nlohmann(game["rules"], "the board's rules options")));
  ScreenHooks hooks;
  hooks.command = [board](const nlohmann::json&) {
    return display::CommandReply::error(
        403, "the hall only watches: commands go to board " + std::to_string(board) + "'s own referee");
  };
  hooks.record = [this, board](const std::string& format) -> std::optional<display::Record> {
    std::optional<std::string> text = state_.record(format, board);
    if (!text) return std::nullopt;
    const std::string type = format == "pdn" ? "application/x-pdn; charset=utf-8"
                             : format == "json" ? "application/json"
                                                : "text/plain; charset=utf-8";
    return display::Record{type, "board" + std::to_string(board) + "." + format, std::move(*text)};
  };
  screen->host = std::make_unique<LiveHost>(rules, screen_board_model(calib::load_board_model(rules->id())),
                                            game["start_fen"].get<std::string>(), hooks);
  display::ServerOptions so;
  so.address = options_.address;
  so.port = 0;
  so.www_root = options_.www_root;
  screen->server = std::make_unique<display::Server>(so, *screen->host);
  screen->server->start();

  std::vector<std::shared_ptr<Screen>> closing;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    screens_[board] = screen;
    opened_.push_back(board);
    while (opened_.size() > options_.max_open) {
      auto old = screens_.find(opened_.front());
      if (old != screens_.end()) {
        closing.push_back(old->second);
        screens_.erase(old);
      }
      opened_.erase(opened_.begin());
    }
  }
  for (auto& s : closing) s->server->stop();

  // Registered: from here every event the hall takes reaches `pending` or the screen.
  const std::vector<nlohmann::json> so_far = state_.board_events(board);
  std::lock_guard<std::mutex> lock(screen->mutex);
  for (const nlohmann::json& e : so_far) {
    hall::AcceptedEvent a;
    a.board = board;
    a.seq = e.value("seq", int64_t{0});
    a.event = e;
    a.event.erase("seq");
    screen->show(a);
  }
  for (const hall::AcceptedEvent& e : screen->pending) screen->show(e);
  screen->pending.clear();
  screen->ready = true;
  return {{"board", board}, {"port", screen->server->port()}};
}

}  // namespace sb::cli
