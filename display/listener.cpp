#include "display/listener.h"

#include "display/http_session.h"
#include "engines/common/errors.h"

namespace sb::display {

Listener::Listener(net::io_context& ioc, const tcp::endpoint& endpoint, std::shared_ptr<SharedState> state)
    : ioc_(ioc), acceptor_(net::make_strand(ioc)), state_(std::move(state)) {
  beast::error_code ec;
  auto where = [&] {
    return endpoint.address().to_string() + ":" + std::to_string(endpoint.port()) + ": " + ec.message();
  };
  acceptor_.open(endpoint.protocol(), ec);
  if (ec) throw InputError("cannot listen on " + where());
  acceptor_.set_option(net::socket_base::reuse_address(true), ec);
  acceptor_.bind(endpoint, ec);
  if (ec) throw InputError("cannot listen on " + where());
  acceptor_.listen(net::socket_base::max_listen_connections, ec);
  if (ec) throw InputError("cannot listen on " + where());
}

void Listener::run() { do_accept(); }

void Listener::stop() {
  net::post(acceptor_.get_executor(), [self = shared_from_this()] {
    beast::error_code ignored;
    self->acceptor_.close(ignored);
  });
}

unsigned short Listener::port() const { return acceptor_.local_endpoint().port(); }

void Listener::do_accept() {
  acceptor_.async_accept(net::make_strand(ioc_), beast::bind_front_handler(&Listener::on_accept, shared_from_this()));
}

void Listener::on_accept(beast::error_code ec, tcp::socket socket) {
  if (ec == net::error::operation_aborted || !acceptor_.is_open()) return;
  if (!ec) {
    if (auto slot = state_->admit()) {
      std::make_shared<HttpSession>(std::move(socket), state_, std::move(*slot))->run();
    } else {
      beast::error_code ignored;
      socket.close(ignored);
    }
  }
  // Errors of one accept (a client gone, too many open files) must not stop the server.
  do_accept();
}

}  // namespace sb::display
