#include "app/referee_screen.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <iostream>
#include <thread>

#include "arbiter/record.h"
#include "engines/common/errors.h"

namespace sb::cli {

namespace {

std::atomic<bool> g_stop{false};
void on_stop_signal(int) { g_stop = true; }

}  // namespace

RefereeScreen::RefereeScreen(const Args& args, std::shared_ptr<const Rules> rules, arbiter::Referee& referee,
                             std::function<void(const std::vector<arbiter::Event>&)> write)
    : RefereeScreen(screen_options(args), args.has("--speak"), std::move(rules), referee, std::move(write)) {
  std::cerr << "referee: screen " << server_->url() << "  operator token " << server_->token() << "\n";
}

RefereeScreen::RefereeScreen(display::ServerOptions options, bool speak, std::shared_ptr<const Rules> rules,
                             arbiter::Referee& referee, std::function<void(const std::vector<arbiter::Event>&)> write)
    : rules_(std::move(rules)), referee_(referee), write_(std::move(write)) {
  const std::string start_fen =
      referee_.options().start_fen.empty() ? rules_->fen(rules_->start()) : referee_.options().start_fen;
  ScreenHooks hooks;
  hooks.command = [this](const nlohmann::json& c) { return command(c); };
  hooks.record = [this](const std::string& format) -> std::optional<display::Record> {
    std::lock_guard<std::mutex> lock(mutex_);
    const std::string game = rules_->id();
    try {
      if (format == "pdn")
        return display::Record{"application/x-pdn; charset=utf-8", game + ".pdn",
                               arbiter::write_record(arbiter::RecordFormat::Pdn, *rules_, referee_.games())};
      if (format == "txt")
        return display::Record{"text/plain; charset=utf-8", game + ".txt",
                               arbiter::write_record(arbiter::RecordFormat::Text, *rules_, referee_.games())};
      if (format == "json")
        return display::Record{"application/json", game + ".json",
                               arbiter::write_record(arbiter::RecordFormat::Json, *rules_, referee_.games())};
    } catch (const InputError&) {
      return std::nullopt;  // no such record for this game (PDN is for draughts)
    }
    return std::nullopt;
  };
  hooks.state_extra = [this] {
    std::lock_guard<std::mutex> lock(mutex_);
    return referee_.state_json();
  };
  host_ = std::make_unique<LiveHost>(rules_, screen_board_model(calib::load_board_model(rules_->id())), start_fen,
                                     std::move(hooks));
  server_ = std::make_unique<display::Server>(options, *host_);
  server_->start();
  if (speak) server_->speak_locally(true);
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
}

RefereeScreen::~RefereeScreen() { server_->stop(); }

display::CommandReply RefereeScreen::command(const nlohmann::json& c) {
  std::vector<arbiter::Event> events;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    // The referee's clock runs on input time; a command comes "now", after the latest input.
    events = referee_.on_command(c, referee_.last_t());  // InputError: the command does not fit (400)
    write_(events);
  }
  show(events);
  nlohmann::json announced = nlohmann::json::array();
  for (const arbiter::Event& e : events) announced.push_back(arbiter::to_json(e));
  return display::CommandReply::ok({{"events", announced}});
}

std::vector<nlohmann::json> RefereeScreen::show(const std::vector<arbiter::Event>& events) {
  std::vector<nlohmann::json> shown;
  for (const arbiter::Event& e : events) shown.push_back(server_->publish(e));
  return shown;
}

bool RefereeScreen::stop_requested() { return g_stop; }

void RefereeScreen::show_recorded(const std::vector<nlohmann::json>& events) {
  for (const nlohmann::json& e : events) server_->publish(e);
}

bool RefereeScreen::wait(int64_t ms) {
  auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (!g_stop && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return !g_stop;
}

void RefereeScreen::serve_until_stopped() {
  std::cerr << "referee: input done; the screen stays up (Ctrl-C stops)\n";
  while (!g_stop) std::this_thread::sleep_for(std::chrono::milliseconds(100));
}

}  // namespace sb::cli
