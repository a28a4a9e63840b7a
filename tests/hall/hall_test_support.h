// Shared by the hall's tests: a real Mosquitto on loopback, refereed random
// games, and waiting for conditions.
//
// The broker: the one scripts/test starts for the whole run when
// SMARTBOARD_TEST_MQTT names it ("HOST:PORT"), else one of the test's own (a
// child process on a free port, killed after). Tests that kill the broker or
// need a broker configured their own way always start their own. On the shared
// broker every test uses client ids and an event of its own (run_token()), so
// tests running in parallel never take each other's connections or messages.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <optional>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "arbiter/frame.h"
#include "arbiter/referee.h"
#include "engines/registry.h"
#include "hall/broker_process.h"
#include "hall/mqtt_client.h"
#include "hall/observed_game.h"

namespace sb::hall::testing {

inline std::string fresh_dir(const std::string& name) {
  static int counter = 0;
  std::string dir = ::testing::TempDir() + "hall_" + std::to_string(::getpid()) + "_" + name + "_" +
                    std::to_string(counter++);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// Unique to this test process: pid and start time.
inline const std::string& run_token() {
  static const std::string token =
      std::to_string(::getpid()) + "-" +
      std::to_string(std::chrono::steady_clock::now().time_since_epoch().count() % 1000000007);
  return token;
}

// The broker of the whole test run (scripts/test), when there is one.
inline std::optional<BrokerAddress> shared_broker() {
  const char* env = std::getenv("SMARTBOARD_TEST_MQTT");
  if (!env || !*env) return std::nullopt;
  return parse_broker_address(env);
}

// Waits until `done` holds, checking every 10 ms; false after `timeout`.
// Generous: it only runs out when something is wrong, and a loaded machine is slow.
inline bool eventually(const std::function<bool()>& done, std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < until) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return done();
}

// A test that needs the broker: the broker runs for the test, on its own port.
class BrokerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!own_broker())
      if (auto shared = shared_broker()) {
        address_ = *shared;
        return;
      }
    if (BrokerProcess::find_binary().empty()) GTEST_FAIL() << "mosquitto is not installed (scripts/setup installs it)";
    BrokerProcessOptions o;
    o.work_dir = fresh_dir("broker");
    o.config_lines = extra_config();
    broker_ = std::make_unique<BrokerProcess>(o);
    broker_->start();
    address_ = {"127.0.0.1", broker_->port()};
  }
  void TearDown() override { broker_.reset(); }
  // A broker of the test's own: it is killed, or configured by extra_config().
  virtual bool own_broker() const { return false; }
  virtual std::vector<std::string> extra_config() { return {}; }

  // `client_id` is made unique to this test process.
  MqttOptions mqtt(const std::string& client_id = "") const {
    MqttOptions m;
    m.broker = address_;
    m.client_id = client_id.empty() ? "" : client_id + "-" + run_token();
    m.reconnect_min_ms = 50;
    m.reconnect_max_ms = 400;
    m.keepalive_s = 5;
    return m;
  }

  std::unique_ptr<BrokerProcess> broker_;  // null on the shared broker
  BrokerAddress address_;
};

// A referee over a random game of `game`, its events one batch per frame.
struct RefereedGame {
  std::shared_ptr<const Rules> rules;
  std::unique_ptr<arbiter::Referee> referee;
  std::vector<arbiter::Frame> frames;
  ObservedGame truth;

  RefereedGame(const std::string& game, int plies, uint64_t seed) : rules(make_rules(game)) {
    ObservedGameOptions o;
    o.max_plies = plies;
    o.seed = seed;
    truth = random_observed_game(*rules, o);
    std::optional<int64_t> previous;
    for (size_t i = 0; i < truth.lines.size(); ++i) {
      frames.push_back(arbiter::parse_frame(*rules, truth.lines[i], "line " + std::to_string(i + 1), previous));
      previous = frames.back().t;
    }
    referee = std::make_unique<arbiter::Referee>(rules, arbiter::RefereeOptions{});
  }
  std::vector<arbiter::Event> step(size_t i) { return referee->on_frame(frames[i]); }
};

}  // namespace sb::hall::testing
