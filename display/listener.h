// Accepts connections on the server's address and starts an HTTP session for
// each, within the connection budget (a connection past it is closed at once).
#pragma once

#include <memory>

#include "display/beast.h"
#include "display/shared_state.h"

namespace sb::display {

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  // Binds and listens; throws InputError naming the address when it cannot.
  Listener(net::io_context& ioc, const tcp::endpoint& endpoint, std::shared_ptr<SharedState> state);

  void run();
  void stop();
  unsigned short port() const;

 private:
  void do_accept();
  void on_accept(beast::error_code ec, tcp::socket socket);

  net::io_context& ioc_;
  tcp::acceptor acceptor_;
  std::shared_ptr<SharedState> state_;
};

}  // namespace sb::display
