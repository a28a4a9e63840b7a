// `smartboard serve-events`: the referee screen for a recorded game, its events
// replayed at their own pace (or faster) — for reviewing a game on the screen.
#include <csignal>
#include <chrono>
#include <iostream>
#include <sstream>
#include <thread>

#include "app/commands.h"
#include "app/display_host.h"
#include "app/rules_setup.h"
#include "arbiter/event.h"
#include "display/server.h"
#include "engines/common/errors.h"
#include "engines/registry.h"

namespace sb::cli {

namespace {

std::atomic<bool> g_interrupted{false};

void on_signal(int) { g_interrupted = true; }

// The events of a file written by `smartboard referee --events`, one per line,
// checked as the referee's events; errors name the file and line.
std::vector<nlohmann::json> read_events(const std::string& path) {
  std::istringstream in(read_text_file(path));
  std::vector<nlohmann::json> events;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string where = path + ":" + std::to_string(number);
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded()) throw InputError(where + ": not a JSON object");
    try {
      arbiter::event_from_json(j);
    } catch (const InputError& e) {
      throw InputError(where + ": " + e.what());
    }
    events.push_back(std::move(j));
  }
  if (events.empty()) throw InputError(path + ": no events");
  return events;
}

void print_announcement(const nlohmann::json& shown, display::Language lang) {
  if (!shown.contains("announce") || !shown["announce"].is_object()) return;
  const nlohmann::json& a = shown["announce"][display::language_code(lang)];
  std::cerr << "  " << a.value("title", "");
  if (!a.value("detail", "").empty()) std::cerr << "  \u2014  " << a.value("detail", "");
  std::cerr << "\n";
}

// Sleeps `ms` of replay time (scaled by the speed), in slices so a signal or a
// pause is noticed at once. False when interrupted.
bool replay_wait(ReplayHost& host, double ms) {
  auto start = std::chrono::steady_clock::now();
  for (;;) {
    if (g_interrupted || host.stopped()) return false;
    double waited = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    double left = ms / host.speed() - waited;
    if (left <= 0) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(static_cast<int>(std::min(left, 20.0)) + 1));
  }
}

}  // namespace

int cmd_serve_events(const Words& words) {
  std::vector<OptionSpec> specs = screen_option_specs();
  for (OptionSpec s : std::vector<OptionSpec>{{"--speed"}, {"--max-gap"}, {"--fen"}, {"--exit-when-done", false}})
    specs.push_back(s);
  Args args("serve-events", words, specs, 2, 2);
  const std::string game = args.positional()[0];
  const std::string path = args.positional()[1];
  const double speed = args.double_value("--speed", 1.0, 0.01, 1000.0);
  const double max_gap_ms = args.double_value("--max-gap", 3.0, 0.0, 3600.0) * 1000;

  calib::BoardModel model = calib::load_board_model(game);  // also checks the game id
  std::vector<nlohmann::json> events = read_events(path);
  // The engine answers the teaching mode; a game whose engine is not built still replays.
  std::unique_ptr<Rules> rules;
  try {
    rules = make_rules(game);
  } catch (const InputError& e) {
    std::cerr << "serve-events: " << e.what() << ": the teaching mode will have no moves to show\n";
  }
  std::string start_fen = args.value_or("--fen", "");
  if (start_fen.empty() && rules) start_fen = rules->fen(rules->start());
  if (start_fen.empty())
    for (const nlohmann::json& e : events)
      if (e.contains("fen") && e["fen"].is_string()) {
        start_fen = e["fen"];
        break;
      }
  if (start_fen.empty()) throw InputError("serve-events: no start position: give --fen");
  if (rules) rules->from_fen(start_fen);  // a bad --fen is an error now, not on the screen
  display::ServerOptions options = screen_options(args);
  nlohmann::json board = screen_board_model(model);

  ReplayHost host(game, std::move(rules), board, start_fen);
  display::Server server(options, host);
  host.set_state_source([&server] { return server.state(); });
  server.start();
  if (args.has("--speak")) server.speak_locally(true);
  std::cout << "screen " << server.url() << "\n" << "token " << server.token() << std::endl;
  std::cerr << "serve-events: " << events.size() << " events of " << game << " at " << speed << "x; screen at "
            << server.url() << " (Ctrl-C stops)\n";

  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  int64_t last_t = events.front().value("t", int64_t{0});
  for (const nlohmann::json& e : events) {
    const int64_t t = e.value("t", last_t);
    const double gap = std::min(static_cast<double>(std::max<int64_t>(0, t - last_t)), max_gap_ms);
    last_t = t;
    if (!replay_wait(host, gap)) break;
    while (host.paused() && !g_interrupted) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (g_interrupted) break;
    print_announcement(server.publish(e), options.language);
  }
  if (!g_interrupted && !args.has("--exit-when-done")) {
    std::cerr << "serve-events: replay done; still serving (Ctrl-C stops)\n";
    while (!g_interrupted) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  host.stop();
  server.stop();
  return 0;
}

}  // namespace sb::cli
