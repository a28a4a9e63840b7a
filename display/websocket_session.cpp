#include "display/websocket_session.h"

namespace sb::display {

WebSocketSession::WebSocketSession(tcp::socket&& socket, std::shared_ptr<SharedState> state, ConnectionSlot slot)
    : ws_(std::move(socket)), state_(std::move(state)), slot_(std::move(slot)) {}

WebSocketSession::~WebSocketSession() {
  if (joined_) state_->leave(this);
}

void WebSocketSession::run(Request request) {
  // The HTTP session's timer must not close the upgraded stream; the WebSocket
  // timeouts (handshake, idle with pings) take over.
  beast::get_lowest_layer(ws_).expires_never();
  ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
  ws_.set_option(websocket::stream_base::decorator(
      [](websocket::response_type& res) { res.set(http::field::server, "smartboard"); }));
  ws_.read_message_max(state_->options().max_ws_message_bytes);
  ws_.text(true);
  ws_.async_accept(request, beast::bind_front_handler(&WebSocketSession::on_accept, shared_from_this()));
}

void WebSocketSession::on_accept(beast::error_code ec) {
  if (ec) return;
  state_->join(this);
  joined_ = true;
  do_read();
}

void WebSocketSession::do_read() {
  ws_.async_read(buffer_, beast::bind_front_handler(&WebSocketSession::on_read, shared_from_this()));
}

void WebSocketSession::on_read(beast::error_code ec, std::size_t) {
  // Viewers only watch: what they send is read (to see pings and the close) and dropped.
  if (ec) {
    closed_ = true;
    return;
  }
  buffer_.consume(buffer_.size());
  do_read();
}

void WebSocketSession::send(const std::shared_ptr<const std::string>& message) {
  const size_t pending = pending_bytes_.fetch_add(message->size()) + message->size();
  if (pending > state_->options().max_viewer_backlog_bytes) {
    // Too slow to keep up: drop this viewer (it can reconnect and reload the state).
    if (!dropping_.exchange(true))
      net::post(ws_.get_executor(), beast::bind_front_handler(&WebSocketSession::drop, shared_from_this()));
    return;
  }
  net::post(ws_.get_executor(), beast::bind_front_handler(&WebSocketSession::on_send, shared_from_this(), message));
}

void WebSocketSession::on_send(std::shared_ptr<const std::string> message) {
  if (closed_) return;
  queue_.push_back(std::move(message));
  if (queue_.size() > 1) return;  // a write is under way
  ws_.async_write(net::buffer(*queue_.front()), beast::bind_front_handler(&WebSocketSession::on_write, shared_from_this()));
}

void WebSocketSession::drop() {
  closed_ = true;
  queue_.clear();
  beast::error_code ignored;
  beast::get_lowest_layer(ws_).socket().shutdown(tcp::socket::shutdown_both, ignored);
  beast::get_lowest_layer(ws_).close();
}

void WebSocketSession::on_write(beast::error_code ec, std::size_t) {
  if (closed_ && queue_.empty()) return;
  if (ec) {
    closed_ = true;
    queue_.clear();
    return;
  }
  pending_bytes_.fetch_sub(queue_.front()->size());
  queue_.pop_front();
  if (!queue_.empty())
    ws_.async_write(net::buffer(*queue_.front()),
                    beast::bind_front_handler(&WebSocketSession::on_write, shared_from_this()));
}

}  // namespace sb::display
