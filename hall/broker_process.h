// A Mosquitto broker run as a child process on a loopback port, for the tests
// and `smartboard bench hall` (nothing here is used in a real hall, where the
// broker is a service of its own). It can be killed and started again on the
// same port, to play a broker restart mid-round.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace sb::hall {

struct BrokerProcessOptions {
  int port = 0;                 // 0: a free loopback port
  std::string work_dir;         // where the config and log go (created); required
  std::vector<std::string> config_lines;  // more mosquitto.conf lines (password_file, …)
  bool allow_anonymous = true;
};

class BrokerProcess {
 public:
  // Finds the mosquitto binary (PATH, /usr/sbin); InputError when it is missing.
  explicit BrokerProcess(BrokerProcessOptions options);
  ~BrokerProcess();
  BrokerProcess(const BrokerProcess&) = delete;
  BrokerProcess& operator=(const BrokerProcess&) = delete;

  // Starts it and waits until it accepts connections (runtime_error after 10 s).
  void start();
  // Sends `signal` (SIGKILL: a crash, SIGTERM: a clean stop) and waits for the exit.
  void kill(int signal);
  bool running() const { return pid_ > 0; }
  int port() const { return port_; }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  const std::string& log_path() const { return log_; }

  static std::string find_binary();  // empty when not installed
  static int free_port();

 private:
  BrokerProcessOptions options_;
  std::string binary_, config_, log_;
  int port_ = 0;
  pid_t pid_ = -1;
};

}  // namespace sb::hall
