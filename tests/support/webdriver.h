// Headless Chromium for the end-to-end page tests (the referee's screen, the
// hall overview): chromedriver started as a child process and driven over its
// HTTP/JSON WebDriver protocol, one browser session per WebDriver object.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>  // before Boost.Asio 1.74, which uses std::exchange without it
#include <vector>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

extern char** environ;

namespace sb::testing {

// Whether `program` is an executable file in a folder of PATH.
inline bool program_on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (!path) return false;
  std::stringstream folders(path);
  std::string dir;
  while (std::getline(folders, dir, ':')) {
    if (dir.empty()) continue;
    const std::string full = dir + "/" + program;
    struct stat st;
    if (::stat(full.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(full.c_str(), X_OK) == 0) return true;
  }
  return false;
}

inline std::string base64_decode(const std::string& in) {
  std::string out;
  int value = 0, bits = -8;
  for (unsigned char c : in) {
    int d;
    if (c >= 'A' && c <= 'Z') d = c - 'A';
    else if (c >= 'a' && c <= 'z') d = c - 'a' + 26;
    else if (c >= '0' && c <= '9') d = c - '0' + 52;
    else if (c == '+') d = 62;
    else if (c == '/') d = 63;
    else continue;
    value = (value << 6) | d;
    bits += 6;
    if (bits >= 0) {
      out += static_cast<char>((value >> bits) & 0xff);
      bits -= 8;
    }
  }
  return out;
}

// One HTTP/1.1 exchange on loopback (60 s receive limit): {status, body}.
inline std::pair<int, std::string> loopback_http(unsigned short port, boost::beast::http::verb method,
                                                 const std::string& target, const std::string& body = "") {
  namespace http = boost::beast::http;
  boost::asio::io_context ioc;
  boost::asio::ip::tcp::socket s(ioc);
  s.connect({boost::asio::ip::make_address("127.0.0.1"), port});
  timeval tv{60, 0};
  ::setsockopt(s.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  http::request<http::string_body> req{method, target, 11};
  req.set(http::field::host, "127.0.0.1");
  if (!body.empty() || method == http::verb::post) {
    req.set(http::field::content_type, "application/json");
    req.body() = body;
    req.prepare_payload();
  }
  http::write(s, req);
  boost::beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(64u << 20);
  http::read(s, buffer, parser);
  return {parser.get().result_int(), parser.get().body()};
}

inline unsigned short free_loopback_port() {
  boost::asio::io_context ioc;
  boost::asio::ip::tcp::acceptor a(ioc, {boost::asio::ip::make_address("127.0.0.1"), 0});
  return a.local_endpoint().port();
}

class WebDriver {
 public:
  using verb = boost::beast::http::verb;

  // Whether the tests can drive a browser here (Debian's chromium and chromium-driver).
  static bool available() { return program_on_path("chromium") && program_on_path("chromedriver"); }

  WebDriver() : port_(free_loopback_port()) {
    std::vector<std::string> argv = {"chromedriver", "--port=" + std::to_string(port_)};
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    if (::posix_spawnp(&pid_, "chromedriver", &actions, nullptr, args.data(), environ) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&actions);
  }
  ~WebDriver() {
    if (!session_.empty()) {
      try {
        call(verb::delete_, "/session/" + session_, "");
      } catch (...) {
      }
    }
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      int status;
      ::waitpid(pid_, &status, 0);
    }
  }
  WebDriver(const WebDriver&) = delete;
  WebDriver& operator=(const WebDriver&) = delete;

  bool started() const { return pid_ > 0; }

  nlohmann::json call(verb method, const std::string& target, const std::string& body) {
    auto [status, text] = loopback_http(port_, method, target, body);
    if (status != 200) throw std::runtime_error("chromedriver " + target + ": " + text.substr(0, 500));
    return nlohmann::json::parse(text, nullptr, false);
  }

  // Headless Chromium with its own profile folder, 1280×800.
  void open_session(const std::filesystem::path& profile) {
    for (int i = 0; i < 150; ++i) {
      try {
        if (call(verb::get, "/status", "")["value"]["ready"] == true) break;
      } catch (...) {
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    nlohmann::json caps = {
        {"capabilities",
         {{"alwaysMatch",
           {{"browserName", "chrome"},
            {"goog:chromeOptions",
             {{"binary", "/usr/bin/chromium"},
              {"args",
               {"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1280,800",
                "--user-data-dir=" + profile.string()}}}}}}}}};
    session_ = call(verb::post, "/session", caps.dump())["value"]["sessionId"];
  }

  void go(const std::string& url) { call(verb::post, path("/url"), nlohmann::json{{"url", url}}.dump()); }

  nlohmann::json eval(const std::string& script) {
    return call(verb::post, path("/execute/sync"),
                nlohmann::json{{"script", script}, {"args", nlohmann::json::array()}}.dump())["value"];
  }

  // Polls `script` (an expression) until it is true, up to `timeout`.
  bool wait_for(const std::string& script, std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    auto end = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < end) {
      if (eval("return !!(" + script + ");") == true) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }

  // Scripts run in the document of the first element matching `css` (an iframe) until leave_frame().
  void enter_frame(const std::string& css) {
    nlohmann::json found =
        call(verb::post, path("/element"), nlohmann::json{{"using", "css selector"}, {"value", css}}.dump())["value"];
    call(verb::post, path("/frame"), nlohmann::json{{"id", found}}.dump());
  }
  void leave_frame() { call(verb::post, path("/frame/parent"), "{}"); }

  void screenshot(const std::filesystem::path& file) {
    std::string png = base64_decode(call(verb::get, path("/screenshot"), "")["value"].get<std::string>());
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << png;
  }

 private:
  std::string path(const std::string& rest) const { return "/session/" + session_ + rest; }
  unsigned short port_;
  pid_t pid_ = -1;
  std::string session_;
};

}  // namespace sb::testing
