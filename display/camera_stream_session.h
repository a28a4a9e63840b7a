// One watcher of the live camera view (GET /api/camera.mjpeg): a
// multipart/x-mixed-replace stream of JPEG frames. Only the newest frame waits
// to be sent; a watcher too slow for the frame rate sees fewer frames, and
// memory never grows with its slowness.
#pragma once

#include <array>
#include <memory>
#include <string>

#include "display/beast.h"
#include "display/shared_state.h"

namespace sb::display {

class CameraStreamSession : public std::enable_shared_from_this<CameraStreamSession> {
 public:
  CameraStreamSession(beast::tcp_stream&& stream, std::shared_ptr<SharedState> state, ConnectionSlot slot);
  ~CameraStreamSession();

  void run();
  // Thread-safe: offers a new frame.
  void send(const std::shared_ptr<const std::string>& jpeg);

 private:
  void on_frame(std::shared_ptr<const std::string> jpeg);
  void write_next();
  void on_write(beast::error_code ec, std::size_t bytes);
  void do_read();

  beast::tcp_stream stream_;
  std::shared_ptr<SharedState> state_;
  ConnectionSlot slot_;
  std::array<char, 512> read_buffer_;  // what the watcher sends is discarded; the read sees it leave
  std::string header_;
  std::string part_head_;
  std::shared_ptr<const std::string> sending_;  // the frame being written
  std::shared_ptr<const std::string> next_;     // the newest frame waiting
  bool writing_ = false;
  bool closed_ = false;
  bool joined_ = false;
};

}  // namespace sb::display
