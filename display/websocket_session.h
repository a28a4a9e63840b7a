// One viewer on /ws: receives every event as a JSON text message. Writes go out
// one at a time from a queue; a viewer that falls further behind than the
// backlog limit is disconnected rather than allowed to grow the queue.
#pragma once

#include <atomic>
#include <deque>
#include <memory>
#include <string>

#include "display/beast.h"
#include "display/shared_state.h"

namespace sb::display {

class WebSocketSession : public std::enable_shared_from_this<WebSocketSession> {
 public:
  WebSocketSession(tcp::socket&& socket, std::shared_ptr<SharedState> state, ConnectionSlot slot);
  ~WebSocketSession();

  // Completes the upgrade that `request` asked for.
  void run(Request request);
  // Thread-safe: queues a message for this viewer.
  void send(const std::shared_ptr<const std::string>& message);

 private:
  void on_accept(beast::error_code ec);
  void do_read();
  void on_read(beast::error_code ec, std::size_t bytes);
  void on_send(std::shared_ptr<const std::string> message);
  void on_write(beast::error_code ec, std::size_t bytes);
  void drop();

  websocket::stream<beast::tcp_stream> ws_;
  std::shared_ptr<SharedState> state_;
  ConnectionSlot slot_;
  beast::flat_buffer buffer_;
  std::deque<std::shared_ptr<const std::string>> queue_;
  // Bytes handed to send() and not yet written, counted where send() is called, so a
  // viewer is dropped even while the network thread lags behind the publisher.
  std::atomic<size_t> pending_bytes_{0};
  std::atomic<bool> dropping_{false};
  bool joined_ = false;
  bool closed_ = false;
};

}  // namespace sb::display
