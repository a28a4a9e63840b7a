#include "display/shared_state.h"

#include "display/board_model.h"
#include "display/camera_stream_session.h"
#include "display/token.h"
#include "display/websocket_session.h"

namespace sb::display {

ConnectionSlot& ConnectionSlot::operator=(ConnectionSlot&& o) noexcept {
  if (this != &o) {
    if (state_) state_->release();
    state_ = std::move(o.state_);
  }
  return *this;
}

ConnectionSlot::~ConnectionSlot() {
  if (state_) state_->release();
}

namespace {

ServerOptions with_token(ServerOptions o) {
  if (o.token.empty()) o.token = make_token();
  return o;
}

nlohmann::json checked_board(GameHost& host) {
  nlohmann::json board = host.board_model();
  validate_board_model(board);
  return board;
}

}  // namespace

SharedState::SharedState(ServerOptions options, GameHost& host)
    : options_(with_token(std::move(options))),
      host_(host),
      board_(checked_board(host)),
      view_(host.game(), host.start_fen(), reading_order(board_)),
      language_(options_.language) {}

std::optional<ConnectionSlot> SharedState::admit() {
  size_t now = connections_.fetch_add(1) + 1;
  if (now > options_.max_connections) {
    connections_.fetch_sub(1);
    return std::nullopt;
  }
  return ConnectionSlot(shared_from_this());
}

void SharedState::join(WebSocketSession* viewer) {
  std::lock_guard<std::mutex> lock(viewers_mutex_);
  viewers_.insert(viewer);
}

void SharedState::leave(WebSocketSession* viewer) {
  std::lock_guard<std::mutex> lock(viewers_mutex_);
  viewers_.erase(viewer);
}

size_t SharedState::viewer_count() const {
  std::lock_guard<std::mutex> lock(viewers_mutex_);
  return viewers_.size();
}

void SharedState::join(CameraStreamSession* watcher) {
  std::lock_guard<std::mutex> lock(viewers_mutex_);
  watchers_.insert(watcher);
}

void SharedState::leave(CameraStreamSession* watcher) {
  std::lock_guard<std::mutex> lock(viewers_mutex_);
  watchers_.erase(watcher);
}

nlohmann::json SharedState::publish(const nlohmann::json& event) {
  // One publication at a time, so every viewer receives the events in one order.
  std::lock_guard<std::mutex> game_lock(game_mutex_);
  nlohmann::json shown = view_.apply(event);
  nlohmann::json said = announcement_json(shown, side_names(view_.game()));
  if (!said.is_null()) {
    shown["announce"] = said;
    const std::string en = said["en"]["speech"], vi = said["vi"]["speech"];
    if (!en.empty() || !vi.empty()) {
      shown["speech"] = true;
      speech_.announce(shown["seq"].get<int64_t>(), en, vi);
      if (local_speaker_) local_speaker_->say(language_ == Language::English ? en : vi, language_);
    }
  }
  auto message = std::make_shared<const std::string>(shown.dump());
  std::vector<std::weak_ptr<WebSocketSession>> targets;
  {
    std::lock_guard<std::mutex> lock(viewers_mutex_);
    targets.reserve(viewers_.size());
    for (WebSocketSession* v : viewers_) targets.push_back(v->weak_from_this());
  }
  for (const auto& weak : targets)
    if (auto viewer = weak.lock()) viewer->send(message);
  return shown;
}

nlohmann::json SharedState::state() const {
  nlohmann::json s;
  {
    std::lock_guard<std::mutex> lock(game_mutex_);
    s = view_.state();
    s["language"] = language_code(language_);
  }
  s["board_url"] = "/api/board";
  // The host is asked outside the lock: it may be publishing at this moment.
  nlohmann::json extra = host_.state_extra();
  if (extra.is_object())
    for (auto& [key, value] : extra.items())
      if (!s.contains(key)) s[key] = value;
  return s;
}

nlohmann::json SharedState::events_since(int64_t seq) const {
  std::lock_guard<std::mutex> lock(game_mutex_);
  nlohmann::json all = view_.json_record()["events"];
  nlohmann::json out = nlohmann::json::array();
  for (auto& e : all)
    if (e.value("seq", int64_t{0}) > seq) out.push_back(std::move(e));
  return out;
}

std::string SharedState::text_record() const {
  std::lock_guard<std::mutex> lock(game_mutex_);
  return view_.text_record();
}

nlohmann::json SharedState::json_record() const {
  std::lock_guard<std::mutex> lock(game_mutex_);
  return view_.json_record();
}

Language SharedState::language() const {
  std::lock_guard<std::mutex> lock(game_mutex_);
  return language_;
}

nlohmann::json SharedState::set_language(Language lang) {
  {
    std::lock_guard<std::mutex> lock(game_mutex_);
    language_ = lang;
  }
  return publish({{"type", "info"}, {"t", 0}, {"reason", "language"}, {"lang", language_code(lang)}});
}

void SharedState::set_camera_frame(std::string jpeg) {
  auto frame = std::make_shared<const std::string>(std::move(jpeg));
  std::vector<std::weak_ptr<CameraStreamSession>> targets;
  {
    std::lock_guard<std::mutex> lock(viewers_mutex_);
    camera_frame_ = frame;
    for (CameraStreamSession* w : watchers_) targets.push_back(w->weak_from_this());
  }
  for (const auto& weak : targets)
    if (auto watcher = weak.lock()) watcher->send(frame);
}

std::shared_ptr<const std::string> SharedState::camera_frame() const {
  std::lock_guard<std::mutex> lock(viewers_mutex_);
  return camera_frame_;
}

void SharedState::set_local_speaker(std::shared_ptr<Speaker> speaker) {
  std::lock_guard<std::mutex> lock(game_mutex_);
  local_speaker_ = std::move(speaker);
}

}  // namespace sb::display
