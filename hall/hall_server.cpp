#include "hall/hall_server.h"

#include <sys/socket.h>
#include <sys/time.h>

#include <utility>  // Boost 1.74 asio needs std::exchange declared first

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <filesystem>
#include <map>
#include <mutex>
#include <fstream>
#include <sstream>

#include "calibration/board_model.h"
#include "engines/common/errors.h"
#include "engines/registry.h"

namespace sb::hall {

namespace beast = boost::beast;
namespace http = boost::beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

struct HallServer::Impl {
  HallState& state;
  HallServerOptions options;
  net::io_context ioc;
  tcp::acceptor acceptor{ioc};
  std::thread accept_thread;
  std::atomic<bool> running{false};
  std::atomic<int> connections{0};

  Impl(HallState& s, HallServerOptions o) : state(s), options(std::move(o)) {}

  Response reply(const Request& req, http::status status, std::string body, const std::string& type,
                 const std::string& download = "") {
    Response res{status, req.version()};
    res.set(http::field::server, "smartboard hall");
    res.set(http::field::content_type, type);
    res.set(http::field::cache_control, "no-store");
    res.set("X-Content-Type-Options", "nosniff");
    if (!download.empty()) res.set(http::field::content_disposition, "attachment; filename=\"" + download + "\"");
    res.keep_alive(req.keep_alive());
    res.body() = std::move(body);
    res.prepare_payload();
    return res;
  }
  Response json(const Request& req, const nlohmann::json& j, http::status status = http::status::ok) {
    return reply(req, status, j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), "application/json");
  }
  Response error(const Request& req, http::status status, const std::string& message) {
    return json(req, {{"error", message}}, status);
  }

  Response file(const Request& req, const std::string& name, const std::string& type) {
    std::ifstream in(std::filesystem::path(options.www_root) / name, std::ios::binary);
    if (!in) return error(req, http::status::not_found, "not found: /" + name);
    std::ostringstream body;
    body << in.rdbuf();
    return reply(req, http::status::ok, body.str(), type);
  }

  // The board model the diagrams are drawn from (configs/boards/<game>.json, the one the referee's screen,
  // the printer and the vision read), checked once and kept.
  std::mutex models_mutex;
  std::map<std::string, std::string> models;
  Response model(const Request& req, const std::string& game) {
    if (!is_game_id(game)) return error(req, http::status::not_found, "no game '" + game + "'");
    std::lock_guard<std::mutex> lock(models_mutex);
    auto it = models.find(game);
    if (it == models.end()) {
      try {
        it = models.emplace(game, calib::load_board_model(game).to_json().dump()).first;
      } catch (const InputError& e) {
        return error(req, http::status::not_found, e.what());
      }
    }
    Response res = reply(req, http::status::ok, it->second, "application/json");
    res.set(http::field::cache_control, "max-age=3600");
    return res;
  }

  Response record(const Request& req, const std::string& format, int board) {
    auto text = state.record(format, board);
    const std::string name = (board > 0 ? "board" + std::to_string(board) : state.options().event) + "." + format;
    if (!text) return error(req, http::status::not_found, "no " + format + " record" + (board > 0 ? " for board " + std::to_string(board) : " in this round"));
    const std::string type = format == "pdn" ? "application/x-pdn; charset=utf-8"
                             : format == "json" ? "application/json"
                                                : "text/plain; charset=utf-8";
    return reply(req, http::status::ok, std::move(*text), type, name);
  }

  Response route(const Request& req) {
    if (req.method() != http::verb::get && req.method() != http::verb::head) {
      Response res = error(req, http::status::method_not_allowed, "the hall only answers GET");
      res.set(http::field::allow, "GET, HEAD");
      return res;
    }
    std::string path(req.target());
    if (auto q = path.find('?'); q != std::string::npos) path.resize(q);
    if (path == "/" || path == "/index.html") return file(req, "hall.html", "text/html; charset=utf-8");
    if (path == "/hall.js") return file(req, "hall.js", "application/javascript; charset=utf-8");
    if (path == "/hall.css") return file(req, "hall.css", "text/css; charset=utf-8");
    if (path == "/api/boards") return json(req, state.boards_json());
    if (path == "/api/standings") return json(req, state.standings_json());
    if (path == "/api/errors") return json(req, state.errors_json());
    if (path.rfind("/api/model/", 0) == 0) return model(req, path.substr(11));
    for (const char* f : {"pdn", "txt", "json"})
      if (path == std::string("/api/round.") + f) return record(req, f, 0);
    const std::string prefix = "/api/board/";
    if (path.rfind(prefix, 0) == 0) {
      std::string rest = path.substr(prefix.size());
      std::string tail;
      if (auto slash = rest.find('/'); slash != std::string::npos) {
        tail = rest.substr(slash + 1);
        rest.resize(slash);
      }
      if (rest.empty() || rest.size() > 4 || rest.find_first_not_of("0123456789") != std::string::npos)
        return error(req, http::status::bad_request, "board '" + rest + "' is not a number");
      const int board = std::stoi(rest);
      if (tail.empty()) {
        nlohmann::json j = state.board_json(board);
        if (j.is_null()) return error(req, http::status::not_found, "no board " + rest + " in this hall");
        return json(req, j);
      }
      for (const char* f : {"pdn", "txt", "json"})
        if (tail == std::string("record.") + f) return record(req, f, board);
      if (tail == "screen") {
        if (!options.screen) return error(req, http::status::not_found, "this hall serves no board screens");
        try {
          return json(req, options.screen(board));
        } catch (const InputError& e) {
          return error(req, http::status::not_found, e.what());
        }
      }
    }
    return error(req, http::status::not_found, "not found: " + path);
  }

  void serve(tcp::socket socket) {
    struct Slot {
      std::atomic<int>& n;
      ~Slot() { --n; }
    } slot{connections};
    timeval tv{options.timeout_s, 0};
    ::setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    ::setsockopt(socket.native_handle(), SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    beast::flat_buffer buffer;
    for (;;) {
      beast::error_code ec;
      http::request_parser<http::string_body> parser;
      parser.header_limit(8192);
      parser.body_limit(4096);
      http::read(socket, buffer, parser, ec);
      if (ec == http::error::end_of_stream || ec) {
        if (ec && ec != http::error::end_of_stream && ec != net::error::eof && ec != net::error::connection_reset &&
            ec.category() == http::make_error_code(http::error::bad_method).category()) {
          Request bad;
          bad.version(11);
          Response res = error(bad, http::status::bad_request, "malformed request: " + ec.message());
          res.keep_alive(false);
          http::write(socket, res, ec);
        }
        break;
      }
      Request req = parser.release();
      Response res;
      try {
        res = route(req);
      } catch (const std::exception& e) {
        res = error(req, http::status::internal_server_error, e.what());
      }
      if (req.method() == http::verb::head) res.body().clear();
      http::write(socket, res, ec);
      if (ec || !res.keep_alive() || !running) break;
    }
    beast::error_code ignored;
    socket.shutdown(tcp::socket::shutdown_both, ignored);
  }
};

HallServer::HallServer(HallServerOptions options, HallState& state)
    : impl_(std::make_unique<Impl>(state, options)), options_(std::move(options)) {}

HallServer::~HallServer() { stop(); }

void HallServer::start() {
  if (impl_->running) return;
  beast::error_code ec;
  auto address = net::ip::make_address(options_.address, ec);
  if (ec) throw InputError("--http: bad address '" + options_.address + "'");
  tcp::endpoint endpoint{address, options_.port};
  impl_->acceptor.open(endpoint.protocol(), ec);
  if (!ec) impl_->acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) impl_->acceptor.bind(endpoint, ec);
  if (!ec) impl_->acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec) throw InputError("--http: cannot listen on " + options_.address + ":" + std::to_string(options_.port) + ": " + ec.message());
  port_ = impl_->acceptor.local_endpoint().port();
  impl_->running = true;
  impl_->accept_thread = std::thread([this] {
    Impl& s = *impl_;
    while (s.running) {
      beast::error_code ec;
      tcp::socket socket(s.ioc);
      s.acceptor.accept(socket, ec);
      if (!s.running) break;
      if (ec) continue;
      if (s.connections.load() >= s.options.max_connections) {
        socket.close(ec);  // over the budget: refused at once
        continue;
      }
      ++s.connections;
      std::thread([&s, sock = std::move(socket)]() mutable { s.serve(std::move(sock)); }).detach();
    }
  });
}

void HallServer::stop() {
  if (!impl_->running.exchange(false)) return;
  beast::error_code ec;
  impl_->acceptor.cancel(ec);
  ::shutdown(impl_->acceptor.native_handle(), SHUT_RDWR);
  impl_->acceptor.close(ec);
  if (impl_->accept_thread.joinable()) impl_->accept_thread.join();
  // Connections still open end within their time limit; wait for them so none outlives the state.
  for (int i = 0; i < 100 * options_.timeout_s && impl_->connections.load() > 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

std::string HallServer::url() const { return "http://" + options_.address + ":" + std::to_string(port_) + "/"; }

}  // namespace sb::hall
