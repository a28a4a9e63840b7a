// The Mosquitto a CLI test talks to: the one scripts/test starts for the whole run when SMARTBOARD_TEST_MQTT
// names it ("HOST:PORT"), else one of the test's own (a child process on a free port, killed with the object).
// On the shared broker a test must use an event of its own (unique_event), or it sees other runs' retained boards.
#pragma once

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <string>

#include "hall/broker_process.h"

namespace sb::testing {

struct TestBroker {
  std::unique_ptr<sb::hall::BrokerProcess> own;  // null when the run's shared broker is used
  std::string address;
};

inline TestBroker test_broker(const std::string& work_dir) {
  TestBroker b;
  if (const char* shared = std::getenv("SMARTBOARD_TEST_MQTT"); shared && *shared) {
    b.address = shared;
    return b;
  }
  sb::hall::BrokerProcessOptions options;
  options.work_dir = work_dir;
  b.own = std::make_unique<sb::hall::BrokerProcess>(options);
  b.own->start();
  b.address = b.own->address();
  return b;
}

// An event id no other test process uses: the prefix, the pid and the start time.
inline std::string unique_event(const std::string& prefix) {
  return prefix + "-" + std::to_string(::getpid()) + "-" +
         std::to_string(std::chrono::steady_clock::now().time_since_epoch().count() % 1000000007);
}

}  // namespace sb::testing
