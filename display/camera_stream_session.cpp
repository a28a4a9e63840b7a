#include "display/camera_stream_session.h"

#include <array>

namespace sb::display {

namespace {
constexpr const char* kBoundary = "smartboardframe";
// A watcher that cannot take one frame in this long is gone.
constexpr std::chrono::seconds kWriteTimeout{20};
}  // namespace

CameraStreamSession::CameraStreamSession(beast::tcp_stream&& stream, std::shared_ptr<SharedState> state,
                                         ConnectionSlot slot)
    : stream_(std::move(stream)), state_(std::move(state)), slot_(std::move(slot)) {}

CameraStreamSession::~CameraStreamSession() {
  if (joined_) state_->leave(this);
}

void CameraStreamSession::run() {
  header_ = std::string("HTTP/1.1 200 OK\r\nServer: smartboard\r\nCache-Control: no-cache, no-store\r\n") +
            "Connection: close\r\nContent-Type: multipart/x-mixed-replace; boundary=" + kBoundary + "\r\n\r\n";
  state_->join(this);
  joined_ = true;
  net::dispatch(stream_.get_executor(), [self = shared_from_this()] {
    self->writing_ = true;
    self->stream_.expires_after(kWriteTimeout);
    net::async_write(self->stream_, net::buffer(self->header_),
                     beast::bind_front_handler(&CameraStreamSession::on_write, self));
    self->do_read();
  });
  if (auto frame = state_->camera_frame()) send(frame);
}

void CameraStreamSession::do_read() {
  stream_.async_read_some(net::buffer(read_buffer_), [self = shared_from_this()](beast::error_code ec, std::size_t) {
    if (ec) {
      self->closed_ = true;
      self->next_.reset();
      beast::error_code ignored;
      self->stream_.socket().close(ignored);
      return;
    }
    self->do_read();
  });
}

void CameraStreamSession::send(const std::shared_ptr<const std::string>& jpeg) {
  net::post(stream_.get_executor(), beast::bind_front_handler(&CameraStreamSession::on_frame, shared_from_this(), jpeg));
}

void CameraStreamSession::on_frame(std::shared_ptr<const std::string> jpeg) {
  if (closed_) return;
  next_ = std::move(jpeg);  // an older frame still waiting is replaced, not queued
  if (!writing_) write_next();
}

void CameraStreamSession::write_next() {
  if (!next_) return;
  sending_ = std::move(next_);
  next_.reset();
  part_head_ = std::string("--") + kBoundary + "\r\nContent-Type: image/jpeg\r\nContent-Length: " +
               std::to_string(sending_->size()) + "\r\n\r\n";
  static const std::string kTail = "\r\n";
  std::array<net::const_buffer, 3> buffers{net::buffer(part_head_), net::buffer(*sending_), net::buffer(kTail)};
  writing_ = true;
  stream_.expires_after(kWriteTimeout);
  net::async_write(stream_, buffers, beast::bind_front_handler(&CameraStreamSession::on_write, shared_from_this()));
}

void CameraStreamSession::on_write(beast::error_code ec, std::size_t) {
  writing_ = false;
  sending_.reset();
  if (ec) {
    closed_ = true;
    next_.reset();
    return;
  }
  stream_.expires_never();
  write_next();
}

}  // namespace sb::display
