// The referee screen's server: HTTP and WebSocket on one port (Boost.Beast on
// Asio, in the shape of Beast's chat-multi example: listener, http_session,
// websocket_session, shared_state).
//
//   GET  /                 the screen (display/www)
//   GET  /api/state        {"game", "fen", "score", "moves", "position", "status", "result", ...}
//   GET  /api/board        the board model the page draws (board_model.h)
//   GET  /api/moves        ?from=SITE&captures=1&fen=FEN: legal moves, answered by the host's engine
//   GET  /api/events       ?since=SEQ: the events so far, as pushed
//   GET  /api/record       ?format=pdn|txt|json (also /api/record.pdn, .txt, .json): downloads
//   GET  /api/camera.jpg   the newest camera frame; /api/camera.mjpeg the live stream
//   GET  /api/speech       ?seq=N&lang=en|vi: the announcement as WAV (espeak-ng)
//   GET  /api/auth         200 with the operator's token, 401 without
//   POST /api/command      JSON body, Authorization: Bearer <token>; 401 without
//   WS   /ws               every event as a JSON text message
#pragma once

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "arbiter/event.h"
#include "display/host.h"
#include "display/server_options.h"

namespace boost::asio {
class io_context;
}

namespace sb::display {

class SharedState;
class Listener;
class Speaker;

class Server {
 public:
  // `host` must outlive the server. Throws InputError for a bad board model or
  // start FEN from the host.
  Server(ServerOptions options, GameHost& host);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds and starts the network threads; throws InputError when it cannot listen.
  void start();
  // Stops accepting, closes every connection and joins the threads. Idempotent.
  void stop();

  unsigned short port() const;
  std::string url() const;  // "http://127.0.0.1:8080/"
  const std::string& token() const;

  // Thread-safe. Folds the event into the screen's game, announces it and pushes
  // it to every viewer; returns it as pushed (with "seq", "announce", ...).
  nlohmann::json publish(const arbiter::Event& event);
  nlohmann::json publish(const nlohmann::json& event);
  // Thread-safe: the newest camera view (JPEG bytes, grid and reads drawn by the app).
  void set_camera_jpeg(std::string jpeg);
  // Also speak every announcement on this machine's audio.
  void speak_locally(bool on);

  nlohmann::json state() const;
  size_t viewer_count() const;

 private:
  std::unique_ptr<boost::asio::io_context> ioc_;
  std::shared_ptr<SharedState> state_;
  std::shared_ptr<Listener> listener_;
  std::vector<std::thread> threads_;
  bool started_ = false;
};

}  // namespace sb::display
