#include "hall/topics.h"

#include <cctype>
#include <chrono>
#include <climits>
#include <cstdio>
#include <random>

#include "arbiter/event.h"
#include "engines/common/errors.h"

namespace sb::hall {

namespace {

constexpr const char* kRoot = "smartboard/";

// nlohmann's parser is iterative, but printing and comparing recurse: a payload
// nested deeper than any message of ours is refused before it is parsed.
void check_nesting(const std::string& payload, const std::string& what) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (char c : payload) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '{' || c == '[') {
      if (++depth > 32) throw InputError(what + ": nested deeper than 32 levels");
    } else if (c == '}' || c == ']') --depth;
  }
}

nlohmann::json parse_object(const std::string& payload, size_t max_bytes, const std::string& what) {
  if (payload.size() > max_bytes)
    throw InputError(what + ": " + std::to_string(payload.size()) + " bytes, more than the " +
                     std::to_string(max_bytes) + " allowed");
  check_nesting(payload, what);
  nlohmann::json j = nlohmann::json::parse(payload, nullptr, false);
  if (j.is_discarded()) throw InputError(what + ": not JSON");
  if (!j.is_object()) throw InputError(what + ": expected a JSON object, got " + std::string(j.type_name()));
  return j;
}

int64_t int_field(const nlohmann::json& j, const char* key, const std::string& what, int64_t min, int64_t max) {
  auto it = j.find(key);
  if (it == j.end()) throw InputError(what + ": \"" + key + "\" is missing");
  if (!it->is_number_integer()) throw InputError(what + ": \"" + key + "\" must be an integer");
  int64_t v = it->get<int64_t>();
  if (v < min || v > max)
    throw InputError(what + ": \"" + key + "\" " + std::to_string(v) + " is out of " + std::to_string(min) + ".." +
                     std::to_string(max));
  return v;
}

std::string stream_field(const nlohmann::json& j, const std::string& what, bool required = true) {
  auto it = j.find("stream");
  if (it == j.end()) {
    if (!required) return "";
    throw InputError(what + ": \"stream\" is missing");
  }
  if (!it->is_string() || !valid_stream_id(it->get<std::string>()))
    throw InputError(what + ": \"stream\" is not a stream id");
  return it->get<std::string>();
}

int board_field(const nlohmann::json& j, int topic_board, const std::string& what) {
  int board = static_cast<int>(int_field(j, "board", what, 1, kMaxBoard));
  if (board != topic_board)
    throw InputError(what + ": says board " + std::to_string(board) + " on the topic of board " +
                     std::to_string(topic_board));
  return board;
}

nlohmann::json checked_event(const nlohmann::json& event, const std::string& what) {
  if (!event.is_object()) throw InputError(what + ": \"event\" must be an object");
  try {
    arbiter::Event e = arbiter::event_from_json(event);
    if (e.type == arbiter::EventType::Move && e.notation.empty()) throw InputError("a move without notation");
    if (e.ply < 0 || e.ply > 100000) throw InputError("ply " + std::to_string(e.ply) + " out of range");
  } catch (const InputError& e) {
    throw InputError(what + ": " + e.what());
  }
  return event;
}

EventMessage event_from(const nlohmann::json& j, int topic_board, const std::string& what, bool board_required) {
  EventMessage m;
  m.board = board_required ? board_field(j, topic_board, what) : topic_board;
  m.stream = board_required ? stream_field(j, what) : "";
  m.seq = int_field(j, "seq", what, 1, int64_t{1} << 40);
  if (j.contains("sent_us")) m.sent_us = int_field(j, "sent_us", what, 0, INT64_MAX);
  auto it = j.find("event");
  if (it == j.end()) throw InputError(what + ": \"event\" is missing");
  m.event = checked_event(*it, what + " seq " + std::to_string(m.seq));
  return m;
}

}  // namespace

const char* to_string(TopicKind k) {
  switch (k) {
    case TopicKind::Events: return "events";
    case TopicKind::State: return "state";
    case TopicKind::Status: return "status";
    case TopicKind::Record: return "record";
    case TopicKind::Resend: return "resend";
  }
  return "events";
}

void check_event_id(const std::string& id) {
  if (id.empty() || id.size() > 64) throw InputError("--event '" + id + "': expected 1 to 64 characters");
  for (char c : id)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-'))
      throw InputError("--event '" + id + "': only letters, digits, '_', '.' and '-' may be used");
}

void check_board_number(int board, const std::string& what) {
  if (board < 1 || board > kMaxBoard)
    throw InputError(what + ": board " + std::to_string(board) + " is out of 1.." + std::to_string(kMaxBoard));
}

std::string board_topic(const std::string& event, int board, TopicKind kind) {
  return kRoot + event + "/board/" + std::to_string(board) + "/" + to_string(kind);
}

std::string all_boards_topic(const std::string& event, TopicKind kind) {
  return kRoot + event + "/board/+/" + to_string(kind);
}

std::optional<BoardTopic> parse_board_topic(const std::string& event, const std::string& topic) {
  const std::string prefix = kRoot + event + "/board/";
  if (topic.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
  const size_t slash = topic.find('/', prefix.size());
  if (slash == std::string::npos) return std::nullopt;
  const std::string number = topic.substr(prefix.size(), slash - prefix.size());
  if (number.empty() || number.size() > 4 || number.find_first_not_of("0123456789") != std::string::npos ||
      number[0] == '0')
    return std::nullopt;
  BoardTopic t;
  t.board = std::stoi(number);
  const std::string kind = topic.substr(slash + 1);
  if (kind == "events") t.kind = TopicKind::Events;
  else if (kind == "state") t.kind = TopicKind::State;
  else if (kind == "status") t.kind = TopicKind::Status;
  else if (kind == "record") t.kind = TopicKind::Record;
  else if (kind == "resend") t.kind = TopicKind::Resend;
  else return std::nullopt;
  return t;
}

std::string new_stream_id() {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
  std::random_device rd;
  const uint64_t r = (static_cast<uint64_t>(rd()) << 32) ^ rd();
  char buf[64];
  std::snprintf(buf, sizeof buf, "%011llx-%016llx", static_cast<unsigned long long>(ms), static_cast<unsigned long long>(r));
  return buf;
}

bool valid_stream_id(const std::string& s) {
  const auto dash = s.find('-');
  if (dash == std::string::npos || dash == 0 || dash > 16 || s.size() - dash - 1 == 0 || s.size() - dash - 1 > 16)
    return false;
  for (size_t i = 0; i < s.size(); ++i)
    if (i != dash && !std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

bool stream_newer(const std::string& a, const std::string& b) {
  auto start = [](const std::string& s) { return std::stoull(s.substr(0, s.find('-')), nullptr, 16); };
  const auto sa = start(a), sb = start(b);
  if (sa != sb) return sa > sb;
  return a > b;
}

int64_t monotonic_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

EventMessage parse_event_message(const std::string& payload, int topic_board) {
  const std::string what = "board " + std::to_string(topic_board) + " event message";
  nlohmann::json j = parse_object(payload, kMaxEventBytes, what);
  return event_from(j, topic_board, what, true);
}

std::string event_message(int board, const std::string& stream, int64_t seq, const nlohmann::json& event,
                          int64_t sent_us) {
  nlohmann::json j = {{"board", board}, {"stream", stream}, {"seq", seq}, {"sent_us", sent_us}, {"event", event}};
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

StateMessage parse_state_message(const std::string& payload, int topic_board) {
  const std::string what = "board " + std::to_string(topic_board) + " state message";
  StateMessage m;
  m.state = parse_object(payload, kMaxStateBytes, what);
  m.board = board_field(m.state, topic_board, what);
  m.stream = stream_field(m.state, what);
  m.seq = int_field(m.state, "seq", what, 0, int64_t{1} << 40);
  auto game = m.state.find("game");
  if (game == m.state.end() || !game->is_string()) throw InputError(what + ": \"game\" must be a game id");
  for (const char* key : {"fen", "phase", "result", "reason"}) {
    auto it = m.state.find(key);
    if (it != m.state.end() && !it->is_string()) throw InputError(what + ": \"" + std::string(key) + "\" must be a string");
  }
  if (auto it = m.state.find("score"); it != m.state.end()) {
    if (!it->is_object()) throw InputError(what + ": \"score\" must be an object of side to points");
    for (auto& [side, points] : it->items())
      if (!points.is_number_integer()) throw InputError(what + ": score of '" + side + "' is not an integer");
  }
  if (m.state.contains("ply")) int_field(m.state, "ply", what, 0, 100000);
  return m;
}

StatusMessage parse_status_message(const std::string& payload, int topic_board) {
  const std::string what = "board " + std::to_string(topic_board) + " status message";
  nlohmann::json j = parse_object(payload, 4096, what);
  StatusMessage m;
  m.board = board_field(j, topic_board, what);
  m.stream = stream_field(j, what, false);
  auto online = j.find("online");
  if (online == j.end() || !online->is_boolean()) throw InputError(what + ": \"online\" must be true or false");
  m.online = online->get<bool>();
  if (auto r = j.find("reason"); r != j.end()) {
    if (!r->is_string()) throw InputError(what + ": \"reason\" must be a string");
    m.reason = r->get<std::string>();
  }
  return m;
}

std::string status_message(int board, const std::string& stream, bool online, const std::string& reason) {
  nlohmann::json j = {{"board", board}, {"online", online}, {"reason", reason}};
  if (!stream.empty()) j["stream"] = stream;
  return j.dump();
}

RecordMessage parse_record_message(const std::string& payload, int topic_board) {
  const std::string what = "board " + std::to_string(topic_board) + " record message";
  nlohmann::json j = parse_object(payload, kMaxRecordBytes, what);
  RecordMessage m;
  m.board = board_field(j, topic_board, what);
  m.stream = stream_field(j, what);
  auto events = j.find("events");
  if (events == j.end() || !events->is_array()) throw InputError(what + ": \"events\" must be an array");
  int64_t expected = 1;
  for (const nlohmann::json& item : *events) {
    if (!item.is_object()) throw InputError(what + ": event " + std::to_string(expected) + " is not an object");
    EventMessage e = event_from(item, topic_board, what, false);
    if (e.seq != expected)
      throw InputError(what + ": events must be numbered 1, 2, 3 …; found seq " + std::to_string(e.seq) +
                       " where " + std::to_string(expected) + " belongs");
    e.board = m.board;
    e.stream = m.stream;
    m.events.push_back(std::move(e));
    ++expected;
  }
  return m;
}

ResendRequest parse_resend_request(const std::string& payload) {
  const std::string what = "resend request";
  nlohmann::json j = parse_object(payload, 1024, what);
  ResendRequest r;
  r.stream = stream_field(j, what);
  r.from = int_field(j, "from", what, 1, int64_t{1} << 40);
  return r;
}

std::string resend_request(const std::string& stream, int64_t from) {
  return nlohmann::json{{"stream", stream}, {"from", from}}.dump();
}

}  // namespace sb::hall
