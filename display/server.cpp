#include "display/server.h"

#include "display/beast.h"
#include "display/listener.h"
#include "display/shared_state.h"
#include "display/speech.h"
#include "engines/common/errors.h"

namespace sb::display {

Server::Server(ServerOptions options, GameHost& host)
    : ioc_(std::make_unique<net::io_context>(std::max(1, options.threads))),
      state_(std::make_shared<SharedState>(std::move(options), host)) {}

Server::~Server() { stop(); }

void Server::start() {
  if (started_) return;
  const ServerOptions& o = state_->options();
  beast::error_code ec;
  auto address = net::ip::make_address(o.address, ec);
  if (ec) throw InputError("--http: bad address '" + o.address + "'");
  listener_ = std::make_shared<Listener>(*ioc_, tcp::endpoint{address, o.port}, state_);
  listener_->run();
  started_ = true;
  for (int i = 0; i < std::max(1, o.threads); ++i) threads_.emplace_back([this] { ioc_->run(); });
}

void Server::stop() {
  if (!started_) return;
  started_ = false;
  listener_->stop();
  ioc_->stop();
  for (std::thread& t : threads_) t.join();
  threads_.clear();
  // Handlers still queued hold the sessions; destroying the context closes their sockets.
  listener_.reset();
  ioc_ = std::make_unique<net::io_context>(1);
}

unsigned short Server::port() const { return listener_ ? listener_->port() : state_->options().port; }

std::string Server::url() const {
  std::string host = state_->options().address;
  if (host.find(':') != std::string::npos) host = "[" + host + "]";
  return "http://" + host + ":" + std::to_string(port()) + "/";
}

const std::string& Server::token() const { return state_->token(); }

nlohmann::json Server::publish(const arbiter::Event& event) { return state_->publish(arbiter::to_json(event)); }

nlohmann::json Server::publish(const nlohmann::json& event) { return state_->publish(event); }

void Server::set_camera_jpeg(std::string jpeg) { state_->set_camera_frame(std::move(jpeg)); }

void Server::speak_locally(bool on) { state_->set_local_speaker(on ? std::make_shared<Speaker>() : nullptr); }

nlohmann::json Server::state() const { return state_->state(); }

size_t Server::viewer_count() const { return state_->viewer_count(); }

}  // namespace sb::display
