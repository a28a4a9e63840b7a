#include "app/referee_screen.h"

#include <algorithm>
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

RefereeScreen::~RefereeScreen() {
  if (ticker_.joinable()) {
    {
      std::lock_guard<std::mutex> lock(ticker_mutex_);
      ticker_stop_ = true;
    }
    ticker_wake_.notify_all();
    ticker_.join();
  }
  server_->stop();
}

void RefereeScreen::run_clock() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (clock_runs_) return;
    clock_runs_ = true;
    input_done(referee_.last_t());
  }
  ticker_ = std::thread([this] { tick_until_stopped(); });
}

void RefereeScreen::input_done(int64_t t) {
  input_t_ = t;
  input_at_ = std::chrono::steady_clock::now();
  next_input_t_.reset();
}

void RefereeScreen::next_input_at(std::optional<int64_t> t) {
  std::lock_guard<std::mutex> lock(mutex_);
  next_input_t_ = t;
}

int64_t RefereeScreen::now() const {
  const int64_t latest = referee_.last_t();
  if (!clock_runs_) return latest;
  const auto since = std::chrono::steady_clock::now() - input_at_;
  int64_t t = input_t_ + std::chrono::duration_cast<std::chrono::milliseconds>(since).count();
  if (next_input_t_) t = std::min(t, *next_input_t_);
  return std::max(t, latest);
}

void RefereeScreen::tick_until_stopped() {
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(ticker_mutex_);
      if (ticker_wake_.wait_for(lock, std::chrono::milliseconds(100), [this] { return ticker_stop_; })) return;
    }
    std::vector<arbiter::Event> events;
    try {
      std::lock_guard<std::mutex> lock(mutex_);
      // Only a clock that has run out is told: the referee's time moves on with the
      // inputs otherwise, and a replay's events stay those of a run without the screen.
      const std::optional<int64_t> up = referee_.clock().time_up_at();
      if (referee_.phase() != arbiter::Phase::Playing || !up || *up > now()) continue;
      events = referee_.on_time(std::max(*up, referee_.last_t()));
      write_(events);
    } catch (const std::exception& e) {
      std::cerr << "referee: the clock stops running on the screen: " << e.what() << "\n";
      return;
    }
    show(events);
  }
}

display::CommandReply RefereeScreen::command(const nlohmann::json& c) {
  std::vector<arbiter::Event> events;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    // The referee's clock runs on input time; a command comes "now", after the latest input.
    events = referee_.on_command(c, now());  // InputError: the command does not fit (400)
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
