// The hall's web server (Boost.Beast): the overview page and the JSON API over
// the HallState. One thread accepts; each connection is served on a thread of
// its own with read and write time limits, and at most `max_connections` at once.
//
//   GET /                      the overview page (hall/www/hall.html)
//   GET /api/boards            [{"board", "game", "fen", "score", "moves", "status", ...}]
//   GET /api/board/N           one board with its move list
//   GET /api/standings         the round's standings
//   GET /api/model/GAME        the board model diagrams are drawn from (configs/boards/GAME.json)
//   GET /api/errors            the latest refused messages, in words
//   GET /api/round.pdn|.txt|.json        the round's games (PDN: draughts; txt, json: the others)
//   GET /api/board/N/record.pdn|.txt|.json
//   GET /api/board/N/screen    {"board", "port"}: the referee's screen for board N, on a port of its own
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "hall/hall_state.h"

namespace sb::hall {

struct HallServerOptions {
  std::string address = "127.0.0.1";
  unsigned short port = 8090;  // 0: any free port
  std::string www_root;        // hall/www
  int max_connections = 256;
  int timeout_s = 15;          // to send one request, to take one answer
  // GET /api/board/N/screen: starts (or finds) board N's enlarged screen and returns {"board", "port"};
  // throws InputError when it cannot. Empty: the hall has no such screens (404).
  std::function<nlohmann::json(int board)> screen;
};

class HallServer {
 public:
  HallServer(HallServerOptions options, HallState& state);
  ~HallServer();
  // Binds (InputError when it cannot) and starts accepting.
  void start();
  void stop();
  unsigned short port() const { return port_; }
  std::string url() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  HallServerOptions options_;
  unsigned short port_ = 0;
};

}  // namespace sb::hall
