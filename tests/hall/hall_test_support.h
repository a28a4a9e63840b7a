// Shared by the hall's tests: a real Mosquitto on a loopback port (a child
// process, killed after), refereed random games, and waiting for conditions.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
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

// Waits until `done` holds, checking every 10 ms; false after `timeout`.
inline bool eventually(const std::function<bool()>& done, std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
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
    if (BrokerProcess::find_binary().empty()) GTEST_FAIL() << "mosquitto is not installed (scripts/setup installs it)";
    BrokerProcessOptions o;
    o.work_dir = fresh_dir("broker");
    o.config_lines = extra_config();
    broker_ = std::make_unique<BrokerProcess>(o);
    broker_->start();
  }
  void TearDown() override { broker_.reset(); }
  virtual std::vector<std::string> extra_config() { return {}; }

  MqttOptions mqtt(const std::string& client_id = "") const {
    MqttOptions m;
    m.broker = {"127.0.0.1", broker_->port()};
    m.client_id = client_id;
    m.reconnect_min_ms = 50;
    m.reconnect_max_ms = 400;
    m.keepalive_s = 5;
    return m;
  }

  std::unique_ptr<BrokerProcess> broker_;
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
