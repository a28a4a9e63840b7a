// One HTTP connection: reads requests within the size and time limits, answers
// them (routes.h), and hands its socket over on an upgrade to /ws or a request
// for the camera stream. A malformed, oversized or slow request gets a clean
// error and the connection is closed.
#pragma once

#include <memory>
#include <optional>

#include "display/beast.h"
#include "display/shared_state.h"

namespace sb::display {

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket&& socket, std::shared_ptr<SharedState> state, ConnectionSlot slot);
  void run();

 private:
  void do_read();
  void on_read(beast::error_code ec, std::size_t bytes);
  void handle(Request request);
  void speech(const Request& request, int64_t seq, const std::string& lang);
  void send(Response response);
  void on_write(bool close, beast::error_code ec, std::size_t bytes);
  void fail(http::status status, const std::string& message);
  void close();

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::shared_ptr<SharedState> state_;
  ConnectionSlot slot_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::shared_ptr<Response> response_;
};

}  // namespace sb::display
