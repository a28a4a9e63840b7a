#include "hall/broker_process.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "engines/common/errors.h"

extern char** environ;

namespace sb::hall {

namespace {

bool can_connect(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  ::close(fd);
  return ok;
}

}  // namespace

std::string BrokerProcess::find_binary() {
  std::vector<std::string> dirs;
  if (const char* path = std::getenv("PATH")) {
    std::string p = path;
    size_t start = 0;
    while (start <= p.size()) {
      size_t colon = p.find(':', start);
      dirs.push_back(p.substr(start, colon == std::string::npos ? std::string::npos : colon - start));
      if (colon == std::string::npos) break;
      start = colon + 1;
    }
  }
  dirs.push_back("/usr/sbin");
  dirs.push_back("/usr/local/sbin");
  for (const std::string& d : dirs) {
    if (d.empty()) continue;
    std::string candidate = d + "/mosquitto";
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

int BrokerProcess::free_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error("broker: no socket for a free port");
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = 0;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    ::close(fd);
    throw std::runtime_error("broker: cannot find a free port");
  }
  int port = ntohs(a.sin_port);
  ::close(fd);
  return port;
}

BrokerProcess::BrokerProcess(BrokerProcessOptions options) : options_(std::move(options)) {
  binary_ = find_binary();
  if (binary_.empty())
    throw InputError("mosquitto is not installed (Debian package 'mosquitto'; scripts/setup installs it)");
  if (options_.work_dir.empty()) throw InputError("broker: a work folder is required");
  std::filesystem::create_directories(options_.work_dir);
  ::chmod(options_.work_dir.c_str(), 0755);  // mosquitto may drop to its own user and must read the config
  port_ = options_.port > 0 ? options_.port : free_port();
  config_ = options_.work_dir + "/mosquitto.conf";
  log_ = options_.work_dir + "/mosquitto.log";
  std::ofstream conf(config_, std::ios::trunc);
  conf << "listener " << port_ << " 127.0.0.1\n";
  conf << "allow_anonymous " << (options_.allow_anonymous ? "true" : "false") << "\n";
  conf << "persistence false\n";
  conf << "log_dest stderr\n";
  conf << "log_type error\nlog_type warning\nlog_type notice\n";
  conf << "max_queued_messages 100000\n";
  // The default window of 20 unacknowledged QoS 1 messages per client makes every
  // 20 events to the hall wait for a round trip: a hall's broker needs a wide one.
  conf << "max_inflight_messages 1000\n";
  // Without it the broker's small writes to the hall wait for the hall's delayed
  // TCP acknowledgements (Nagle's algorithm): tens of milliseconds per message.
  conf << "set_tcp_nodelay true\n";
  for (const std::string& line : options_.config_lines) conf << line << "\n";
  if (!conf) throw std::runtime_error("broker: cannot write '" + config_ + "'");
}

BrokerProcess::~BrokerProcess() {
  if (pid_ > 0) kill(SIGKILL);
}

void BrokerProcess::start() {
  if (pid_ > 0) return;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, log_.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, log_.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  std::vector<std::string> args = {binary_, "-c", config_};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  int rc = posix_spawn(&pid, binary_.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("broker: cannot start " + binary_);
  pid_ = pid;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < until) {
    if (can_connect(port_)) return;
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      throw std::runtime_error("broker: mosquitto exited at start (see " + log_ + ")");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  kill(SIGKILL);
  throw std::runtime_error("broker: mosquitto did not listen on port " + std::to_string(port_) + " within 10 s");
}

void BrokerProcess::kill(int signal) {
  if (pid_ <= 0) return;
  ::kill(pid_, signal);
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
}

}  // namespace sb::hall
