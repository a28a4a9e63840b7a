// Small blocking clients for the server tests: raw bytes, HTTP requests and a
// WebSocket viewer, all on loopback with receive timeouts so a test never hangs.
#pragma once

#include <sys/socket.h>
#include <sys/time.h>

#include <chrono>
#include <string>
#include <utility>

#include "display/beast.h"

namespace sb::display::testing {

inline void set_receive_timeout(tcp::socket& s, std::chrono::milliseconds timeout) {
  timeval tv{};
  tv.tv_sec = static_cast<long>(timeout.count() / 1000);
  tv.tv_usec = static_cast<long>((timeout.count() % 1000) * 1000);
  ::setsockopt(s.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
}

inline tcp::socket connect_to(net::io_context& ioc, unsigned short port) {
  tcp::socket s(ioc);
  s.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  set_receive_timeout(s, std::chrono::seconds(10));
  return s;
}

// Sends `bytes` and reads until the server closes the connection (or the timeout).
inline std::string raw_exchange(unsigned short port, const std::string& bytes,
                                std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
  net::io_context ioc;
  tcp::socket s = connect_to(ioc, port);
  set_receive_timeout(s, timeout);
  beast::error_code ec;
  net::write(s, net::buffer(bytes), ec);
  std::string out;
  char buf[4096];
  for (;;) {
    size_t n = s.read_some(net::buffer(buf), ec);
    if (ec) break;
    out.append(buf, n);
  }
  return out;
}

struct Reply {
  int status = 0;
  std::string body;
  std::string content_type;
  http::response<http::string_body> raw;
};

inline Reply request(unsigned short port, http::verb method, const std::string& target, const std::string& body = "",
                     const std::string& authorization = "") {
  net::io_context ioc;
  tcp::socket s = connect_to(ioc, port);
  http::request<http::string_body> req{method, target, 11};
  req.set(http::field::host, "127.0.0.1");
  if (!authorization.empty()) req.set(http::field::authorization, authorization);
  if (!body.empty() || method == http::verb::post) {
    req.set(http::field::content_type, "application/json");
    req.body() = body;
    req.prepare_payload();
  }
  http::write(s, req);
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(64 << 20);
  http::read(s, buffer, parser);
  Reply r;
  r.raw = parser.release();
  r.status = r.raw.result_int();
  r.body = r.raw.body();
  r.content_type = std::string(r.raw[http::field::content_type]);
  return r;
}

inline Reply get(unsigned short port, const std::string& target) { return request(port, http::verb::get, target); }

// A viewer of /ws.
class Viewer {
 public:
  explicit Viewer(unsigned short port) : ws_(connect_to(ioc_, port)) {
    ws_.handshake("127.0.0.1", "/ws");
  }
  // The next text message; throws on timeout or close.
  std::string read() {
    beast::flat_buffer b;
    ws_.read(b);
    return beast::buffers_to_string(b.data());
  }
  tcp::socket& socket() { return ws_.next_layer(); }
  websocket::stream<tcp::socket>& stream() { return ws_; }

 private:
  net::io_context ioc_;
  websocket::stream<tcp::socket> ws_;
};

}  // namespace sb::display::testing
