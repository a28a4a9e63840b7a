#include "display/http_session.h"

#include "display/camera_stream_session.h"
#include "display/request_target.h"
#include "display/routes.h"
#include "display/websocket_session.h"

namespace sb::display {

HttpSession::HttpSession(tcp::socket&& socket, std::shared_ptr<SharedState> state, ConnectionSlot slot)
    : stream_(std::move(socket)),
      // The buffer never holds more than one request's worth.
      buffer_(state->options().max_header_bytes + state->options().max_body_bytes + 1024),
      state_(std::move(state)),
      slot_(std::move(slot)) {}

void HttpSession::run() {
  net::dispatch(stream_.get_executor(), beast::bind_front_handler(&HttpSession::do_read, shared_from_this()));
}

void HttpSession::do_read() {
  parser_.emplace();
  parser_->header_limit(static_cast<std::uint32_t>(state_->options().max_header_bytes));
  parser_->body_limit(state_->options().max_body_bytes);
  stream_.expires_after(state_->options().request_timeout);
  http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
}

void HttpSession::on_read(beast::error_code ec, std::size_t) {
  if (ec == http::error::end_of_stream || ec == net::error::eof || ec == beast::error::timeout ||
      ec == net::error::connection_reset || ec == net::error::operation_aborted) {
    return close();
  }
  if (ec == http::error::header_limit || ec == http::error::buffer_overflow)
    return fail(http::status::request_header_fields_too_large, "request headers too large");
  if (ec == http::error::body_limit) return fail(http::status::payload_too_large, "request body too large");
  if (ec) {
    // A socket that is gone cannot be answered; a request that is not HTTP can.
    if (ec.category() == http::make_error_code(http::error::bad_method).category())
      return fail(http::status::bad_request, "malformed request: " + ec.message());
    return close();
  }
  handle(parser_->release());
}

void HttpSession::handle(Request request) {
  auto target = parse_target(std::string_view(request.target().data(), request.target().size()));
  if (!target) {
    Response res = error_response(http::status::bad_request, "malformed request target", request);
    res.keep_alive(false);
    return send(std::move(res));
  }
  if (target->path == "/ws") {
    if (!websocket::is_upgrade(request))
      return send(error_response(http::status::upgrade_required, "/ws is a WebSocket", request));
    stream_.expires_never();
    std::make_shared<WebSocketSession>(stream_.release_socket(), state_, std::move(slot_))->run(std::move(request));
    return;
  }
  if (target->path == "/api/camera.mjpeg" && request.method() == http::verb::get) {
    stream_.expires_never();
    std::make_shared<CameraStreamSession>(std::move(stream_), state_, std::move(slot_))->run();
    return;
  }
  if (target->path == "/api/speech" && request.method() == http::verb::get) {
    auto seq = target->query.find("seq");
    auto lang = target->query.find("lang");
    int64_t n = -1;
    try {
      if (seq != target->query.end()) n = std::stoll(seq->second);
    } catch (const std::exception&) {
    }
    std::string code = lang == target->query.end() ? language_code(state_->language()) : lang->second;
    if (n < 0 || (code != "en" && code != "vi"))
      return send(error_response(http::status::bad_request, "speech: expected ?seq=N&lang=en|vi", request));
    return speech(request, n, code);
  }
  send(route(*state_, request, *target));
}

void HttpSession::speech(const Request& request, int64_t seq, const std::string& lang) {
  // Rendering runs on the speech thread; the answer comes back to this connection's strand.
  auto head = std::make_shared<Request>();
  head->version(request.version());
  head->keep_alive(request.keep_alive());
  head->method(request.method());
  state_->speech().request(seq, language_from_code(lang), [self = shared_from_this(), head](SpeechService::Reply reply) {
    net::post(self->stream_.get_executor(), [self, head, reply = std::move(reply)]() {
      if (reply.status != 200) {
        return self->send(error_response(static_cast<http::status>(reply.status), reply.error, *head));
      }
      Response res{http::status::ok, head->version()};
      res.set(http::field::server, "smartboard");
      res.set(http::field::content_type, "audio/wav");
      res.set(http::field::cache_control, "no-store");
      res.keep_alive(head->keep_alive());
      res.body() = *reply.wav;
      res.prepare_payload();
      self->send(std::move(res));
    });
  });
}

void HttpSession::send(Response response) {
  response_ = std::make_shared<Response>(std::move(response));
  const bool close = response_->need_eof();
  stream_.expires_after(state_->options().request_timeout);
  http::async_write(stream_, *response_,
                    beast::bind_front_handler(&HttpSession::on_write, shared_from_this(), close));
}

void HttpSession::on_write(bool close_after, beast::error_code ec, std::size_t) {
  response_.reset();
  if (ec || close_after) return close();
  do_read();
}

void HttpSession::fail(http::status status, const std::string& message) {
  Request req;
  req.version(11);
  req.keep_alive(false);
  Response res = error_response(status, message, req);
  res.keep_alive(false);
  send(std::move(res));
}

void HttpSession::close() {
  beast::error_code ignored;
  stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
  stream_.close();
}

}  // namespace sb::display
