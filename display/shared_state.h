// What every connection of one server shares: the game as shown (GameView), the
// viewers to push events to, the camera's latest frame and its watchers, speech,
// the operator's token and the connection budget. Thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "display/announcer.h"
#include "display/game_view.h"
#include "display/host.h"
#include "display/server_options.h"
#include "display/speech.h"
#include "display/speech_service.h"

namespace sb::display {

class WebSocketSession;
class CameraStreamSession;
class SharedState;

// One admitted connection; gives its place back when destroyed. Moves from the
// HTTP session to the WebSocket or camera session that takes over its socket.
class ConnectionSlot {
 public:
  ConnectionSlot() = default;
  explicit ConnectionSlot(std::shared_ptr<SharedState> state) : state_(std::move(state)) {}
  ConnectionSlot(ConnectionSlot&& o) noexcept = default;
  ConnectionSlot& operator=(ConnectionSlot&& o) noexcept;
  ~ConnectionSlot();

 private:
  std::shared_ptr<SharedState> state_;
};

class SharedState : public std::enable_shared_from_this<SharedState> {
 public:
  SharedState(ServerOptions options, GameHost& host);

  const ServerOptions& options() const { return options_; }
  GameHost& host() { return host_; }
  const std::string& token() const { return options_.token; }
  const nlohmann::json& board_model() const { return board_; }

  // The connection budget (max_connections): nullopt when full.
  std::optional<ConnectionSlot> admit();
  size_t connections() const { return connections_.load(); }

  // Viewers.
  void join(WebSocketSession* viewer);
  void leave(WebSocketSession* viewer);
  size_t viewer_count() const;
  void join(CameraStreamSession* watcher);
  void leave(CameraStreamSession* watcher);

  // Folds an event into the game as shown, announces it, pushes it to every viewer
  // and returns it as pushed. Thread-safe; returns quickly (writes are queued).
  nlohmann::json publish(const nlohmann::json& event);
  nlohmann::json state() const;           // GET /api/state
  nlohmann::json events_since(int64_t seq) const;
  std::string text_record() const;
  nlohmann::json json_record() const;

  Language language() const;
  // Switches the screen's and the voice's language; returns the info event pushed.
  nlohmann::json set_language(Language lang);

  // The camera view for setup: the app hands JPEG bytes; watchers get the newest.
  void set_camera_frame(std::string jpeg);
  std::shared_ptr<const std::string> camera_frame() const;

  SpeechService& speech() { return speech_; }
  // Machine audio: when set, every announcement is also spoken here.
  void set_local_speaker(std::shared_ptr<Speaker> speaker);

 private:
  friend class ConnectionSlot;
  void release() { connections_.fetch_sub(1); }

  ServerOptions options_;
  GameHost& host_;
  nlohmann::json board_;
  std::atomic<size_t> connections_{0};

  mutable std::mutex game_mutex_;  // view_, language_
  GameView view_;
  Language language_;

  mutable std::mutex viewers_mutex_;
  std::unordered_set<WebSocketSession*> viewers_;
  std::unordered_set<CameraStreamSession*> watchers_;
  std::shared_ptr<const std::string> camera_frame_;

  SpeechService speech_;
  std::shared_ptr<Speaker> local_speaker_;
};

}  // namespace sb::display
