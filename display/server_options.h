// How the screen's server listens and what it tolerates. A plain struct of
// documented parameters; the defaults are what `--http PORT` gets.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

#include "display/announcer.h"

namespace sb::display {

struct ServerOptions {
  // Where to listen. 127.0.0.1 unless the operator asks for a wider address.
  std::string address = "127.0.0.1";
  unsigned short port = 8080;  // 0: any free port (tests)
  // The page's files (display/www); served read-only, nothing outside it.
  std::string www_root;
  // The operator's token for POST /api/command; empty: a random one is made at start.
  std::string token;
  // The screen's language at start (the page and speech); the operator switches it.
  Language language = Language::English;

  // Hostile input: the sizes and times past which a request or viewer is refused.
  size_t max_header_bytes = 8 * 1024;        // request line + headers: 431 beyond
  size_t max_body_bytes = 64 * 1024;         // a command's JSON body: 413 beyond
  size_t max_connections = 512;              // open connections of every kind
  size_t max_viewer_backlog_bytes = 4 << 20; // a WebSocket viewer this far behind is disconnected
  size_t max_ws_message_bytes = 4096;        // what a viewer may send (viewers only watch)
  size_t max_file_bytes = 8 << 20;           // largest static file served
  std::chrono::seconds request_timeout{15};  // to send one whole request (slow clients)
  int threads = 1;                           // network threads
};

struct ListenAddress {
  std::string address;
  unsigned short port = 0;
};

// "8080", "0.0.0.0:8080", "[::1]:8080"; throws InputError naming the bad part.
ListenAddress parse_listen_address(const std::string& text, const std::string& default_address = "127.0.0.1");

}  // namespace sb::display
