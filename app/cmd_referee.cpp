// `smartboard referee GAME --observations FILE.jsonl [--events OUT.jsonl] [--record OUT]`
// (CONTRACT.md "Observations and the referee"): runs the arbiter over observation
// lines (no camera) and writes one event per line.
//
// More options: --journal FILE (crash-safe journal; when it already holds the
// game, the referee resumes from it and reads on after the last journaled input
// line), --referee JSON (RefereeOptions), --fen FEN, --free-setup, --match N,
// --clock MIN[+SEC], --game-limit MIN, --no-takebacks, and the rules options
// (--options, --config; a config's "referee" object is read too).
// --http [ADDR:]PORT serves the referee screen (app/referee_screen.h) while the game
// is refereed, observations taken at the pace of their "t", and after the input
// ends until stopped (--exit-when-done: not after); --lang, --speak, --www with it.
// --mqtt HOST[:PORT] --board N [--event ID] also publishes the board's events and
// state to the hall's broker (app/hall_setup.h, hall/board_publisher.h); --speed X
// takes the observations at X times the pace of their "t".
// `--source SRC [--corners …] [--fps F]` reads the board through vision instead (app/vision_input.h).
#include <algorithm>
#include <chrono>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <thread>

#include "app/commands.h"
#include "app/hall_setup.h"
#include "app/referee_screen.h"
#include "app/rules_setup.h"
#include "app/vision_input.h"
#include "arbiter/frame.h"
#include "arbiter/journal.h"
#include "arbiter/record.h"
#include "arbiter/referee.h"
#include "engines/common/errors.h"

namespace sb::cli {

namespace {

using arbiter::Event;

void merge_into(nlohmann::json& target, const nlohmann::json& source) {
  for (const auto& [key, value] : source.items()) {
    if (value.is_object() && target.contains(key) && target[key].is_object()) merge_into(target[key], value);
    else target[key] = value;
  }
}

// "5" → 5 min; "5+3" → 5 min plus 3 s a move.
void parse_clock(const std::string& text, arbiter::ClockOptions& clock) {
  auto plus = text.find('+');
  double minutes = parse_double(text.substr(0, plus), "--clock minutes", 0.01, 24 * 60);
  clock.base_ms = static_cast<int64_t>(minutes * 60000 + 0.5);
  if (plus != std::string::npos)
    clock.increment_ms = static_cast<int64_t>(parse_double(text.substr(plus + 1), "--clock increment seconds", 0, 3600) * 1000 + 0.5);
}

arbiter::RefereeOptions referee_options(const Args& args) {
  nlohmann::json j = nlohmann::json::object();
  if (auto path = args.value("--config")) {
    nlohmann::json config;
    try {
      config = nlohmann::json::parse(read_text_file(*path));
    } catch (const nlohmann::json::exception& e) {
      throw InputError(*path + ": " + e.what());
    }
    if (config.is_object() && config.contains("referee")) {
      if (!config["referee"].is_object()) throw InputError(*path + ": \"referee\" must be a JSON object");
      merge_into(j, config["referee"]);
    }
  }
  if (auto text = args.value("--referee")) {
    nlohmann::json extra;
    try {
      extra = nlohmann::json::parse(*text);
    } catch (const nlohmann::json::exception& e) {
      throw InputError(std::string("--referee: not JSON: ") + e.what());
    }
    if (!extra.is_object()) throw InputError("--referee: expected a JSON object");
    merge_into(j, extra);
  }
  arbiter::RefereeOptions o;
  try {
    o = arbiter::referee_options_from_json(j);
  } catch (const InputError& e) {
    throw InputError(std::string("referee options: ") + e.what());
  }
  if (auto fen = args.value("--fen")) o.start_fen = *fen;
  if (args.has("--free-setup")) o.free_setup = true;
  if (args.has("--no-takebacks")) o.allow_takebacks = false;
  if (args.has("--match")) o.match_games = args.int_value("--match", 1, 1, 99);
  if (auto clock = args.value("--clock")) parse_clock(*clock, o.clock);
  if (args.has("--game-limit"))
    o.clock.game_limit_ms = static_cast<int64_t>(args.double_value("--game-limit", 0, 0, 24 * 60) * 60000 + 0.5);
  return o;
}

class EventWriter {
 public:
  EventWriter(const std::optional<std::string>& path, bool append) {
    if (path) {
      file_.open(*path, append ? std::ios::app : std::ios::trunc);
      if (!file_) throw InputError("--events: cannot write '" + *path + "'");
    }
  }
  void write(const std::vector<Event>& events) {
    std::ostream& out = file_.is_open() ? static_cast<std::ostream&>(file_) : std::cout;
    for (const Event& e : events) out << arbiter::to_json(e).dump() << '\n';
    out.flush();
    if (also) also(events);
  }
  // Where else the events go (the hall's broker).
  std::function<void(const std::vector<Event>&)> also;

 private:
  std::ofstream file_;
};

// Writes the record when the run ends by an exception (a scope-failure guard).
class RecordOnError {
 public:
  explicit RecordOnError(std::function<void()> write) : write_(std::move(write)) {}
  RecordOnError(const RecordOnError&) = delete;
  RecordOnError& operator=(const RecordOnError&) = delete;
  ~RecordOnError() {
    if (std::uncaught_exceptions() <= exceptions_) return;
    try {
      write_();
    } catch (...) {  // the error on its way out says what went wrong first
    }
  }

 private:
  std::function<void()> write_;
  int exceptions_ = std::uncaught_exceptions();
};

}  // namespace

int cmd_referee(const Words& words) {
  std::vector<OptionSpec> specs = {{"--observations"}, {"--events"},   {"--record"},    {"--journal"},
                                   {"--referee"},      {"--fen"},      {"--free-setup", false},
                                   {"--match"},        {"--clock"},    {"--game-limit"}, {"--no-takebacks", false}};
  for (OptionSpec& s : rules_option_specs()) specs.push_back(s);
  for (OptionSpec& s : screen_option_specs()) specs.push_back(s);  // --http: the screen (display/)
  specs.push_back({"--exit-when-done", false});
  for (OptionSpec& s : board_publisher_specs()) specs.push_back(s);  // --mqtt: the hall (hall/)
  specs.push_back({"--speed"});
  for (OptionSpec& s : vision_input_option_specs()) specs.push_back(s);  // --source: through vision (vision_input.h)
  Args args("referee", words, specs, 1, 1);
  auto source = args.value("--observations");
  if (source && args.has("--source")) throw InputError("give --observations or --source, not both");
  if (!source && !args.has("--source"))
    throw InputError("--observations FILE.jsonl (use - for standard input) or --source SRC is required");
  if (source && *source != "-" && std::filesystem::is_directory(*source))
    throw InputError("--observations '" + *source + "' is a folder; give a file of observation lines (.jsonl)");
  std::shared_ptr<const Rules> rules = load_rules(args.positional()[0], args);
  arbiter::RefereeOptions options = referee_options(args);
  if (!options.start_fen.empty()) rules->from_fen(options.start_fen);  // a bad FEN is an input error now
  const std::optional<std::string> record_path = args.value("--record");
  if (record_path) {  // refused now, not after the whole input was read
    try {
      arbiter::check_record_format(arbiter::record_format_for(*record_path), *rules);
    } catch (const InputError& e) {
      throw InputError("--record '" + *record_path + "': " + e.what());
    }
  }

  std::unique_ptr<arbiter::Journal> journal;
  if (auto path = args.value("--journal"))
    journal = std::make_unique<arbiter::Journal>(*path, arbiter::Referee::journal_header(*rules, options));
  const bool resuming = journal && !journal->recorded().empty();

  std::ifstream file;
  std::istream* in = &std::cin;
  std::unique_ptr<VisionInput> vision;
  if (!source)
    vision = std::make_unique<VisionInput>(args, *rules, options.start_fen.empty() ? rules->start() : rules->from_fen(options.start_fen),
                                           !options.free_setup);
  const std::string name = !source ? vision->describe() : *source == "-" ? "standard input" : *source;
  if (source && *source != "-") {
    file.open(*source);
    if (!file) throw InputError("cannot read observations '" + *source + "'");
    in = &file;
  }
  EventWriter writer(args.value("--events"), resuming);
  arbiter::Referee referee(rules, options, journal.get());
  std::unique_ptr<hall::BoardPublisher> publisher = start_board_publisher(args, referee, journal.get());
  if (publisher)
    writer.also = [&](const std::vector<Event>& events) {
      publisher->publish(events, hall::board_state(referee, 0, publisher->stream(), 0));
    };
  const double speed = args.double_value("--speed", 0, 0.001, 1e6);  // 0: as fast as the lines are read
  // With --http the screen shows the game as it is refereed, and its operator's commands
  // reach the referee between frames; observations are then taken at their own pace.
  std::unique_ptr<RefereeScreen> screen;
  if (args.has("--http"))
    screen = std::make_unique<RefereeScreen>(args, rules, referee,
                                             [&writer](const std::vector<Event>& events) { writer.write(events); });
  auto decide = [&](auto&& input) {
    std::vector<Event> events;
    {
      std::unique_lock<std::mutex> lock;
      if (screen) lock = std::unique_lock<std::mutex>(screen->referee_lock());
      events = input();
      if (screen) screen->input_done(referee.last_t());
      writer.write(events);
    }
    if (screen) screen->show(events);
  };
  if (screen && resuming) screen->show_recorded(journal->recorded());
  decide([&] { return referee.resume(); });
  // Time passes while nobody moves: a camera's frames tell it, else the wall clock does.
  if (vision)
    vision->on_frame_time([&](int64_t t) {
      std::vector<Event> events;
      {
        std::unique_lock<std::mutex> lock;
        if (screen) lock = std::unique_lock<std::mutex>(screen->referee_lock());
        events = referee.on_time(t);
        if (!events.empty()) writer.write(events);
      }
      if (screen && !events.empty()) screen->show(events);
    });
  else if (screen)
    screen->run_clock();

  auto write_record_file = [&] {
    if (!record_path) return;
    std::string record = arbiter::write_record(arbiter::record_format_for(*record_path), *rules, referee.games());
    std::ofstream out(*record_path, std::ios::trunc);
    if (!out || !(out << record)) throw InputError("--record: cannot write '" + *record_path + "'");
  };
  // A malformed line ends the run (exit 2), but the moves refereed before it are still recorded.
  RecordOnError record_on_error(write_record_file);

  std::string text;
  int64_t line = 0;
  std::optional<int64_t> previous_t;
  auto next_line = [&] {
    if (!vision) return static_cast<bool>(std::getline(*in, text));
    std::optional<std::string> seen = vision->next();
    if (seen) text = std::move(*seen);
    return seen.has_value();
  };
  while (next_line()) {
    ++line;
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string where = name + " line " + std::to_string(line);
    arbiter::Frame frame = arbiter::parse_frame(*rules, text, where, previous_t);
    const int64_t gap = previous_t ? frame.t - *previous_t : 0;
    previous_t = frame.t;
    frame.line = line;
    if (!vision && line <= referee.journaled_line()) continue;  // read before the restart
    if (screen && !vision) screen->next_input_at(frame.t);
    if (screen && !screen->wait(vision ? 0 : gap)) break;  // a live source has its own pace
    if (!screen && !vision && speed > 0 && gap > 0) std::this_thread::sleep_for(std::chrono::microseconds(static_cast<int64_t>(gap * 1000 / speed)));
    try {
      decide([&] {
        // The screen's clock may have reached a flag's moment before a line that was late.
        if (screen) frame.t = std::max(frame.t, referee.last_t());
        return referee.on_frame(frame);
      });
    } catch (const IllegalMoveError& e) {
      throw InputError(where + ": " + e.what());
    } catch (const InputError& e) {
      throw InputError(where + ": " + e.what());
    }
  }
  if (in->bad()) throw std::runtime_error("error reading " + name);
  decide([&] { return referee.finish(referee.last_t()); });

  write_record_file();
  if (publisher && !finish_board_publisher(args, *publisher)) return 1;
  if (screen && !args.has("--exit-when-done")) screen->serve_until_stopped();
  return 0;
}

}  // namespace sb::cli
