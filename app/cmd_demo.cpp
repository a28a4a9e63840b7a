// `smartboard demo [--game GAME] [--port P] [--speed X] [--seed S]` (CONTRACT.md "Display"): the whole product on
// one machine without a camera. The renderer plays games with simulated hands (app/demo_game.h); its frames go
// through the vision pipeline exactly as a camera's would (app/vision_input.h: the set is learnt from the start
// position, then every settled board is read), the readings go to the referee, and the referee's events to the
// screen (app/referee_screen.h) and to the terminal. Runs until stopped.
//
// More options: --games N (then stop; 0 = until stopped) and --exit-when-done, --moves N (plies per game before
// the next one), --illegal-ply N, --fps F, --pace X, --size WxH, --events FILE.jsonl, --wait-for-viewer (start
// the game once a screen is open), --observations-out FILE.jsonl (what vision gave the referee), --debug DIR (the
// pipeline's overlay of every read frame), --http [ADDR:]PORT
// instead of --port, --lang en|vi, --speak, --www DIR, and the rules options.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <mutex>
#include <thread>

#include <opencv2/imgcodecs.hpp>

#include "app/commands.h"
#include "app/demo_game.h"
#include "app/display_host.h"
#include "app/referee_screen.h"
#include "app/render_setup.h"
#include "app/rules_setup.h"
#include "app/vision_input.h"
#include "arbiter/frame.h"
#include "arbiter/referee.h"
#include "calibration/board_model.h"
#include "display/server.h"
#include "engines/common/errors.h"

namespace sb::cli {

namespace {

std::string game_clock(int64_t t_ms) {
  char text[32];
  std::snprintf(text, sizeof text, "%d:%02d", static_cast<int>(t_ms / 60000), static_cast<int>(t_ms / 1000 % 60));
  return text;
}

// One line per announcement, in the screen's language: "[1:23] Capture · 7:d4xd6 — takes d6 · 7 + 4 = 11 → 1".
void print_announcements(const std::vector<nlohmann::json>& shown, display::Language lang) {
  for (const nlohmann::json& e : shown) {
    if (!e.contains("announce") || !e["announce"].is_object()) continue;
    const nlohmann::json& a = e["announce"][display::language_code(lang)];
    std::cout << "[" << game_clock(e.value("t", int64_t{0})) << "] " << a.value("title", "");
    if (!a.value("detail", "").empty()) std::cout << "  \u2014  " << a.value("detail", "");
    std::cout << std::endl;
  }
}

}  // namespace

int cmd_demo(const Words& words) {
  std::vector<OptionSpec> specs = {{"--game"},  {"--port"},  {"--speed"}, {"--seed"},  {"--games"},
                                   {"--moves"}, {"--illegal-ply"}, {"--fps"}, {"--pace"}, {"--size"},
                                   {"--events"}, {"--exit-when-done", false}, {"--wait-for-viewer", false},
                                   {"--observations-out"}, {"--debug"}};
  for (OptionSpec& s : rules_option_specs()) specs.push_back(s);
  for (OptionSpec& s : screen_option_specs()) specs.push_back(s);
  Args args("demo", words, specs, 0, 0);
  const std::string game = args.value_or("--game", "cotoan");
  std::shared_ptr<const Rules> rules = load_rules(game, args);

  DemoGameOptions demo;
  demo.seed = seed_option(args, 1);
  demo.speed = args.double_value("--speed", 1, 0, 100);
  demo.games = args.int_value("--games", 0, 0, 100000);
  demo.max_plies = args.int_value("--moves", 60, 1, 1000);
  demo.illegal_ply = args.int_value("--illegal-ply", -1, -1, 1000);
  demo.fps = args.double_value("--fps", 15, 2, 60);
  demo.pace = args.double_value("--pace", 1, 0.25, 8);
  demo.size = size_option(args);
  if (args.has("--port") && args.has("--http")) throw InputError("demo: give --port or --http, not both");
  const int port = args.int_value("--port", 8080, 0, 65535);
  display::ServerOptions server_options = screen_options(args, "127.0.0.1:" + std::to_string(port));

  std::ofstream events_file;
  if (auto path = args.value("--events")) {
    events_file.open(*path, std::ios::trunc);
    if (!events_file) throw InputError("demo --events: cannot write '" + *path + "'");
  }
  auto write = [&](const std::vector<arbiter::Event>& events) {
    if (!events_file.is_open()) return;
    for (const arbiter::Event& e : events) events_file << arbiter::to_json(e).dump() << '\n';
    events_file.flush();
  };

  arbiter::Referee referee(rules, arbiter::RefereeOptions{});
  RefereeScreen screen(server_options, args.has("--speak"), rules, referee, write);
  std::cout << "screen " << screen.server().url() << "\n" << "token " << screen.server().token() << std::endl;

  if (args.has("--wait-for-viewer")) {
    // A kiosk or a test: the game starts once a screen is watching, so it sees every announcement.
    std::cerr << "demo: waiting for a screen to open " << screen.server().url() << "\n";
    while (!RefereeScreen::stop_requested() && screen.server().viewer_count() == 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  auto source = std::make_unique<DemoGameSource>(rules, calib::load_board_model(game), demo);
  DemoGameSource& camera = *source;
  camera.stop_when(&RefereeScreen::stop_requested);
  auto tell_plan = [&](const DemoPlan& p) {
    std::cerr << "demo: game " << p.game_no << ": the players will make " << p.moves.size() << " moves ("
              << p.captures << " captures)";
    if (p.illegal_before_ply >= 0)
      std::cerr << " and before move " << p.illegal_before_ply + 1 << " one illegal " << p.illegal_from << "-"
                << p.illegal_to << ", put back";
    std::cerr << "; the referee sees only the camera\n" << "demo: game " << p.game_no << " script:";
    for (const std::string& m : p.moves) std::cerr << ' ' << m;
    std::cerr << "\n";
  };
  auto decide = [&](auto&& input) {
    std::vector<arbiter::Event> events;
    {
      std::lock_guard<std::mutex> lock(screen.referee_lock());
      events = input();
      write(events);
    }
    print_announcements(screen.show(events), server_options.language);
  };
  VisionInput* vision_input = nullptr;
  camera.on_new_game([&](const DemoPlan& p) {
    tell_plan(p);
    if (vision_input) vision_input->relearn();
    decide([&] { return referee.on_command({{"command", "new_game"}}, referee.last_t()); });
  });
  std::cerr << "demo: " << game << ", seed " << demo.seed << ": the renderer's camera -> vision -> referee -> screen"
            << (demo.games ? "" : " (Ctrl-C stops)") << "\n";
  tell_plan(camera.plan());

  vision::PipelineParams params;
  params.debug = true;  // the screen's camera view shows the pipeline's overlay
  VisionInput input(args, *rules, rules->start(), true, std::move(source), params);
  vision_input = &input;
  // Time passes on the camera's clock while nobody moves (a clock's flag falls).
  input.on_frame_time([&](int64_t t) {
    std::vector<arbiter::Event> events;
    {
      std::lock_guard<std::mutex> lock(screen.referee_lock());
      events = referee.on_time(t);
      write(events);
    }
    if (!events.empty()) print_announcements(screen.show(events), server_options.language);
  });
  std::optional<int64_t> previous_t;
  int64_t camera_shown_t = -1000000;
  int64_t lines = 0;
  while (!RefereeScreen::stop_requested()) {
    std::optional<std::string> line = input.next();
    if (!line) break;
    ++lines;
    arbiter::Frame frame = arbiter::parse_frame(*rules, *line, "demo observation " + std::to_string(lines), previous_t);
    previous_t = frame.t;
    decide([&] { return referee.on_frame(frame); });
    if (frame.t - camera_shown_t >= 400 && !input.pipeline().debug_image().empty()) {
      std::vector<uchar> jpeg;
      cv::imencode(".jpg", input.pipeline().debug_image(), jpeg, {cv::IMWRITE_JPEG_QUALITY, 75});
      screen.server().set_camera_jpeg(std::string(jpeg.begin(), jpeg.end()));
      camera_shown_t = frame.t;
    }
  }
  camera.stop();
  decide([&] { return referee.finish(referee.last_t()); });
  if (!RefereeScreen::stop_requested() && !args.has("--exit-when-done")) screen.serve_until_stopped();
  return 0;
}

}  // namespace sb::cli
