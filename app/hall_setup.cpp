#include "app/hall_setup.h"

#include <chrono>
#include <cstdlib>
#include <iostream>

#include "engines/common/errors.h"
#include "hall/topics.h"

namespace sb::cli {

std::vector<OptionSpec> mqtt_option_specs() {
  return {{"--mqtt"},       {"--event"},      {"--mqtt-user"}, {"--mqtt-password"},        {"--mqtt-cafile"},
          {"--mqtt-capath"}, {"--mqtt-cert"}, {"--mqtt-key"},  {"--mqtt-insecure", false}};
}

std::string event_id(const Args& args) {
  std::string id = args.value_or("--event", "default");
  hall::check_event_id(id);
  return id;
}

hall::MqttOptions mqtt_options(const Args& args) {
  hall::MqttOptions m;
  const bool tls = args.has("--mqtt-cafile") || args.has("--mqtt-capath");
  m.broker = hall::parse_broker_address(args.value_or("--mqtt", ""), tls ? 8883 : 1883);
  m.username = args.value_or("--mqtt-user", "");
  if (auto p = args.value("--mqtt-password")) m.password = *p;
  else if (const char* env = std::getenv("SMARTBOARD_MQTT_PASSWORD")) m.password = env;
  if (!m.password.empty() && m.username.empty()) throw InputError(args.command() + ": --mqtt-password needs --mqtt-user");
  m.ca_file = args.value_or("--mqtt-cafile", "");
  m.ca_path = args.value_or("--mqtt-capath", "");
  m.cert_file = args.value_or("--mqtt-cert", "");
  m.key_file = args.value_or("--mqtt-key", "");
  m.tls_insecure = args.has("--mqtt-insecure");
  return m;
}

std::vector<OptionSpec> board_publisher_specs() {
  std::vector<OptionSpec> specs = mqtt_option_specs();
  specs.push_back({"--board"});
  specs.push_back({"--mqtt-linger"});
  return specs;
}

std::unique_ptr<hall::BoardPublisher> start_board_publisher(const Args& args, const arbiter::Referee& referee,
                                                             const arbiter::Journal* journal) {
  if (!args.has("--mqtt")) {
    for (const char* o : {"--board", "--event", "--mqtt-user", "--mqtt-cafile", "--mqtt-linger"})
      if (args.has(o)) throw InputError(args.command() + ": " + std::string(o) + " needs --mqtt HOST[:PORT]");
    return nullptr;
  }
  if (!args.has("--board")) throw InputError(args.command() + ": --mqtt needs --board N (the board's number in the hall)");
  hall::PublisherOptions o;
  o.board = args.int_value("--board", 1, 1, hall::kMaxBoard);
  o.event = event_id(args);
  hall::MqttOptions m = mqtt_options(args);
  m.client_id = "sbref-" + o.event + "-" + std::to_string(o.board);
  std::vector<nlohmann::json> recorded;
  if (journal) {
    o.sidecar_path = journal->path() + ".mqtt";
    recorded = journal->recorded();
  } else {
    std::cerr << "referee: no --journal: events not yet confirmed by the broker are lost if this process dies\n";
  }
  auto publisher = std::make_unique<hall::BoardPublisher>(m, o, recorded);
  publisher->start(hall::board_state(referee, o.board, publisher->stream(), static_cast<int64_t>(recorded.size())));
  std::cerr << "referee: board " << o.board << " of event '" << o.event << "' publishes to " << m.broker.host << ":"
            << m.broker.port << " (stream " << publisher->stream() << ")\n";
  return publisher;
}

bool finish_board_publisher(const Args& args, hall::BoardPublisher& publisher) {
  const double linger = args.double_value("--mqtt-linger", 10, 0, 24 * 3600);
  const bool all = publisher.stop(std::chrono::milliseconds(static_cast<int64_t>(linger * 1000)));
  if (!all) {
    hall::BoardPublisher::Stats s = publisher.stats();
    std::cerr << "referee: the broker confirmed " << s.confirmed << " of " << s.events
              << " events; the rest stay in the journal and are sent when the referee runs again on it\n";
  }
  return all;
}

}  // namespace sb::cli
