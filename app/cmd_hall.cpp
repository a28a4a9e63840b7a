// `smartboard hall --mqtt HOST[:PORT] [--event ID] [--pairings FILE] --http [ADDR:]PORT`
// (CONTRACT.md "Hall"): subscribes to every board of the event and serves the
// overview page and /api/boards until stopped (Ctrl-C, SIGTERM).
// More: --client-id ID (the hall's MQTT session), --www DIR (the page's folder),
// and the MQTT options of app/hall_setup.h.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <memory>
#include <thread>

#include "app/commands.h"
#include "app/display_host.h"
#include "app/hall_screens.h"
#include "app/hall_setup.h"
#include "engines/common/errors.h"
#include "hall/hall_client.h"
#include "hall/hall_server.h"
#include "hall/pairings.h"

namespace sb::cli {

namespace {

std::atomic<bool> g_hall_stop{false};
void on_hall_signal(int) { g_hall_stop = true; }

std::string hall_www_root(const Args& args) {
  if (auto dir = args.value("--www")) {
    if (!std::filesystem::is_regular_file(std::filesystem::path(*dir) / "hall.html"))
      throw InputError("--www '" + *dir + "': no hall.html there");
    return *dir;
  }
  std::vector<std::filesystem::path> candidates = {std::filesystem::path(SMARTBOARD_SOURCE_DIR) / "hall" / "www"};
  std::error_code ec;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    candidates.push_back(exe.parent_path() / "hall" / "www");
    candidates.push_back(exe.parent_path().parent_path() / "hall" / "www");
  }
  for (const auto& c : candidates)
    if (std::filesystem::is_regular_file(c / "hall.html")) return c.string();
  throw InputError("hall: cannot find the hall page (hall/www/hall.html); give --www DIR");
}

// "8090", "0.0.0.0:8090", "[::1]:8090".
std::pair<std::string, unsigned short> listen_address(const std::string& text) {
  std::string host = "127.0.0.1", port = text;
  if (!text.empty() && text[0] == '[') {
    auto close = text.find("]:");
    if (close == std::string::npos) throw InputError("--http '" + text + "': expected [ADDR]:PORT");
    host = text.substr(1, close - 1);
    port = text.substr(close + 2);
  } else if (auto colon = text.rfind(':'); colon != std::string::npos) {
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
  }
  return {host, static_cast<unsigned short>(parse_int(port, "--http port", 0, 65535))};
}

}  // namespace

int cmd_hall(const Words& words) {
  std::vector<OptionSpec> specs = mqtt_option_specs();
  for (OptionSpec s : {OptionSpec{"--pairings"}, OptionSpec{"--http"}, OptionSpec{"--www"}, OptionSpec{"--client-id"}})
    specs.push_back(s);
  Args args("hall", words, specs, 0, 0);
  if (!args.has("--mqtt")) throw InputError("hall: --mqtt HOST[:PORT] is required (the tournament's broker)");
  if (!args.has("--http")) throw InputError("hall: --http [ADDR:]PORT is required (where the overview is served)");
  hall::HallOptions options;
  options.event = event_id(args);
  hall::Pairings pairings;
  if (auto path = args.value("--pairings")) pairings = hall::read_pairings(*path);
  hall::MqttOptions mqtt = mqtt_options(args);
  auto [address, port] = listen_address(*args.value("--http"));
  mqtt.client_id = args.value_or("--client-id", hall::hall_client_id(options.event, std::to_string(port)));

  hall::HallState state(options, pairings);
  // A board enlarged on click is the referee's own screen (display/), one server per open board.
  // Without the screen's files (display/www) the page enlarges boards with its own diagram.
  HallScreensOptions screens_options;
  screens_options.address = address;
  std::unique_ptr<HallScreens> screens;
  try {
    screens_options.www_root = find_www_root();
    screens = std::make_unique<HallScreens>(screens_options, state);
  } catch (const InputError& e) {
    std::cerr << "hall: boards enlarge without the referee's screen: " << e.what() << "\n";
  }
  hall::HallServerOptions server_options;
  if (screens) server_options.screen = [&screens](int board) { return screens->open(board); };
  server_options.address = address;
  server_options.port = port;
  server_options.www_root = hall_www_root(args);
  hall::HallServer server(server_options, state);
  server.start();
  hall::HallClient client(mqtt, state);
  client.start();
  std::cerr << "hall: event '" << options.event << "', broker " << mqtt.broker.host << ":" << mqtt.broker.port
            << ", " << pairings.boards.size() << " boards paired; overview " << server.url() << "\n";
  std::signal(SIGINT, on_hall_signal);
  std::signal(SIGTERM, on_hall_signal);
  while (!g_hall_stop) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  client.stop();
  server.stop();
  return 0;  // the screens close before the state they watch (declared after it)
}

}  // namespace sb::cli
