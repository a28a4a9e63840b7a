#include "hall/board_publisher.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "engines/common/errors.h"
#include "hall/json_bridge.h"
#include "hall/topics.h"

namespace sb::hall {

namespace {

// The sidecar: {"stream": "...", "confirmed": n}.
struct Sidecar {
  std::string stream;
  int64_t confirmed = 0;
};

std::optional<Sidecar> read_sidecar(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json j = nlohmann::json::parse(text.str(), nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("stream") || !j["stream"].is_string() ||
      !valid_stream_id(j["stream"].get<std::string>()))
    throw InputError("'" + path + "': not a hall publisher file (expected {\"stream\": …, \"confirmed\": n}); "
                     "remove it to start a new stream");
  Sidecar s;
  s.stream = j["stream"].get<std::string>();
  if (j.contains("confirmed") && j["confirmed"].is_number_integer()) s.confirmed = std::max<int64_t>(0, j["confirmed"].get<int64_t>());
  return s;
}

// Every sidecar line has this length (padded with spaces), so an update written
// over the old one in place replaces it whole.
constexpr size_t kSidecarLine = 95;

std::string sidecar_line(const Sidecar& s) {
  std::string line = nlohmann::json{{"stream", s.stream}, {"confirmed", s.confirmed}}.dump();
  if (line.size() < kSidecarLine) line.resize(kSidecarLine, ' ');
  return line + "\n";
}

// The first write: a whole new file, renamed into place.
void write_sidecar(const std::string& path, const Sidecar& s) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << sidecar_line(s);
    if (!out) throw std::runtime_error("cannot write '" + tmp + "'");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw std::runtime_error("cannot rename '" + tmp + "' to '" + path + "': " + ec.message());
}

}  // namespace

bool journaled(const arbiter::Event& e) {
  return arbiter::journaled(e.type);
}

nlohmann::json board_state(const arbiter::Referee& referee, int board, const std::string& stream, int64_t seq) {
  nlohmann::json j = referee.state_json();
  j["board"] = board;
  j["stream"] = stream;
  j["seq"] = seq;
  j["rules"] = to_nlohmann(referee.rules().options());
  j["start_fen"] = referee.game().start_fen;
  j["t"] = referee.last_t();
  const auto& moves = referee.game().moves;
  if (!moves.empty()) {
    const arbiter::PlayedMove& m = moves.back();
    const Rules& rules = referee.rules();
    j["last"] = {{"ply", m.ply},
                 {"notation", m.move.notation},
                 {"from", m.move.from >= 0 ? nlohmann::json(rules.site_name(m.move.from)) : nlohmann::json(nullptr)},
                 {"to", m.move.to >= 0 ? nlohmann::json(rules.site_name(m.move.to)) : nlohmann::json(nullptr)}};
  } else {
    j["last"] = nullptr;
  }
  return j;
}

BoardPublisher::BoardPublisher(MqttOptions mqtt, PublisherOptions options, const std::vector<nlohmann::json>& recorded)
    : options_(std::move(options)) {
  check_event_id(options_.event);
  check_board_number(options_.board, "--board");
  std::optional<Sidecar> sidecar;
  if (!options_.sidecar_path.empty()) sidecar = read_sidecar(options_.sidecar_path);
  // A sidecar without the journal's events belongs to another game: start afresh.
  if (sidecar && recorded.empty()) sidecar.reset();
  stream_ = sidecar ? sidecar->stream : new_stream_id();
  const int64_t now = monotonic_us();
  for (const nlohmann::json& e : recorded) events_.push_back({e, now, false});
  if (sidecar) {
    confirmed_prefix_ = std::min<int64_t>(sidecar->confirmed, static_cast<int64_t>(events_.size()));
    for (int64_t i = 0; i < confirmed_prefix_; ++i) events_[static_cast<size_t>(i)].confirmed = true;
    confirmed_count_ = confirmed_prefix_;
  }
  if (!options_.sidecar_path.empty()) {
    std::lock_guard<std::mutex> lock(mutex_);
    save_sidecar_locked(true);
  }

  mqtt.will = LastWill{board_topic(options_.event, options_.board, TopicKind::Status),
                       status_message(options_.board, stream_, false, "connection lost"), 1, true};
  MqttClient::Callbacks callbacks;
  callbacks.connected = [this](bool) { on_connected(); };
  callbacks.disconnected = [this](int) { on_disconnected(); };
  callbacks.acknowledged = [this](int mid) { on_acknowledged(mid); };
  callbacks.message = [this](const std::string& topic, const std::string& payload, bool) { on_message(topic, payload); };
  const int board = options_.board;
  callbacks.log = [board](const std::string& line) { std::cerr << "referee board " << board << ": " << line << "\n"; };
  client_ = std::make_unique<MqttClient>(std::move(mqtt), std::move(callbacks));
  client_->add_subscription(board_topic(options_.event, options_.board, TopicKind::Resend));
}

BoardPublisher::~BoardPublisher() {
  if (client_) client_->stop();
  if (sidecar_fd_ >= 0) ::close(sidecar_fd_);
}

void BoardPublisher::start(nlohmann::json state) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    state_payload_ = state.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  client_->start();
}

void BoardPublisher::publish(const std::vector<arbiter::Event>& events, nlohmann::json state) {
  std::lock_guard<std::mutex> lock(mutex_);
  const int64_t now = monotonic_us();
  bool game_ended = false;
  for (const arbiter::Event& e : events) {
    if (!journaled(e)) continue;
    events_.push_back({arbiter::to_json(e), now, false});
    if (e.type == arbiter::EventType::GameOver || e.type == arbiter::EventType::MatchOver) game_ended = true;
    send_event_locked(static_cast<int64_t>(events_.size()));
  }
  state["board"] = options_.board;
  state["seq"] = static_cast<int64_t>(events_.size());
  state["stream"] = stream_;
  state_payload_ = state.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  send_state_locked();
  if (game_ended) {
    record_published_ = true;
    send_record_locked();
  }
  save_sidecar_locked(false);
}

void BoardPublisher::send_event_locked(int64_t seq) {
  const Pending& p = events_[static_cast<size_t>(seq - 1)];
  auto mid = client_->publish(board_topic(options_.event, options_.board, TopicKind::Events),
                              event_message(options_.board, stream_, seq, p.event, p.announced_us), 1, false);
  if (!mid) return;  // not connected: on_connected sends it
  inflight_[*mid] = seq;
  ++publications_;
}

void BoardPublisher::send_state_locked() {
  if (state_payload_.empty()) return;
  auto mid = client_->publish(board_topic(options_.event, options_.board, TopicKind::State), state_payload_, 1, true);
  if (mid) inflight_[*mid] = 0;
}

void BoardPublisher::send_record_locked() {
  nlohmann::json list = nlohmann::json::array();
  for (size_t i = 0; i < events_.size(); ++i)
    list.push_back({{"seq", static_cast<int64_t>(i + 1)}, {"event", events_[i].event}});
  nlohmann::json record = {{"board", options_.board}, {"stream", stream_}, {"events", std::move(list)}};
  auto mid = client_->publish(board_topic(options_.event, options_.board, TopicKind::Record),
                              record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), 1, true);
  if (mid) inflight_[*mid] = 0;
}

void BoardPublisher::on_connected() {
  std::lock_guard<std::mutex> lock(mutex_);
  // What was in flight on the lost connection is sent again below, with new ids.
  inflight_.clear();
  auto mid = client_->publish(board_topic(options_.event, options_.board, TopicKind::Status),
                              status_message(options_.board, stream_, !stopping_, stopping_ ? "stopped" : "online"), 1,
                              true);
  if (mid) inflight_[*mid] = 0;
  send_state_locked();
  if (record_published_) send_record_locked();
  for (size_t i = 0; i < events_.size(); ++i)
    if (!events_[i].confirmed) send_event_locked(static_cast<int64_t>(i + 1));
}

void BoardPublisher::on_disconnected() {
  std::lock_guard<std::mutex> lock(mutex_);
  inflight_.clear();
  confirmed_cv_.notify_all();
}

void BoardPublisher::on_acknowledged(int mid) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = inflight_.find(mid);
  if (it == inflight_.end()) {
    // A message of a lost connection that the MQTT library sent again after this connection's own: when it was
    // a retained state or record, the broker now keeps that older copy (a hall subscribing later would never
    // hear of the events after it). The current ones go again, after it.
    send_state_locked();
    if (record_published_) send_record_locked();
    return;
  }
  const int64_t seq = it->second;
  inflight_.erase(it);
  if (seq > 0 && !events_[static_cast<size_t>(seq - 1)].confirmed) {
    events_[static_cast<size_t>(seq - 1)].confirmed = true;
    ++confirmed_count_;
    while (confirmed_prefix_ < static_cast<int64_t>(events_.size()) &&
           events_[static_cast<size_t>(confirmed_prefix_)].confirmed)
      ++confirmed_prefix_;
  }
  confirmed_cv_.notify_all();
}

void BoardPublisher::on_message(const std::string& topic, const std::string& payload) {
  if (topic != board_topic(options_.event, options_.board, TopicKind::Resend)) return;
  ResendRequest request;
  try {
    request = parse_resend_request(payload);
  } catch (const InputError& e) {
    std::cerr << "referee board " << options_.board << ": ignored a " << e.what() << "\n";
    return;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (request.stream != stream_) return;  // for an earlier run of this board
  const auto now = std::chrono::steady_clock::now();
  if (request.from >= last_resend_from_ && now - last_resend_ < options_.resend_interval) return;
  last_resend_ = now;
  last_resend_from_ = request.from;
  ++resend_requests_;
  for (int64_t seq = request.from; seq <= static_cast<int64_t>(events_.size()); ++seq) send_event_locked(seq);
  send_state_locked();
}

bool BoardPublisher::wait_confirmed(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mutex_);
  const auto until = std::chrono::steady_clock::now() + timeout;
  bool all = confirmed_cv_.wait_until(lock, until, [this] {
    return confirmed_count_ == static_cast<int64_t>(events_.size()) && (!stopping_ || inflight_.empty());
  });
  save_sidecar_locked(true);
  return all;
}

bool BoardPublisher::stop(std::chrono::milliseconds linger) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return confirmed_count_ == static_cast<int64_t>(events_.size());
    stopping_ = true;
    record_published_ = true;
    send_record_locked();
    auto mid = client_->publish(board_topic(options_.event, options_.board, TopicKind::Status),
                                status_message(options_.board, stream_, false, "stopped"), 1, true);
    if (mid) inflight_[*mid] = 0;
  }
  bool all = wait_confirmed(linger);
  client_->stop();
  std::lock_guard<std::mutex> lock(mutex_);
  save_sidecar_locked(true);
  return all;
}

BoardPublisher::Stats BoardPublisher::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  Stats s;
  s.events = static_cast<int64_t>(events_.size());
  s.confirmed = confirmed_count_;
  s.publications = publications_;
  s.resend_requests = resend_requests_;
  s.connects = client_->connects();
  return s;
}

void BoardPublisher::save_sidecar_locked(bool force) {
  if (options_.sidecar_path.empty() || confirmed_prefix_ == saved_prefix_) return;
  const auto now = std::chrono::steady_clock::now();
  if (!force && now - last_save_ < std::chrono::seconds(1)) return;
  try {
    const Sidecar s{stream_, confirmed_prefix_};
    if (sidecar_fd_ < 0) {
      write_sidecar(options_.sidecar_path, s);
      sidecar_fd_ = ::open(options_.sidecar_path.c_str(), O_WRONLY | O_CLOEXEC);
      if (sidecar_fd_ < 0) throw std::runtime_error("cannot open '" + options_.sidecar_path + "'");
    } else {
      // Later counts overwrite the line in place: no new file per save (a rename a
      // second per board made the file system the busiest part of a 200-board hall).
      const std::string line = sidecar_line(s);
      if (::pwrite(sidecar_fd_, line.data(), line.size(), 0) != static_cast<ssize_t>(line.size()))
        throw std::runtime_error("cannot write '" + options_.sidecar_path + "'");
    }
    saved_prefix_ = confirmed_prefix_;
    last_save_ = now;
  } catch (const std::exception& e) {
    // Only an optimisation: without it a restart sends more again.
    std::cerr << "referee board " << options_.board << ": " << e.what() << "\n";
  }
}

}  // namespace sb::hall
